// EXIF orientation and metadata: the 8 orientations made upright by --auto-orient (stored images built
// here from the EXIF specification's own wording, not from gpurotate's table), the tag kept and a warning
// without it, EXIF pixel dimensions swapped with the axes, ICC profiles kept byte for byte from JPEG and
// PNG to JPEG and PNG, and --strip, on the CLI and in augment.

#include "metadata/tiff_directory.hpp"
#include "metadata/xmp_geometry.hpp"
#include "reference.hpp"
#include "exif_support.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <random>

using gpurotate::Orientation;
using gpurotate::SampleType;
using test_support::quote;
using test_support::run;
using test_support::exif_with;
using test_support::pixel_x_at;
using test_support::pixel_y_at;

namespace {

const std::string exe = GPUROTATE_EXE;

std::vector<std::uint8_t> as_bytes(const std::string& s) { return std::vector<std::uint8_t>(s.begin(), s.end()); }

unsigned get16(const std::vector<std::uint8_t>& e, std::size_t at) { return e[at] | e[at + 1] << 8; }

// The stored image of an upright image `u` under EXIF orientation `tag`, by the specification's words:
// which visual side the stored row 0 and column 0 show. Returns stored(sx, sy) = u(vx, vy).
gpurotate::Image stored_for(const gpurotate::Image& u, int tag) {
    const std::int64_t vw = u.width(), vh = u.height();
    const bool swapped = tag >= 5;
    gpurotate::Image s(swapped ? vh : vw, swapped ? vw : vh, u.format());
    const std::size_t px = u.format().pixel_bytes();
    for (std::int64_t sy = 0; sy < s.height(); ++sy) {
        for (std::int64_t sx = 0; sx < s.width(); ++sx) {
            std::int64_t vx = 0, vy = 0;
            switch (tag) {
                case 1: vx = sx, vy = sy; break;                    // row 0 top, column 0 left
                case 2: vx = vw - 1 - sx, vy = sy; break;           // row 0 top, column 0 right
                case 3: vx = vw - 1 - sx, vy = vh - 1 - sy; break;  // row 0 bottom, column 0 right
                case 4: vx = sx, vy = vh - 1 - sy; break;           // row 0 bottom, column 0 left
                case 5: vx = sy, vy = sx; break;                    // row 0 left, column 0 top
                case 6: vx = vw - 1 - sy, vy = sx; break;           // row 0 right, column 0 top
                case 7: vx = vw - 1 - sy, vy = vh - 1 - sx; break;  // row 0 right, column 0 bottom
                case 8: vx = sy, vy = vh - 1 - sx; break;           // row 0 left, column 0 bottom
            }
            std::memcpy(s.view().row(sy) + sx * static_cast<std::int64_t>(px), u.view().row(vy) + vx * static_cast<std::int64_t>(px), px);
        }
    }
    return s;
}

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::uint8_t> v(n);
    for (auto& b : v) b = static_cast<std::uint8_t>(random() >> 24);
    return v;
}

// Writes `image` with `meta` as in.jpg and in.png in `dir`, through the library's own writers.
void write_jpeg_and_png(const test_support::TempDir& dir, const gpurotate::Image& image, const gpurotate::ImageMetadata& meta) {
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.jpg"), image.view(), options);
    gpurotate::write_image(dir.file("in.png"), image.view(), options);
}

}  // namespace

TEST_CASE("--auto-orient makes each of the 8 EXIF orientations upright, in PNG and JPEG, and writes the tag as 1") {
    test_support::TempDir dir;
    const auto upright = test_support::random_image(37, 23, {SampleType::u8, 3}, 17);
    for (int tag = 1; tag <= 8; ++tag) {
        CAPTURE(tag);
        const gpurotate::Image stored = stored_for(upright, tag);
        gpurotate::ImageMetadata meta;
        meta.exif = exif_with(tag, static_cast<std::uint16_t>(stored.width()), static_cast<std::uint16_t>(stored.height()));
        gpurotate::WriteOptions options;
        options.metadata = &meta;
        options.quality = 100;
        const std::string png = dir.file("s" + std::to_string(tag) + ".png"), jpg = dir.file("s" + std::to_string(tag) + ".jpg");
        gpurotate::write_image(png, stored.view(), options);
        gpurotate::write_image(jpg, stored.view(), options);
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(png)) == tag);
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(jpg)) == tag);

        const std::string out = dir.file("u" + std::to_string(tag) + ".png");
        const auto r = run(quote(exe) + " " + quote(png) + " --auto-orient --device cpu -o " + quote(out));
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        CHECK(test_support::first_difference(gpurotate::read_image(out).view(), upright.view()) == -1);
        const auto kept = gpurotate::read_metadata(out);
        CHECK(gpurotate::exif_orientation(kept) == 1);
        // The EXIF pixel dimensions follow the output's axes.
        REQUIRE(kept.exif.size() == 68);
        CHECK(get16(kept.exif, pixel_x_at) == 37);
        CHECK(get16(kept.exif, pixel_y_at) == 23);

        // JPEG: lossy, so the expectation is the decoded stored pixels laid out upright by the same words.
        const std::string out_jpg = dir.file("u" + std::to_string(tag) + "-from-jpg.png");
        REQUIRE(run(quote(exe) + " " + quote(jpg) + " --auto-orient -o " + quote(out_jpg)).status == 0);
        const gpurotate::Image decoded = gpurotate::read_image(jpg);
        const gpurotate::Image got = gpurotate::read_image(out_jpg);
        REQUIRE(got.width() == 37);
        REQUIRE(got.height() == 23);
        // Laid back down by the specification's words, the output is the decoded stored pixels exactly.
        CHECK(test_support::first_difference(stored_for(got, tag).view(), decoded.view()) == -1);
        // An operation after --auto-orient applies to the upright image.
        REQUIRE(run(quote(exe) + " " + quote(png) + " --auto-orient --rot90 --device cpu --overwrite -o " + quote(out)).status == 0);
        CHECK(test_support::first_difference(gpurotate::read_image(out).view(), reference::transform(upright, Orientation::rot90).view()) == -1);
    }
}

TEST_CASE("without --auto-orient the tag is kept and a rotation warns, and --strip writes no metadata") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(20, 10, {SampleType::u8, 3}, 18);
    gpurotate::ImageMetadata meta;
    meta.exif = exif_with(6, 20, 10);
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.png"), image.view(), options);

    const auto rotated = run(quote(exe) + " " + quote(dir.file("in.png")) + " --rot90 -o " + quote(dir.file("r.png")));
    CHECK(rotated.status == 0);
    CHECK(rotated.output.find("warning: '" + dir.file("in.png") + "' has EXIF orientation 6") != std::string::npos);
    const auto kept = gpurotate::read_metadata(dir.file("r.png"));
    CHECK(gpurotate::exif_orientation(kept) == 6);
    CHECK(get16(kept.exif, pixel_x_at) == 10);  // the rotation swapped the dimensions
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("r.png")).view(), reference::transform(image, Orientation::rot90).view()) == -1);

    const auto copy = run(quote(exe) + " " + quote(dir.file("in.png")) + " -o " + quote(dir.file("c.png")));
    CHECK(copy.status == 0);
    CHECK(copy.output.find("warning") == std::string::npos);  // no rotation, no trap

    const auto stripped = run(quote(exe) + " " + quote(dir.file("in.png")) + " --rot90 --strip -o " + quote(dir.file("s.png")));
    CHECK(stripped.status == 0);
    CHECK(gpurotate::read_metadata(dir.file("s.png")).empty());
    CHECK(stripped.output.find("warning") == std::string::npos);  // no tag written, no trap
    const auto bmp = run(quote(exe) + " " + quote(dir.file("in.png")) + " --rot90 -o " + quote(dir.file("r.bmp")));
    CHECK(bmp.status == 0);
    // BMP holds no EXIF: the output loses the tag, and shows the stored pixels, which the warning says.
    CHECK(bmp.output.find("kept in the output") == std::string::npos);
    CHECK(bmp.output.find("has EXIF orientation 6, which BMP cannot hold") != std::string::npos);
#if GPUROTATE_TEST_WITH_OPENCV
    // TIFF has an Orientation tag of its own: the EXIF's goes there, and a TIFF reader shows the input as displayed;
    // gpurotate reads the pixels as stored, as in every format.
    const auto tiff = run(quote(exe) + " " + quote(dir.file("in.png")) + " --rot90 -o " + quote(dir.file("r.tif")));
    CHECK(tiff.status == 0);
    CHECK(tiff.output.find("kept in the output") != std::string::npos);
    const auto directory = gpurotate::detail::read_tiff_directory(as_bytes(test_support::file_bytes(dir.file("r.tif"))));
    REQUIRE(directory);
    CHECK(directory->value(274) == 6u);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("r.tif")).view(), reference::transform(image, Orientation::rot90).view()) == -1);
    REQUIRE(run(quote(exe) + " " + quote(dir.file("in.png")) + " --auto-orient -o " + quote(dir.file("a.tif"))).status == 0);
    CHECK(gpurotate::detail::read_tiff_directory(as_bytes(test_support::file_bytes(dir.file("a.tif"))))->value(274).value_or(1) == 1u);
#endif
}

TEST_CASE("an EXIF thumbnail that cannot be turned with the image is left out and said, and one with nothing to turn stays") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(24, 16, {SampleType::u8, 3}, 23);
    gpurotate::ImageMetadata meta;
    const std::string damaged = std::string("\xff\xd8\xff\xdb", 4) + std::string(60, '\x11');  // SOI, then no JPEG
    meta.exif = test_support::exif_with_thumbnail(6, 24, 16, damaged);
    write_jpeg_and_png(dir, image, meta);
    for (const char* in : {"in.jpg", "in.png"}) {
        for (const char* out : {"o.jpg", "o.png"}) {
            CAPTURE(in);
            CAPTURE(out);
            const auto r = run(quote(exe) + " " + quote(dir.file(in)) + " --auto-orient --overwrite -o " + quote(dir.file(out)));
            REQUIRE(r.status == 0);
            CHECK(r.output.find("has an EXIF thumbnail that cannot be turned with the image (it does not decode") != std::string::npos);
            const auto exif = gpurotate::read_metadata(dir.file(out)).exif;
            CHECK_FALSE(test_support::exif_thumbnail(exif));
            CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(dir.file(out))) == 1);
            CHECK(get16(exif, pixel_x_at) == 16);  // the rest of the block edited as ever
            // Nothing to turn (the pixels stay as stored): the thumbnail stays as it was, and nothing is said.
            const auto kept = run(quote(exe) + " " + quote(dir.file(in)) + " --overwrite -o " + quote(dir.file(out)));
            REQUIRE(kept.status == 0);
            CHECK(kept.output.empty());
            CHECK(test_support::exif_thumbnail(gpurotate::read_metadata(dir.file(out)).exif) == damaged);
            // --strip writes no EXIF, so nothing is left out of it.
            const auto stripped = run(quote(exe) + " " + quote(dir.file(in)) + " --auto-orient --strip --overwrite -o " + quote(dir.file(out)));
            CHECK(stripped.output.find("thumbnail") == std::string::npos);
            // An angle that is not a multiple of 90: no thumbnail can follow it; left out and said, the size the
            // rotated image's.
            const auto rotated = run(quote(exe) + " " + quote(dir.file(in)) + " --rotate 30 --overwrite -o " + quote(dir.file(out)));
            REQUIRE(rotated.status == 0);
            CHECK(rotated.output.find("(it cannot be turned by an angle that is not a multiple of 90)") != std::string::npos);
            const auto turned = gpurotate::read_metadata(dir.file(out)).exif;
            CHECK_FALSE(test_support::exif_thumbnail(turned));
            const gpurotate::Image written = gpurotate::read_image(dir.file(out));
            CHECK(get16(turned, pixel_x_at) == written.width());
        }
    }
}

TEST_CASE("ICC profiles are kept byte for byte from JPEG and PNG to JPEG and PNG, in the CLI and augment") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(24, 16, {SampleType::u8, 3}, 19);
    gpurotate::ImageMetadata meta;
    meta.icc = random_bytes(150000, 20);  // three JPEG APP2 chunks
    meta.exif = exif_with(1, 24, 16);
    write_jpeg_and_png(dir, image, meta);
    for (const char* in : {"in.jpg", "in.png"}) {
        for (const char* out : {"o.jpg", "o.png"}) {
            CAPTURE(in);
            CAPTURE(out);
            REQUIRE(run(quote(exe) + " " + quote(dir.file(in)) + " --transpose --overwrite -o " + quote(dir.file(out))).status == 0);
            const auto kept = gpurotate::read_metadata(dir.file(out));
            CHECK(kept.icc == meta.icc);
            CHECK(kept.exif.size() == meta.exif.size());
            CHECK(gpurotate::read_image(dir.file(out)).width() == 16);  // the file still decodes
        }
    }
    // augment keeps them in every variant, and --strip drops them.
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("in.jpg")) + " -o " + quote(dir.file("aug")) + " --ops rot90,flip-h --device cpu --quiet").status == 0);
    CHECK(gpurotate::read_metadata(dir.file("aug/in_rot90.jpg")).icc == meta.icc);
    CHECK(get16(gpurotate::read_metadata(dir.file("aug/in_rot90.jpg")).exif, pixel_x_at) == 16);
    CHECK(get16(gpurotate::read_metadata(dir.file("aug/in_flip-h.jpg")).exif, pixel_x_at) == 24);
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("in.png")) + " -o " + quote(dir.file("bare")) + " --ops rot90 --strip --device cpu --quiet").status == 0);
    CHECK(gpurotate::read_metadata(dir.file("bare/in_rot90.png")).empty());
}

TEST_CASE("augment --auto-orient makes every input upright before its variants") {
    test_support::TempDir dir;
    REQUIRE(run("mkdir " + quote(dir.file("in"))).status == 0);
    const auto upright = test_support::random_image(13, 7, {SampleType::u8, 3}, 21);
    for (int tag = 1; tag <= 8; ++tag) {
        gpurotate::ImageMetadata meta;
        meta.exif = exif_with(tag, 1, 1);
        gpurotate::WriteOptions options;
        options.metadata = &meta;
        gpurotate::write_image(dir.file("in/t" + std::to_string(tag) + ".png"), stored_for(upright, tag).view(), options);
    }
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops identity,rot90 --auto-orient --device cpu");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    for (int tag = 1; tag <= 8; ++tag) {
        CAPTURE(tag);
        const std::string base = dir.file("out/t" + std::to_string(tag));
        CHECK(test_support::first_difference(gpurotate::read_image(base + "_identity.png").view(), upright.view()) == -1);
        CHECK(test_support::first_difference(gpurotate::read_image(base + "_rot90.png").view(), reference::transform(upright, Orientation::rot90).view()) == -1);
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(base + "_rot90.png")) == 1);
    }
}

TEST_CASE("an output format that cannot carry the input's metadata says what it leaves out (-v), and --strip is silent") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(24, 16, {SampleType::u8, 3}, 23);
    gpurotate::ImageMetadata meta;
    meta.icc = random_bytes(3000, 24);
    meta.exif = exif_with(1, 24, 16);
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.jpg"), image.view(), options);
    const auto to = [&](const char* out, const char* extra) {
        const auto result = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " --rot90 -v --overwrite " + extra + " -o " + quote(dir.file(out)));
        REQUIRE(result.status == 0);
        return result.output;
    };
    CHECK(to("o.tga", "").find("TGA output: not written: EXIF, ICC profile") != std::string::npos);
    CHECK(to("o.png", "").find("not written") == std::string::npos);  // eXIf and iCCP
    CHECK(to("o.jpg", "--quality 80").find("not written") == std::string::npos);
    CHECK(to("s.tga", "--strip").find("not written") == std::string::npos);
    // augment says it once a run.
    const auto augmented = run(quote(exe) + " augment " + quote(dir.file("in.jpg")) + " -o " + quote(dir.file("aug")) + " --ops rot90 --format tga --device cpu");
    CHECK(augmented.status == 0);
    CHECK(augmented.output.find("TGA output: not written: EXIF, ICC profile") != std::string::npos);
}

TEST_CASE("EXIF's pixel dimensions are the output's, a trimmed JPEG's too, and its X and Y resolution swap with the axes") {
    test_support::TempDir dir;
    // IFD0: XResolution 300/1 and YResolution 150/1 (RATIONALs after the IFD), the Exif IFD with the dimensions.
    const auto exif_for = [](unsigned width, unsigned height) {
        std::vector<std::uint8_t> e(96, 0);
        const auto put16 = [&](std::size_t at, unsigned v) { e[at] = static_cast<std::uint8_t>(v), e[at + 1] = static_cast<std::uint8_t>(v >> 8); };
        const auto put32 = [&](std::size_t at, unsigned v) { put16(at, v & 0xffff), put16(at + 2, v >> 16); };
        e[0] = 'I', e[1] = 'I', put16(2, 42), put32(4, 8);
        put16(8, 3);
        put16(10, 0x011a), put16(12, 5), put32(14, 1), put32(18, 50);
        put16(22, 0x011b), put16(24, 5), put32(26, 1), put32(30, 58);
        put16(34, 0x8769), put16(36, 4), put32(38, 1), put32(42, 66);
        put32(46, 0);
        put32(50, 300), put32(54, 1), put32(58, 150), put32(62, 1);
        put16(66, 2);
        put16(68, 0xa002), put16(70, 4), put32(72, 1), put32(76, width);
        put16(80, 0xa003), put16(82, 4), put32(84, 1), put32(88, height);
        put32(92, 0);
        return e;
    };
    const auto get32 = [](const std::vector<std::uint8_t>& e, std::size_t at) { return get16(e, at) | get16(e, at + 2) << 16; };
    const auto image = test_support::random_image(45, 37, {SampleType::u8, 3}, 25);  // not whole 8x8 MCUs across
    gpurotate::ImageMetadata meta;
    meta.exif = exif_for(45, 37);
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    options.quality = 90;
    options.chroma = gpurotate::ChromaSubsampling::s444;
    gpurotate::write_image(dir.file("in.jpg"), image.view(), options);
    struct Case {
        const char* args;
        unsigned width, height, x_resolution;
    };
    const Case cases[] = {
        {"--transpose", 37, 45, 150},                      // lossless, perfect: swapped
        {"--rot90 --jpeg-edge trim", 32, 45, 150},         // the left edge was 37 rows: 5 trimmed
        {"--flip-v --jpeg-edge trim", 45, 32, 300},        // the bottom edge trimmed, axes kept
        {"--rot90", 37, 45, 150},                          // re-encoded whole
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const std::string out = dir.file("out.jpg");
        const auto r = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " " + c.args + " --overwrite -o " + quote(out));
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        const auto decoded = gpurotate::read_image(out);
        CHECK(decoded.width() == c.width);
        CHECK(decoded.height() == c.height);
        const auto exif = gpurotate::read_metadata(out).exif;
        REQUIRE(exif.size() == 96);
        CHECK(get32(exif, 76) == c.width);
        CHECK(get32(exif, 88) == c.height);
        CHECK(get32(exif, 50) == c.x_resolution);
        CHECK(get32(exif, 58) == 450 - c.x_resolution);
    }
}

TEST_CASE("the resolution travels between JPEG (JFIF), PNG (pHYs), TIFF and BMP, x and y swapped with the axes") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(16, 8, {SampleType::u8, 3}, 26);
    gpurotate::ImageMetadata meta;
    meta.resolution = gpurotate::Resolution{300, 150, gpurotate::Resolution::Unit::inch};
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.jpg"), image.view(), options);
    const auto in = gpurotate::read_metadata(dir.file("in.jpg")).resolution;
    REQUIRE(in);
    CHECK(in->x == 300);
    CHECK(in->y == 150);
    CHECK(in->unit == gpurotate::Resolution::Unit::inch);
    const auto resolution_after = [&](const std::string& args, const std::string& out) {
        const auto r = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " " + args + " --overwrite -o " + quote(dir.file(out)));
        REQUIRE(r.status == 0);
        return gpurotate::read_metadata(dir.file(out)).resolution;
    };
    // Re-encoded JPEG (TurboJPEG writes its own JFIF header; its density is the input's, swapped).
    const auto jpeg = resolution_after("--rot90 --quality 90", "q.jpg");
    REQUIRE(jpeg);
    CHECK(jpeg->x == 150);
    CHECK(jpeg->y == 300);
    CHECK(jpeg->unit == gpurotate::Resolution::Unit::inch);
    // PNG's pHYs counts pixels per metre: 300 per inch is 11811, read back per centimetre.
    const auto png = resolution_after("--rot90", "o.png");
    REQUIRE(png);
    CHECK(png->x == doctest::Approx(59.06));
    CHECK(png->y == doctest::Approx(118.11));
    CHECK(png->unit == gpurotate::Resolution::Unit::centimetre);
    CHECK_FALSE(resolution_after("--rot90 --strip", "s.png"));
    const auto bmp_out = resolution_after("--rot90", "o.bmp");  // pixels per metre, read back per centimetre
    REQUIRE(bmp_out);
    CHECK(bmp_out->x == doctest::Approx(59.06));
    CHECK(bmp_out->y == doctest::Approx(118.11));
#if GPUROTATE_TEST_WITH_OPENCV
    const auto tiff = resolution_after("--flip-h", "o.tif");
    REQUIRE(tiff);
    CHECK(tiff->x == doctest::Approx(300));
    CHECK(tiff->y == doctest::Approx(150));
    CHECK(tiff->unit == gpurotate::Resolution::Unit::inch);
#endif
    // A BMP's pixels per metre, to PNG.
    gpurotate::write_image(dir.file("b.bmp"), image.view());
    std::string bmp = test_support::file_bytes(dir.file("b.bmp"));
    for (const std::size_t at : {std::size_t{38}, std::size_t{42}}) bmp[at] = '\x13', bmp[at + 1] = '\x0b', bmp[at + 2] = 0, bmp[at + 3] = 0;  // 2835
    test_support::write_bytes(dir.file("b.bmp"), bmp);
    REQUIRE(run(quote(exe) + " " + quote(dir.file("b.bmp")) + " --transpose -o " + quote(dir.file("b.png"))).status == 0);
    const auto from_bmp = gpurotate::read_metadata(dir.file("b.png")).resolution;
    REQUIRE(from_bmp);
    CHECK(from_bmp->x == doctest::Approx(28.35));
}

namespace {

// One TIFF directory entry: tag, type, count and its values' bytes in the file's byte order.
struct TiffEntry {
    std::uint16_t tag, type;
    std::uint32_t count;
    std::vector<std::uint8_t> value;
};

// Integers in a byte order, for building and reading TIFF structures here.
struct Order {
    bool big;
    std::vector<std::uint8_t> bytes(std::uint32_t v, int size) const {
        std::vector<std::uint8_t> b(static_cast<std::size_t>(size));
        for (int i = 0; i < size; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * (big ? size - 1 - i : i)));
        return b;
    }
    std::uint32_t get(const std::vector<std::uint8_t>& b, std::size_t at, int size) const {
        std::uint32_t v = 0;
        for (int i = 0; i < size; ++i) v = v << 8 | b.at(at + static_cast<std::size_t>(big ? i : size - 1 - i));
        return v;
    }
    TiffEntry shorts(std::uint16_t tag, std::uint32_t v) const { return {tag, 3, 1, bytes(v, 2)}; }
    TiffEntry longs(std::uint16_t tag, std::uint32_t v) const { return {tag, 4, 1, bytes(v, 4)}; }
    TiffEntry ascii(std::uint16_t tag, const std::string& text) const {
        return {tag, 2, static_cast<std::uint32_t>(text.size() + 1), std::vector<std::uint8_t>(text.c_str(), text.c_str() + text.size() + 1)};
    }
    TiffEntry rationals(std::uint16_t tag, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& values) const {
        std::vector<std::uint8_t> b;
        for (const auto& v : values) {
            for (const std::uint32_t part : {v.first, v.second}) {
                const auto p = bytes(part, 4);
                b.insert(b.end(), p.begin(), p.end());
            }
        }
        return {tag, 5, static_cast<std::uint32_t>(values.size()), b};
    }
};

// Appends a directory at `file`'s end (values that do not fit an entry right after it) and returns its offset.
std::uint32_t append_directory(std::vector<std::uint8_t>& file, const std::vector<TiffEntry>& entries, const Order& o) {
    if (file.size() % 2) file.push_back(0);
    const auto at = static_cast<std::uint32_t>(file.size());
    std::vector<std::uint8_t> out = o.bytes(static_cast<std::uint32_t>(entries.size()), 2), values;
    const std::size_t values_at = at + 2 + entries.size() * 12 + 4;
    for (const TiffEntry& e : entries) {
        for (const auto& part : {o.bytes(e.tag, 2), o.bytes(e.type, 2), o.bytes(e.count, 4)}) out.insert(out.end(), part.begin(), part.end());
        if (e.value.size() <= 4) {
            std::vector<std::uint8_t> field = e.value;
            field.resize(4, 0);
            out.insert(out.end(), field.begin(), field.end());
        } else {
            const auto offset = o.bytes(static_cast<std::uint32_t>(values_at + values.size()), 4);
            out.insert(out.end(), offset.begin(), offset.end());
            values.insert(values.end(), e.value.begin(), e.value.end());
            if (values.size() % 2) values.push_back(0);
        }
    }
    const auto next = o.bytes(0, 4);
    out.insert(out.end(), next.begin(), next.end());
    file.insert(file.end(), out.begin(), out.end());
    file.insert(file.end(), values.begin(), values.end());
    return at;
}

// The entries of the directory at `at` (tag -> entry), read back independently of gpurotate's reader.
std::map<std::uint16_t, TiffEntry> read_entries(const std::vector<std::uint8_t>& b, std::size_t at, const Order& o) {
    std::map<std::uint16_t, TiffEntry> entries;
    const std::uint32_t n = o.get(b, at, 2);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::size_t e = at + 2 + i * 12;
        TiffEntry entry{static_cast<std::uint16_t>(o.get(b, e, 2)), static_cast<std::uint16_t>(o.get(b, e + 2, 2)), o.get(b, e + 4, 4), {}};
        const std::size_t size = static_cast<std::size_t>(entry.count) * (entry.type == 3 ? 2 : entry.type == 4 || entry.type == 13 ? 4 : entry.type == 5 ? 8 : 1);
        const std::size_t where = size <= 4 ? e + 8 : o.get(b, e + 8, 4);
        entry.value.assign(b.begin() + static_cast<std::ptrdiff_t>(where), b.begin() + static_cast<std::ptrdiff_t>(where + size));
        entries[entry.tag] = entry;
    }
    return entries;
}

// Appends the test's EXIF directory (a 4x2 image's, with an Interoperability directory, and `more_exif`) and GPS
// directory to `file`, and returns their offsets.
std::pair<std::uint32_t, std::uint32_t> append_exif_and_gps(std::vector<std::uint8_t>& file, const Order& o, const std::vector<TiffEntry>& more_exif = {}) {
    const std::uint32_t interoperability = append_directory(file, {o.ascii(1, "R98")}, o);
    std::vector<TiffEntry> exif_entries = {o.rationals(33434, {{1, 250}}), o.shorts(34855, 400), o.ascii(36867, "2026:11:25 10:00:00"),
                                           o.longs(40962, 4), o.longs(40963, 2), o.longs(40965, interoperability)};
    exif_entries.insert(exif_entries.end(), more_exif.begin(), more_exif.end());
    const std::uint32_t exif = append_directory(file, exif_entries, o);
    const std::uint32_t gps = append_directory(file, {{0, 1, 4, {2, 3, 0, 0}}, o.ascii(1, "N"), o.rationals(2, {{48, 1}, {51, 1}, {2400, 100}})}, o);
    return {exif, gps};
}

// A 4x2 RGB TIFF whose first directory points at an EXIF directory (with an Interoperability directory) and a
// GPS directory, laid out image, EXIF, Interoperability, GPS, first directory, in the byte order `o`.
std::vector<std::uint8_t> tiff_with_exif_and_gps(const Order& o, const std::vector<TiffEntry>& more_exif = {},
                                                  const std::optional<TiffEntry>& gps_pointer = std::nullopt) {
    std::vector<std::uint8_t> file = o.big ? std::vector<std::uint8_t>{'M', 'M', 0, 42, 0, 0, 0, 0} : std::vector<std::uint8_t>{'I', 'I', 42, 0, 0, 0, 0, 0};
    const std::uint32_t pixels_at = static_cast<std::uint32_t>(file.size());
    for (int v = 0; v < 24; ++v) file.push_back(static_cast<std::uint8_t>(10 * v));
    std::vector<std::uint8_t> eights;
    for (int i = 0; i < 3; ++i) {
        const auto eight = o.bytes(8, 2);
        eights.insert(eights.end(), eight.begin(), eight.end());
    }
    const auto [exif, gps] = append_exif_and_gps(file, o, more_exif);
    const std::uint32_t first = append_directory(file, {o.shorts(256, 4), o.shorts(257, 2), {258, 3, 3, eights}, o.shorts(259, 1), o.shorts(262, 2),
                                                        o.longs(273, pixels_at), o.shorts(277, 3), o.longs(278, 2), o.longs(279, 24), o.longs(34665, exif),
                                                        gps_pointer.value_or(o.longs(34853, gps))}, o);
    const auto offset = o.bytes(first, 4);
    std::copy(offset.begin(), offset.end(), file.begin() + 4);
    return file;
}

// An EXIF block as a camera writes it, in the byte order `o`: IFD0 with Make, Artist and the EXIF and GPS pointers,
// followed by IFD1, a thumbnail's directory (its JPEG left out); one EXIF entry's values lie past the block's end.
std::vector<std::uint8_t> camera_exif(const Order& o) {
    std::vector<std::uint8_t> block = o.big ? std::vector<std::uint8_t>{'M', 'M', 0, 42, 0, 0, 0, 0} : std::vector<std::uint8_t>{'I', 'I', 42, 0, 0, 0, 0, 0};
    const auto [exif, gps] = append_exif_and_gps(block, o, {{37510, 7, 100000, {}}});
    const std::uint32_t thumbnail = append_directory(block, {o.shorts(259, 6), o.longs(513, 0), o.longs(514, 0)}, o);
    const std::uint32_t first = append_directory(block, {o.ascii(271, "Canon"), o.ascii(315, "Ann"), o.longs(34665, exif), o.longs(34853, gps)}, o);
    for (const auto& [at, value] : {std::pair{std::size_t{4}, first}, std::pair{std::size_t{first} + 2 + 4 * 12, thumbnail}}) {
        const auto offset = o.bytes(value, 4);
        std::copy(offset.begin(), offset.end(), block.begin() + static_cast<std::ptrdiff_t>(at));
    }
    return block;
}

// Writes a 4x2 RGB image of random pixels with `meta` to `path`, through the library's own writer.
void write_with(const std::string& path, const gpurotate::ImageMetadata& meta, std::uint32_t seed) {
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(path, test_support::random_image(4, 2, {SampleType::u8, 3}, seed).view(), options);
}

// An 8-byte integer in the byte order `o`.
std::vector<std::uint8_t> bytes8(const Order& o, std::uint64_t v) {
    auto low = o.bytes(static_cast<std::uint32_t>(v), 4), high = o.bytes(static_cast<std::uint32_t>(v >> 32), 4);
    if (o.big) std::swap(low, high);
    low.insert(low.end(), high.begin(), high.end());
    return low;
}

// Appends a BigTIFF directory (an 8-byte count, 20-byte entries with 8-byte counts and value fields, an 8-byte next
// offset) at `file`'s end, values that do not fit an entry right after it, and returns its offset.
std::uint64_t append_big_directory(std::vector<std::uint8_t>& file, const std::vector<TiffEntry>& entries, const Order& o) {
    while (file.size() % 8) file.push_back(0);
    const std::uint64_t at = file.size();
    std::vector<std::uint8_t> out = bytes8(o, entries.size()), values;
    const std::uint64_t values_at = at + 8 + entries.size() * 20 + 8;
    for (const TiffEntry& e : entries) {
        for (const auto& part : {o.bytes(e.tag, 2), o.bytes(e.type, 2), bytes8(o, e.count)}) out.insert(out.end(), part.begin(), part.end());
        if (e.value.size() <= 8) {
            std::vector<std::uint8_t> field = e.value;
            field.resize(8, 0);
            out.insert(out.end(), field.begin(), field.end());
        } else {
            const auto offset = bytes8(o, values_at + values.size());
            out.insert(out.end(), offset.begin(), offset.end());
            values.insert(values.end(), e.value.begin(), e.value.end());
            while (values.size() % 8) values.push_back(0);
        }
    }
    const auto next = bytes8(o, 0);
    out.insert(out.end(), next.begin(), next.end());
    file.insert(file.end(), out.begin(), out.end());
    file.insert(file.end(), values.begin(), values.end());
    return at;
}

// The test TIFF's directories as a BigTIFF's: pointers as IFD8 and LONG8, and one LONG8 entry in EXIF, which the EXIF
// block has no type for.
std::vector<std::uint8_t> big_tiff_with_exif_and_gps(const Order& o) {
    std::vector<std::uint8_t> file = o.big ? std::vector<std::uint8_t>{'M', 'M', 0, 43, 0, 8, 0, 0} : std::vector<std::uint8_t>{'I', 'I', 43, 0, 8, 0, 0, 0};
    file.resize(16, 0);  // the first directory's offset, set below
    const std::uint64_t pixels_at = file.size();
    for (int v = 0; v < 24; ++v) file.push_back(static_cast<std::uint8_t>(10 * v));
    std::vector<std::uint8_t> eights;
    for (int i = 0; i < 3; ++i) {
        const auto eight = o.bytes(8, 2);
        eights.insert(eights.end(), eight.begin(), eight.end());
    }
    const std::uint64_t interoperability = append_big_directory(file, {o.ascii(1, "R98")}, o);
    const std::uint64_t exif = append_big_directory(
        file, {o.rationals(33434, {{1, 250}}), o.shorts(34855, 400), o.ascii(36867, "2026:11:25 10:00:00"), o.longs(40962, 4), o.longs(40963, 2),
               {40965, 16, 1, bytes8(o, interoperability)}, {42016, 16, 1, bytes8(o, 1234)}}, o);
    const std::uint64_t gps = append_big_directory(file, {{0, 1, 4, {2, 3, 0, 0}}, o.ascii(1, "N"), o.rationals(2, {{48, 1}, {51, 1}, {2400, 100}})}, o);
    const std::uint64_t first = append_big_directory(file, {o.shorts(256, 4), o.shorts(257, 2), {258, 3, 3, eights}, o.shorts(259, 1), o.shorts(262, 2),
                                                            {273, 16, 1, bytes8(o, pixels_at)}, o.shorts(277, 3), o.longs(278, 2), o.longs(279, 24),
                                                            {34665, 18, 1, bytes8(o, exif)}, {34853, 18, 1, bytes8(o, gps)}}, o);
    const auto offset = bytes8(o, first);
    std::copy(offset.begin(), offset.end(), file.begin() + 8);
    return file;
}

// Checks that the directories `first` (the entries of a first directory of `file`) points at hold the test TIFF's
// EXIF and GPS entries, with the pixel dimensions given.
void check_exif_directories(const std::vector<std::uint8_t>& file, const std::map<std::uint16_t, TiffEntry>& first, const Order& o,
                            std::uint32_t pixel_x, std::uint32_t pixel_y) {
    const auto& block = file;
    REQUIRE(first.count(34665) == 1);
    REQUIRE(first.count(34853) == 1);
    const auto exif = read_entries(block, o.get(first.at(34665).value, 0, 4), o);
    CHECK(exif.at(33434).value == o.rationals(33434, {{1, 250}}).value);
    CHECK(o.get(exif.at(34855).value, 0, 2) == 400);
    CHECK(exif.at(36867).value == o.ascii(36867, "2026:11:25 10:00:00").value);
    CHECK(o.get(exif.at(40962).value, 0, 4) == pixel_x);
    CHECK(o.get(exif.at(40963).value, 0, 4) == pixel_y);
    const auto interoperability = read_entries(block, o.get(exif.at(40965).value, 0, 4), o);
    CHECK(interoperability.at(1).value == o.ascii(1, "R98").value);
    const auto gps = read_entries(block, o.get(first.at(34853).value, 0, 4), o);
    CHECK(gps.at(0).value == std::vector<std::uint8_t>{2, 3, 0, 0});
    CHECK(gps.at(1).value == o.ascii(1, "N").value);
    CHECK(gps.at(2).value == o.rationals(2, {{48, 1}, {51, 1}, {2400, 100}}).value);
}

// Checks that `block` (an EXIF block) holds the test TIFF's EXIF and GPS entries, with the pixel dimensions given,
// and in IFD0 the pointers and the ASCII tags `text` alone.
void check_exif_block(const std::vector<std::uint8_t>& block, std::uint32_t pixel_x, std::uint32_t pixel_y,
                      const std::map<std::uint16_t, std::string>& text = {}) {
    REQUIRE(block.size() > 8);
    const Order o{block[0] == 'M'};
    const auto first = read_entries(block, o.get(block, 4, 4), o);
    REQUIRE(first.size() == 2 + text.size());
    for (const auto& entry : text) {  // not a structured binding: CAPTURE's lambda cannot capture one in clang 14
        const std::uint16_t tag = entry.first;
        CAPTURE(tag);
        REQUIRE(first.count(tag) == 1);
        CHECK(first.at(tag).value == o.ascii(tag, entry.second).value);
    }
    check_exif_directories(block, first, o, pixel_x, pixel_y);
}

// Checks that the TIFF file at `path` holds the test TIFF's EXIF and GPS directories, read here from the file.
void check_tiff_exif(const std::string& path, std::uint32_t pixel_x, std::uint32_t pixel_y) {
    const std::string text = test_support::file_bytes(path);
    const std::vector<std::uint8_t> file(text.begin(), text.end());
    REQUIRE(file.size() > 8);
    const Order o{file[0] == 'M'};
    check_exif_directories(file, read_entries(file, o.get(file, 4, 4), o), o, pixel_x, pixel_y);
}

}  // namespace

TEST_CASE("a TIFF's EXIF and GPS directories travel to JPEG, PNG and WebP as their EXIF block, in either byte order") {
    test_support::TempDir dir;
    for (const bool big : {false, true}) {
        CAPTURE(big);
        const Order o{big};
        const std::string in = dir.file(big ? "in-mm.tif" : "in-ii.tif");
        const auto tiff = tiff_with_exif_and_gps(o);
        test_support::write_bytes(in, std::string(tiff.begin(), tiff.end()));
        check_exif_block(gpurotate::read_metadata(in).exif, 4, 2);
        CHECK(gpurotate::read_metadata(in).exif.at(0) == (big ? 'M' : 'I'));  // the values' byte order, kept
#if GPUROTATE_TEST_WITH_OPENCV
        for (const std::string out : {"o.jpg", "o.png", "o.webp"}) {
            CAPTURE(out);
            const auto r = run(quote(exe) + " " + quote(in) + " --rot90 -v --overwrite -o " + quote(dir.file(out)));
            REQUIRE(r.status == 0);
            CHECK(r.output.find("EXIF") == std::string::npos);  // nothing said lost
            CHECK(r.output.find("GPS") == std::string::npos);
            CHECK(gpurotate::read_image(dir.file(out)).width() == 2);
            check_exif_block(gpurotate::read_metadata(dir.file(out)).exif, 2, 4);  // the dimensions swapped with the axes
        }
        // A TIFF output holds them as directories of its own (in its own byte order, libtiff's), and reads them back.
        const auto t = run(quote(exe) + " " + quote(in) + " --rot90 -v --overwrite -o " + quote(dir.file("o.tif")));
        REQUIRE(t.status == 0);
        CHECK(t.output.find("EXIF") == std::string::npos);
        check_tiff_exif(dir.file("o.tif"), 2, 4);
        check_exif_block(gpurotate::read_metadata(dir.file("o.tif")).exif, 2, 4);
#endif
    }
    // What cannot be copied is named in the warning, and the rest travels.
    const Order le{false};
    std::vector<std::uint8_t> big_maker_note(70000, 7), comment(1000, 'c');
    std::vector<TiffEntry> crowd;  // 100 entries of 1 KB: past what one JPEG segment holds
    for (std::uint16_t i = 0; i < 100; ++i) crowd.push_back({static_cast<std::uint16_t>(50000 + i), 7, 1000, comment});
    const struct {
        const char* name;
        std::vector<std::uint8_t> file;
        const char* said;  // the phrase the warning holds
        bool exif_kept, gps_kept;
    } cases[] = {
        {"gps-past-end", tiff_with_exif_and_gps(le, {}, le.longs(34853, 1u << 30)), "GPS", true, false},
        {"gps-as-short", tiff_with_exif_and_gps(le, {}, le.shorts(34853, 300)), "GPS", true, false},
        {"gps-at-header", tiff_with_exif_and_gps(le, {}, le.longs(34853, 0)), "GPS", true, false},
        {"entry-past-end", tiff_with_exif_and_gps(le, {{37510, 7, 100000, {}}}), "1 EXIF entry (damaged, or pointers to directories not copied)", true, true},
        {"maker-note-70k", tiff_with_exif_and_gps(le, {{37500, 7, 70000, big_maker_note}}), "EXIF's MakerNote (over 64 KiB)", true, true},
        {"crowded", tiff_with_exif_and_gps(le, crowd), "EXIF", false, true},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        const std::string in = dir.file(std::string(c.name) + ".tif");
        test_support::write_bytes(in, std::string(c.file.begin(), c.file.end()));
        const auto block = gpurotate::read_metadata(in).exif;
        REQUIRE(!block.empty());
        const auto first = read_entries(block, le.get(block, 4, 4), le);
        CHECK((first.count(34665) == 1) == c.exif_kept);
        CHECK((first.count(34853) == 1) == c.gps_kept);
#if GPUROTATE_TEST_WITH_OPENCV
        const auto r = run(quote(exe) + " " + quote(in) + " --rot90 --overwrite -o " + quote(dir.file(std::string(c.name) + ".jpg")));
        REQUIRE(r.status == 0);
        CHECK(r.output.find(std::string("not kept: ") + c.said) != std::string::npos);
        CHECK(gpurotate::read_metadata(dir.file(std::string(c.name) + ".jpg")).exif.size() == block.size());
#endif
    }
}

TEST_CASE("a BigTIFF's EXIF and GPS directories become the EXIF block as a classic TIFF's do, less its 8-byte integers") {
    test_support::TempDir dir;
    for (const bool big : {false, true}) {
        CAPTURE(big);
        const std::string in = dir.file(big ? "big-mm.tif" : "big-ii.tif");
        const auto tiff = big_tiff_with_exif_and_gps(Order{big});
        test_support::write_bytes(in, std::string(tiff.begin(), tiff.end()));
        check_exif_block(gpurotate::read_metadata(in).exif, 4, 2);
#if GPUROTATE_TEST_WITH_OPENCV
        const auto r = run(quote(exe) + " " + quote(in) + " --rot90 --overwrite -o " + quote(dir.file("big.jpg")));
        REQUIRE(r.status == 0);
        CHECK(r.output.find("not kept: 1 EXIF entry (damaged, or pointers to directories not copied)") != std::string::npos);
        check_exif_block(gpurotate::read_metadata(dir.file("big.jpg")).exif, 2, 4);
#endif
    }
}

namespace {

// A little-endian, uncompressed, one-strip 8-bit TIFF of `stored` (RGB) with Orientation `tag`, or, with `palette`,
// of its pixels' red samples as palette indices (photometric 3) whose colour map gives index i the colour
// (i, 255 - i, i / 2) in 16 bits, which OpenCV's reader, not libtiff's plain one, decodes. Written here.
std::vector<std::uint8_t> oriented_tiff(const gpurotate::Image& stored, int tag, bool palette) {
    const Order o{false};
    std::vector<std::uint8_t> file = {'I', 'I', 42, 0, 0, 0, 0, 0};
    const auto pixels_at = static_cast<std::uint32_t>(file.size());
    const int samples = palette ? 1 : 3;
    for (std::int64_t y = 0; y < stored.height(); ++y) {
        const auto* row = reinterpret_cast<const std::uint8_t*>(stored.view().row(y));
        for (std::int64_t x = 0; x < stored.width(); ++x) file.insert(file.end(), row + 3 * x, row + 3 * x + samples);
    }
    const auto bytes = static_cast<std::uint32_t>(file.size() - pixels_at);
    std::vector<TiffEntry> entries = {o.shorts(256, static_cast<std::uint32_t>(stored.width())), o.shorts(257, static_cast<std::uint32_t>(stored.height())),
                                      {258, 3, static_cast<std::uint32_t>(samples), {}}, o.shorts(259, 1), o.shorts(262, palette ? 3 : 2),
                                      o.longs(273, pixels_at), o.shorts(274, static_cast<std::uint32_t>(tag)), o.shorts(277, static_cast<std::uint32_t>(samples)),
                                      o.longs(278, static_cast<std::uint32_t>(stored.height())), o.longs(279, bytes)};
    for (int i = 0; i < samples; ++i) {
        const auto eight = o.bytes(8, 2);
        entries[2].value.insert(entries[2].value.end(), eight.begin(), eight.end());
    }
    if (palette) {
        TiffEntry map{320, 3, 3 * 256, {}};
        for (int channel = 0; channel < 3; ++channel) {
            for (int i = 0; i < 256; ++i) {
                const int value = channel == 0 ? i : channel == 1 ? 255 - i : i / 2;
                const auto v = o.bytes(static_cast<std::uint32_t>(value * 257), 2);
                map.value.insert(map.value.end(), v.begin(), v.end());
            }
        }
        entries.push_back(map);
    }
    const std::uint32_t first = append_directory(file, entries, o);
    const auto offset = o.bytes(first, 4);
    std::copy(offset.begin(), offset.end(), file.begin() + 4);
    return file;
}

}  // namespace

TEST_CASE("a TIFF's Orientation is kept and warned about as in the other formats, and --auto-orient applies it" *
          doctest::skip(!GPUROTATE_TEST_WITH_OPENCV)) {
    test_support::TempDir dir;
    // The upright image, and its stored form under tag 6 by the specification's words: 301x203 stored.
    for (const bool palette : {false, true}) {
        CAPTURE(palette);
        auto upright = test_support::random_image(203, 301, {SampleType::u8, 3}, 29);
        if (palette) {  // what the palette TIFF decodes to: (i, 255 - i, i / 2) for index i, its red sample
            for (std::int64_t y = 0; y < upright.height(); ++y) {
                for (std::int64_t x = 0; x < upright.width(); ++x) {
                    auto* p = reinterpret_cast<std::uint8_t*>(upright.view().row(y)) + 3 * x;
                    p[1] = static_cast<std::uint8_t>(255 - p[0]), p[2] = static_cast<std::uint8_t>(p[0] / 2);
                }
            }
        }
        const auto stored = stored_for(upright, 6);
        REQUIRE(stored.width() == 301);
        const std::string in = dir.file("in.tif");
        const auto tiff = oriented_tiff(stored, 6, palette);
        test_support::write_bytes(in, std::string(tiff.begin(), tiff.end()));
        // --rot90 turns the pixels as stored, keeps the tag and says so, as for a JPEG or PNG.
        for (const char* out : {"r.tif", "r.png", "r.jpg"}) {
            CAPTURE(out);
            const auto r = run(quote(exe) + " " + quote(in) + " --rot90 --overwrite -o " + quote(dir.file(out)));
            CAPTURE(r.output);
            REQUIRE(r.status == 0);
            CHECK(r.output.find("'" + in + "' has EXIF orientation 6, kept in the output: viewers will turn the rotated pixels again") != std::string::npos);
            const auto got = gpurotate::read_image(dir.file(out));
            CHECK(got.width() == 203);
            CHECK(got.height() == 301);
            if (std::string(out) != "r.jpg") CHECK(test_support::first_difference(got.view(), reference::transform(stored, Orientation::rot90).view()) == -1);
        }
        const std::string written = test_support::file_bytes(dir.file("r.tif"));
        const std::vector<std::uint8_t> file(written.begin(), written.end());
        const Order o{file.at(0) == 'M'};
        const auto first = read_entries(file, o.get(file, 4, 4), o);
        REQUIRE(first.count(274) == 1);
        CHECK(o.get(first.at(274).value, 0, 2) == 6);
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(dir.file("r.png"))) == 6);
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(dir.file("r.jpg"))) == 6);
        // --auto-orient writes the upright image, with no tag (TIFF) or tag 1, and nothing to warn of.
        for (const char* out : {"a.tif", "a.png"}) {
            CAPTURE(out);
            const auto a = run(quote(exe) + " " + quote(in) + " --auto-orient --overwrite -o " + quote(dir.file(out)));
            CHECK(a.status == 0);
            CHECK(a.output.find("orientation") == std::string::npos);
            CHECK(test_support::first_difference(gpurotate::read_image(dir.file(out)).view(), upright.view()) == -1);
        }
        CHECK(gpurotate::detail::read_tiff_directory(as_bytes(test_support::file_bytes(dir.file("a.tif"))))->value(274).value_or(1) == 1u);
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(dir.file("a.png"))) == 1);
    }
}

// TIFF is written by the codec plugin, which a build without OpenCV lacks.
TEST_CASE("a JPEG's EXIF travels into a TIFF output: the EXIF and GPS directories, IFD0's text tags as the TIFF's, the thumbnail said" *
          doctest::skip(!GPUROTATE_TEST_WITH_OPENCV)) {
    test_support::TempDir dir;
    for (const bool big : {false, true}) {
        CAPTURE(big);
        gpurotate::ImageMetadata meta;
        meta.exif = camera_exif(Order{big});
        const std::string in = dir.file(big ? "camera-mm.jpg" : "camera-ii.jpg");
        write_with(in, meta, 5);
        const auto r = run(quote(exe) + " " + quote(in) + " --rot90 -v --overwrite -o " + quote(dir.file("camera.tif")));
        REQUIRE(r.status == 0);
        CHECK(r.output.find("TIFF output: not written: 1 EXIF entry (damaged, or pointers to directories not copied), EXIF's thumbnail") !=
              std::string::npos);
        check_tiff_exif(dir.file("camera.tif"), 2, 4);
        const auto back = gpurotate::read_metadata(dir.file("camera.tif"));
        CHECK(back.tiff_text == std::vector<std::pair<std::uint16_t, std::string>>{{271, "Canon"}, {315, "Ann"}});
        // And on to a JPEG: the directories travel on, pixel dimensions swapped back with the axes, and the text
        // tags go back into IFD0, where the JPEG's EXIF had them.
        const auto j = run(quote(exe) + " " + quote(dir.file("camera.tif")) + " --rot270 -v --overwrite -o " + quote(dir.file("camera-back.jpg")));
        REQUIRE(j.status == 0);
        CHECK(j.output.find("text tags") == std::string::npos);
        check_exif_block(gpurotate::read_metadata(dir.file("camera-back.jpg")).exif, 4, 2, {{271, "Canon"}, {315, "Ann"}});
    }
}

TEST_CASE("a TIFF output takes an EXIF block larger than a JPEG segment holds: a PNG's 70 KB MakerNote stays" *
          doctest::skip(!GPUROTATE_TEST_WITH_OPENCV)) {
    test_support::TempDir dir;
    const Order o{false};
    std::vector<std::uint8_t> block = {'I', 'I', 42, 0, 0, 0, 0, 0};
    const std::vector<std::uint8_t> maker_note(70000, 7);
    const auto [exif, gps] = append_exif_and_gps(block, o, {{37500, 7, 70000, maker_note}});
    const std::uint32_t first = append_directory(block, {o.longs(34665, exif), o.longs(34853, gps)}, o);
    const auto offset = o.bytes(first, 4);
    std::copy(offset.begin(), offset.end(), block.begin() + 4);
    gpurotate::ImageMetadata meta;
    meta.exif = block;
    const std::string in = dir.file("maker-note.png");
    write_with(in, meta, 6);
    const auto r = run(quote(exe) + " " + quote(in) + " --rot90 -v -o " + quote(dir.file("maker-note.tif")));
    REQUIRE(r.status == 0);
    CHECK(r.output.find("EXIF") == std::string::npos);
    check_tiff_exif(dir.file("maker-note.tif"), 2, 4);
    const std::string text = test_support::file_bytes(dir.file("maker-note.tif"));
    const std::vector<std::uint8_t> file(text.begin(), text.end());
    const auto tiff_first = read_entries(file, o.get(file, 4, 4), o);
    const auto tiff_exif = read_entries(file, o.get(tiff_first.at(34665).value, 0, 4), o);
    REQUIRE(tiff_exif.count(37500) == 1);
    CHECK(tiff_exif.at(37500).value == maker_note);
}

namespace {

// IPTC-IIM records: ApplicationRecordVersion 4, Caption-Abstract, one keyword (34 bytes: not whole LONGs).
std::vector<std::uint8_t> iptc_records() {
    std::vector<std::uint8_t> r = {0x1c, 2, 0, 0, 2, 0, 4};
    for (const auto& [dataset, text] : {std::pair<int, std::string>{120, "A cat on a mat"}, {25, "cat"}}) {
        r.insert(r.end(), {0x1c, 2, static_cast<std::uint8_t>(dataset), 0, static_cast<std::uint8_t>(text.size())});
        r.insert(r.end(), text.begin(), text.end());
    }
    return r;
}

// A 4x2 grey TIFF whose tag 33723 holds `iptc` as LONGs, padded with zeros as Photoshop writes it.
std::vector<std::uint8_t> tiff_with_iptc(const std::vector<std::uint8_t>& iptc) {
    const Order o{false};
    std::vector<std::uint8_t> file = {'I', 'I', 42, 0, 0, 0, 0, 0};
    for (int v = 0; v < 8; ++v) file.push_back(static_cast<std::uint8_t>(30 * v));
    std::vector<std::uint8_t> longs = iptc;
    longs.resize((iptc.size() + 3) / 4 * 4, 0);
    const std::uint32_t first = append_directory(file, {o.shorts(256, 4), o.shorts(257, 2), o.shorts(258, 8), o.shorts(259, 1), o.shorts(262, 1),
                                                        o.longs(273, 8), o.shorts(277, 1), o.longs(278, 2), o.longs(279, 8),
                                                        {33723, 4, static_cast<std::uint32_t>(longs.size() / 4), longs}}, o);
    const auto offset = o.bytes(first, 4);
    std::copy(offset.begin(), offset.end(), file.begin() + 4);
    return file;
}

bool contains(const std::string& haystack, const std::vector<std::uint8_t>& needle) {
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) != haystack.end();
}

}  // namespace

TEST_CASE("IPTC travels between JPEG (APP13) and TIFF (tag 33723), and formats without a place for it say so") {
    test_support::TempDir dir;
    const auto iptc = iptc_records();
    // The library's own writer and reader: a JPEG's APP13 of the one resource 0x0404.
    gpurotate::ImageMetadata meta;
    meta.iptc = iptc;
    const std::string jpg = dir.file("iptc.jpg");
    write_with(jpg, meta, 8);
    std::vector<std::uint8_t> resource = {'P', 'h', 'o', 't', 'o', 's', 'h', 'o', 'p', ' ', '3', '.', '0', 0, '8', 'B', 'I', 'M', 4, 4, 0, 0, 0, 0, 0, 34};
    resource.insert(resource.end(), iptc.begin(), iptc.end());
    CHECK(contains(test_support::file_bytes(jpg), resource));
    CHECK(gpurotate::read_metadata(jpg).iptc == iptc);
    // A TIFF's LONGs lose their padding.
    const std::string tif = dir.file("iptc.tif");
    const auto tiff = tiff_with_iptc(iptc);
    test_support::write_bytes(tif, std::string(tiff.begin(), tiff.end()));
    CHECK(gpurotate::read_metadata(tif).iptc == iptc);
#if GPUROTATE_TEST_WITH_OPENCV
    for (const auto& route : {std::pair<std::string, std::string>{jpg, "from-jpeg.tif"}, {tif, "from-tiff.tif"}, {tif, "from-tiff.jpg"}}) {
        const std::string& in = route.first;
        const std::string& out = route.second;  // not a structured binding: CAPTURE's lambda cannot capture one in clang 14
        CAPTURE(out);
        const auto r = run(quote(exe) + " " + quote(in) + " --rot90 --quality 90 -v --overwrite -o " + quote(dir.file(out)));
        REQUIRE(r.status == 0);
        CHECK(r.output.find("IPTC") == std::string::npos);
        CHECK(gpurotate::read_metadata(dir.file(out)).iptc == iptc);
        CHECK(contains(test_support::file_bytes(dir.file(out)), iptc));  // the records as they were, in tag 33723 or APP13
    }
    const auto png = run(quote(exe) + " " + quote(tif) + " --rot90 -v --overwrite -o " + quote(dir.file("iptc.png")));
    REQUIRE(png.status == 0);
    CHECK(png.output.find("PNG output: not written: IPTC") != std::string::npos);
#endif
    // An APP13 with another resource besides IPTC: the IPTC travels, the rest is said.
    std::vector<std::uint8_t> app13 = {0xff, 0xed, 0, 0};
    app13.insert(app13.end(), resource.begin(), resource.end());
    app13.insert(app13.end(), {'8', 'B', 'I', 'M', 0x04, 0x0c, 0, 0, 0, 0, 0, 2, 9, 9});  // a thumbnail's resource id
    app13[2] = static_cast<std::uint8_t>((app13.size() - 2) >> 8), app13[3] = static_cast<std::uint8_t>(app13.size() - 2);
    gpurotate::write_image(dir.file("plain.jpg"), test_support::random_image(4, 2, {SampleType::u8, 3}, 9).view());
    std::string both = test_support::file_bytes(dir.file("plain.jpg"));
    both.insert(2, std::string(app13.begin(), app13.end()));
    test_support::write_bytes(dir.file("both.jpg"), both);
    CHECK(gpurotate::read_metadata(dir.file("both.jpg")).iptc == iptc);
    const auto r = run(quote(exe) + " " + quote(dir.file("both.jpg")) + " --rot90 --quality 90 -v --overwrite -o " + quote(dir.file("both-out.jpg")));
    REQUIRE(r.status == 0);
    CHECK(r.output.find("APP13's Photoshop resources other than IPTC") != std::string::npos);
    CHECK(gpurotate::read_metadata(dir.file("both-out.jpg")).iptc == iptc);
}

TEST_CASE("XMP travels between JPEG, PNG, TIFF and WebP, and formats without a place for it say so") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(16, 8, {SampleType::u8, 3}, 27);
    gpurotate::ImageMetadata meta;
    meta.xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description xmp:Rating=\"4\"/></rdf:RDF></x:xmpmeta>";
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.jpg"), image.view(), options);
    CHECK(gpurotate::read_metadata(dir.file("in.jpg")).xmp == meta.xmp);
    std::vector<std::string> outputs = {"o.png", "q.jpg"};
#if GPUROTATE_TEST_WITH_OPENCV
    outputs.insert(outputs.end(), {"o.tif", "o.webp"});
#endif
    for (const std::string& out : outputs) {
        CAPTURE(out);
        const auto r = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " --rot90 --quality 90 -o " + quote(dir.file(out)));
        REQUIRE(r.status == 0);
        CHECK(gpurotate::read_metadata(dir.file(out)).xmp == meta.xmp);
        // and on from there, to a PNG
        const std::string again = dir.file("again-" + out + ".png");
        REQUIRE(run(quote(exe) + " " + quote(dir.file(out)) + " --rot270 -o " + quote(again)).status == 0);
        CHECK(gpurotate::read_metadata(again).xmp == meta.xmp);
    }
    const auto tga = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " --rot90 -v -o " + quote(dir.file("o.tga")));
    CHECK(tga.output.find("not written: ICC profile, XMP") == std::string::npos);  // no ICC here
    CHECK(tga.output.find("XMP") != std::string::npos);
    CHECK(run(quote(exe) + " " + quote(dir.file("in.jpg")) + " --rot90 --strip -o " + quote(dir.file("s.png"))).status == 0);
    CHECK(gpurotate::read_metadata(dir.file("s.png")).xmp.empty());
}

TEST_CASE("XMP's geometry properties are edited as the EXIF's: attributes and simple elements, nothing else") {
    // Attributes with either quote and spaces around '=', elements, and look-alike names that must stay.
    const std::string packet =
        "<rdf:Description tiff:Orientation='6' exif:PixelXDimension = \"4000\" exif:PixelYDimension=\"300\"\n"
        " xtiff:Orientation=\"3\" tiff:XResolution=\"72/1\" tiff:YResolution=\"144/1\">\n"
        "<tiff:ImageWidth>4000</tiff:ImageWidth><tiff:ImageLength>300</tiff:ImageLength>"
        "<tiff:OrientationX>5</tiff:OrientationX><tiff:Orientation rdf:parseType=\"Resource\"/></rdf:Description>";
    std::string xmp = packet;
    gpurotate::detail::swap_xmp_axes(xmp);
    CHECK(xmp.size() == packet.size());
    CHECK(xmp ==
          "<rdf:Description tiff:Orientation='6' exif:PixelXDimension = \"300\" exif:PixelYDimension=\"4000\"\n"
          " xtiff:Orientation=\"3\" tiff:XResolution=\"144/1\" tiff:YResolution=\"72/1\">\n"
          "<tiff:ImageWidth>300</tiff:ImageWidth><tiff:ImageLength>4000</tiff:ImageLength>"
          "<tiff:OrientationX>5</tiff:OrientationX><tiff:Orientation rdf:parseType=\"Resource\"/></rdf:Description>");
    gpurotate::detail::set_xmp_orientation(xmp, 1);
    CHECK(xmp.find("tiff:Orientation='1'") != std::string::npos);
    CHECK(xmp.find("xtiff:Orientation=\"3\"") != std::string::npos);
    CHECK(xmp.find("<tiff:OrientationX>5<") != std::string::npos);
    gpurotate::detail::set_xmp_dimensions(xmp, 12345, 7);
    CHECK(xmp.find("exif:PixelXDimension = \"12345\" exif:PixelYDimension=\"7\"") != std::string::npos);
    CHECK(xmp.find("<tiff:ImageWidth>12345</tiff:ImageWidth><tiff:ImageLength>7</tiff:ImageLength>") != std::string::npos);
    // Values move without the white space around them (an element's line breaks would end up in an attribute).
    std::string spaced = "<d exif:PixelXDimension=\"300\"><exif:PixelYDimension>\n  48 </exif:PixelYDimension></d>";
    gpurotate::detail::swap_xmp_axes(spaced);
    CHECK(spaced == "<d exif:PixelXDimension=\"48\"><exif:PixelYDimension>300</exif:PixelYDimension></d>");
    // An X without its Y is left alone rather than paired with a guess; so is an unterminated value.
    std::string lone = "<d exif:PixelXDimension=\"10\"/>";
    gpurotate::detail::swap_xmp_axes(lone);
    CHECK(lone == "<d exif:PixelXDimension=\"10\"/>");
    // A name inside a value, a comment or CDATA is not a property; a value with a quote is not moved into
    // another attribute.
    std::string nested = "<d tiff:XResolution='a tiff:YResolution=\"5\"' tiff:YResolution=\"7\"/>";
    const std::string nested_before = nested;
    gpurotate::detail::swap_xmp_axes(nested);
    CHECK(nested == nested_before);
    std::string hidden = "<!-- <tiff:Orientation>6</tiff:Orientation> --><dc:description> tiff:Orientation=\"6\" "
                         "<![CDATA[<tiff:Orientation>6</tiff:Orientation>]]></dc:description><e tiff:Orientation=\"6\"/>";
    gpurotate::detail::set_xmp_orientation(hidden, 1);
    CHECK(hidden == "<!-- <tiff:Orientation>6</tiff:Orientation> --><dc:description> tiff:Orientation=\"6\" "
                    "<![CDATA[<tiff:Orientation>6</tiff:Orientation>]]></dc:description><e tiff:Orientation=\"1\"/>");
    std::string torn = "<d tiff:Orientation=\"6";
    gpurotate::detail::set_xmp_orientation(torn, 1);
    CHECK(torn == "<d tiff:Orientation=\"6");
}

TEST_CASE("a rotation keeps XMP's dimensions and orientation true: lossless, trimmed, re-encoded and --auto-orient") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(45, 37, {SampleType::u8, 3}, 28);  // not whole 8x8 MCUs across
    gpurotate::ImageMetadata meta;
    meta.exif = exif_with(6, 45, 37);
    meta.xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description tiff:Orientation=\"6\" "
               "exif:PixelXDimension=\"45\" exif:PixelYDimension=\"37\"/></rdf:RDF></x:xmpmeta>";
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    options.quality = 90;
    options.chroma = gpurotate::ChromaSubsampling::s444;
    gpurotate::write_image(dir.file("in.jpg"), image.view(), options);
    const auto xmp_for = [](int orientation, int width, int height) {
        return "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description tiff:Orientation=\"" + std::to_string(orientation) +
               "\" exif:PixelXDimension=\"" + std::to_string(width) + "\" exif:PixelYDimension=\"" + std::to_string(height) +
               "\"/></rdf:RDF></x:xmpmeta>";
    };
    struct Case {
        const char* args;
        const char* out;
        std::string xmp;
        int exif_orientation;
    };
    const Case cases[] = {
        {"--transpose", "t.jpg", xmp_for(6, 37, 45), 6},                // lossless, perfect
        {"--rot90 --jpeg-edge trim", "r.jpg", xmp_for(6, 32, 45), 6},  // 5 columns trimmed, then swapped
        {"--flip-h --jpeg-edge trim", "f.jpg", xmp_for(6, 40, 37), 6},
        {"--rot90", "e.jpg", xmp_for(6, 37, 45), 6},                    // re-encoded whole
        {"--rot90", "o.png", xmp_for(6, 37, 45), 6},
        {"--auto-orient", "a.jpg", xmp_for(1, 37, 45), 1},             // tag 6 applied: rot90
        {"--auto-orient", "a.png", xmp_for(1, 37, 45), 1},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        CAPTURE(c.out);
        const std::string out = dir.file(c.out);
        const auto r = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " " + c.args + " --overwrite -o " + quote(out));
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        const auto written = gpurotate::read_metadata(out);
        CHECK(written.xmp == c.xmp);
        CHECK(gpurotate::exif_orientation(written) == c.exif_orientation);
    }
    // PNG to PNG: the iTXt chunk is rewritten with the edited packet, not copied as read.
    for (const auto& png_case : {std::pair{"--rot90", xmp_for(6, 45, 37)}, std::pair{"--auto-orient", xmp_for(1, 45, 37)}}) {
        const std::string args = png_case.first;  // not a structured binding: clang 14 cannot capture one
        CAPTURE(args);
        const std::string out = dir.file("png-to-png.png");
        REQUIRE(run(quote(exe) + " " + quote(dir.file("o.png")) + " " + args + " --overwrite -o " + quote(out)).status == 0);
        CHECK(gpurotate::read_metadata(out).xmp == png_case.second);
    }
}
