// Writes the fuzzers' seed corpus into one folder: small valid files of every format, depth and channel
// count the codecs read, and broken ones (truncated, a flipped byte in the pixel data, a bad chunk CRC,
// a huge declared size, a zero size, headers alone), TIFFs and WebPs of every coding (tiff_webp_seeds.cpp) and WebDataset
// shards (shard_seeds.cpp). Generated, never checked in: usage `make_corpus DIR`.

#include "seed_files.hpp"

#include <gpurotate/io.hpp>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

using gpurotate::fuzz::Bytes;
constexpr auto save = gpurotate::fuzz::save_seed;

gpurotate::Image noise(std::int64_t w, std::int64_t h, gpurotate::PixelFormat f, unsigned seed) {
    gpurotate::Image image(w, h, f);
    std::mt19937 random(seed);
    auto* p = reinterpret_cast<std::uint8_t*>(image.data());
    for (std::size_t i = 0; i < image.size_bytes(); ++i) p[i] = static_cast<std::uint8_t>(random() >> 24);
    if (f.sample == gpurotate::SampleType::f32) {  // finite floats in [0, 1)
        auto* v = reinterpret_cast<float*>(image.data());
        for (std::size_t i = 0; i < image.size_bytes() / 4; ++i) v[i] = static_cast<float>(random() % 1000) / 1000.0f;
    }
    return image;
}

std::uint32_t crc32(const Bytes& b, std::size_t begin, std::size_t size) {
    std::uint32_t c = 0xffffffffu;
    for (std::size_t i = begin; i < begin + size; ++i) {
        c ^= b[i];
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

void put_be32(Bytes& b, std::size_t pos, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[pos + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

// The damaged variants of one valid file.
void save_broken(const std::string& dir, const std::string& stem, const std::string& ext, const Bytes& good) {
    save(dir, stem + "-truncated-half" + ext, Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2)));
    save(dir, stem + "-truncated-header" + ext, Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(good.size(), 20))));
    Bytes flipped = good;
    flipped[flipped.size() * 3 / 4] ^= 0x5a;
    save(dir, stem + "-flipped" + ext, flipped);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_corpus DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    using gpurotate::SampleType;
    unsigned seed = 1;
    int files = 0;
    struct Target {
        const char* ext;
        std::vector<gpurotate::PixelFormat> formats;
    };
    const std::vector<Target> targets = {
        {".png", {{SampleType::u8, 1}, {SampleType::u8, 2}, {SampleType::u8, 3}, {SampleType::u8, 4},
                  {SampleType::u16, 1}, {SampleType::u16, 2}, {SampleType::u16, 3}, {SampleType::u16, 4}}},
        {".jpg", {{SampleType::u8, 1}, {SampleType::u8, 3}}},
        {".bmp", {{SampleType::u8, 3}, {SampleType::u8, 4}}},
        {".tga", {{SampleType::u8, 1}, {SampleType::u8, 2}, {SampleType::u8, 3}, {SampleType::u8, 4}}},
        {".hdr", {{SampleType::f32, 3}}},
    };
    for (const auto& target : targets) {
        for (const auto& format : target.formats) {
            for (const auto& [w, h] : {std::pair<int, int>{1, 1}, {7, 5}, {33, 17}}) {
                const std::string stem = gpurotate::to_string(format) + "-" + std::to_string(w) + "x" + std::to_string(h);
                gpurotate::WriteOptions options;
                options.quality = 75;
                const Bytes good = gpurotate::encode_image(noise(w, h, format, seed++).view(), target.ext, options);
                save(dir, stem + target.ext, good);
                save_broken(dir, stem, target.ext, good);
                files += 4;
            }
        }
    }
    // PNG headers that lie: huge and zero sizes, a bad IHDR CRC, a palette type without a palette.
    const Bytes png = gpurotate::encode_image(noise(4, 4, {SampleType::u8, 3}, 99).view(), ".png");
    const auto with_ihdr = [&](std::uint32_t w, std::uint32_t h, int color, bool fix_crc) {
        Bytes b = png;
        put_be32(b, 16, w);
        put_be32(b, 20, h);
        b[25] = static_cast<std::uint8_t>(color);
        if (fix_crc) put_be32(b, 29, crc32(b, 12, 17));
        return b;
    };
    save(dir, "png-huge.png", with_ihdr(100000, 100000, 2, true));
    save(dir, "png-wide.png", with_ihdr(0x7fffffff, 1, 2, true));
    save(dir, "png-zero.png", with_ihdr(0, 4, 2, true));
    save(dir, "png-bad-ihdr-crc.png", with_ihdr(5, 4, 2, false));
    save(dir, "png-palette-without-plte.png", with_ihdr(4, 4, 3, true));
    // PNGs in the stored formats that only a PNG keeps (ReadOptions::png_storage): palettes with and without
    // tRNS, 1-, 2- and 4-bit grey, 16-bit grey and RGB with tRNS, with ancillary chunks before and after PLTE.
    struct Stored {
        const char* name;
        int color_type, bit_depth, channels;
        Bytes transparency;
    };
    const Stored stored[] = {
        {"png-palette-4bit", 3, 4, 1, {}},          {"png-palette-8bit-trns", 3, 8, 1, {0, 128, 255, 7}},
        {"png-grey-1bit", 0, 1, 1, {}},             {"png-grey-2bit-trns", 0, 2, 1, {0, 2}},
        {"png-grey-16bit-trns", 0, 16, 1, {1, 2}}, {"png-rgb-8bit-trns", 2, 8, 3, {0, 1, 0, 2, 0, 3}},
    };
    for (const Stored& s : stored) {
        gpurotate::ImageMetadata kept;
        gpurotate::PngStorage storage;
        storage.color_type = s.color_type;
        storage.bit_depth = s.bit_depth;
        if (s.color_type == 3) {
            for (int i = 0; i < (1 << s.bit_depth) * 3; ++i) storage.palette.push_back(static_cast<std::uint8_t>(i * 37));
        }
        storage.transparency = s.transparency;
        kept.png_storage = storage;
        kept.png_chunks = {{"gAMA", {0, 0, 177, 143}, gpurotate::PngChunkPlace::before_plte},
                           {"pHYs", {0, 0, 14, 196, 0, 0, 11, 19, 1}, gpurotate::PngChunkPlace::before_idat},
                           {"tEXt", {'k', 0, 'v'}, gpurotate::PngChunkPlace::after_idat}};
        gpurotate::WriteOptions options;
        options.metadata = &kept;
        const gpurotate::Image pixels = noise(9, 5, {s.bit_depth == 16 ? SampleType::u16 : SampleType::u8, s.channels}, seed++);
        const Bytes good = gpurotate::encode_image(pixels.view(), ".png", options);
        save(dir, std::string(s.name) + ".png", good);
        save_broken(dir, s.name, ".png", good);
        files += 4;
    }
    // A JPEG frame header declaring 65000x65000 and one declaring 0 rows.
    const Bytes jpeg = gpurotate::encode_image(noise(16, 16, {SampleType::u8, 3}, 98).view(), ".jpg");
    for (std::size_t i = 2; i + 9 < jpeg.size(); ++i) {
        if (jpeg[i] == 0xff && jpeg[i + 1] >= 0xc0 && jpeg[i + 1] <= 0xc2) {
            Bytes huge = jpeg, zero = jpeg;
            huge[i + 5] = huge[i + 7] = 0xfd, huge[i + 6] = huge[i + 8] = 0xe8;
            zero[i + 5] = zero[i + 6] = 0;
            save(dir, "jpeg-huge.jpg", huge);
            save(dir, "jpeg-zero-rows.jpg", zero);
            break;
        }
    }
    // TIFF and WebP headers alone, for the header probes.
    save(dir, "tiff-huge.tif", {'I', 'I', 42, 0, 8, 0, 0, 0, 2, 0, 0, 1, 4, 0, 1, 0, 0, 0, 0xa0, 0x86, 1, 0,
                                1, 1, 4, 0, 1, 0, 0, 0, 0xa0, 0x86, 1, 0, 0, 0, 0, 0});
    save(dir, "webp-vp8x.webp", {'R', 'I', 'F', 'F', 22, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,
                                 0, 0, 0, 0, 0x9f, 0x86, 1, 0xf3, 1, 0});
    // Metadata: EXIF (orientation 6, an Exif IFD with the pixel dimensions), an ICC profile and XMP with its
    // geometry fields as attributes and as elements, in both.
    gpurotate::ImageMetadata meta;
    meta.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 2, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0x69, 0x87, 4, 0, 1, 0, 0, 0, 38, 0, 0, 0,
                 0, 0, 0, 0, 2, 0, 0x02, 0xa0, 3, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0x03, 0xa0, 3, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0};
    meta.icc.resize(3000);
    for (std::size_t i = 0; i < meta.icc.size(); ++i) meta.icc[i] = static_cast<std::uint8_t>(i * 7);
    meta.xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description tiff:Orientation=\"6\" exif:PixelXDimension='5' "
               "exif:PixelYDimension = \"4\" tiff:XResolution=\"72/1\" tiff:YResolution=\"72/1\"><tiff:ImageWidth>5</tiff:ImageWidth>"
               "<tiff:ImageLength>4</tiff:ImageLength></rdf:Description></rdf:RDF></x:xmpmeta>";
    meta.iptc = {0x1c, 2, 0, 0, 2, 0, 4, 0x1c, 2, 25, 0, 3, 'c', 'a', 't'};  // IPTC records, which a JPEG holds in APP13
    gpurotate::WriteOptions with_meta;
    with_meta.metadata = &meta;
    save(dir, "metadata.jpg", gpurotate::encode_image(noise(5, 4, {SampleType::u8, 3}, 97).view(), ".jpg", with_meta));
    save(dir, "metadata.png", gpurotate::encode_image(noise(5, 4, {SampleType::u8, 3}, 96).view(), ".png", with_meta));
    // A TIFF whose first directory points at an EXIF directory (with an Interoperability directory) and a GPS
    // directory, which metadata_of copies into an EXIF block (tiff_exif.cpp); built as test_metadata.cpp's.
    save(dir, "tiff-exif-gps.tif", {
        73, 73, 42, 0, 206, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 1, 0, 1, 0, 2, 0, 4, 0, 0, 0, 82, 57, 56, 0, 0, 0, 0,
        0, 6, 0, 154, 130, 5, 0, 1, 0, 0, 0, 112, 0, 0, 0, 39, 136, 3, 0, 1, 0, 0, 0, 144, 1, 0, 0, 3, 144, 2, 0, 20, 0, 0,
        0, 120, 0, 0, 0, 2, 160, 4, 0, 1, 0, 0, 0, 4, 0, 0, 0, 3, 160, 4, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 160, 4, 0, 1, 0, 0,
        0, 16, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 250, 0, 0, 0, 50, 48, 50, 54, 58, 49, 49, 58, 50, 53, 32, 49, 48, 58, 48,
        48, 58, 48, 48, 0, 3, 0, 0, 0, 1, 0, 4, 0, 0, 0, 2, 3, 0, 0, 1, 0, 2, 0, 2, 0, 0, 0, 78, 0, 0, 0, 2, 0, 5, 0, 3, 0,
        0, 0, 182, 0, 0, 0, 0, 0, 0, 0, 48, 0, 0, 0, 1, 0, 0, 0, 51, 0, 0, 0, 1, 0, 0, 0, 96, 9, 0, 0, 100, 0, 0, 0, 11, 0,
        0, 1, 3, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 1, 3, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 1, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, 3, 1, 3,
        0, 1, 0, 0, 0, 1, 0, 0, 0, 6, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 17, 1, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0, 21, 1, 3, 0, 1,
        0, 0, 0, 1, 0, 0, 0, 22, 1, 4, 0, 1, 0, 0, 0, 2, 0, 0, 0, 23, 1, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0, 105, 135, 4, 0, 1, 0,
        0, 0, 34, 0, 0, 0, 37, 136, 4, 0, 1, 0, 0, 0, 140, 0, 0, 0, 0, 0, 0, 0});
    // The same directories in a BigTIFF (8-byte counts, offsets and value fields; pointers as IFD8 and LONG8, and a
    // LONG8 entry the EXIF block has no type for), built as test_metadata.cpp's big_tiff_with_exif_and_gps.
    save(dir, "bigtiff-exif-gps.tif", {
        73, 73, 43, 0, 8, 0, 0, 0, 112, 1, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130,
        140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0,
        82, 57, 56, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 154, 130, 5, 0, 1, 0, 0,
        0, 0, 0, 0, 0, 1, 0, 0, 0, 250, 0, 0, 0, 39, 136, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 144, 1, 0, 0, 0, 0, 0, 0, 3,
        144, 2, 0, 20, 0, 0, 0, 0, 0, 0, 0, 236, 0, 0, 0, 0, 0, 0, 0, 2, 160, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0,
        0, 0, 0, 0, 3, 160, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, 160, 16, 0, 1, 0, 0, 0, 0, 0, 0, 0,
        40, 0, 0, 0, 0, 0, 0, 0, 32, 164, 16, 0, 1, 0, 0, 0, 0, 0, 0, 0, 210, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 50, 48, 50, 54, 58, 49, 49, 58, 50, 53, 32, 49, 48, 58, 48, 48, 58, 48, 48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0,
        0, 78, 0, 0, 0, 0, 0, 0, 0, 2, 0, 5, 0, 3, 0, 0, 0, 0, 0, 0, 0, 84, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        48, 0, 0, 0, 1, 0, 0, 0, 51, 0, 0, 0, 1, 0, 0, 0, 96, 9, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0,
        0, 0, 1, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
        0, 0, 0, 0, 2, 1, 3, 0, 3, 0, 0, 0, 0, 0, 0, 0, 8, 0, 8, 0, 8, 0, 0, 0, 3, 1, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1,
        0, 0, 0, 0, 0, 0, 0, 6, 1, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 17, 1, 16, 0, 1, 0, 0, 0, 0, 0,
        0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 21, 1, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 22, 1, 4, 0, 1, 0,
        0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 23, 1, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 105,
        135, 18, 0, 1, 0, 0, 0, 0, 0, 0, 0, 80, 0, 0, 0, 0, 0, 0, 0, 37, 136, 18, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 1, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    save(dir, "empty.bin", {});
    // Binary Netpbm (our reader) and a run-length coded BMP (expanded before stb), good and cut short.
    const auto text = [](const std::string& s, const Bytes& raster) {
        Bytes b(s.begin(), s.end());
        b.insert(b.end(), raster.begin(), raster.end());
        return b;
    };
    const std::pair<const char*, Bytes> netpbm[] = {
        {"pnm-grey16.pgm", text("P5\n# c\n3 2\n65535\n", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})},
        {"pnm-maxval100.ppm", text("P6 2 1 100\n", {50, 100, 0, 1, 2, 3})},
        {"pam-rgba16.pam", text("P7\nWIDTH 1\nHEIGHT 2\nDEPTH 4\nMAXVAL 1023\nTUPLTYPE RGB_ALPHA\nENDHDR\n", Bytes(16, 1))},
        {"bmp-rle8.bmp", {'B', 'M', 82, 0, 0, 0, 0, 0, 0, 0, 62, 0, 0, 0, 40, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 8, 0, 1, 0, 0, 0, 20, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 0, 3, 1, 0, 0, 0, 3, 1, 0, 1, 0, 0, 2, 1,
                          3, 0, 0, 0, 1}},
    };
    for (const auto& [name, bytes] : netpbm) {
        save(dir, name, bytes);
        save(dir, std::string("cut-") + name, Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() - 3)));
        files += 2;
    }
    files += gpurotate::fuzz::write_tiff_webp_seeds(dir);
    files += gpurotate::fuzz::write_shard_seeds(dir);
    std::printf("make_corpus: %d files in %s\n", files + 14, dir.c_str());
    return 0;
}
