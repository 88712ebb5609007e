// TIFF and WebP through libtiff and libwebp, against programs we share no code with: ImageMagick makes the
// inputs and reads the outputs (compare -metric AE), tiffinfo says how a TIFF is coded, and the expected
// pixels are a plain-loop turn (reference.hpp) of the image the input was made from.

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using gpurotate::Orientation;
using gpurotate::PixelFormat;
using gpurotate::SampleType;
using test_support::quote;
using test_support::run;

namespace {

// tiffinfo's lines that say how the first page is coded, in its order.
std::string coding_lines(const std::string& tif) {
    const auto info = run(std::string(GPUROTATE_TIFFINFO) + " " + quote(tif));
    std::istringstream in(info.output);
    std::string lines;
    for (std::string line; std::getline(in, line);) {
        if (line.find("Predictor: none") != std::string::npos) continue;  // the same as no Predictor tag
        for (const char* key : {"Compression Scheme", "Predictor", "Planar Configuration", "Rows/Strip", "Bits/Sample", "Samples/Pixel", "Photometric"}) {
            if (line.find(key) != std::string::npos) lines += line + "\n";
        }
    }
    return lines;
}

// The number of pixels ImageMagick finds different between two files ("0": none).
std::string differing_pixels(const std::string& a, const std::string& b) {
    return run(std::string(GPUROTATE_COMPARE) + " -metric AE " + quote(a) + " " + quote(b) + " null:").output;
}

// A smooth 8-bit image (diagonal ramps per channel), which JPEG codes closely.
gpurotate::Image ramps(std::int64_t w, std::int64_t h, int channels) {
    gpurotate::Image image(w, h, {SampleType::u8, channels});
    for (std::int64_t y = 0; y < h; ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(image.view().row(y));
        for (std::int64_t x = 0; x < w; ++x) {
            for (int c = 0; c < channels; ++c) row[x * channels + c] = static_cast<std::uint8_t>((x * (c + 1) * 3 + y * 2 + c * 40) % 256);
        }
    }
    return image;
}

}  // namespace

TEST_CASE("a turned TIFF keeps its compression, predictor, planes and rows per strip, its pixels turned as a plain loop turns them") {
    test_support::TempDir dir;
    const std::vector<std::string> compressions = {"None", "LZW", "Zip", "RLE", "Zstd", "LZMA"};
    for (const SampleType s : {SampleType::u8, SampleType::u16}) {
        for (const int c : {1, 3, 4}) {
            const PixelFormat f{s, c};
            const auto image = test_support::random_image(37, 23, f, static_cast<std::uint32_t>(c * 7 + 1));
            const std::string png = dir.file("in.png"), expected = dir.file("expected.png");
            gpurotate::write_image(png, image.view(), {95, true});
            gpurotate::write_image(expected, reference::transform(image, Orientation::rot90).view(), {95, true});
            for (const auto& compression : compressions) {
                // A predictor where the compression takes one (ImageMagick refuses it otherwise): horizontal, or none.
                const bool differenced = compression != "None" && compression != "RLE";
                const std::string predictor = differenced ? " -define tiff:predictor=" : "";
                for (const std::string layout : {"-interlace none -define tiff:rows-per-strip=5" + predictor + (differenced ? "2" : ""),
                                                 "-interlace plane" + predictor + (differenced ? "1" : ""), std::string("-define tiff:rows-per-strip=100")}) {
                    CAPTURE(gpurotate::to_string(f));
                    CAPTURE(compression);
                    CAPTURE(layout);
                    const std::string in = dir.file("in.tif"), out = dir.file("out.tif");
                    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " -compress " + compression + " " + layout + " " + quote(in)).status == 0);
                    const auto turned = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(out));
                    CAPTURE(turned.output);
                    REQUIRE(turned.status == 0);
                    // One strip of the input's height is one strip of the output's.
                    std::string expected_lines = coding_lines(in);
                    const std::string one_strip = "Rows/Strip: " + std::to_string(image.height());
                    if (const auto at = expected_lines.find(one_strip + "\n"); at != std::string::npos) {
                        expected_lines.replace(at, one_strip.size(), "Rows/Strip: " + std::to_string(image.width()));
                    }
                    CHECK(coding_lines(out) == expected_lines);
                    CHECK(differing_pixels(out, expected) == "0");
                    CHECK(test_support::first_difference(gpurotate::read_image(out).view(), reference::transform(image, Orientation::rot90).view()) == -1);
                }
            }
        }
    }
}

TEST_CASE("--tiff-compression replaces the compression, keeps the rest, and refuses JPEG for 16-bit samples naming the file") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(41, 29, {SampleType::u16, 3}, 5);
    const std::string png = dir.file("in.png"), in = dir.file("in.tif");
    gpurotate::write_image(png, image.view());
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " -compress None -define tiff:rows-per-strip=3 " + quote(in)).status == 0);
    const std::vector<std::pair<std::string, std::string>> schemes = {{"lzw", "LZW"},   {"deflate", "AdobeDeflate"}, {"packbits", "PackBits"},
                                                                      {"zstd", "ZSTD"}, {"lzma", "LZMA"},          {"none", "None"}};
    for (const auto& named : schemes) {
        const std::string& compression = named.first;
        const std::string& scheme = named.second;
        CAPTURE(compression);
        const std::string out = dir.file(compression + ".tif");
        REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot270 --tiff-compression " + compression + " -o " + quote(out)).status == 0);
        const std::string lines = coding_lines(out);
        CHECK(lines.find("Compression Scheme: " + scheme) != std::string::npos);
        CHECK(lines.find("Rows/Strip: 3") != std::string::npos);
        // An uncompressed input has no predictor to keep: a differencing compression gets the horizontal one.
        const bool differenced = compression == "lzw" || compression == "deflate" || compression == "zstd" || compression == "lzma";
        CHECK((lines.find("Predictor: horizontal") != std::string::npos) == differenced);
        CHECK(test_support::first_difference(gpurotate::read_image(out).view(), reference::transform(image, Orientation::rot270).view()) == -1);
    }
    const auto refused = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --tiff-compression jpeg -o " + quote(dir.file("j.tif")));
    CHECK(refused.status == 4);
    CHECK(refused.output.find("cannot write '" + dir.file("j.tif") + "': TIFF: JPEG compression holds 8-bit samples only") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("j.tif")));
    CHECK(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --tiff-compression gzip -o " + quote(dir.file("g.tif"))).status == 2);
}

TEST_CASE("a JPEG-compressed TIFF stays JPEG, as YCbCr, close to the turned image") {
    test_support::TempDir dir;
    const auto image = ramps(64, 48, 3);
    const std::string png = dir.file("in.png"), in = dir.file("in.tif"), out = dir.file("out.tif"), expected = dir.file("expected.png");
    gpurotate::write_image(png, image.view());
    gpurotate::write_image(expected, reference::transform(image, Orientation::rot90).view());
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " -compress JPEG -quality 95 " + quote(in)).status == 0);
    REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -o " + quote(out)).status == 0);
    const std::string lines = coding_lines(out);
    CHECK(lines.find("Compression Scheme: JPEG") != std::string::npos);
    CHECK(lines.find("Photometric Interpretation: YCbCr") != std::string::npos);
    const auto psnr = run(std::string(GPUROTATE_COMPARE) + " -metric PSNR " + quote(out) + " " + quote(expected) + " null:");
    CAPTURE(psnr.output);
    CHECK(std::stod(psnr.output) > 30.0);
}

TEST_CASE("TIFFs large enough for their strips to be coded on several cores read back as ImageMagick reads them") {
    test_support::TempDir dir;
    // 1100x1000 RGB of 16 bits: 6.6 MB, above the size where the strips are coded on more than one thread.
    const auto image = test_support::random_image(1100, 1000, {SampleType::u16, 3}, 77);
    const std::string png = dir.file("in.png");
    gpurotate::write_image(png, image.view());
    for (const auto compression : {gpurotate::TiffCompression::lzw, gpurotate::TiffCompression::deflate, gpurotate::TiffCompression::zstd}) {
        for (const bool separate : {false, true}) {
            CAPTURE(gpurotate::to_string(compression));
            CAPTURE(separate);
            gpurotate::WriteOptions options;
            options.tiff.compression = compression;
            options.tiff.separate_planes = separate;
            options.overwrite = true;
            const std::string out = dir.file("big.tif");
            gpurotate::write_image(out, image.view(), options);
            CHECK(differing_pixels(out, png) == "0");
            CHECK(test_support::first_difference(gpurotate::read_image(out).view(), image.view()) == -1);
        }
    }
}

TEST_CASE("float TIFFs round-trip with each predictor and lossless compression") {
    test_support::TempDir dir;
    for (const int c : {1, 2, 3, 4}) {
        const auto image = test_support::random_image(19, 11, {SampleType::f32, c}, 3, test_support::FloatRange::unit);
        for (const auto predictor : {gpurotate::TiffPredictor::none, gpurotate::TiffPredictor::horizontal, gpurotate::TiffPredictor::floating_point}) {
            gpurotate::WriteOptions options;
            options.tiff.compression = gpurotate::TiffCompression::deflate;
            options.tiff.predictor = predictor;
            options.overwrite = true;
            gpurotate::write_image(dir.file("f.tif"), image.view(), options);
            const auto lines = coding_lines(dir.file("f.tif"));
            CAPTURE(lines);
            // No predictor is said by the tag's absence.
            const char* expected = predictor == gpurotate::TiffPredictor::none ? "Predictor" : predictor == gpurotate::TiffPredictor::horizontal ? "Predictor: horizontal" : "Predictor: floating point";
            CHECK((lines.find(expected) != std::string::npos) == (predictor != gpurotate::TiffPredictor::none));
            CHECK(test_support::first_difference(gpurotate::read_image(dir.file("f.tif")).view(), image.view()) == -1);
        }
    }
}

TEST_CASE("a lossy WebP is read as libwebp's ImageMagick reads it and stays lossy, a lossless one stays lossless") {
    test_support::TempDir dir;
    const auto image = ramps(33, 21, 4);
    const std::string png = dir.file("in.png");
    gpurotate::write_image(png, image.view());
    for (const std::string coding : {"-quality 80", "-define webp:lossless=true"}) {
        CAPTURE(coding);
        const std::string in = dir.file("in.webp"), out = dir.file("out.webp"), ours = dir.file("ours.png"), theirs = dir.file("theirs.png");
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + " " + coding + " " + quote(in)).status == 0);
        REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(ours)).status == 0);
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(in) + " -rotate 90 " + quote(theirs)).status == 0);
        CHECK(differing_pixels(ours, theirs) == "0");
        REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(out)).status == 0);
        const bool lossless = coding.find("lossless") != std::string::npos;
        CHECK((test_support::file_bytes(out).find("VP8L") != std::string::npos) == lossless);
        if (lossless) CHECK(differing_pixels(out, theirs) == "0");
    }
}

TEST_CASE("a lossless RGBA WebP whose alpha is all opaque stays RGBA, its pixels turned as a plain loop turns them") {
    // libwebp's lossless coder clears the bitstream's alpha hint where no pixel is transparent, and the file
    // then read back as RGB: the fuzzer's finding (a 13x9 RGBA file with an ICC profile).
    test_support::TempDir dir;
    gpurotate::Image image = ramps(13, 9, 4);
    for (std::int64_t y = 0; y < image.height(); ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(image.view().row(y));
        for (std::int64_t x = 0; x < image.width(); ++x) row[x * 4 + 3] = 255;
    }
    gpurotate::WriteOptions lossless;
    lossless.lossless = true;
    const std::string in = dir.file("in.webp"), out = dir.file("out.webp");
    gpurotate::write_image(in, image.view(), lossless);
    CHECK(gpurotate::read_image(in).format().channels == 4);
    REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -o " + quote(out)).status == 0);
    const gpurotate::Image turned = gpurotate::read_image(out);
    REQUIRE(turned.format().channels == 4);
    const gpurotate::Image expected = reference::transform(image, Orientation::rot90);
    REQUIRE(turned.width() == expected.width());
    REQUIRE(turned.height() == expected.height());
    for (std::int64_t y = 0; y < expected.height(); ++y) {
        CHECK(std::memcmp(turned.view().row(y), expected.view().row(y), static_cast<std::size_t>(expected.view().row_bytes())) == 0);
    }
}

TEST_CASE("a TIFF or WebP run maps none of OpenCV's libraries") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(16, 16, {SampleType::u8, 3}, 1);
    for (const std::string extension : {".tif", ".webp"}) {
        CAPTURE(extension);
        const std::string in = dir.file("in" + extension), out = dir.file("out" + extension);
        gpurotate::write_image(in, image.view(), {95, true});
        // The dynamic loader names every library it maps (glibc's LD_DEBUG=libs).
        const auto traced = run("LD_DEBUG=libs " + quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(out));
        REQUIRE(traced.status == 0);
        CHECK(traced.output.find("libtiff") != std::string::npos);  // the trace is there: it names what is mapped
        CHECK(traced.output.find("opencv") == std::string::npos);
    }
}

namespace {

// The 128-byte header of an ICC profile and nothing else: its size, class and data colour space (bytes 16-19),
// the 'acsp' signature. Enough for ImageMagick to embed it and for a reader to say what it describes.
std::string icc_header(const char space[4]) {
    std::string icc(132, '\0');
    test_support::put_be(icc, 0, 132, 4);
    icc.replace(12, 4, "prtr");
    icc.replace(16, 4, space, 4);
    icc.replace(20, 4, "Lab ");
    icc.replace(36, 4, "acsp");
    return icc;
}

}  // namespace

TEST_CASE("a CMYK TIFF's ICC profile does not follow its pixels, made RGB, into an output: the warning names it") {
    test_support::TempDir dir;
    const std::string png = dir.file("in.png");
    gpurotate::write_image(png, ramps(23, 17, 3).view());
    for (const bool cmyk : {true, false}) {
        CAPTURE(cmyk);
        const std::string icc = dir.file("p.icc"), in = dir.file("in.tif");
        test_support::write_bytes(icc, icc_header(cmyk ? "CMYK" : "RGB "));
        const std::string colourspace = cmyk ? " -colorspace CMYK" : "";
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(png) + colourspace + " -profile " + quote(icc) + " -compress None " + quote(in)).status == 0);
        REQUIRE(coding_lines(in).find(cmyk ? "separated" : "RGB") != std::string::npos);
        for (const std::string ext : {".tif", ".png"}) {
            CAPTURE(ext);
            const std::string out = dir.file("out" + ext);
            const auto turned = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(out));
            REQUIRE(turned.status == 0);
            // An RGB profile travels; a CMYK one would say the RGB pixels are inks.
            const std::string bytes = test_support::file_bytes(out);
            const bool has_profile = ext == ".png" ? bytes.find("iCCP") != std::string::npos
                                                   : run(std::string(GPUROTATE_TIFFINFO) + " " + quote(out)).output.find("ICC Profile") != std::string::npos;
            CHECK(has_profile == !cmyk);
            CHECK((turned.output.find("ICC profile") != std::string::npos) == cmyk);
        }
    }
}

TEST_CASE("-i refuses a TIFF of several pages, which it would replace by its first: the file is left as it was") {
    test_support::TempDir dir;
    const std::string a = dir.file("a.png"), b = dir.file("b.png"), in = dir.file("pages.tif");
    gpurotate::write_image(a, ramps(13, 7, 3).view());
    gpurotate::write_image(b, ramps(13, 7, 1).view());
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(a) + " " + quote(b) + " " + quote(in)).status == 0);
    REQUIRE(run(std::string(GPUROTATE_TIFFINFO) + " " + quote(in)).output.find("TIFF Directory at offset", 30) != std::string::npos);  // two
    const std::string before = test_support::file_bytes(in);
    const auto turned = run(quote(GPUROTATE_EXE) + " -i " + quote(in) + " --rot90");
    CAPTURE(turned.output);
    CHECK(turned.status == 4);
    CHECK(turned.output.find("'" + in + "'") != std::string::npos);
    CHECK(turned.output.find("2 pages") != std::string::npos);
    CHECK(test_support::file_bytes(in) == before);
    // One page: turned in place.
    const std::string one = dir.file("one.tif");
    REQUIRE(run(std::string(GPUROTATE_CONVERT) + " " + quote(a) + " " + quote(one)).status == 0);
    CHECK(run(quote(GPUROTATE_EXE) + " -i " + quote(one) + " --rot90").status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(one).view(), reference::transform(ramps(13, 7, 3), Orientation::rot90).view()) == -1);
}

TEST_CASE("a TIFF whose extra sample is unspecified data says so again when turned, and a PNG output says it cannot") {
    test_support::TempDir dir;
    const std::string in = dir.file("in.tif");
    // ImageMagick's own TIFF with ExtraSamples 0 (tiffinfo: "1<unspecified>"), and one with alpha for contrast.
    for (const std::string alpha : {"unspecified", "unassociated"}) {
        CAPTURE(alpha);
        REQUIRE(run(std::string(GPUROTATE_CONVERT) + " -size 7x5 gradient:red-blue -alpha set -channel A -evaluate set 50% +channel -define tiff:alpha=" +
                    alpha + " -compress None " + quote(in))
                    .status == 0);
        const std::string said = alpha == "unspecified" ? "1<unspecified>" : "1<unassoc-alpha>";
        REQUIRE(run(std::string(GPUROTATE_TIFFINFO) + " " + quote(in)).output.find("Extra Samples: " + said) != std::string::npos);
        const std::string tif = dir.file("out.tif"), png = dir.file("out.png");
        REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(tif)).status == 0);
        CHECK(run(std::string(GPUROTATE_TIFFINFO) + " " + quote(tif)).output.find("Extra Samples: " + said) != std::string::npos);
        const auto to_png = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -v --overwrite -o " + quote(png));
        CAPTURE(to_png.output);
        REQUIRE(to_png.status == 0);
        CHECK((to_png.output.find("that the extra sample is not alpha") != std::string::npos) == (alpha == "unspecified"));
    }
}
