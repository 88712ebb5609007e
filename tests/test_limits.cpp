// Resource limits: decompression bombs refused from their headers in every decoder path, the pixel limit
// exactly at its boundary, the header probes for the OpenCV formats, the --max-pixels and --gpu-memory
// command lines, and the band arithmetic that streams images larger than device memory through the GPU
// (checked here with the CPU backend, band by band; the GPU cases are in test_bands_cuda.cpp).

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include "formats/tiff_declared_extent.hpp"
#include "formats/webp_codec.hpp"
#include "formats/png_codec.hpp"
#include "formats/stb_codec.hpp"
#include "jpeg/turbojpeg_codec.hpp"
#include "core/source_bands.hpp"
#include "cpu/transform_cpu.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

using gpurotate::ErrorCode;
using gpurotate::Orientation;
using gpurotate::SampleType;
using test_support::code_of;
using test_support::quote;

namespace {

// A small real file of `extension`, as bytes, for patching its header.
std::string small_file(test_support::TempDir& dir, const std::string& extension, gpurotate::PixelFormat format) {
    const std::string path = dir.file("small" + extension);
    gpurotate::write_image(path, test_support::random_image(16, 16, format, 5).view(), {90, true});
    return test_support::file_bytes(path);
}

// A PNG whose IHDR declares `width` x `height` (CRC fixed up) and `color` type, and whose data are tiny.
std::string png_declaring(test_support::TempDir& dir, std::uint32_t width, std::uint32_t height, int color = 2) {
    std::string png = small_file(dir, ".png", {SampleType::u8, 3});
    test_support::put_be(png, 16, width, 4);
    test_support::put_be(png, 20, height, 4);
    png[25] = static_cast<char>(color);
    test_support::put_be(png, 29, test_support::png_crc(png, 12, 17), 4);
    return png;
}

// The JPEG's frame header (SOF0..SOF2) rewritten to declare `width` x `height`.
std::string jpeg_declaring(test_support::TempDir& dir, std::uint16_t width, std::uint16_t height) {
    std::string jpeg = small_file(dir, ".jpg", {SampleType::u8, 3});
    for (std::size_t i = 2; i + 9 < jpeg.size(); ++i) {
        const auto marker = static_cast<std::uint8_t>(jpeg[i + 1]);
        if (static_cast<std::uint8_t>(jpeg[i]) == 0xff && marker >= 0xc0 && marker <= 0xc2) {
            test_support::put_be(jpeg, i + 5, height, 2);
            test_support::put_be(jpeg, i + 7, width, 2);
            return jpeg;
        }
    }
    FAIL("no frame header in the JPEG");
    return jpeg;
}

void put_le(std::string& bytes, std::size_t pos, std::uint64_t v, int size) {
    for (int i = 0; i < size; ++i) bytes[pos + i] = static_cast<char>(v >> (8 * i));
}

// A classic little-endian TIFF header whose first IFD declares the size as LONGs (no pixel data).
std::string tiff_declaring(std::uint32_t width, std::uint32_t height) {
    std::string t(8 + 2 + 2 * 12 + 4, '\0');
    t.replace(0, 4, "II*\0", 4);
    put_le(t, 4, 8, 4);
    put_le(t, 8, 2, 2);
    put_le(t, 10, 256, 2), put_le(t, 12, 4, 2), put_le(t, 14, 1, 4), put_le(t, 18, width, 4);
    put_le(t, 22, 257, 2), put_le(t, 24, 4, 2), put_le(t, 26, 1, 4), put_le(t, 30, height, 4);
    return t;
}

std::string refusal_of(const std::string& path, std::int64_t max_pixels = gpurotate::default_max_pixels) {
    std::string message;
    const ErrorCode code = code_of([&] { gpurotate::read_image(path, gpurotate::ReadOptions{gpurotate::HostMemory::pageable, max_pixels}); },
                                   &message);
    CHECK(code == ErrorCode::input);
    return message;
}

const std::string exe = GPUROTATE_EXE;
const std::string samples = GPUROTATE_SAMPLES;

}  // namespace

TEST_CASE("decompression bombs are refused from their headers by every decoder") {
    test_support::TempDir dir;
    struct Bomb {
        const char* name;
        std::string bytes;
        const char* declared;
    };
    std::string bmp = small_file(dir, ".bmp", {SampleType::u8, 3});
    put_le(bmp, 18, 50000, 4);  // BITMAPINFOHEADER width and height
    put_le(bmp, 22, 50000, 4);
    const Bomb bombs[] = {
        {"rgb.png", png_declaring(dir, 100000, 100000), "100000x100000"},               // libspng, from IHDR
        {"palette.png", png_declaring(dir, 100000, 100000, 3), "100000x100000"},         // a palette, refused the same way
        {"wide.png", png_declaring(dir, 0x7fffffff, 1), "2147483647x1"},                 // one side huge
        {"big.jpg", jpeg_declaring(dir, 65000, 65000), "65000x65000"},                   // TurboJPEG (or stb)
        {"big.bmp", bmp, "50000x50000"},                                                 // stb
    };
    for (const Bomb& bomb : bombs) {
        CAPTURE(bomb.name);
        test_support::write_bytes(dir.file(bomb.name), bomb.bytes);
        const std::string message = refusal_of(dir.file(bomb.name));
        CHECK(message.find(dir.file(bomb.name)) != std::string::npos);
        if (bomb.declared) {
            CHECK(message.find(bomb.declared) != std::string::npos);
            CHECK(message.find("over the limit") != std::string::npos);
        }
    }
    test_support::write_bytes(dir.file("big.tif"), tiff_declaring(100000, 100000));
    const std::string tiff_message = refusal_of(dir.file("big.tif"));
    // The header probe refuses it before libtiff reads further.
    CHECK(tiff_message.find("100000x100000") != std::string::npos);
}

TEST_CASE("the pixel limit admits exactly its size in every decoder path") {
    test_support::TempDir dir;
    const std::pair<const char*, gpurotate::PixelFormat> files[] = {
        {".png", {SampleType::u8, 3}}, {".png", {SampleType::u16, 4}}, {".jpg", {SampleType::u8, 3}},
        {".tga", {SampleType::u8, 4}}, {".hdr", {SampleType::f32, 3}}};
    for (const auto& file : files) {  // named members, not a structured binding: CAPTURE cannot take one in clang 14
        const char* extension = file.first;
        const gpurotate::PixelFormat format = file.second;
        CAPTURE(extension);
        const std::string path = dir.file("f" + gpurotate::to_string(format) + extension);
        gpurotate::write_image(path, test_support::random_image(16, 16, format, 7, test_support::FloatRange::unit).view());
        CHECK(refusal_of(path, 255).find("16x16 = 256 pixels, over the limit of 255") != std::string::npos);
        CHECK(gpurotate::read_image(path, gpurotate::ReadOptions{gpurotate::HostMemory::pageable, 256}).width() == 16);
        CHECK(gpurotate::read_image(path, gpurotate::ReadOptions{gpurotate::HostMemory::pageable, 0}).width() == 16);
    }
}

TEST_CASE("TIFF headers are read for their declared size, and damage gives nothing") {
    using gpurotate::detail::tiff_declared_extent;
    const auto bytes = [](const std::string& s) { return std::vector<std::uint8_t>(s.begin(), s.end()); };
    const auto tiff = tiff_declared_extent(bytes(tiff_declaring(70000, 3)));
    REQUIRE(tiff);
    CHECK(tiff->width == 70000);
    CHECK(tiff->height == 3);

    // Big-endian, SHORT values (left-justified in the 4-byte field).
    std::string mm(8 + 2 + 2 * 12 + 4, '\0');
    mm.replace(0, 4, "MM\0*", 4);
    test_support::put_be(mm, 4, 8, 4);
    test_support::put_be(mm, 8, 2, 2);
    test_support::put_be(mm, 10, 256, 2), test_support::put_be(mm, 12, 3, 2), test_support::put_be(mm, 14, 1, 4), test_support::put_be(mm, 18, 640, 2);
    test_support::put_be(mm, 22, 257, 2), test_support::put_be(mm, 24, 3, 2), test_support::put_be(mm, 26, 1, 4), test_support::put_be(mm, 30, 480, 2);
    const auto big_endian = tiff_declared_extent(bytes(mm));
    REQUIRE(big_endian);
    CHECK(big_endian->width == 640);
    CHECK(big_endian->height == 480);

    // BigTIFF: 8-byte offsets and counts, 20-byte entries, LONG8 values.
    std::string bt(16 + 8 + 2 * 20 + 8, '\0');
    bt.replace(0, 4, "II+\0", 4);
    put_le(bt, 4, 8, 2);
    put_le(bt, 8, 16, 8);
    put_le(bt, 16, 2, 8);
    put_le(bt, 24, 256, 2), put_le(bt, 26, 16, 2), put_le(bt, 28, 1, 8), put_le(bt, 36, 5000000000ULL, 8);
    put_le(bt, 44, 257, 2), put_le(bt, 46, 16, 2), put_le(bt, 48, 1, 8), put_le(bt, 56, 7, 8);
    const auto big_tiff = tiff_declared_extent(bytes(bt));
    REQUIRE(big_tiff);
    CHECK(big_tiff->width == (std::int64_t{1} << 31));  // saturated: refusable, never wrapped
    CHECK(big_tiff->height == 7);

    CHECK_FALSE(tiff_declared_extent(bytes("II*\0")));                                 // truncated
    CHECK_FALSE(tiff_declared_extent(bytes(tiff_declaring(1, 1).substr(0, 20))));     // IFD cut short
    CHECK_FALSE(tiff_declared_extent(bytes(std::string("\x89PNG\r\n\x1a\n") + std::string(40, 'x'))));
    std::string far = tiff_declaring(1, 1);
    put_le(far, 4, 0xfffffff0u, 4);  // IFD offset past the end
    CHECK_FALSE(tiff_declared_extent(bytes(far)));
}

TEST_CASE("a WebP's declared size is libwebp's reading of its header, and a header cut short gives nothing") {
    test_support::TempDir dir;
    for (const bool lossless : {true, false}) {
        const std::string path = dir.file(lossless ? "a.webp" : "b.webp");
        gpurotate::WriteOptions options;
        options.lossless = lossless;
        options.quality = 80;
        gpurotate::write_image(path, test_support::random_image(37, 23, {SampleType::u8, 3}, 5).view(), options);
        const std::string file = test_support::file_bytes(path);
        const std::vector<std::uint8_t> whole(file.begin(), file.end());
        CAPTURE(lossless);
        const auto extent = gpurotate::detail::webp_declared_extent(whole);
        REQUIRE(extent);
        CHECK(extent->width == 37);
        CHECK(extent->height == 23);
        CHECK_FALSE(gpurotate::detail::webp_declared_extent(std::vector<std::uint8_t>(whole.begin(), whole.begin() + 16)));
    }
}

TEST_CASE("source bands of every element reassemble the whole output") {
    std::uint32_t seed = 300;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : {test_support::Size{37, 29}, test_support::Size{1, 9}, test_support::Size{9, 1}, test_support::Size{64, 50}}) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            for (Orientation o : gpurotate::all_orientations) {
                const gpurotate::Image expected = reference::transform(src, o);
                for (std::int64_t rows : {1, 3, 16, 1000}) {
                    gpurotate::Image out(expected.width(), expected.height(), format);
                    std::memset(out.data(), 0xa5, out.size_bytes());
                    for (std::int64_t y0 = 0; y0 < src.height(); y0 += rows) {
                        const std::int64_t n = std::min(rows, src.height() - y0);
                        const auto rect = gpurotate::detail::output_rect_of_source_rows(gpurotate::axis_map(o), {src.width(), src.height()}, y0, n);
                        const gpurotate::ConstImageView band(src.view().row(y0), src.width(), n, src.view().pitch, format);
                        const gpurotate::ImageView part{out.view().row(rect.y) + rect.x * static_cast<std::int64_t>(format.pixel_bytes()),
                                                        rect.width, rect.height, out.view().pitch, format};
                        gpurotate::detail::transform_cpu(band, part, gpurotate::axis_map(o), 1);
                    }
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(size.width);
                    CAPTURE(size.height);
                    CAPTURE(gpurotate::name(o));
                    CAPTURE(rows);
                    CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
                }
            }
        }
    }
}

TEST_CASE("--max-pixels and --gpu-memory: accepted forms, refusals, and a refused input leaves nothing") {
    test_support::TempDir dir;
    const std::string in = samples + "/astronaut.png";  // 512x512
    const auto cli = [&](const std::string& args) { return test_support::run(quote(exe) + " " + quote(in) + " --rot90 " + args); };
    for (const char* accepted : {"262144", "0.3M", "512x512", "none", "1G", "1e6"}) {
        CAPTURE(accepted);
        const auto r = cli(std::string("--max-pixels ") + accepted + " --overwrite -o " + quote(dir.file("ok.png")));
        CHECK(r.status == 0);
    }
    const auto refused = cli("--max-pixels 262143 -o " + quote(dir.file("no.png")));
    CHECK(refused.status == 3);
    CHECK(refused.output.find("512x512 = 262144 pixels, over the limit of 262143") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("no.png")));
    for (const char* bad : {"abc", "-5", "0", "12Q", "x512", "512x", "inf"}) {
        CAPTURE(bad);
        const auto r = cli(std::string("--max-pixels '") + bad + "' -o " + quote(dir.file("bad.png")));
        CHECK(r.status == 2);
        CHECK(r.output.find("--max-pixels") != std::string::npos);
    }
    for (const char* bad : {"0", "lots", "-1G", "5X"}) {
        CAPTURE(bad);
        const auto r = cli(std::string("--gpu-memory ") + bad + " -o " + quote(dir.file("bad.png")));
        CHECK(r.status == 2);
        CHECK(r.output.find("--gpu-memory") != std::string::npos);
    }
    CHECK_FALSE(test_support::file_exists(dir.file("bad.png")));
    CHECK(cli("--gpu-memory 256MiB --device cpu -o " + quote(dir.file("g.png"))).status == 0);

    // augment: an input over the limit fails alone and is recorded; the others are done.
    const auto aug = test_support::run(quote(exe) + " augment " + quote(in) + " " + quote(samples + "/coffee.png") +
                                       " -o " + quote(dir.file("aug")) + " --ops rot90 --device cpu --quiet --max-pixels 250000");
    CHECK(aug.status == 3);
    CHECK(aug.output.find("over the limit") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("aug/astronaut_rot90.png")));
    CHECK(test_support::file_exists(dir.file("aug/coffee_rot90.png")));
}

TEST_CASE("every input the fuzzers found a defect with is refused cleanly by every decoder") {
    // One file per finding in tests/fuzz/regressions; under the asan preset (as CI runs it) a
    // regression is a sanitizer report, here at least a wrong outcome or a hang.
    const std::string dir = GPUROTATE_FUZZ_REGRESSIONS;
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        CAPTURE(entry.path().string());
        ++files;
        const std::string path = entry.path().string();
        const std::string text = test_support::file_bytes(path);
        const std::vector<std::uint8_t> bytes(text.begin(), text.end());
        const gpurotate::ReadOptions options;
        // Each decoder either declines the format (no exception) or refuses the file as bad input.
        const auto clean = [](const std::function<void()>& call) {
            std::string m;
            const ErrorCode code = code_of(call, &m);
            return code == ErrorCode::input || (code == ErrorCode::internal && m.empty());
        };
        CHECK(code_of([&] { gpurotate::read_image(path); }) == ErrorCode::input);
        CHECK(clean([&] { gpurotate::detail::decode_png(bytes, path, options); }));
        std::string why;
        CHECK(clean([&] { gpurotate::detail::stb_decode(bytes, path, options, why); }));
        CHECK(clean([&] { gpurotate::detail::turbojpeg_decode(bytes, path, options); }));
    }
    CHECK(files >= 2);
    // The two findings by name: the PNG loop that never ended, stb's Huffman table overflow.
    std::string message;
    const std::string png = test_support::file_bytes(dir + "/png-chunk-length-wraps-after-iend.png");
    CHECK(code_of([&] { gpurotate::detail::decode_png({png.begin(), png.end()}, "p", {}); }, &message) == ErrorCode::input);
    const std::string jpeg = test_support::file_bytes(dir + "/stb-jpeg-huffman-over-256-codes.jpg");
    std::string why;
    CHECK(code_of([&] { gpurotate::detail::stb_decode({jpeg.begin(), jpeg.end()}, "j", {}, why); }, &message) == ErrorCode::input);
    CAPTURE(message);
    // With libjpeg-turbo, stb never decodes a JPEG; without it, the Huffman check refuses this one.
    CHECK(message.find(gpurotate::detail::turbojpeg_available() ? "does not begin with the start-of-image marker" : "more than 256 codes") !=
          std::string::npos);
    // stb's PNM reader overflowed an int on a header number of eleven digits; it is refused before stb reads it.
    const std::string pnm = test_support::file_bytes(dir + "/stb-pnm-header-number-over-int.pnm");
    CHECK(code_of([&] { gpurotate::detail::stb_decode({pnm.begin(), pnm.end()}, "n", {}, why); }, &message) == ErrorCode::input);
    CHECK(message.find("larger than 2147483647") != std::string::npos);
    // stb's HDR reader looped forever on run-length data that end early; so would a truncated real file.
    test_support::TempDir tmp;
    gpurotate::write_image(tmp.file("t.hdr"), test_support::random_image(40, 12, {SampleType::f32, 3}, 4, test_support::FloatRange::unit).view());
    const std::string hdr = test_support::file_bytes(tmp.file("t.hdr"));
    for (const std::string& cut : {test_support::file_bytes(dir + "/stb-hdr-run-length-data-end-early.hdr"), hdr.substr(0, hdr.size() - 7),
                                   hdr.substr(0, hdr.size() / 2)}) {
        CHECK(code_of([&] { gpurotate::detail::stb_decode({cut.begin(), cut.end()}, "h", {}, why); }, &message) == ErrorCode::input);
        CHECK(message.find("truncated") != std::string::npos);
    }
    CHECK(gpurotate::read_image(tmp.file("t.hdr")).height() == 12);
}

namespace {

// The expanded canvas of a W x H image turned by `degrees`, as the issue states it (ceil(W|cos| + H|sin| - 1e-6)
// by ceil(W|sin| + H|cos| - 1e-6)), written out here rather than taken from the library.
std::string expanded_size(double width, double height, double degrees) {
    const double radians = degrees * 3.14159265358979323846 / 180.0, c = std::fabs(std::cos(radians)), s = std::fabs(std::sin(radians));
    return std::to_string(static_cast<long long>(std::ceil(width * c + height * s - 1e-6))) + "x" +
           std::to_string(static_cast<long long>(std::ceil(width * s + height * c - 1e-6)));
}

// Headers that declare `side` x `side` pixels and then end (or hold a few bytes of nonsense): no decoder can
// make pixels of them, so a refusal that is not "cannot decode" was given from the header alone.
std::vector<std::pair<std::string, std::string>> headers_declaring(test_support::TempDir& dir, std::uint16_t side) {
    std::string png = png_declaring(dir, side, side);
    png.resize(png.size() / 2);  // into the image data
    std::string jpeg = jpeg_declaring(dir, side, side);
    jpeg.resize(jpeg.size() - 40);  // into the entropy-coded data, after the frame and scan headers
    std::string bmp(54, '\0');  // BITMAPINFOHEADER, 24-bit, no pixels
    bmp.replace(0, 2, "BM"), put_le(bmp, 2, 54, 4), put_le(bmp, 10, 54, 4), put_le(bmp, 14, 40, 4);
    put_le(bmp, 18, side, 4), put_le(bmp, 22, side, 4), put_le(bmp, 26, 1, 2), put_le(bmp, 28, 24, 2);
    std::string tga(18, '\0');  // uncompressed true colour, 24-bit, no pixels
    tga[2] = 2, put_le(tga, 12, side, 2), put_le(tga, 14, side, 2), tga[16] = 24;
    std::string webp = "RIFF" + std::string(4, '\0') + "WEBPVP8L" + std::string(4, '\0') + "\x2f" + std::string(4, '\0') + std::string(16, '\x55');
    put_le(webp, 4, webp.size() - 8, 4), put_le(webp, 16, webp.size() - 20, 4);
    put_le(webp, 21, (std::uint32_t{side} - 1) | (std::uint32_t{side} - 1) << 14, 4);  // VP8L: 14-bit sides minus one
    return {{"png", png},
            {"jpg", jpeg},
            {"ppm", "P6\n" + std::to_string(side) + " " + std::to_string(side) + "\n255\n" + std::string(12, '\x7f')},
            {"bmp", bmp},
            {"tga", tga},
            {"tif", tiff_declaring(side, side)},
            {"webp", webp}};
}

}  // namespace

TEST_CASE("--rotate: a canvas over --max-pixels is refused exactly at the limit, naming the file, and nothing is written") {
    test_support::TempDir dir;
    gpurotate::write_image(dir.file("in.png"), test_support::random_image(100, 60, {SampleType::u8, 3}, 11).view());
    const std::string size = expanded_size(100, 60, 30);  // 117x102 = 11934 pixels
    REQUIRE(size == "117x102");
    const auto rotate = [&](const std::string& args, const std::string& out) {
        return test_support::run(quote(exe) + " " + quote(dir.file("in.png")) + " --rotate 30 " + args + " -o " + quote(dir.file(out)));
    };
    const auto refused = rotate("--max-pixels 11933", "no.png");
    CHECK(refused.status == 3);
    CHECK(refused.output.find("'" + dir.file("in.png") + "' rotated would be 117x102, over --max-pixels 11933") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("no.png")));
    REQUIRE(rotate("--max-pixels 11934", "yes.png").status == 0);
    CHECK(gpurotate::read_image(dir.file("yes.png")).width() == 117);
    CHECK(rotate("--max-pixels 11933 --keep-size", "kept.png").status == 0);  // 100x60 is under it
}

TEST_CASE("--rotate: a header declaring an image whose canvas is over --max-pixels is refused before its body is decoded") {
    test_support::TempDir dir;
    // 16000 x 16000 = 256,000,000 pixels is under the limit; turned by 45 degrees its canvas is about twice as large.
    const std::string limit = " --max-pixels 300000000";
    const std::string canvas = expanded_size(16000, 16000, 45);
    for (const auto& file : headers_declaring(dir, 16000)) {
        const std::string& extension = file.first;
        CAPTURE(extension);
        const std::string in = dir.file("declared." + extension);
        test_support::write_bytes(in, file.second);
        const auto refused = test_support::run(quote(exe) + " " + quote(in) + " --rotate 45" + limit + " -o " + quote(dir.file("r.png")));
        INFO(refused.output);
        CHECK(refused.status == 3);
        CHECK(refused.output.find("'" + in + "' rotated would be " + canvas + ", over --max-pixels 300000000") != std::string::npos);
        CHECK(refused.output.find("cannot decode") == std::string::npos);
        // The same file to the decoder: its body does not decode, which the refusal above never reached.
        const auto decoded = test_support::run(quote(exe) + " " + quote(in) + " --rotate 45 --keep-size" + limit + " -o " + quote(dir.file("k.png")));
        CHECK(decoded.status == 3);
        CHECK(decoded.output.find("cannot decode '" + in + "'") != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("r.png")));
    }
    // A side at OpenCV's limit, also from the header alone: 40000 x 10 is well under the pixel limit.
    test_support::write_bytes(dir.file("wide.png"), png_declaring(dir, 40000, 10).substr(0, 40));
    const auto wide = test_support::run(quote(exe) + " " + quote(dir.file("wide.png")) + " --rotate 1 -o " + quote(dir.file("w.png")));
    CHECK(wide.status == 3);
    CHECK(wide.output.find("is 40000x10: --rotate by an angle that is not a multiple of 90 takes sides under 32767") != std::string::npos);
}

TEST_CASE("augment --degrees: a variant whose declared canvas is over --max-pixels fails alone, undecoded") {
    test_support::TempDir dir;
    std::filesystem::create_directories(dir.file("in"));
    test_support::write_bytes(dir.file("in/declared.png"), headers_declaring(dir, 16000).front().second);
    gpurotate::write_image(dir.file("in/small.png"), test_support::random_image(21, 13, {SampleType::u8, 3}, 4).view());
    // Any angle of the draw but a multiple of 90 takes 16000 x 16000 over 256,000,000 pixels.
    const auto r = test_support::run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) +
                                     " --random --ops identity --degrees 15 --seed 3 --device cpu --quiet --max-pixels 256000000");
    INFO(r.output);
    CHECK(r.status == 4);  // an output failed (as a canvas found over the limit after the decode always did), no input
    CHECK(r.output.find("declared.png' rotated would be") != std::string::npos);
    CHECK(r.output.find("cannot decode") == std::string::npos);
    CHECK(test_support::file_exists(dir.file("out/small_identity.png")));
}
