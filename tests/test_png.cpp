// PNG to PNG keeps the input's PNG character: colour type, bit depth, palette, tRNS and the ancillary
// chunks (pHYs swapped with the axes), through the CLI and augment, checked on the PNG conformance suite
// (PngSuite: all of it as Debian's libsixel-examples ships it, or the 15 basic files and derived ones in
// golang-1.19-src) and on files built here chunk by chunk. Everything is
// read back with libspng and a chunk walker of this file's own, and the pixels compared, as RGBA, against
// the naive reference.

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include <doctest/doctest.h>

#include <spng.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using gpurotate::Orientation;
using gpurotate::SampleType;
using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;
// libsixel-examples has the whole suite (174 files, all but exif2c08) in folders by theme, the corrupt ones in
// corrupted/; golang-1.19-src, where that is absent, has the 15 basic files and variants of its own.
const std::string pngsuite = [] {
    const std::string whole = "/usr/share/doc/libsixel-examples/examples/images/pngsuite";
    return std::filesystem::is_directory(whole) ? whole : std::string("/usr/share/go-1.19/src/image/png/testdata/pngsuite");
}();

// The suite's PNG files, sorted: the corrupt ones (in corrupted/) or all the others.
std::vector<std::string> pngsuite_files(bool corrupt) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(pngsuite)) {
        if (entry.path().extension() == ".png" && (entry.path().parent_path().filename() == "corrupted") == corrupt) files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// One chunk as the file has it, and where it stands: 0 before PLTE, 1 between PLTE and IDAT, 2 after IDAT.
struct Chunk {
    std::string type;
    std::string data;
    int place;
    bool operator==(const Chunk& o) const { return type == o.type && data == o.data && place == o.place; }
};

std::uint32_t be32(const std::string& b, std::size_t pos) {
    return std::uint32_t{static_cast<std::uint8_t>(b[pos])} << 24 | std::uint32_t{static_cast<std::uint8_t>(b[pos + 1])} << 16 |
           std::uint32_t{static_cast<std::uint8_t>(b[pos + 2])} << 8 | static_cast<std::uint8_t>(b[pos + 3]);
}

// Every chunk other than IHDR, IDAT and IEND, in file order.
std::vector<Chunk> chunks_of(const std::string& png) {
    std::vector<Chunk> chunks;
    int place = 0;
    for (std::size_t pos = 8; pos + 12 <= png.size();) {
        const std::size_t length = be32(png, pos);
        REQUIRE(pos + 12 + length <= png.size());
        const std::string type = png.substr(pos + 4, 4);
        if (type == "IDAT") place = 2;
        if (type != "IHDR" && type != "IDAT" && type != "IEND") chunks.push_back({type, png.substr(pos + 8, length), place});
        if (type == "PLTE") place = 1;
        pos += 12 + length;
    }
    return chunks;
}

std::vector<Chunk> without(std::vector<Chunk> chunks, const std::string& type) {
    chunks.erase(std::remove_if(chunks.begin(), chunks.end(), [&](const Chunk& c) { return c.type == type; }), chunks.end());
    return chunks;
}

struct SpngFree {
    void operator()(spng_ctx* c) const { spng_ctx_free(c); }
};

// What libspng reads of a PNG: its header, and its pixels as RGBA (8-bit, 16-bit for 16-bit files), tRNS applied.
struct Decoded {
    spng_ihdr ihdr{};
    gpurotate::Image rgba;
};

Decoded decode_with_libspng(const std::string& png) {
    std::unique_ptr<spng_ctx, SpngFree> ctx(spng_ctx_new(0));
    REQUIRE(spng_set_png_buffer(ctx.get(), png.data(), png.size()) == 0);
    Decoded d;
    REQUIRE(spng_get_ihdr(ctx.get(), &d.ihdr) == 0);
    const bool wide = d.ihdr.bit_depth == 16;
    const int format = wide ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;
    d.rgba = gpurotate::Image(d.ihdr.width, d.ihdr.height, {wide ? SampleType::u16 : SampleType::u8, 4});
    REQUIRE(spng_decode_image(ctx.get(), d.rgba.view().data, d.rgba.size_bytes(), format, SPNG_DECODE_TRNS) == 0);
    return d;
}

// The CLI's flag for `o`: its name (none for identity).
std::string flag_of(Orientation o) { return o == Orientation::identity ? "" : "--" + std::string(gpurotate::name(o)); }

bool swaps(Orientation o) { return o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse; }

// pHYs as the output of `o` must have it: pixels per unit along x and y exchanged where the axes swap.
std::vector<Chunk> expected_chunks(std::vector<Chunk> chunks, Orientation o) {
    for (Chunk& c : chunks) {
        if (c.type == "pHYs" && swaps(o)) c.data = c.data.substr(4, 4) + c.data.substr(0, 4) + c.data.substr(8);
    }
    return chunks;
}

// Checks `out` against `in` transformed by `o`: the stored format, PLTE, tRNS, the chunks and the pixels.
void check_png_kept(const std::string& in, const std::string& out, Orientation o, const std::vector<Chunk>& chunks_expected) {
    const Decoded a = decode_with_libspng(in), b = decode_with_libspng(out);
    CHECK(b.ihdr.color_type == a.ihdr.color_type);
    CHECK(b.ihdr.bit_depth == a.ihdr.bit_depth);
    CHECK(b.ihdr.interlace_method == 0);
    CHECK(b.ihdr.width == (swaps(o) ? a.ihdr.height : a.ihdr.width));
    CHECK(b.ihdr.height == (swaps(o) ? a.ihdr.width : a.ihdr.height));
    CHECK(chunks_of(out) == chunks_expected);
    CHECK(test_support::first_difference(b.rgba.view(), reference::transform(a.rgba, o).view()) == -1);
}

// ---------------------------------------------------------------- a PNG written chunk by chunk

std::string be(std::uint32_t v, int size) {
    std::string s(static_cast<std::size_t>(size), '\0');
    test_support::put_be(s, 0, v, size);
    return s;
}

std::string chunk(const std::string& type, const std::string& data) {
    std::string c = be(static_cast<std::uint32_t>(data.size()), 4) + type + data + "0000";
    test_support::put_be(c, 8 + data.size(), test_support::png_crc(c, 4, 4 + data.size()), 4);
    return c;
}

// A zlib stream of stored (uncompressed) deflate blocks: PNG's IDAT, zTXt and iCCP need no more.
std::string zlib_stored(const std::string& data) {
    std::string z = "\x78\x01";
    std::size_t pos = 0;
    do {
        const std::size_t n = std::min<std::size_t>(data.size() - pos, 65535);
        z += static_cast<char>(pos + n == data.size() ? 1 : 0);
        z += static_cast<char>(n & 0xff), z += static_cast<char>(n >> 8);
        z += static_cast<char>(~n & 0xff), z += static_cast<char>((~n >> 8) & 0xff);
        z += data.substr(pos, n);
        pos += n;
    } while (pos < data.size());
    std::uint32_t a = 1, b = 0;
    for (char c : data) a = (a + static_cast<std::uint8_t>(c)) % 65521, b = (b + a) % 65521;
    return z + be(b << 16 | a, 4);
}

// A 5x3 palette image of 4-bit indices with every chunk the README's policy names, two unknown chunks
// (prVt safe to copy, prVT not) and a tEXt after IDAT.
std::string palette_png_with_every_chunk() {
    const std::string rows = std::string("\0\x01\x23\x30", 4) + std::string("\0\x32\x10\x20", 4) + std::string("\0\x00\x11\x30", 4);
    const std::string exif("MM\0*\0\0\0\x08\0\0\0\0\0\0", 14);  // big-endian TIFF, an empty IFD0
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", be(5, 4) + be(3, 4) + std::string("\x04\x03\0\0\0", 5)) +
           chunk("gAMA", be(45455, 4)) +
           chunk("cHRM", be(31270, 4) + be(32900, 4) + be(64000, 4) + be(33000, 4) + be(30000, 4) + be(60000, 4) + be(15000, 4) + be(6000, 4)) +
           chunk("iCCP", std::string("test profile\0\0", 14) + zlib_stored(std::string(300, 'p'))) + chunk("sBIT", "\x04\x04\x04") +
           chunk("eXIf", exif) + chunk("prVt", "safe to copy") + chunk("PLTE", std::string("\xff\0\0\0\xff\0\0\0\xff\x10\x20\x30", 12)) +
           chunk("tRNS", std::string("\x80\0", 2)) + chunk("bKGD", std::string("\x02", 1)) + chunk("hIST", std::string("\0\x04\0\x05\0\x03\0\x03", 8)) +
           chunk("pHYs", be(3780, 4) + be(2835, 4) + "\x01") + chunk("sPLT", std::string("six\0\x08\x01\x02\x03\x04\0\x05", 11)) +
           chunk("tEXt", std::string("Title\0A palette", 15)) + chunk("zTXt", std::string("Comment\0\0", 9) + zlib_stored("compressed words")) +
           chunk("iTXt", std::string("Author\0\0\0en\0Autor\0", 18) + "someone") + chunk("tIME", std::string("\x07\xea\x0b\x18\x0f\x10\x05", 7)) +
           chunk("prVT", "unsafe to copy") + chunk("IDAT", zlib_stored(rows)) + chunk("tEXt", std::string("After\0the pixels", 16)) +
           chunk("IEND", "");
}

}  // namespace

TEST_CASE("PngSuite: every colour type and depth keeps its stored format, palette, tRNS, chunks and pixels under every element") {
    if (!std::filesystem::is_directory(pngsuite)) {
        MESSAGE("SKIPPED: " << pngsuite << " is absent (apt-get install libsixel-examples, or golang-1.19-src)");
        return;
    }
    const std::vector<std::string> files = pngsuite_files(false);
    REQUIRE(files.size() >= 30);
    test_support::TempDir dir;
    for (const std::string& file : files) {
        const std::string in = test_support::file_bytes(file);
        for (Orientation o : gpurotate::all_orientations) {
            CAPTURE(file);
            CAPTURE(gpurotate::name(o));
            const std::string out = dir.file("out.png");
            const auto r = run(quote(exe) + " " + quote(file) + " " + flag_of(o) + " -o " + quote(out) + " --overwrite");
            REQUIRE_MESSAGE(r.status == 0, r.output);
            check_png_kept(in, test_support::file_bytes(out), o, expected_chunks(chunks_of(in), o));
        }
    }
}

TEST_CASE("PngSuite's corrupt files are refused as input errors, and nothing is written") {
    const std::vector<std::string> corrupt = std::filesystem::is_directory(pngsuite) ? pngsuite_files(true) : std::vector<std::string>{};
    if (corrupt.empty()) {
        MESSAGE("SKIPPED: no corrupted/ folder in " << pngsuite << " (apt-get install libsixel-examples)");
        return;
    }
    test_support::TempDir dir;
    for (const std::string& file : corrupt) {
        CAPTURE(file);
        const auto r = run(quote(exe) + " " + quote(file) + " --rot90 -o " + quote(dir.file("out.png")));
        CHECK_MESSAGE(r.status == 3, r.output);
        CHECK_FALSE(std::filesystem::exists(dir.file("out.png")));
    }
}

TEST_CASE("PNG ancillary chunks are copied byte for byte, pHYs swapped with the axes, unsafe unknown ones dropped, --strip drops them all") {
    test_support::TempDir dir;
    const std::string in = palette_png_with_every_chunk();
    test_support::write_bytes(dir.file("in.png"), in);
    const std::vector<Chunk> kept = without(chunks_of(in), "prVT");
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const auto r = run(quote(exe) + " " + quote(dir.file("in.png")) + " " + flag_of(o) + " -o " + quote(dir.file("out.png")) + " --overwrite -v");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        CHECK(r.output.find("chunks dropped: prVT") != std::string::npos);
        check_png_kept(in, test_support::file_bytes(dir.file("out.png")), o, expected_chunks(kept, o));
    }
    // --strip: the palette and tRNS stay (they are the pixels), every ancillary chunk goes.
    const auto r = run(quote(exe) + " " + quote(dir.file("in.png")) + " --rot90 --strip -o " + quote(dir.file("stripped.png")));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    std::vector<Chunk> bare;
    for (const Chunk& c : chunks_of(in)) {
        if (c.type == "PLTE" || c.type == "tRNS") bare.push_back(c);
    }
    check_png_kept(in, test_support::file_bytes(dir.file("stripped.png")), Orientation::rot90, bare);
    // augment keeps them in every variant, and --strip drops them there too.
    const auto augmented = run(quote(exe) + " augment " + quote(dir.file("in.png")) + " -o " + quote(dir.file("aug")) + " --ops rot270,flip-v --device cpu");
    REQUIRE_MESSAGE(augmented.status == 0, augmented.output);
    CHECK(augmented.output.find("chunks dropped: prVT") != std::string::npos);
    // --quiet keeps errors and warnings, not notes.
    const auto quiet = run(quote(exe) + " augment " + quote(dir.file("in.png")) + " -o " + quote(dir.file("aug-quiet")) + " --ops rot270 --device cpu --quiet");
    REQUIRE_MESSAGE(quiet.status == 0, quiet.output);
    CHECK(quiet.output.empty());
    check_png_kept(in, test_support::file_bytes(dir.file("aug/in_rot270.png")), Orientation::rot270, expected_chunks(kept, Orientation::rot270));
    check_png_kept(in, test_support::file_bytes(dir.file("aug/in_flip-v.png")), Orientation::flip_v, kept);
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("in.png")) + " -o " + quote(dir.file("bare")) + " --ops transpose --strip --device cpu --quiet").status == 0);
    check_png_kept(in, test_support::file_bytes(dir.file("bare/in_transpose.png")), Orientation::transpose, bare);
}

TEST_CASE("a PNG written as another format is expanded: palettes to RGB or RGBA, low depths to 8 bits") {
    test_support::TempDir dir;
    test_support::write_bytes(dir.file("in.png"), palette_png_with_every_chunk());
    const gpurotate::Image expanded = gpurotate::read_image(dir.file("in.png"));
    CHECK(expanded.format() == gpurotate::PixelFormat{SampleType::u8, 4});  // tRNS gives the palette alpha
    gpurotate::ReadOptions stored_options;
    stored_options.png_storage = true;
    const gpurotate::Image stored = gpurotate::read_image(dir.file("in.png"), stored_options);
    REQUIRE(stored.format() == gpurotate::PixelFormat{SampleType::u8, 1});
    const auto* indices = reinterpret_cast<const std::uint8_t*>(stored.view().row(1));
    CHECK(std::vector<int>(indices, indices + 5) == std::vector<int>{3, 2, 1, 0, 2});
    // The RGBA pixel of index 3 (0x10 0x20 0x30, no tRNS entry: opaque), and of index 0 (alpha 0x80).
    const auto* rgba = reinterpret_cast<const std::uint8_t*>(expanded.view().row(1));
    CHECK(std::vector<int>(rgba, rgba + 4) == std::vector<int>{0x10, 0x20, 0x30, 0xff});
    CHECK(std::vector<int>(rgba + 12, rgba + 16) == std::vector<int>{0xff, 0, 0, 0x80});
    // To a format without palettes: a TGA (which holds RGBA) from the CLI.
    const auto r = run(quote(exe) + " " + quote(dir.file("in.png")) + " --rot90 -o " + quote(dir.file("out.tga")));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("out.tga")).view(), reference::transform(expanded, Orientation::rot90).view()) ==
          -1);
}

TEST_CASE("4-bit grey decoded to 8 bits and written with its metadata comes out as 8-bit grey, not repacked") {
    // The stored format says 4-bit, the pixels are 0..255: the encoder must see they do not fit.
    test_support::TempDir dir;
    const std::string rows = std::string("\0\x0f\x80", 3) + std::string("\0\x12\x30", 3);
    const std::string in = std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", be(3, 4) + be(2, 4) + std::string("\x04\0\0\0\0", 5)) +
                           chunk("IDAT", zlib_stored(rows)) + chunk("IEND", "");
    test_support::write_bytes(dir.file("grey4.png"), in);
    const gpurotate::ImageMetadata meta = gpurotate::read_metadata(dir.file("grey4.png"));
    const gpurotate::Image expanded = gpurotate::read_image(dir.file("grey4.png"));
    REQUIRE(expanded.format() == gpurotate::PixelFormat{SampleType::u8, 1});
    gpurotate::WriteOptions write;
    write.metadata = &meta;
    gpurotate::write_image(dir.file("out.png"), expanded.view(), write);
    const Decoded a = decode_with_libspng(in), b = decode_with_libspng(test_support::file_bytes(dir.file("out.png")));
    CHECK(b.ihdr.bit_depth == 8);
    CHECK(test_support::first_difference(b.rgba.view(), a.rgba.view()) == -1);
}

TEST_CASE("the README's library example keeps a palette PNG as the CLI does") {
    test_support::TempDir dir;
    const std::string in = palette_png_with_every_chunk();
    test_support::write_bytes(dir.file("icon.png"), in);
    // In the folder of the file, for the README's relative names; the next cases get their folder back.
    struct InFolder {
        std::filesystem::path before = std::filesystem::current_path();
        explicit InFolder(const std::string& folder) { std::filesystem::current_path(folder); }
        ~InFolder() { std::filesystem::current_path(before); }
    } in_folder(dir.path());
    // The README's lines, as they are there.
    const gpurotate::ImageMetadata meta = gpurotate::read_metadata("icon.png");
    gpurotate::ReadOptions stored;
    stored.png_storage = true;  // palette indices and 1/2/4-bit samples as they are, one byte each
    const gpurotate::Image icon = gpurotate::read_image("icon.png", stored);
    const gpurotate::ImageMetadata kept = gpurotate::metadata_after(meta, gpurotate::Orientation::rot90);  // pHYs, EXIF
    gpurotate::WriteOptions write;
    write.metadata = &kept;
    gpurotate::write_image("icon-rot90.png", gpurotate::transform(icon, gpurotate::Orientation::rot90).view(), write);
    check_png_kept(in, test_support::file_bytes(dir.file("icon-rot90.png")), Orientation::rot90, expected_chunks(without(chunks_of(in), "prVT"), Orientation::rot90));
}

TEST_CASE("a grey or RGB PNG's colour key (tRNS) is its alpha channel wherever the pixels leave PNG") {
    test_support::TempDir dir;
    for (const bool rgb : {true, false}) {
        for (const gpurotate::SampleType s : {gpurotate::SampleType::u8, gpurotate::SampleType::u16}) {
            const int channels = rgb ? 3 : 1;
            auto image = test_support::random_image(7, 5, {s, channels}, 70);
            const std::size_t bytes = gpurotate::sample_bytes(s);
            // Pixel (2, 1) is the key: its samples become the tRNS chunk's 16-bit values.
            std::vector<std::uint8_t> key;
            const std::byte* keyed = image.view().row(1) + 2 * channels * static_cast<std::int64_t>(bytes);
            for (int c = 0; c < channels; ++c) {
                const unsigned v = bytes == 1 ? std::to_integer<unsigned>(keyed[c]) : *reinterpret_cast<const std::uint16_t*>(keyed + 2 * c);
                key.push_back(static_cast<std::uint8_t>(v >> 8)), key.push_back(static_cast<std::uint8_t>(v & 255));
            }
            gpurotate::ImageMetadata meta;
            meta.png_storage = gpurotate::PngStorage{rgb ? 2 : 0, static_cast<int>(8 * bytes), false, {}, key};
            gpurotate::WriteOptions options;
            options.metadata = &meta;
            const std::string path = dir.file(std::string("keyed-") + (rgb ? "rgb-" : "grey-") + gpurotate::to_string(image.format()) + ".png");
            gpurotate::write_image(path, image.view(), options);
            const auto read = gpurotate::read_image(path);
            CAPTURE(rgb);
            CAPTURE(gpurotate::to_string(image.format()));
            REQUIRE(read.format() == gpurotate::PixelFormat{s, channels + 1});
            const auto alpha_at = [&](std::int64_t x, std::int64_t y) {
                const std::byte* p = read.view().row(y) + (x * (channels + 1) + channels) * static_cast<std::int64_t>(bytes);
                return bytes == 1 ? std::to_integer<unsigned>(*p) : unsigned{*reinterpret_cast<const std::uint16_t*>(p)};
            };
            CHECK(alpha_at(2, 1) == 0);
            CHECK(alpha_at(0, 0) == (bytes == 1 ? 255u : 65535u));  // the random image's other pixels differ from the key
            // A key that no pixel has adds no channel: the PNG still goes to JPEG, say, as before.
            for (int c = 0; c < channels; ++c) key[2 * c] = 0, key[2 * c + 1] = 1;  // the key 1, 1, 1...
            auto unkeyed = test_support::random_image(7, 5, {s, channels}, 70);
            std::memset(unkeyed.data(), 0, unkeyed.size_bytes());  // ...and every sample 0
            meta.png_storage = gpurotate::PngStorage{rgb ? 2 : 0, static_cast<int>(8 * bytes), false, {}, key};
            const std::string plain = dir.file(std::string("unkeyed-") + (rgb ? "rgb-" : "grey-") + gpurotate::to_string(image.format()) + ".png");
            gpurotate::write_image(plain, unkeyed.view(), options);
            CHECK(gpurotate::read_image(plain).format() == gpurotate::PixelFormat{s, channels});
        }
    }
}
