// build/gpurotate against ImageMagick, an implementation we share nothing with: for PNG inputs of every
// depth and channel count, each operation's output must be pixel-identical to convert's (compare -metric AE).

#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <algorithm>

#include <tuple>

using test_support::quote;
using test_support::run;

TEST_CASE("pixel-identical to ImageMagick for every operation, depth and channel count") {
    const std::pair<const char*, const char*> operations[] = {
        {"--rot90", "-rotate 90"}, {"--rot180", "-rotate 180"}, {"--rot270", "-rotate 270"}, {"--flip-h", "-flop"},
        {"--flip-v", "-flip"},     {"--transpose", "-transpose"}, {"--transverse", "-transverse"}};
    test_support::TempDir dir;
    for (gpurotate::SampleType s : {gpurotate::SampleType::u8, gpurotate::SampleType::u16}) {
        for (int c = 1; c <= 4; ++c) {
            const gpurotate::PixelFormat f{s, c};
            const std::string in = dir.file("in-" + gpurotate::to_string(f) + ".png");
            gpurotate::write_image(in, test_support::random_image(45, 31, f, static_cast<std::uint32_t>(c)).view());
            for (const auto& operation : operations) {  // not a structured binding: CAPTURE cannot take one in clang 14
                const auto& ours = operation.first;
                const auto& theirs = operation.second;
                const std::string a = dir.file("ours.png"), b = dir.file("theirs.png");
                REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + ours + " --overwrite -o " + quote(a)).status == 0);
                REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(in) + " " + theirs + " " + quote(b)).status == 0);
                // AE counts differing pixels; compare prints it on stderr and exits 0 only when they match.
                const auto compared = run(std::string(GPUROTATE_COMPARE) + " -metric AE " + quote(a) + " " + quote(b) + " null:");
                CAPTURE(gpurotate::to_string(f));
                CAPTURE(ours);
                CAPTURE(compared.output);
                CHECK(compared.status == 0);
                CHECK(compared.output == "0");
                CHECK(gpurotate::read_image(a).format() == f);
            }
        }
    }
}

TEST_CASE("--auto-orient is pixel-identical to ImageMagick's -auto-orient for the 8 EXIF orientations") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(45, 31, {gpurotate::SampleType::u8, 3}, 8);
    for (int tag = 1; tag <= 8; ++tag) {
        // Little-endian EXIF whose IFD0 holds only the Orientation tag.
        gpurotate::ImageMetadata meta;
        meta.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, static_cast<std::uint8_t>(tag), 0, 0, 0, 0, 0, 0, 0};
        gpurotate::WriteOptions options;
        options.metadata = &meta;
        options.quality = 100;
        const std::string in = dir.file("t" + std::to_string(tag) + ".jpg"), a = dir.file("ours.png"), b = dir.file("theirs.png");
        gpurotate::write_image(in, image.view(), options);
        REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --auto-orient --overwrite -o " + quote(a)).status == 0);
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(in) + " -auto-orient " + quote(b)).status == 0);
        const auto compared = run(std::string(GPUROTATE_COMPARE) + " -metric AE " + quote(a) + " " + quote(b) + " null:");
        CAPTURE(tag);
        CAPTURE(compared.output);
        CHECK(compared.status == 0);
        CHECK(compared.output == "0");
    }
}

TEST_CASE("a JPEG re-encoded from a JPEG keeps its quality and subsampling, as ImageMagick reads them") {
    test_support::TempDir dir;
    const std::string png = dir.file("in.png");
    gpurotate::write_image(png, test_support::random_image(61, 45, gpurotate::PixelFormat{gpurotate::SampleType::u8, 3}, 7).view());
    // 61x45 is no whole number of MCUs, so rot90 re-encodes by default (--jpeg-edge reencode).
    const std::tuple<const char*, const char*, const char*> cases[] = {
        {"4:2:0", "--rot90", "2x2,1x1,1x1"}, {"4:2:2", "--rot90", "1x2,1x1,1x1"}, {"4:2:2", "--rot180", "2x1,1x1,1x1"}, {"4:4:4", "--rot90", "1x1,1x1,1x1"}};
    for (const auto& c : cases) {  // not a structured binding: CAPTURE cannot take one in clang 14
        const char* sampling = std::get<0>(c);
        const char* op = std::get<1>(c);
        const char* expected = std::get<2>(c);
        const std::string in = dir.file("in.jpg"), out = dir.file("out.jpg");
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " -quality 73 -sampling-factor " + sampling + " " + quote(in)).status == 0);
        const auto rotated = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + op + " -v --overwrite -o " + quote(out));
        CAPTURE(sampling);
        CAPTURE(op);
        CAPTURE(rotated.output);
        REQUIRE(rotated.status == 0);
        CHECK(rotated.output.find("quality 73 (the input's") != std::string::npos);
        const auto character = run(std::string(GPUROTATE_CONVERT) + " " + quote(out) + " -format '%Q %[jpeg:sampling-factor]' info:");
        CHECK(character.output == std::string("73 ") + expected);
    }
}

#if GPUROTATE_TEST_WITH_OPENCV
TEST_CASE("TIFFs ImageMagick writes are read as stored: grey+alpha, unassociated alpha, 16-bit, planar, tiled, oriented") {
    // An oriented one is read as stored too, its Orientation applied by --auto-orient alone, as ImageMagick does.
    // OpenCV read 8-bit TIFFs through libtiff's RGBA interface: unassociated alpha came back premultiplied,
    // grey+alpha as grey, 16-bit grey+alpha as 8-bit. libtiff's plain reading keeps every sample.
    struct Case {
        const char* name;
        gpurotate::PixelFormat format;
        const char* options;  // convert's, PNG -> TIFF
    };
    const Case cases[] = {
        {"grey-alpha-8", {gpurotate::SampleType::u8, 2}, ""},
        {"grey-alpha-16", {gpurotate::SampleType::u16, 2}, ""},
        {"rgba-8", {gpurotate::SampleType::u8, 4}, ""},
        {"rgba-16-planar", {gpurotate::SampleType::u16, 4}, "-interlace plane"},
        {"rgb-8-tiled", {gpurotate::SampleType::u8, 3}, "-define tiff:tile-geometry=16x16"},
        {"rgb-8-zip", {gpurotate::SampleType::u8, 3}, "-compress zip"},
        {"grey-16-oriented", {gpurotate::SampleType::u16, 1}, "-orient RightTop"},
    };
    test_support::TempDir dir;
    for (const Case& c : cases) {
        CAPTURE(c.name);
        const std::string png = dir.file(std::string(c.name) + ".png"), tif = dir.file(std::string(c.name) + ".tif");
        gpurotate::write_image(png, test_support::random_image(37, 23, c.format, 11).view());
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " " + c.options + " " + quote(tif)).status == 0);
        // The pixels as stored, turned (the Orientation tag kept), and made upright first with --auto-orient.
        for (const char* extension : {".png", ".tif"}) {
            for (const std::string upright : {"", " -auto-orient"}) {
                const std::string ours = dir.file(std::string("ours") + extension), theirs = dir.file("theirs.png");
                const auto r = run(quote(GPUROTATE_EXE) + " " + quote(tif) + (upright.empty() ? "" : " --auto-orient") + " --rot90 --overwrite -o " + quote(ours));
                CAPTURE(extension);
                CAPTURE(upright);
                CAPTURE(r.output);
                REQUIRE(r.status == 0);
                REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(tif) + upright + " -rotate 90 " + quote(theirs)).status == 0);
                const auto compared = run(std::string(GPUROTATE_COMPARE) + " -metric AE " + quote(ours) + " " + quote(theirs) + " null:");
                CAPTURE(compared.output);
                CHECK(compared.output == "0");
                CHECK(gpurotate::read_image(ours).format() == c.format);
            }
        }
        // The TIFF written says what its alpha is (unassociated: ImageMagick's), as libtiff and its readers expect.
        if (c.format.channels % 2 == 0) {
            const auto identified = run(std::string(GPUROTATE_CONVERT) + " " + quote(dir.file("ours.tif")) + " -format '%[tiff:alpha]' info:");
            CHECK(identified.output == "unassociated");
        }
    }
}

TEST_CASE("what a TIFF reader leaves behind is said: later pages, CMYK, tags") {
    test_support::TempDir dir;
    const std::string png = dir.file("in.png");
    gpurotate::write_image(png, test_support::random_image(20, 10, {gpurotate::SampleType::u8, 3}, 12).view());
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " " + quote(png) + " -set comment 'a description' " + quote(dir.file("pages.tif"))).status == 0);
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " -colorspace CMYK " + quote(dir.file("cmyk.tif"))).status == 0);
    const auto pages = run(quote(GPUROTATE_EXE) + " " + quote(dir.file("pages.tif")) + " --rot90 -v -o " + quote(dir.file("pages.png")));
    CAPTURE(pages.output);
    CHECK(pages.status == 0);
    CHECK(pages.output.find("warning: '" + dir.file("pages.tif") + "': not kept: its page 2 (the first is read)") != std::string::npos);
    // The comment (ImageDescription) travels in the PNG's EXIF, in IFD0 as a camera's EXIF has it; a TGA, which holds
    // no EXIF, says the text tags are not written (and not EXIF, which the input did not have).
    CHECK(pages.output.find("text tags") == std::string::npos);
    const auto exif = gpurotate::read_metadata(dir.file("pages.png")).exif;
    const std::string description = "a description";
    CHECK(std::search(exif.begin(), exif.end(), description.begin(), description.end()) != exif.end());
    const auto tga = run(quote(GPUROTATE_EXE) + " " + quote(dir.file("pages.tif")) + " --rot90 -v -o " + quote(dir.file("pages.tga")));
    CHECK(tga.output.find("TGA output: not written: the TIFF's text tags") != std::string::npos);  // the input has no EXIF
    // TIFF to TIFF keeps them.
    REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(dir.file("pages.tif")) + " --rot90 -o " + quote(dir.file("out.tif"))).status == 0);
    const auto comment = run(std::string(GPUROTATE_CONVERT) + " " + quote(dir.file("out.tif")) + " -format '%c' info:");
    CHECK(comment.output == "a description");
    const auto cmyk = run(quote(GPUROTATE_EXE) + " " + quote(dir.file("cmyk.tif")) + " --rot90 -o " + quote(dir.file("cmyk.png")));
    CAPTURE(cmyk.output);
    CHECK(cmyk.status == 0);
    CHECK(cmyk.output.find("its CMYK colours (read as RGB)") != std::string::npos);
    CHECK(gpurotate::read_image(dir.file("cmyk.png")).format().channels == 3);  // RGB, not RGBA: a JPEG takes it
    CHECK(run(quote(GPUROTATE_EXE) + " " + quote(dir.file("cmyk.tif")) + " --rot90 -o " + quote(dir.file("cmyk.jpg"))).status == 0);
}

TEST_CASE("a truncated PSD is refused, not read with its missing rows black") {
    test_support::TempDir dir;
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " -size 40x30 plasma: -depth 8 " + quote(dir.file("p.psd"))).status == 0);
    REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(dir.file("p.psd")) + " --rot90 -o " + quote(dir.file("p.png"))).status == 0);
    const std::string whole = test_support::file_bytes(dir.file("p.psd"));
    test_support::write_bytes(dir.file("t.psd"), whole.substr(0, whole.size() - 300));
    const auto r = run(quote(GPUROTATE_EXE) + " " + quote(dir.file("t.psd")) + " --rot90 -o " + quote(dir.file("t.png")));
    CHECK(r.status == 3);
    CHECK(r.output.find("truncated") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("t.png")));
}
#endif

// The conversions a format that cannot keep the input asks for: --flatten/--background against
// convert -background C -flatten, and --depth 8 against convert -depth 8, pixel for pixel.
TEST_CASE("--background, --flatten and --depth 8 write what ImageMagick's -background C -flatten and -depth 8 write") {
    test_support::TempDir dir;
    const auto same_pixels = [&](const std::string& ours_args, const std::string& theirs_args, const std::string& in) {
        const std::string a = dir.file("ours.png"), b = dir.file("theirs.png");
        const auto made = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + ours_args + " --overwrite -o " + quote(a));
        CAPTURE(made.output);
        REQUIRE(made.status == 0);
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(in) + " " + theirs_args + " " + quote(b)).status == 0);
        const auto compared = run(std::string(GPUROTATE_COMPARE) + " -metric AE " + quote(a) + " " + quote(b) + " null:");
        CAPTURE(ours_args);
        CAPTURE(compared.output);
        CHECK(compared.output == "0");
        return gpurotate::read_image(a).format();
    };
    for (gpurotate::SampleType s : {gpurotate::SampleType::u8, gpurotate::SampleType::u16}) {
        for (int c : {2, 4}) {
            const gpurotate::PixelFormat f{s, c};
            CAPTURE(gpurotate::to_string(f));
            const std::string in = dir.file("alpha-" + gpurotate::to_string(f) + ".png");
            gpurotate::write_image(in, test_support::random_image(45, 31, f, static_cast<std::uint32_t>(10 + c)).view());
            const auto colour = same_pixels("--rot90 --flatten --background '#336699'", "-background '#336699' -flatten -rotate 90", in);
            CHECK(colour == gpurotate::PixelFormat{s, 3});
            same_pixels("--transpose --flatten", "-background white -flatten -transpose", in);
        }
    }
    for (int c = 1; c <= 4; ++c) {
        const gpurotate::PixelFormat f{gpurotate::SampleType::u16, c};
        const std::string in = dir.file("deep-" + std::to_string(c) + ".png");
        gpurotate::write_image(in, test_support::random_image(45, 31, f, static_cast<std::uint32_t>(20 + c)).view());
        CHECK(same_pixels("--flip-h --depth 8", "-flop -depth 8", in) == gpurotate::PixelFormat{gpurotate::SampleType::u8, c});
    }
}
