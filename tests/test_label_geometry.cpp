// The decimal arithmetic and the point map every label format uses, against the per-element formulas
// written out here (not derived from orientation.hpp).

#include "labels/decimal_text.hpp"
#include "labels/label_geometry.hpp"

#include "label_reference.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <tuple>

using gpurotate::Orientation;
using namespace gpurotate::labels;

namespace {

Decimal d(const char* text) { return *Decimal::parse(text); }

// Where (x, y) goes in an image spanning [0, W] x [0, H], written per element (in binary, so compared
// within rounding; the decimal case above checks the digits).
std::pair<double, double> expected_point(Orientation o, double x, double y, double W, double H) {
    return label_reference::point(o, x, y, W, H);
}

}  // namespace

TEST_CASE("decimal label values: parsed and written with their own number of places") {
    CHECK(d("0.50").text() == "0.50");
    CHECK(d("12").text() == "12");
    CHECK(d("-0.25").text() == "-0.25");
    CHECK(d("1e-3").text() == "0.001");
    CHECK(d("4.5E+2").text() == "450");
    CHECK(d(".5").text() == "0.5");
    CHECK(d("+7.").text() == "7");
    CHECK((Decimal::integer(1) - d("0.1234")).text() == "0.8766");
    CHECK((Decimal::integer(1) - d("1")).text() == "0");
    CHECK((Decimal::integer(1) - d("1.0000001")).text() == "-0.0000001");
    CHECK((Decimal::integer(640) - d("0.01")).text() == "639.99");
    CHECK(d("0.5") == d("0.50"));
    CHECK(d("0.4999") < d("0.5"));
    for (const char* bad : {"", "-", ".", "1..2", "0x10", "nan", "inf", "1e", "1e+", "3 ", " 3", "1,5", "1234567890123456789012345678901234567"}) {
        CAPTURE(bad);
        CHECK_FALSE(Decimal::parse(bad).has_value());
    }
}

TEST_CASE("label points: every element against its formula, on a 61x37 image in three coordinate systems") {
    const ImageSize size{61, 37};
    const char* xs[] = {"0", "0.5", "12.25", "60.999", "61"};
    const char* ys[] = {"0", "36.5", "7.125", "37"};
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const ImageSize turned = turned_size(size, o);
        const bool swaps = o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse;
        CHECK(turned.width == (swaps ? 37 : 61));
        CHECK(turned.height == (swaps ? 61 : 37));
        CHECK(reflects(o) == (o == Orientation::flip_h || o == Orientation::flip_v || o == Orientation::transpose || o == Orientation::transverse));
        for (const char* x : xs) {
            for (const char* y : ys) {
                const auto [ex, ey] = expected_point(o, std::stod(x), std::stod(y), 61, 37);
                const auto [px, py] = turn_point(d(x), d(y), pixel_edge_extent(size), o);
                CHECK(px.to_double() == doctest::Approx(ex).epsilon(1e-12));
                CHECK(py.to_double() == doctest::Approx(ey).epsilon(1e-12));
                // 1-based pixels: the same map over [0, W+1].
                const auto [bx, by] = expected_point(o, std::stod(x), std::stod(y), 62, 38);
                const auto [qx, qy] = turn_point(d(x), d(y), one_based_extent(size), o);
                CHECK(qx.to_double() == doctest::Approx(bx).epsilon(1e-12));
                CHECK(qy.to_double() == doctest::Approx(by).epsilon(1e-12));
            }
        }
        const auto [nx, ny] = expected_point(o, 0.25, 0.875, 1, 1);
        const auto [mx, my] = turn_point(d("0.25"), d("0.875"), normalised_extent(), o);
        CHECK(mx.to_double() == nx);
        CHECK(my.to_double() == ny);
    }
}

TEST_CASE("label boxes: corners mapped, then ordered, and four rot90s give back the text") {
    const ImageSize size{61, 37};
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const Box b = turn_box({d("3.5"), d("4"), d("20.25"), d("30")}, pixel_edge_extent(size), o);
        const auto [ax, ay] = expected_point(o, 3.5, 4, 61, 37);
        const auto [bx, by] = expected_point(o, 20.25, 30, 61, 37);
        CHECK(b.x0.to_double() == std::min(ax, bx));
        CHECK(b.y0.to_double() == std::min(ay, by));
        CHECK(b.x1.to_double() == std::max(ax, bx));
        CHECK(b.y1.to_double() == std::max(ay, by));
    }
    Decimal x = d("0.1234"), y = d("0.987650");
    for (int i = 0; i < 4; ++i) std::tie(x, y) = turn_point(x, y, normalised_extent(), Orientation::rot90);
    CHECK(x.text() == "0.1234");
    CHECK(y.text() == "0.987650");
}
