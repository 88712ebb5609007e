// augment --random --degrees: an angle per draw, uniform, a pure function of (seed, path, draw), recorded in
// the manifest, and each output the library's rotate() of its element's result.

#include "augment_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include "augment/random_draw.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/rotate.hpp>

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace {

using gpurotate::Orientation;
using test_support::file_bytes;
using test_support::quote;
using test_support::run;
using test_support::TempDir;

const std::string exe = quote(GPUROTATE_EXE);

}  // namespace

TEST_CASE("augment --degrees: 10,000 angles over paths and draws are uniform from -MAX to MAX (chi-square, p > 1e-6)") {
    constexpr int bins = 10, draws = 10000;
    std::vector<int> counts(bins, 0);
    for (int i = 0; i < draws; ++i) {
        const double a = gpurotate::augment::draw_angle(15.0, 3, "img" + std::to_string(i % 997) + ".png", static_cast<std::uint64_t>(i / 997));
        REQUIRE(a >= -15.0);
        REQUIRE(a < 15.0);
        ++counts[static_cast<std::size_t>((a + 15.0) / 3.0)];
    }
    double chi2 = 0;
    for (int c : counts) chi2 += (c - draws / bins) * (c - draws / bins) / double(draws / bins);
    CHECK(chi2 < 41.3);  // 9 degrees of freedom: P(chi2 > 41.3) < 1e-6
    // A pure function of (seed, path, draw): the same again, another for another key.
    CHECK(gpurotate::augment::draw_angle(15.0, 3, "a.png", 0) == gpurotate::augment::draw_angle(15.0, 3, "a.png", 0));
    CHECK(gpurotate::augment::draw_angle(15.0, 3, "a.png", 0) != gpurotate::augment::draw_angle(15.0, 4, "a.png", 0));
}

TEST_CASE("augment --random --degrees 15 --seed 3: the same bytes with -j 1, -j 2 and two shards, each output its element then its angle") {
    TempDir dir;
    const auto images = augment_support::make_dataset(dir.file("in"), 6, 23, 11);
    const std::string base = exe + " augment " + quote(dir.file("in")) + " -r -q --device cpu --random 2 --seed 3 --degrees 15 --interpolate bicubic";
    REQUIRE(run(base + " -j 1 -o " + quote(dir.file("one"))).status == 0);
    REQUIRE(run(base + " -j 2 -o " + quote(dir.file("two"))).status == 0);
    REQUIRE(run(base + " --shard 0/2 -o " + quote(dir.file("shards")) + " --manifest " + quote(dir.file("m0.jsonl"))).status == 0);
    REQUIRE(run(base + " --shard 1/2 -o " + quote(dir.file("shards")) + " --manifest " + quote(dir.file("m1.jsonl"))).status == 0);
    const auto records = augment_support::records_of(dir.file("one/manifest.jsonl"));
    REQUIRE(records.size() == 12);
    std::map<std::string, gpurotate::Image> sources;
    for (const auto& image : images) sources[image.relative] = image.pixels;
    for (const auto& r : records) {
        CAPTURE(r.file);
        REQUIRE(r.ok);
        REQUIRE(r.angle.has_value());
        CHECK(*r.angle >= -15.0);
        CHECK(*r.angle < 15.0);
        CHECK(file_bytes(dir.file("two/" + r.file)) == file_bytes(dir.file("one/" + r.file)));
        CHECK(file_bytes(dir.file("shards/" + r.file)) == file_bytes(dir.file("one/" + r.file)));
        // The element's pixels rotated by the recorded angle, as the library rotates them.
        const std::string relative = r.input.substr(dir.file("in").size() + 1);
        gpurotate::RotateOptions options;
        options.degrees = *r.angle;
        options.interpolation = gpurotate::Interpolation::bicubic;
        const auto element = gpurotate::parse_orientation(r.operation);
        REQUIRE(element.has_value());
        const gpurotate::Image expected = gpurotate::rotate(reference::transform(sources.at(relative), *element), options, gpurotate::Backend::cpu);
        const gpurotate::Image written = gpurotate::read_image(dir.file("one/" + r.file));
        REQUIRE(written.width() == expected.width());
        REQUIRE(written.height() == expected.height());
        CHECK(test_support::first_difference(written.view(), expected.view()) == -1);
    }
    // --resume with another --degrees would draw other angles: refused.
    const auto other = run(exe + " augment " + quote(dir.file("in")) + " -r -q --device cpu --random 2 --seed 3 --degrees 10 --interpolate bicubic --resume -o " +
                           quote(dir.file("one")));
    CHECK(other.status == 2);
    CHECK(other.output.find("--degrees") != std::string::npos);
    CHECK(run(exe + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("x")) + " --degrees 15").status == 2);  // needs --random
}
