// The group D4: composition against a hand-written Cayley table, inverses, identities, sizes, names.

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/orientation.hpp>

#include <doctest/doctest.h>

using gpurotate::Orientation;

namespace {
constexpr Orientation id = Orientation::identity, r90 = Orientation::rot90, r180 = Orientation::rot180,
                      r270 = Orientation::rot270, fh = Orientation::flip_h, fv = Orientation::flip_v,
                      tp = Orientation::transpose, tv = Orientation::transverse;

// cayley[a][b] is "a, then b". Rows and columns in the order id r90 r180 r270 fh fv tp tv. Worked out by
// following the top-left corner and the orientation of the image through both steps, e.g. rot90 then
// flip-h keeps the top-left corner in place and mirrors across the diagonal: a transpose.
constexpr Orientation cayley[8][8] = {
    {id, r90, r180, r270, fh, fv, tp, tv},   // id
    {r90, r180, r270, id, tp, tv, fv, fh},   // r90
    {r180, r270, id, r90, fv, fh, tv, tp},   // r180
    {r270, id, r90, r180, tv, tp, fh, fv},   // r270
    {fh, tv, fv, tp, id, r180, r270, r90},   // fh
    {fv, tp, fh, tv, r180, id, r90, r270},   // fv
    {tp, fh, tv, fv, r90, r270, id, r180},   // tp
    {tv, fv, tp, fh, r270, r90, r180, id},   // tv
};
}  // namespace

TEST_CASE("all 64 compositions match the Cayley table") {
    for (int a = 0; a < 8; ++a) {
        for (int b = 0; b < 8; ++b) {
            CAPTURE(a);
            CAPTURE(b);
            CHECK(gpurotate::then(gpurotate::all_orientations[a], gpurotate::all_orientations[b]) == cayley[a][b]);
        }
    }
}

TEST_CASE("composition agrees with applying the reference twice, on a non-square image") {
    const gpurotate::Image image = test_support::random_image(5, 3, {gpurotate::SampleType::u8, 1}, 7);
    for (Orientation a : gpurotate::all_orientations) {
        for (Orientation b : gpurotate::all_orientations) {
            const gpurotate::Image twice = reference::transform(reference::transform(image, a), b);
            const gpurotate::Image once = reference::transform(image, gpurotate::then(a, b));
            CAPTURE(gpurotate::name(a));
            CAPTURE(gpurotate::name(b));
            CHECK(test_support::first_difference(twice.view(), once.view()) == -1);
        }
    }
}

TEST_CASE("group laws") {
    CHECK(gpurotate::then(gpurotate::then(r90, r90), gpurotate::then(r90, r90)) == id);
    CHECK(gpurotate::then(fh, fh) == id);
    CHECK(gpurotate::then(fv, fv) == id);
    CHECK(gpurotate::then(r90, fh) == tp);   // our convention: rotate, then mirror, is a transpose
    CHECK(gpurotate::then(fh, fv) == r180);
    CHECK(gpurotate::then(r90, fv) == tv);
    for (Orientation a : gpurotate::all_orientations) {
        CHECK(gpurotate::then(a, gpurotate::inverse(a)) == id);
        CHECK(gpurotate::then(gpurotate::inverse(a), a) == id);
        CHECK(gpurotate::from_axis_map(gpurotate::axis_map(a)) == a);
        for (Orientation b : gpurotate::all_orientations) {
            for (Orientation c : gpurotate::all_orientations) {
                CHECK(gpurotate::then(gpurotate::then(a, b), c) == gpurotate::then(a, gpurotate::then(b, c)));
            }
        }
    }
    CHECK(gpurotate::inverse(r90) == r270);
    CHECK(gpurotate::inverse(tp) == tp);
    CHECK(gpurotate::inverse(tv) == tv);
}

TEST_CASE("output sizes") {
    const gpurotate::Extent in{640, 480};
    for (Orientation o : {r90, r270, tp, tv}) CHECK(gpurotate::output_extent(o, in) == gpurotate::Extent{480, 640});
    for (Orientation o : {id, r180, fh, fv}) CHECK(gpurotate::output_extent(o, in) == gpurotate::Extent{640, 480});
}

TEST_CASE("source_of follows the operations' definitions") {
    const gpurotate::Extent in{4, 3};  // W = 4, H = 3
    auto src = [&](Orientation o, std::int64_t x, std::int64_t y) {
        const auto p = gpurotate::source_of(gpurotate::axis_map(o), in, x, y);
        return std::make_pair(p.x, p.y);
    };
    CHECK(src(r90, 0, 0) == std::make_pair<std::int64_t, std::int64_t>(0, 2));  // clockwise: bottom-left goes top-left
    CHECK(src(r270, 0, 0) == std::make_pair<std::int64_t, std::int64_t>(3, 0));  // top-right goes top-left
    CHECK(src(tv, 0, 0) == std::make_pair<std::int64_t, std::int64_t>(3, 2));
    CHECK(src(tp, 2, 1) == std::make_pair<std::int64_t, std::int64_t>(1, 2));
}

TEST_CASE("names round-trip and unknown names are refused") {
    for (Orientation o : gpurotate::all_orientations) CHECK(gpurotate::parse_orientation(gpurotate::name(o)) == o);
    CHECK(gpurotate::name(fh) == "flip-h");
    CHECK_FALSE(gpurotate::parse_orientation("rot45").has_value());
}
