// Codec round trips for each format and depth, and clean errors for bad files.

#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <functional>
#include <limits>

using gpurotate::PixelFormat;
using gpurotate::SampleType;
using test_support::code_of;

namespace {

// A smooth image (gradients plus a little noise) that lossy codecs reproduce closely.
gpurotate::Image smooth_image(std::int64_t w, std::int64_t h, PixelFormat f) {
    gpurotate::Image image(w, h, f);
    for (std::int64_t y = 0; y < h; ++y) {
        for (std::int64_t x = 0; x < w; ++x) {
            for (int c = 0; c < f.channels; ++c) {
                const double v = 0.5 + 0.4 * std::sin(0.05 * static_cast<double>(x + 3 * c)) * std::cos(0.04 * static_cast<double>(y));
                std::byte* p = image.view().row(y) + (x * f.channels + c) * static_cast<std::int64_t>(gpurotate::sample_bytes(f.sample));
                if (f.sample == SampleType::u8) *reinterpret_cast<std::uint8_t*>(p) = static_cast<std::uint8_t>(v * 255);
                if (f.sample == SampleType::u16) *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v * 65535);
                if (f.sample == SampleType::f32) *reinterpret_cast<float*>(p) = static_cast<float>(v * 4.0);
            }
        }
    }
    return image;
}

double psnr_u8(gpurotate::ConstImageView a, gpurotate::ConstImageView b) {
    double sum = 0;
    std::size_t n = 0;
    for (std::int64_t y = 0; y < a.height; ++y) {
        for (std::size_t i = 0; i < a.row_bytes(); ++i) {
            const double d = double(std::to_integer<int>(a.row(y)[i])) - double(std::to_integer<int>(b.row(y)[i]));
            sum += d * d;
            ++n;
        }
    }
    return sum == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 / (sum / double(n)));
}

}  // namespace

TEST_CASE("PNG round trip is exact for 8 and 16 bits and 1 to 4 channels") {
    test_support::TempDir dir;
    for (SampleType s : {SampleType::u8, SampleType::u16}) {
        for (int c = 1; c <= 4; ++c) {
            const PixelFormat f{s, c};
            const auto image = test_support::random_image(37, 23, f, static_cast<std::uint32_t>(c));
            const std::string path = dir.file("round-" + gpurotate::to_string(f) + ".png");
            gpurotate::write_image(path, image.view());
            const auto back = gpurotate::read_image(path);
            CAPTURE(gpurotate::to_string(f));
            CHECK(back.format() == f);
            CHECK(test_support::first_difference(back.view(), image.view()) == -1);
        }
    }
}

TEST_CASE("TGA and BMP round trips are exact where the format holds the pixels") {
    test_support::TempDir dir;
    for (int c : {1, 2, 3, 4}) {
        const PixelFormat f{SampleType::u8, c};
        const auto image = test_support::random_image(19, 11, f, 40u + static_cast<std::uint32_t>(c));
        gpurotate::write_image(dir.file("t.tga"), image.view(), {95, true});
        const auto back = gpurotate::read_image(dir.file("t.tga"));
        CAPTURE(c);
        CHECK(back.format() == f);
        CHECK(test_support::first_difference(back.view(), image.view()) == -1);
    }
    for (int c : {3, 4}) {
        const PixelFormat f{SampleType::u8, c};
        const auto image = test_support::random_image(19, 11, f, 50u + static_cast<std::uint32_t>(c));
        gpurotate::write_image(dir.file("t.bmp"), image.view(), {95, true});
        const auto back = gpurotate::read_image(dir.file("t.bmp"));
        CAPTURE(c);
        CHECK(back.format() == f);
        CHECK(test_support::first_difference(back.view(), image.view()) == -1);
    }
}

TEST_CASE("JPEG round trip is close at quality 95") {
    test_support::TempDir dir;
    const auto image = smooth_image(64, 48, {SampleType::u8, 3});
    gpurotate::write_image(dir.file("t.jpg"), image.view(), {95, false});
    const auto back = gpurotate::read_image(dir.file("t.jpg"));
    REQUIRE(back.format() == image.format());
    CHECK(back.width() == 64);
    CHECK(back.height() == 48);
    CHECK(psnr_u8(back.view(), image.view()) > 35.0);
}

TEST_CASE("HDR round trip keeps floats within RGBE precision") {
    test_support::TempDir dir;
    const auto image = smooth_image(20, 10, {SampleType::f32, 3});
    gpurotate::write_image(dir.file("t.hdr"), image.view());
    const auto back = gpurotate::read_image(dir.file("t.hdr"));
    REQUIRE(back.format() == image.format());
    const auto* a = reinterpret_cast<const float*>(image.data());
    const auto* b = reinterpret_cast<const float*>(back.data());
    for (std::size_t i = 0; i < 20 * 10 * 3; ++i) CHECK(std::fabs(a[i] - b[i]) <= 0.01f * std::fabs(a[i]) + 1e-3f);
}

TEST_CASE("HDR refuses what RGBE cannot hold (negative, infinite, NaN) and writes nothing") {
    test_support::TempDir dir;
    for (const float bad : {-0.5f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
        auto image = smooth_image(5, 4, {SampleType::f32, 3});
        reinterpret_cast<float*>(image.view().row(2))[3 * 3 + 1] = bad;  // pixel (3, 2), green
        std::string message;
        CHECK(code_of([&] { gpurotate::write_image(dir.file("t.hdr"), image.view()); }, &message) == gpurotate::ErrorCode::output);
        CHECK(message.find("pixel (3, 2)") != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("t.hdr")));
    }
}

namespace {

std::uint16_t u16_at(const gpurotate::Image& image, std::int64_t x, std::int64_t y, int c = 0) {
    return reinterpret_cast<const std::uint16_t*>(image.view().row(y))[x * image.format().channels + c];
}
std::uint8_t u8_at(const gpurotate::Image& image, std::int64_t x, std::int64_t y, int c = 0) {
    return reinterpret_cast<const std::uint8_t*>(image.view().row(y))[x * image.format().channels + c];
}

}  // namespace

TEST_CASE("binary Netpbm: 16-bit samples in file order, maxval scaled to the full range, a PAM's RGB in order") {
    test_support::TempDir dir;
    const auto read = [&](const std::string& name, const std::string& bytes) {
        test_support::write_bytes(dir.file(name), bytes);
        return gpurotate::read_image(dir.file(name));
    };
    // Big-endian 16-bit samples: 0x0102 is 258, not 513.
    const auto g16 = read("g16.pgm", std::string("P5\n# a comment\n3 1\n65535\n") + std::string("\x01\x02\x03\x04\xff\xfe", 6));
    REQUIRE(g16.format() == PixelFormat{SampleType::u16, 1});
    CHECK(u16_at(g16, 0, 0) == 0x0102);
    CHECK(u16_at(g16, 1, 0) == 0x0304);
    CHECK(u16_at(g16, 2, 0) == 0xfffe);
    // maxval 1023: 512 of 1023 is 32800 of 65535 (rounded), 1023 is full.
    const auto g10 = read("g10.pgm", std::string("P5 3 1 1023\n") + std::string("\x00\x00\x02\x00\x03\xff", 6));
    REQUIRE(g10.format() == PixelFormat{SampleType::u16, 1});
    CHECK(u16_at(g10, 0, 0) == 0);
    CHECK(u16_at(g10, 1, 0) == 32800);
    CHECK(u16_at(g10, 2, 0) == 65535);
    // maxval 100, 8-bit: 50 is 128 of 255, 100 is 255.
    const auto p100 = read("p100.ppm", std::string("P6 1 1 100\n") + std::string("\x32\x64\x00", 3));
    REQUIRE(p100.format() == PixelFormat{SampleType::u8, 3});
    CHECK(u8_at(p100, 0, 0, 0) == 128);
    CHECK(u8_at(p100, 0, 0, 1) == 255);
    CHECK(u8_at(p100, 0, 0, 2) == 0);
    // PAM: red stays red (OpenCV read it as blue), alpha and 16 bits kept.
    const auto rgb = read("rgb.pam", std::string("P7\nWIDTH 2\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n") + "\xc8\x64\x32\x0a\x14\x1e");
    REQUIRE(rgb.format() == PixelFormat{SampleType::u8, 3});
    CHECK(u8_at(rgb, 0, 0, 0) == 200);
    CHECK(u8_at(rgb, 0, 0, 2) == 50);
    CHECK(u8_at(rgb, 1, 0, 0) == 10);
    const auto rgba = read("rgba.pam", std::string("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 65535\nTUPLTYPE RGB_ALPHA\nENDHDR\n") +
                                           std::string("\x12\x34\x00\x00\x00\x00\x80\x00", 8));
    REQUIRE(rgba.format() == PixelFormat{SampleType::u16, 4});
    CHECK(u16_at(rgba, 0, 0, 0) == 0x1234);
    CHECK(u16_at(rgba, 0, 0, 3) == 0x8000);

    const std::vector<std::pair<std::string, std::string>> bad = {
        {"truncated.ppm", std::string("P6 2 2 255\n") + std::string(11, 'x')},
        {"over-maxval.pgm", "P5 1 1 100\n\x65"},
        {"no-endhdr.pam", "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\n"},
        {"five-channels.pam", std::string("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 5\nMAXVAL 255\nENDHDR\n") + std::string(5, 'x')},
        {"zero-maxval.pgm", "P5 1 1 0\nx"},
    };
    for (const auto& entry : bad) {
        const std::string& name = entry.first;
        CAPTURE(name);
        test_support::write_bytes(dir.file(name), entry.second);
        std::string message;
        CHECK(code_of([&] { gpurotate::read_image(dir.file(name)); }, &message) == gpurotate::ErrorCode::input);
        CHECK(message.find(dir.file(name)) != std::string::npos);
    }
}

TEST_CASE("plain Netpbm (P1-P3) and binary bitmaps (P4) read as the binary ones do, and a CMYK PAM is refused") {
    test_support::TempDir dir;
    const auto read = [&](const std::string& name, const std::string& bytes) {
        test_support::write_bytes(dir.file(name), bytes);
        return gpurotate::read_image(dir.file(name));
    };
    const auto p3 = read("a.ppm", "P3\n# plain\n2 1\n1023\n0 511 1023 1023 0 512\n");
    REQUIRE(p3.format() == PixelFormat{SampleType::u16, 3});
    CHECK(u16_at(p3, 0, 0, 1) == 32735);  // 511 of 1023, scaled as the binary reader scales
    CHECK(u16_at(p3, 1, 0, 2) == 32800);
    const auto p2 = read("b.pgm", "P2 2 1 100\n50 100");
    REQUIRE(p2.format() == PixelFormat{SampleType::u8, 1});
    CHECK(u8_at(p2, 0, 0) == 128);
    // Bitmaps: 1 is black. P1's digits may stand packed; P4's rows are whole bytes.
    const auto p1 = read("c.pbm", "P1\n3 2\n101\n0 1 0\n");
    REQUIRE(p1.format() == PixelFormat{SampleType::u8, 1});
    CHECK(u8_at(p1, 0, 0) == 0);
    CHECK(u8_at(p1, 1, 0) == 255);
    CHECK(u8_at(p1, 1, 1) == 0);
    const auto p4 = read("d.pbm", std::string("P4\n10 1\n", 8) + std::string("\xa0\x40", 2));  // 1010000000 then 01 in the second byte
    CHECK(u8_at(p4, 0, 0) == 0);
    CHECK(u8_at(p4, 1, 0) == 255);
    CHECK(u8_at(p4, 2, 0) == 0);
    CHECK(u8_at(p4, 9, 0) == 0);
    for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
             {"cut.ppm", "P3 2 1 255\n1 2 3 4"},
             {"cut.pbm", std::string("P4 20 2\n", 8) + std::string(3, '\xff')},
             {"cmyk.pam", "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE CMYK\nENDHDR\nxxxx"}}) {
        const std::string& name = entry.first;  // not a structured binding: clang 14 cannot capture one in a lambda
        CAPTURE(name);
        test_support::write_bytes(dir.file(name), entry.second);
        CHECK(code_of([&] { gpurotate::read_image(dir.file(name)); }) == gpurotate::ErrorCode::input);
    }
}

namespace {

// A BMP of `width` x `height` palette indices coded as `runs` (RLE8 for 8 bits, RLE4 for 4), with the
// palette 0 black, 1 red, 2 green, 3 blue.
std::string rle_bmp(int width, int height, int bits, const std::string& runs) {
    std::string b = "BM";
    const auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) b += static_cast<char>(v >> (8 * i) & 255); };
    const auto u16 = [&](std::uint32_t v) { b += static_cast<char>(v & 255), b += static_cast<char>(v >> 8 & 255); };
    u32(14 + 40 + 16 + static_cast<std::uint32_t>(runs.size())), u32(0), u32(14 + 40 + 16);
    u32(40), u32(static_cast<std::uint32_t>(width)), u32(static_cast<std::uint32_t>(height)), u16(1), u16(static_cast<std::uint32_t>(bits));
    u32(bits == 8 ? 1 : 2), u32(static_cast<std::uint32_t>(runs.size())), u32(2835), u32(2835), u32(4), u32(0);
    b += std::string("\0\0\0\0\0\0\xff\0\0\xff\0\0\xff\0\0\0", 16);  // BGRX: black, red, green, blue
    return b + runs;
}

}  // namespace

TEST_CASE("run-length coded BMPs (RLE8, RLE4) of odd widths decode exactly, and cut-short runs are refused") {
    test_support::TempDir dir;
    // 5x3, bottom row first. RLE8: row 0 a run of 2 reds, then 3 absolute (red, green, blue) padded to even;
    // row 1 a run of 3 greens and a delta 2 to the right (those stay index 0); row 2 3 absolute (blue, red,
    // green), a run of 2 blacks, end of bitmap. (An absolute run is 3 or more: 00 02 is the delta code.)
    const std::string rle8 = std::string("\x02\x01\x00\x03\x01\x02\x03\x00\x00\x00", 10) + std::string("\x03\x02\x00\x02\x02\x00\x00\x00", 8) +
                             std::string("\x00\x03\x03\x01\x02\x00\x02\x00\x00\x01", 10);
    // RLE4, the same pixels: a run's two nibbles alternate; absolute nibbles packed two a byte, padded to even bytes.
    const std::string rle4 = std::string("\x02\x11\x00\x03\x12\x30\x00\x00", 8) + std::string("\x03\x22\x00\x02\x02\x00\x00\x00", 8) +
                             std::string("\x00\x03\x31\x20\x02\x00\x00\x01", 8);
    const std::uint8_t expected[3][5] = {{3, 1, 2, 0, 0}, {2, 2, 2, 0, 0}, {1, 1, 1, 2, 3}};  // top row first
    const std::uint8_t rgb[4][3] = {{0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    for (const int bits : {8, 4}) {
        CAPTURE(bits);
        const std::string path = dir.file("rle" + std::to_string(bits) + ".bmp");
        test_support::write_bytes(path, rle_bmp(5, 3, bits, bits == 8 ? rle8 : rle4));
        const auto image = gpurotate::read_image(path);
        REQUIRE(image.format() == PixelFormat{SampleType::u8, 3});
        REQUIRE(image.width() == 5);
        for (int y = 0; y < 3; ++y) {
            for (int x = 0; x < 5; ++x) {
                CAPTURE(x);
                CAPTURE(y);
                for (int c = 0; c < 3; ++c) CHECK(u8_at(image, x, y, c) == rgb[expected[y][x]][c]);
            }
        }
        test_support::write_bytes(path, rle_bmp(5, 3, bits, (bits == 8 ? rle8 : rle4).substr(0, 11)));
        std::string message;
        CHECK(code_of([&] { gpurotate::read_image(path); }, &message) == gpurotate::ErrorCode::input);
        CHECK(message.find("truncated") != std::string::npos);
    }
}

#if GPUROTATE_TEST_WITH_OPENCV
TEST_CASE("plugin formats: TIFF exact for every depth and channel count, EXR exact for float") {
    test_support::TempDir dir;
    for (SampleType s : {SampleType::u8, SampleType::u16, SampleType::f32}) {
        for (int c : {1, 2, 3, 4}) {  // alpha written unassociated (ExtraSamples 2), read back as stored, not premultiplied
            const PixelFormat f{s, c};
            const auto image = s == SampleType::f32 ? smooth_image(21, 13, f) : test_support::random_image(21, 13, f, 60);
            gpurotate::write_image(dir.file("t.tif"), image.view(), {95, true});
            const auto back = gpurotate::read_image(dir.file("t.tif"));
            CAPTURE(gpurotate::to_string(f));
            CHECK(back.format() == f);
            CHECK(test_support::first_difference(back.view(), image.view()) == -1);
        }
    }
    const auto image = smooth_image(21, 13, {SampleType::f32, 3});
    gpurotate::write_image(dir.file("t.exr"), image.view());
    const auto back = gpurotate::read_image(dir.file("t.exr"));
    CHECK(back.format() == image.format());
    CHECK(test_support::first_difference(back.view(), image.view()) == -1);
}

TEST_CASE("a TIFF keeps its ICC profile, text tags and premultiplied alpha through a write and a read") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(9, 7, {SampleType::u16, 4}, 61);
    gpurotate::ImageMetadata meta;
    meta.icc.assign(300, 0);
    for (std::size_t i = 0; i < meta.icc.size(); ++i) meta.icc[i] = static_cast<std::uint8_t>(i * 7);
    meta.associated_alpha = true;
    meta.tiff_text = {{270, "a description"}, {315, "An Artist"}, {33432, "(c) 2026"}};
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.tif"), image.view(), options);
    const auto read = gpurotate::read_metadata(dir.file("in.tif"));
    CHECK(read.icc == meta.icc);
    CHECK(read.associated_alpha);
    CHECK(read.tiff_text == meta.tiff_text);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("in.tif")).view(), image.view()) == -1);  // as stored
    gpurotate::write_image(dir.file("plain.tif"), image.view());
    CHECK_FALSE(gpurotate::read_metadata(dir.file("plain.tif")).associated_alpha);
    CHECK(gpurotate::read_metadata(dir.file("plain.tif")).icc.empty());
}

TEST_CASE("a WebP carries the ICC profile and EXIF, in and out") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(9, 7, {SampleType::u8, 3}, 63);
    gpurotate::ImageMetadata meta;
    meta.icc.assign(120, 0x42);
    meta.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};  // Orientation 6
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    options.lossless = true;
    gpurotate::write_image(dir.file("m.webp"), image.view(), options);
    const auto read = gpurotate::read_metadata(dir.file("m.webp"));
    CHECK(read.icc == meta.icc);
    CHECK(read.exif == meta.exif);
    CHECK(gpurotate::exif_orientation(read) == 6);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("m.webp")).view(), image.view()) == -1);
}

namespace {

// A little-endian TIFF of one directory: `entries` (tag, type, value; one value each, sorted by tag), then
// `data` from byte 8 + the directory's size.
std::string tiff_with(const std::vector<std::array<std::uint32_t, 3>>& entries, const std::string& data) {
    std::string t = "II*";
    t += '\0';
    const auto u16 = [&](std::uint32_t v) { t += static_cast<char>(v & 255), t += static_cast<char>(v >> 8 & 255); };
    const auto u32 = [&](std::uint32_t v) { u16(v & 0xffff), u16(v >> 16); };
    u32(8);
    u16(static_cast<std::uint32_t>(entries.size()));
    for (const auto& e : entries) {
        u16(e[0]), u16(e[1]), u32(1);
        if (e[1] == 3 || e[1] == 8) {
            u16(e[2]), u16(0);
        } else {
            u32(e[2]);
        }
    }
    u32(0);
    return t + data;
}

}  // namespace

TEST_CASE("a TIFF's declared size is checked before its pixels whatever the integer type, and tiles far past the image are refused") {
    test_support::TempDir dir;
    // 100000x100000 declared as SLONG (type 9), which libtiff takes: refused from the header by the pixel limit.
    const std::string slong = tiff_with({{256, 9, 100000}, {257, 9, 100000}, {258, 3, 8}, {259, 3, 1}, {262, 3, 1}, {273, 4, 200}, {277, 3, 1},
                                         {278, 4, 100000}, {279, 4, 16}},
                                        std::string(200, '\0'));
    test_support::write_bytes(dir.file("slong.tif"), slong);
    std::string message;
    CHECK(code_of([&] { gpurotate::read_image(dir.file("slong.tif")); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("over the limit") != std::string::npos);
    // 16x16 with 16384x16384 tiles: one tile would be 256 MiB for a 256-byte image.
    const std::uint32_t data_at = 8 + 2 + 10 * 12 + 4;
    const std::string tiled = tiff_with({{256, 3, 16}, {257, 3, 16}, {258, 3, 8}, {259, 3, 1}, {262, 3, 1}, {277, 3, 1}, {322, 3, 16384},
                                         {323, 3, 16384}, {324, 4, data_at}, {325, 4, 256}},
                                        std::string(256, '\x40'));
    test_support::write_bytes(dir.file("tiles.tif"), tiled);
    CHECK(code_of([&] { gpurotate::read_image(dir.file("tiles.tif")); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("its tiles are far larger than the image") != std::string::npos);
}

TEST_CASE("an OpenEXR image with no colour channel is refused, not read as black") {
    test_support::TempDir dir;
    // Magic, version 2, the attribute "channels" (chlist) with the one channel Z, then the header's end.
    std::string exr("\x76\x2f\x31\x01\x02\x00\x00\x00", 8);
    const std::string list = std::string("Z\0", 2) + std::string(16, '\0') + std::string(1, '\0');
    exr += std::string("channels\0chlist\0", 16);
    for (int i = 0; i < 4; ++i) exr += static_cast<char>(list.size() >> (8 * i) & 255);
    exr += list + std::string(1, '\0');
    test_support::write_bytes(dir.file("z.exr"), exr);
    std::string message;
    CHECK(code_of([&] { gpurotate::read_image(dir.file("z.exr")); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("no R, G, B or Y channel") != std::string::npos);
}

TEST_CASE("greyscale JPEG stays one channel with OpenCV's encoder") {
    test_support::TempDir dir;
    const auto image = smooth_image(32, 16, {SampleType::u8, 1});
    gpurotate::write_image(dir.file("g.jpg"), image.view());
    CHECK(gpurotate::read_image(dir.file("g.jpg")).format() == image.format());
}
#endif

TEST_CASE("bad input files give input errors naming the file") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(40, 30, {SampleType::u8, 3}, 70);
    gpurotate::write_image(dir.file("good.png"), image.view());
    gpurotate::write_image(dir.file("good.jpg"), image.view());
    gpurotate::write_image(dir.file("good.bmp"), image.view());
    gpurotate::write_image(dir.file("good.tga"), image.view());  // stb writes run-length coded TGA
    const std::string png = test_support::file_bytes(dir.file("good.png"));
    const std::string jpg = test_support::file_bytes(dir.file("good.jpg"));
    const std::string bmp = test_support::file_bytes(dir.file("good.bmp"));
    const std::string tga = test_support::file_bytes(dir.file("good.tga"));
    const std::string gif = test_support::gif_bytes(40, 30, 1, false);
    std::string raw_tga = tga.substr(0, 18) + std::string(40 * 30 * 3, '\x42');  // uncompressed, complete...
    raw_tga[2] = 2;

    std::string bad_crc = png;
    bad_crc[40] = static_cast<char>(bad_crc[40] ^ 0x55);  // inside IDAT
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"empty.png", ""},
        {"text.png", "this is not an image at all"},
        {"truncated.png", png.substr(0, png.size() / 2)},
        {"badcrc.png", bad_crc},
        {"truncated.jpg", jpg.substr(0, jpg.size() / 2)},
        {"header-only.jpg", jpg.substr(0, 20)},
        // stb reads past the end of these as zeros: refused from their headers instead.
        {"truncated.bmp", bmp.substr(0, bmp.size() - 1)},
        {"truncated.tga", tga.substr(0, tga.size() / 2)},
        {"truncated-raw.tga", raw_tga.substr(0, raw_tga.size() - 1)},  // ...less one byte
        // stb decodes a GIF's first frame as far as its data go.
        {"truncated.gif", gif.substr(0, gif.size() - 3)},
    };
    for (const auto& entry : cases) {  // named members, not a structured binding: CAPTURE cannot take one in clang 14
        const std::string& name = entry.first;
        const std::string& bytes = entry.second;
        const std::string path = dir.file(name);
        test_support::write_bytes(path, bytes);
        std::string message;
        CAPTURE(name);
        CHECK(code_of([&] { gpurotate::read_image(path); }, &message) == gpurotate::ErrorCode::input);
        CHECK(message.find(path) != std::string::npos);
    }
    test_support::write_bytes(dir.file("raw.tga"), raw_tga);
    CHECK(gpurotate::read_image(dir.file("raw.tga")).width() == 40);  // the complete one decodes
    std::string message;
    CHECK(code_of([&] { gpurotate::read_image(dir.file("missing.png")); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("No such file") != std::string::npos);
    CHECK(code_of([&] { gpurotate::read_image(dir.path()); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("directory") != std::string::npos);
}

TEST_CASE("TGA refuses a side over 65535 pixels instead of writing its low 16 bits") {
    // Found by fuzz_roundtrip: a 1x1048577 image came back from TGA as 1x1.
    test_support::TempDir dir;
    const auto tall = test_support::random_image(1, 65536, {SampleType::u8, 4}, 12);
    std::string message;
    CHECK(code_of([&] { gpurotate::write_image(dir.file("t.tga"), tall.view()); }, &message) == gpurotate::ErrorCode::output);
    CHECK(message.find("65535") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("t.tga")));
    const auto edge = test_support::random_image(1, 65535, {SampleType::u8, 4}, 13);
    gpurotate::write_image(dir.file("e.tga"), edge.view());
    CHECK(gpurotate::read_image(dir.file("e.tga")).height() == 65535);
}

TEST_CASE("output errors: unknown extension, format that cannot hold the pixels, missing directory, existing file") {
    test_support::TempDir dir;
    const auto rgb16 = test_support::random_image(8, 8, {SampleType::u16, 3}, 80);
    std::string message;
    CHECK(code_of([&] { gpurotate::write_image(dir.file("x.xyz"), rgb16.view()); }, &message) == gpurotate::ErrorCode::output);
    CHECK(message.find("unknown output extension") != std::string::npos);
    CHECK(code_of([&] { gpurotate::write_image(dir.file("noext"), rgb16.view()); }) == gpurotate::ErrorCode::output);
    CHECK(code_of([&] { gpurotate::write_image(dir.file("x.jpg"), rgb16.view()); }, &message) == gpurotate::ErrorCode::output);
    CHECK(message.find("cannot hold") != std::string::npos);
    CHECK(code_of([&] { gpurotate::write_image(dir.file("no/such/dir/x.png"), rgb16.view()); }, &message) ==
          gpurotate::ErrorCode::output);
    CHECK(message.find("does not exist") != std::string::npos);
    gpurotate::write_image(dir.file("x.png"), rgb16.view());
    CHECK(code_of([&] { gpurotate::write_image(dir.file("x.png"), rgb16.view()); }, &message) == gpurotate::ErrorCode::output);
    CHECK(message.find("already exists") != std::string::npos);
    gpurotate::write_image(dir.file("x.png"), rgb16.view(), {95, true});  // --overwrite replaces it
    // The advice names only formats that hold the pixels: RGB16 goes to PNG, not to BMP or JPEG.
    CHECK(code_of([&] { gpurotate::write_image(dir.file("x.bmp"), rgb16.view()); }, &message) == gpurotate::ErrorCode::output);
    CHECK(message.find("e.g. .png") != std::string::npos);
    CHECK(message.find(".jpg") == std::string::npos);
    // A view without pixels is the caller's mistake in every format (one once crashed the BMP, TGA and HDR
    // encoders): no memory, a side of 0, a pitch smaller than a row.
    for (const char* name : {"v.png", "v.jpg", "v.bmp", "v.tga", "v.hdr"}) {
        const PixelFormat format = std::string(name) == "v.hdr" ? PixelFormat{SampleType::f32, 3} : PixelFormat{SampleType::u8, 3};
        const gpurotate::Image pixels(7, 3, format);
        CAPTURE(name);
        CHECK(code_of([&] { gpurotate::write_image(dir.file(name), gpurotate::ConstImageView{nullptr, 7, 3, 7 * format.pixel_bytes(), format}); },
                      &message) == gpurotate::ErrorCode::usage);
        CHECK(message == "output image has no pixel memory");
        CHECK(code_of([&] { gpurotate::write_image(dir.file(name), gpurotate::ConstImageView{pixels.data(), 7, 3, 0, format}); }) ==
              gpurotate::ErrorCode::usage);
        CHECK(code_of([&] { gpurotate::write_image(dir.file(name), gpurotate::ConstImageView{pixels.data(), 0, 3, 0, format}); }) ==
              gpurotate::ErrorCode::usage);
        CHECK(code_of([&] { gpurotate::encode_image(gpurotate::ConstImageView{}, name); }) == gpurotate::ErrorCode::usage);
    }
    // Nothing but the finished outputs is left behind: no temporary files.
    CHECK(test_support::run("ls -A " + test_support::quote(dir.path())).output == "x.png\n");
}

TEST_CASE("PNG is exact at every compression level, and the string-matching levels shrink a drawing") {
    test_support::TempDir dir;
    const auto photo = test_support::random_image(61, 37, {SampleType::u16, 3}, 90);
    // A drawing: flat colour with a repeated pattern, where matching strings beats matching runs.
    gpurotate::Image drawing(256, 128, {SampleType::u8, 3});
    for (std::int64_t y = 0; y < drawing.height(); ++y) {
        for (std::size_t i = 0; i < drawing.view().row_bytes(); ++i) {
            reinterpret_cast<std::uint8_t*>(drawing.view().row(y))[i] = static_cast<std::uint8_t>((i * 7 + (i / 24) * 13) % 251 * (y % 16 < 8));
        }
    }
    std::size_t drawing_bytes[10] = {};
    for (int level = 0; level <= 9; ++level) {
        CAPTURE(level);
        gpurotate::WriteOptions options;
        options.png_level = level;
        options.overwrite = true;
        gpurotate::write_image(dir.file("p.png"), photo.view(), options);
        CHECK(test_support::first_difference(gpurotate::read_image(dir.file("p.png")).view(), photo.view()) == -1);
        gpurotate::write_image(dir.file("d.png"), drawing.view(), options);
        CHECK(test_support::first_difference(gpurotate::read_image(dir.file("d.png")).view(), drawing.view()) == -1);
        drawing_bytes[level] = test_support::file_bytes(dir.file("d.png")).size();
    }
    CHECK(drawing_bytes[1] < drawing_bytes[0]);
    CHECK(drawing_bytes[9] < drawing_bytes[1]);
    gpurotate::WriteOptions bad;
    bad.png_level = 10;
    CHECK_THROWS_AS(gpurotate::write_image(dir.file("bad.png"), photo.view(), bad), gpurotate::Error);
    CHECK_FALSE(test_support::file_exists(dir.file("bad.png")));
}

TEST_CASE("a PNG whose zlib checksum is wrong is refused even when every chunk CRC is right") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(30, 20, {SampleType::u8, 3}, 91);
    gpurotate::write_image(dir.file("good.png"), image.view());
    std::string png = test_support::file_bytes(dir.file("good.png"));
    // The encoder writes one IDAT right after IHDR: at 8 + 25 bytes.
    const std::size_t idat = 33;
    REQUIRE(png.compare(idat + 4, 4, "IDAT") == 0);
    const std::size_t length = (std::size_t{static_cast<std::uint8_t>(png[idat])} << 24) | (std::size_t{static_cast<std::uint8_t>(png[idat + 1])} << 16) |
                               (std::size_t{static_cast<std::uint8_t>(png[idat + 2])} << 8) | static_cast<std::uint8_t>(png[idat + 3]);
    png[idat + 8 + length - 1] = static_cast<char>(png[idat + 8 + length - 1] ^ 0x01);  // the Adler-32's last byte
    const std::uint32_t crc = test_support::png_crc(png, idat + 4, length + 4);
    for (int i = 0; i < 4; ++i) png[idat + 8 + length + i] = static_cast<char>(crc >> (24 - 8 * i));
    test_support::write_bytes(dir.file("bad-adler.png"), png);
    std::string message;
    CHECK(code_of([&] { gpurotate::read_image(dir.file("bad-adler.png")); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("damaged image data") != std::string::npos);
}

TEST_CASE("a damaged JPEG does not spoil the next one decoded on the same thread") {
    // Found by fuzz_roundtrip: TurboJPEG left its reused handle mid-header after an error, and the next,
    // valid file failed with "Bogus marker length".
    test_support::TempDir dir;
    gpurotate::write_image(dir.file("good.jpg"), test_support::random_image(24, 16, {SampleType::u8, 3}, 3).view());
    const std::string good = test_support::file_bytes(dir.file("good.jpg"));
    std::vector<std::string> damaged = {good.substr(0, 20), good.substr(0, good.size() / 2), "\xff\xd8\xff\xc4\xff\xff" + std::string(40, '\x01')};
    for (std::size_t i = 0; i < damaged.size(); ++i) {
        CAPTURE(i);
        test_support::write_bytes(dir.file("bad.jpg"), damaged[i]);
        CHECK(code_of([&] { gpurotate::read_image(dir.file("bad.jpg")); }) == gpurotate::ErrorCode::input);
        CHECK_NOTHROW(gpurotate::read_image(dir.file("good.jpg")));
    }
}

TEST_CASE("a BMP's short palette reads as black past its end, the same every run, and huge PAM sides are refused") {
    test_support::TempDir dir;
    // RLE8, 3x1, a 2-entry palette, indices 0, 1 and 200 (past the palette): 200 is black, not stack memory.
    const std::string runs = std::string("\x01\x00\x01\x01\x01\xc8\x00\x01", 8);
    test_support::write_bytes(dir.file("short.bmp"), rle_bmp(3, 1, 8, runs));
    const auto image = gpurotate::read_image(dir.file("short.bmp"));
    REQUIRE(image.format() == PixelFormat{SampleType::u8, 3});
    CHECK(u8_at(image, 1, 0, 0) == 255);  // index 1: red (rle_bmp's palette has 4 entries; the file says 4)
    for (int c = 0; c < 3; ++c) CHECK(u8_at(image, 2, 0, c) == 0);
    // An uncompressed 8-bit BMP whose palette has 2 entries and whose pixels name index 9.
    std::string plain = "BM";
    const auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) plain += static_cast<char>(v >> (8 * i) & 255); };
    const auto u16 = [&](std::uint32_t v) { plain += static_cast<char>(v & 255), plain += static_cast<char>(v >> 8 & 255); };
    u32(14 + 40 + 8 + 4), u32(0), u32(14 + 40 + 8);
    u32(40), u32(2), u32(1), u16(1), u16(8), u32(0), u32(4), u32(0), u32(0), u32(2), u32(0);
    plain += std::string("\xff\xff\xff\x00\x00\x00\xff\x00", 8);  // white, red
    plain += std::string("\x01\x09\x00\x00", 4);                  // red, index 9, row padding
    test_support::write_bytes(dir.file("plain.bmp"), plain);
    const auto read = gpurotate::read_image(dir.file("plain.bmp"));
    CHECK(u8_at(read, 0, 0, 0) == 255);
    for (int c = 0; c < 3; ++c) CHECK(u8_at(read, 1, 0, c) == 0);
    // PAM sides past 2^31: refused as damage, not wrapped into a small size.
    test_support::write_bytes(dir.file("huge.pam"), "P7\nWIDTH 9999999999\nHEIGHT 9999999999\nDEPTH 1\nMAXVAL 255\nENDHDR\n");
    gpurotate::ReadOptions unlimited;
    unlimited.max_pixels = 0;
    std::string message;
    CHECK(code_of([&] { gpurotate::read_image(dir.file("huge.pam"), unlimited); }, &message) == gpurotate::ErrorCode::input);
    CHECK(message.find("larger than 2147483648") != std::string::npos);
}
