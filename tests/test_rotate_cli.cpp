// `--rotate DEG` through the executable: a multiple of 90 is the D4 element's bytes (a JPEG's lossless
// ones), another angle the library's rotate() of the element's result, and what cannot be an angle is a
// usage error. The library's bytes are checked against OpenCV in test_rotate_cpu.cpp.

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/rotate.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <string>

namespace {

using gpurotate::Orientation;
using test_support::file_bytes;
using test_support::quote;
using test_support::run;
using test_support::TempDir;

const std::string exe = quote(GPUROTATE_EXE);

}  // namespace

TEST_CASE("--rotate: 90, 450 and -270 are --rot90's bytes, lossless for a JPEG, and -90 is --rot270's") {
    TempDir dir;
    for (const char* sample : {"rocket.jpg", "astronaut.png"}) {
        CAPTURE(sample);
        // rocket.jpg's sides are not whole MCUs: --jpeg-edge trim keeps both commands lossless.
        const std::string in = quote(std::string(GPUROTATE_SAMPLES) + "/" + sample) + " --jpeg-edge trim",
                          ext = std::string(sample).substr(std::string(sample).find('.'));
        REQUIRE(run(exe + " " + in + " --rot90 -o " + quote(dir.file("r90" + ext))).status == 0);
        for (const char* angle : {"90", "450", "-270", "90.0"}) {
            CAPTURE(angle);
            const auto r = run(exe + " " + in + " --rotate " + angle + " -o " + quote(dir.file(std::string("a") + angle + ext)));
            INFO(r.output);
            REQUIRE(r.status == 0);
            CHECK(file_bytes(dir.file(std::string("a") + angle + ext)) == file_bytes(dir.file("r90" + ext)));
            CHECK(r.output.find("re-encoded") == std::string::npos);
        }
        REQUIRE(run(exe + " " + in + " --rot270 -o " + quote(dir.file("r270" + ext))).status == 0);
        REQUIRE(run(exe + " " + in + " --rotate -90 -o " + quote(dir.file("m90" + ext))).status == 0);
        CHECK(file_bytes(dir.file("m90" + ext)) == file_bytes(dir.file("r270" + ext)));
    }
}

TEST_CASE("--rotate by another angle: the library's rotate() of the flags before it, turned by the flags after it") {
    TempDir dir;
    const std::string sample = std::string(GPUROTATE_SAMPLES) + "/astronaut.png";
    const gpurotate::Image source = gpurotate::read_image(sample);
    struct Case {
        const char* args;
        Orientation before, after;
        double degrees;
        gpurotate::Interpolation interpolation;
        bool keep_size;
    };
    const Case cases[] = {
        {"--rotate 7.5", Orientation::identity, Orientation::identity, 7.5, gpurotate::Interpolation::bilinear, false},
        {"--rotate -30 --interpolate bicubic --keep-size", Orientation::identity, Orientation::identity, -30, gpurotate::Interpolation::bicubic, true},
        {"--flip-h --rotate 45 --interpolate nearest", Orientation::flip_h, Orientation::identity, 45, gpurotate::Interpolation::nearest, false},
        {"--rot90 --rotate 1000 --transpose", Orientation::rot90, Orientation::transpose, 1000, gpurotate::Interpolation::bilinear, false},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const auto r = run(exe + " " + quote(sample) + " " + c.args + " -o " + quote(dir.file("out.png")) + " --overwrite");
        INFO(r.output);
        REQUIRE(r.status == 0);
        gpurotate::RotateOptions options;
        options.degrees = c.degrees;
        options.interpolation = c.interpolation;
        options.keep_size = c.keep_size;
        const gpurotate::Image expected =
            reference::transform(gpurotate::rotate(reference::transform(source, c.before), options, gpurotate::Backend::cpu), c.after);
        const gpurotate::Image written = gpurotate::read_image(dir.file("out.png"));
        REQUIRE(written.width() == expected.width());
        REQUIRE(written.height() == expected.height());
        CHECK(test_support::first_difference(written.view(), expected.view()) == -1);
    }
}

TEST_CASE("--rotate: what is not an angle is a usage error, and --interpolate without one a warning") {
    TempDir dir;
    const std::string in = quote(std::string(GPUROTATE_SAMPLES) + "/astronaut.png"), out = quote(dir.file("o.png"));
    for (const char* bad : {"nan", "inf", "-inf", "seven", "7.5deg", "''"}) {
        CAPTURE(bad);
        const auto r = run(exe + " " + in + " --rotate " + bad + " -o " + out);
        CHECK(r.status == 2);
        CHECK(r.output.find("--rotate") != std::string::npos);
    }
    const auto two = run(exe + " " + in + " --rotate 7.5 --rotate 3 -o " + out);
    CHECK(two.status == 2);
    CHECK_FALSE(test_support::file_exists(dir.file("o.png")));
    const auto unused = run(exe + " " + in + " --rot90 --interpolate bicubic -o " + out);
    CHECK(unused.status == 0);
    CHECK(unused.output.find("warning: --interpolate") != std::string::npos);
    for (const char* refused : {"--rotate 0x10", "--rotate 30 --jpeg-edge error", "--rotate 30 --nvjpeg"}) {
        CAPTURE(refused);
        CHECK(run(exe + " " + in + " " + refused + " -o " + quote(dir.file("r.jpg"))).status == 2);
    }
}

TEST_CASE("--rotate: -i turns the file, --flatten's corners are the colour it composed over, and a side of 32767 is refused") {
    TempDir dir;
    const std::string copy = dir.file("in-place.png");
    REQUIRE(run("cp " + quote(std::string(GPUROTATE_SAMPLES) + "/astronaut.png") + " " + quote(copy)).status == 0);
    const gpurotate::Image before = gpurotate::read_image(copy);
    REQUIRE(run(exe + " " + quote(copy) + " --rotate 30 -i").status == 0);
    const gpurotate::Image after = gpurotate::read_image(copy);
    gpurotate::RotateOptions options;
    options.degrees = 30;
    CHECK(after.width() == gpurotate::rotated_extent({before.width(), before.height()}, options).width);
    // An RGBA image flattened into a JPEG: its corners white, not black.
    gpurotate::Image rgba(31, 17, {gpurotate::SampleType::u8, 4});
    for (std::int64_t y = 0; y < rgba.height(); ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(rgba.view().row(y));
        for (std::int64_t i = 0; i < rgba.width() * 4; ++i) row[i] = (i % 4 == 3) ? 128 : 40;
    }
    gpurotate::write_image(dir.file("a.png"), rgba.view());
    REQUIRE(run(exe + " " + quote(dir.file("a.png")) + " --rotate 30 --flatten --interpolate nearest -o " + quote(dir.file("f.png"))).status == 0);
    const gpurotate::Image flat = gpurotate::read_image(dir.file("f.png"));
    REQUIRE(flat.format().channels == 3);
    CHECK(std::to_integer<int>(flat.view().row(0)[0]) == 255);
    // 40000 pixels across: refused, naming the file, before anything is written.
    gpurotate::Image wide(40000, 2, {gpurotate::SampleType::u8, 1});
    std::memset(wide.view().data, 7, static_cast<std::size_t>(wide.view().pitch) * 2);
    gpurotate::write_image(dir.file("wide.png"), wide.view());
    const auto refused = run(exe + " " + quote(dir.file("wide.png")) + " --rotate 1 -o " + quote(dir.file("w.png")));
    CHECK(refused.status == 3);
    CHECK(refused.output.find("wide.png") != std::string::npos);
    CHECK(refused.output.find("32767") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("w.png")));
}
