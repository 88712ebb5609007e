// Seeds for fuzz_tiff_webp, generated: the product's own TIFF and WebP writers for the codings it writes, and
// libtiff and libwebpmux directly for what it only reads (palette, tiles, pages, MINISWHITE, CMYK, an animation).

#include "seed_files.hpp"

#include "formats/tiff_file.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>

#include <webp/encode.h>
#include <webp/mux.h>

#include <functional>

namespace gpurotate::fuzz {
namespace {

Image pattern(std::int64_t w, std::int64_t h, PixelFormat f) {
    Image image(w, h, f);
    auto* p = reinterpret_cast<std::uint8_t*>(image.data());
    for (std::size_t i = 0; i < image.size_bytes(); ++i) p[i] = static_cast<std::uint8_t>(i * 37 + i / 7);
    if (f.sample == SampleType::f32) {
        auto* v = reinterpret_cast<float*>(image.data());
        for (std::size_t i = 0; i < image.size_bytes() / 4; ++i) v[i] = static_cast<float>(i % 100) / 100.0f;
    }
    return image;
}

// A good file and its damaged variants: cut in half, and a byte flipped three quarters in.
int save_with_damage(const std::string& dir, const std::string& name, const std::string& ext, const Bytes& good) {
    save_seed(dir, name + ext, good);
    save_seed(dir, name + "-cut" + ext, Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2)));
    Bytes flipped = good;
    flipped[flipped.size() * 3 / 4] ^= 0x5a;
    save_seed(dir, name + "-flipped" + ext, flipped);
    return 3;
}

// A TIFF written by libtiff itself: `write` sets the fields and writes the pixels of each page.
Bytes libtiff_file(const std::function<void(TIFF*)>& write) {
    Bytes bytes;
    detail::TiffFile file = detail::TiffFile::writing(bytes);
    {
        const detail::TiffHandle t = detail::open_tiff(file, "w");
        write(t.get());
    }
    return bytes;
}

void set_fields(TIFF* t, std::uint32_t w, std::uint32_t h, std::uint16_t samples, std::uint16_t bits, std::uint16_t photometric) {
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, h);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, samples);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, photometric);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 2u);
}

void write_rows(TIFF* t, std::uint32_t h, std::size_t row_bytes) {
    Bytes row(row_bytes);
    for (std::uint32_t y = 0; y < h; ++y) {
        for (std::size_t i = 0; i < row.size(); ++i) row[i] = static_cast<std::uint8_t>(y * 31 + i * 7);
        TIFFWriteScanline(t, row.data(), y, 0);
    }
}

Bytes animated_webp() {
    WebPAnimEncoderOptions options;
    WebPAnimEncoderOptionsInit(&options);
    WebPAnimEncoder* encoder = WebPAnimEncoderNew(8, 6, &options);
    WebPConfig config;
    WebPConfigInit(&config);
    for (int frame = 0; frame < 2; ++frame) {
        WebPPicture picture;
        WebPPictureInit(&picture);
        picture.width = 8;
        picture.height = 6;
        picture.use_argb = 1;
        const Image pixels = pattern(8, 6, {SampleType::u8, 4});
        WebPPictureImportRGBA(&picture, reinterpret_cast<const std::uint8_t*>(pixels.data()), 32);
        WebPAnimEncoderAdd(encoder, &picture, frame * 100, &config);
        WebPPictureFree(&picture);
    }
    WebPAnimEncoderAdd(encoder, nullptr, 200, nullptr);
    WebPData data{nullptr, 0};
    WebPAnimEncoderAssemble(encoder, &data);
    Bytes bytes(data.bytes, data.bytes + data.size);
    WebPDataClear(&data);
    WebPAnimEncoderDelete(encoder);
    return bytes;
}

}  // namespace

int write_tiff_webp_seeds(const std::string& dir) {
    int files = 0;
    // The product's writer: every compression on 8-bit RGB (JPEG-in-TIFF as YCbCr), then depths and channels.
    for (const TiffCompression compression : {TiffCompression::none, TiffCompression::lzw, TiffCompression::deflate, TiffCompression::packbits,
                                              TiffCompression::zstd, TiffCompression::lzma, TiffCompression::jpeg}) {
        WriteOptions options;
        options.tiff.compression = compression;
        options.tiff.rows_per_strip = 3;
        try {
            files += save_with_damage(dir, std::string("tiff-rgb8-") + to_string(compression), ".tif",
                                      encode_image(pattern(11, 7, {SampleType::u8, 3}).view(), ".tif", options));
        } catch (const Error&) {  // a codec this libtiff lacks
        }
    }
    struct Layout {
        const char* name;
        PixelFormat format;
        bool separate;
        TiffCompression compression;
    };
    const Layout layouts[] = {
        {"grey8", {SampleType::u8, 1}, false, TiffCompression::packbits},   {"grey-alpha8", {SampleType::u8, 2}, false, TiffCompression::lzw},
        {"rgba8-planes", {SampleType::u8, 4}, true, TiffCompression::deflate}, {"grey16", {SampleType::u16, 1}, false, TiffCompression::lzw},
        {"rgb16", {SampleType::u16, 3}, false, TiffCompression::none},     {"grey-alpha16", {SampleType::u16, 2}, false, TiffCompression::deflate},
        {"grey-f32", {SampleType::f32, 1}, false, TiffCompression::deflate},
    };
    for (const Layout& l : layouts) {
        WriteOptions options;
        options.tiff.compression = l.compression;
        options.tiff.separate_planes = l.separate;
        files += save_with_damage(dir, std::string("tiff-") + l.name, ".tif", encode_image(pattern(9, 5, l.format).view(), ".tif", options));
    }
    // libtiff directly, for what the product reads but does not write.
    files += save_with_damage(dir, "tiff-palette4", ".tif", libtiff_file([](TIFF* t) {
        set_fields(t, 7, 5, 1, 4, PHOTOMETRIC_PALETTE);
        std::uint16_t map[3][16];
        for (int i = 0; i < 16; ++i) map[0][i] = map[1][i] = map[2][i] = static_cast<std::uint16_t>(i * 4369);
        TIFFSetField(t, TIFFTAG_COLORMAP, map[0], map[1], map[2]);
        write_rows(t, 5, 4);
    }));
    files += save_with_damage(dir, "tiff-miniswhite1", ".tif", libtiff_file([](TIFF* t) {
        set_fields(t, 13, 4, 1, 1, PHOTOMETRIC_MINISWHITE);
        write_rows(t, 4, 2);
    }));
    files += save_with_damage(dir, "tiff-cmyk8", ".tif", libtiff_file([](TIFF* t) {
        set_fields(t, 5, 4, 4, 8, PHOTOMETRIC_SEPARATED);
        TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
        write_rows(t, 4, 20);
    }));
    files += save_with_damage(dir, "tiff-tiled-rgb8", ".tif", libtiff_file([](TIFF* t) {
        set_fields(t, 40, 20, 3, 8, PHOTOMETRIC_RGB);
        TIFFSetField(t, TIFFTAG_TILEWIDTH, 16u);
        TIFFSetField(t, TIFFTAG_TILELENGTH, 16u);
        TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
        Bytes tile(16 * 16 * 3);
        for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = static_cast<std::uint8_t>(i * 13);
        for (std::uint32_t y = 0; y < 20; y += 16) {
            for (std::uint32_t x = 0; x < 40; x += 16) TIFFWriteTile(t, tile.data(), x, y, 0, 0);
        }
    }));
    files += save_with_damage(dir, "tiff-three-pages", ".tif", libtiff_file([](TIFF* t) {
        for (std::uint32_t page = 0; page < 3; ++page) {
            set_fields(t, 6 + page, 3, 1, 8, PHOTOMETRIC_MINISBLACK);
            write_rows(t, 3, 6 + page);
            TIFFWriteDirectory(t);
        }
    }));
    // WebP: lossy and lossless, with and without alpha, one with an ICC profile and EXIF (a VP8X file), an animation.
    ImageMetadata meta;
    meta.icc = Bytes(200, 7);
    meta.exif = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    for (const bool lossless : {false, true}) {
        for (const int channels : {3, 4}) {
            WriteOptions options;
            options.lossless = lossless;
            options.quality = 60;
            if (channels == 4) options.metadata = &meta;
            const std::string name = std::string("webp-") + (lossless ? "lossless" : "lossy") + (channels == 4 ? "-alpha-meta" : "");
            files += save_with_damage(dir, name, ".webp", encode_image(pattern(13, 9, {SampleType::u8, channels}).view(), ".webp", options));
        }
    }
    files += save_with_damage(dir, "webp-animated", ".webp", animated_webp());
    return files;
}

}  // namespace gpurotate::fuzz
