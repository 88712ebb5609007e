#include "formats/tiff_plugin_codec.hpp"

#include <opencv2/core.hpp>

#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gpurotate_plugin {
namespace {

// libtiff's file access, over bytes in memory (reading) or a growing vector (writing).
struct MemoryFile {
    const unsigned char* data = nullptr;
    std::size_t size = 0;
    std::vector<unsigned char>* out = nullptr;
    toff_t position = 0;
    std::string message;  ///< libtiff's last error on this handle

    std::size_t length() const { return out ? out->size() : size; }
};

tmsize_t read_proc(thandle_t handle, void* buffer, tmsize_t n) {
    auto* f = static_cast<MemoryFile*>(handle);
    const unsigned char* base = f->out ? f->out->data() : f->data;
    if (f->position >= f->length() || n <= 0) return 0;
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(n), f->length() - f->position);
    std::memcpy(buffer, base + f->position, count);
    f->position += count;
    return static_cast<tmsize_t>(count);
}

tmsize_t write_proc(thandle_t handle, void* buffer, tmsize_t n) {
    auto* f = static_cast<MemoryFile*>(handle);
    if (!f->out || n < 0) return -1;
    if (f->out->size() < f->position + static_cast<std::size_t>(n)) f->out->resize(f->position + static_cast<std::size_t>(n));
    std::memcpy(f->out->data() + f->position, buffer, static_cast<std::size_t>(n));
    f->position += static_cast<toff_t>(n);
    return n;
}

toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    auto* f = static_cast<MemoryFile*>(handle);
    const toff_t base = whence == SEEK_CUR ? f->position : whence == SEEK_END ? f->length() : 0;
    f->position = base + offset;
    return f->position;
}

int close_proc(thandle_t) { return 0; }
toff_t size_proc(thandle_t handle) { return static_cast<MemoryFile*>(handle)->length(); }
int map_proc(thandle_t, void**, toff_t*) { return 0; }
void unmap_proc(thandle_t, void*, toff_t) {}

// libtiff reports through handlers that print to stderr by default. Each handle gets its own (libtiff 4.5's
// open options), which keep the last message for the one-line error gpurotate prints: the process-wide ones
// are OpenCV's once its TIFF reader has run.
int keep_message(TIFF*, void* file, const char* module, const char* format, va_list args) {
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    static_cast<MemoryFile*>(file)->message = (module ? std::string(module) + ": " : std::string()) + text;
    return 1;  // handled: not passed on to the process-wide handler
}
int ignore_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

struct TiffCloser {
    void operator()(TIFF* t) const { TIFFClose(t); }
};
using TiffHandle = std::unique_ptr<TIFF, TiffCloser>;

TiffHandle open_tiff(MemoryFile& file, const char* mode) {
    const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> options(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), keep_message, &file);
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), ignore_warning, &file);
    return TiffHandle(
        TIFFClientOpenExt("tiff", mode, &file, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc, unmap_proc, options.get()));
}

// Copies `rows` rows of one strip or tile (`columns` pixels of `samples` interleaved samples, or one plane
// of a separate configuration) to the image at (x, y), plane `plane` where separate.
void place(cv::Mat& image, const unsigned char* from, std::size_t from_pitch, int x, int y, int columns, int rows, int plane, bool separate) {
    const std::size_t sample = image.elemSize1(), channels = static_cast<std::size_t>(image.channels());
    columns = std::min(columns, image.cols - x);
    rows = std::min(rows, image.rows - y);
    for (int r = 0; r < rows; ++r) {
        unsigned char* to = image.ptr(y + r) + static_cast<std::size_t>(x) * channels * sample;
        const unsigned char* row = from + static_cast<std::size_t>(r) * from_pitch;
        if (!separate) {
            std::memcpy(to, row, static_cast<std::size_t>(columns) * channels * sample);
            continue;
        }
        for (int c = 0; c < columns; ++c) std::memcpy(to + (static_cast<std::size_t>(c) * channels + static_cast<std::size_t>(plane)) * sample, row + static_cast<std::size_t>(c) * sample, sample);
    }
}

void say(char* error, std::size_t size, const std::string& text) { std::snprintf(error, size, "%s", text.c_str()); }

}  // namespace

TiffRead tiff_decode(const unsigned char* bytes, std::size_t size, GpurotateCvImage* out, char* error, std::size_t error_size) {
    if (size < 4 || !((bytes[0] == 'I' && bytes[1] == 'I') || (bytes[0] == 'M' && bytes[1] == 'M'))) return TiffRead::not_handled;
    MemoryFile file{bytes, size, nullptr, 0, {}};
    const TiffHandle tif = open_tiff(file, "rm");
    if (!tif) return TiffRead::not_handled;  // OpenCV says what is wrong, or that it is not a TIFF
    std::uint32_t width = 0, height = 0;
    std::uint16_t samples = 1, bits = 1, format = SAMPLEFORMAT_UINT, photometric = 0, planar = PLANARCONFIG_CONTIG, orientation = ORIENTATION_TOPLEFT;
    TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_ORIENTATION, &orientation);
    if (!TIFFGetField(tif.get(), TIFFTAG_PHOTOMETRIC, &photometric)) return TiffRead::not_handled;
    std::uint16_t extra_count = 0;
    std::uint16_t* extra = nullptr;
    TIFFGetField(tif.get(), TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    const bool grey = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE;
    const int colour = grey ? 1 : 3;
    const bool integers = format == SAMPLEFORMAT_UINT && (bits == 8 || bits == 16);
    const bool floats = format == SAMPLEFORMAT_IEEEFP && bits == 32 && photometric != PHOTOMETRIC_MINISWHITE;
    // Grey or RGB with at most one more sample (alpha); the rest (palette, CMYK, YCbCr, 1-bit, more
    // samples) is OpenCV's.
    if (width == 0 || height == 0 || std::uint64_t{width} * height > std::uint64_t{1} << 31) {
        say(error, error_size, "a TIFF of " + std::to_string(width) + "x" + std::to_string(height) + " pixels (the plugin reads 1 to 2^31)");
        return TiffRead::damaged;
    }
    if ((!grey && photometric != PHOTOMETRIC_RGB) || (!integers && !floats) || samples < colour || samples > colour + 1) {
        // OpenCV's reader, which takes the rest (palette, CMYK, bilevel), refuses or garbles these, and says so
        // on stderr first: other sample sizes, 32-bit integers, floats other than 32-bit, signed samples, more
        // than 4 samples a pixel.
        const bool opencv_reads = (bits == 1 || bits == 8 || bits == 16) && format != SAMPLEFORMAT_INT && format != SAMPLEFORMAT_IEEEFP && samples <= 4;
        if (!opencv_reads) {
            say(error, error_size, "a TIFF of " + std::to_string(samples) + " samples of " + std::to_string(bits) + " bits (sample format " +
                                       std::to_string(format) + ", photometric " + std::to_string(photometric) +
                                       ") is not read: grey, grey+alpha, RGB and RGBA of 8/16-bit integers or 32-bit floats are, and OpenCV converts 8-bit palette, 8/16-bit CMYK and 1-bit ones");
            return TiffRead::damaged;
        }
        return TiffRead::not_handled;
    }
    const int depth = floats ? CV_32F : bits == 16 ? CV_16U : CV_8U;
    auto image = std::make_unique<cv::Mat>(static_cast<int>(height), static_cast<int>(width), CV_MAKETYPE(depth, samples));
    const bool separate = planar == PLANARCONFIG_SEPARATE && samples > 1;
    const int planes = separate ? samples : 1;
    const std::size_t pixel = static_cast<std::size_t>(bits / 8) * (separate ? 1u : samples);
    std::vector<unsigned char> buffer;
    const auto damaged = [&](const char* what) {
        say(error, error_size, std::string("corrupt TIFF: ") + what + (file.message.empty() ? "" : " (" + file.message + ")"));
        return TiffRead::damaged;
    };
    if (TIFFIsTiled(tif.get())) {
        std::uint32_t tile_width = 0, tile_height = 0;
        TIFFGetField(tif.get(), TIFFTAG_TILEWIDTH, &tile_width);
        TIFFGetField(tif.get(), TIFFTAG_TILELENGTH, &tile_height);
        if (tile_width == 0 || tile_height == 0) return damaged("a tile of no size");
        // Tiles may overhang the image, but not by more than a little: a small file must not make the
        // reader allocate gigabytes for one tile.
        const std::uint64_t image_bytes = std::uint64_t{width} * height * samples * (bits / 8);
        const std::uint64_t tile_bytes = static_cast<std::uint64_t>(TIFFTileSize64(tif.get()));
        if (tile_bytes == 0 || tile_bytes > 4 * image_bytes + (std::uint64_t{1} << 20)) return damaged("its tiles are far larger than the image");
        buffer.resize(static_cast<std::size_t>(tile_bytes));
        for (int plane = 0; plane < planes; ++plane) {
            for (std::uint32_t y = 0; y < height; y += tile_height) {
                for (std::uint32_t x = 0; x < width; x += tile_width) {
                    const ttile_t tile = TIFFComputeTile(tif.get(), x, y, 0, static_cast<tsample_t>(plane));
                    if (TIFFReadEncodedTile(tif.get(), tile, buffer.data(), static_cast<tmsize_t>(buffer.size())) < 0) return damaged("a tile cannot be read");
                    place(*image, buffer.data(), tile_width * pixel, static_cast<int>(x), static_cast<int>(y), static_cast<int>(tile_width),
                          static_cast<int>(tile_height), plane, separate);
                }
            }
        }
    } else {
        std::uint32_t rows_per_strip = 0;
        TIFFGetFieldDefaulted(tif.get(), TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
        rows_per_strip = std::min(std::max<std::uint32_t>(rows_per_strip, 1), height);
        buffer.resize(static_cast<std::size_t>(TIFFStripSize(tif.get())));
        for (int plane = 0; plane < planes; ++plane) {
            for (std::uint32_t y = 0; y < height; y += rows_per_strip) {
                const tstrip_t strip = TIFFComputeStrip(tif.get(), y, static_cast<tsample_t>(plane));
                const std::uint32_t rows = std::min(rows_per_strip, height - y);
                const auto want = static_cast<tmsize_t>(std::uint64_t{rows} * width * pixel);
                if (TIFFReadEncodedStrip(tif.get(), strip, buffer.data(), want) < want) return damaged("a strip cannot be read, or is short");
                place(*image, buffer.data(), width * pixel, 0, static_cast<int>(y), static_cast<int>(width), static_cast<int>(rows), plane, separate);
            }
        }
    }
    if (photometric == PHOTOMETRIC_MINISWHITE) {  // 0 is white: stored inverted against every other format
        cv::Mat grey_only = image->reshape(1);
        if (samples == 2) {  // the alpha stays
            std::vector<cv::Mat> split;
            cv::split(*image, split);
            cv::bitwise_not(split[0], split[0]);
            cv::merge(split, *image);
        } else {
            cv::bitwise_not(grey_only, grey_only);
        }
    }
    const bool associated = extra_count >= 1 && extra && extra[0] == EXTRASAMPLE_ASSOCALPHA;
    *out = GpurotateCvImage{image->cols, image->rows, image->channels(), floats ? gpurotate_cv_f32 : bits == 16 ? gpurotate_cv_u16 : gpurotate_cv_u8,
                            image->data, image->step[0], image.get(), associated ? 1 : 0, orientation >= 1 && orientation <= 8 ? orientation : 1,
                            nullptr, 0, nullptr, 0, 0, 0, 1, nullptr, 0, nullptr, 0, 0, nullptr, 0};
    image.release();
    return TiffRead::decoded;
}

int tiff_encode(const GpurotateCvImage* image, GpurotateCvBytes* out, char* error, std::size_t error_size) {
    auto bytes = std::make_unique<std::vector<unsigned char>>();
    MemoryFile file{nullptr, 0, bytes.get(), 0, {}};
    {
        const TiffHandle tif = open_tiff(file, "w");
        if (!tif) {
            say(error, error_size, "libtiff could not start a TIFF: " + file.message);
            return 0;
        }
        const int bits = image->sample == gpurotate_cv_u8 ? 8 : image->sample == gpurotate_cv_u16 ? 16 : 32;
        const bool floats = image->sample == gpurotate_cv_f32;
        TIFF* t = tif.get();
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(image->width));
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(image->height));
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(image->channels));
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(bits));
        TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, floats ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, image->channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
        TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        // LZW, lossless at every depth, with the predictor that suits the samples (as OpenCV wrote them, but
        // the floating-point predictor for floats).
        TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
        TIFFSetField(t, TIFFTAG_PREDICTOR, floats ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL);
        if (image->channels == 2 || image->channels == 4) {
            const std::uint16_t alpha = image->alpha_associated ? EXTRASAMPLE_ASSOCALPHA : EXTRASAMPLE_UNASSALPHA;
            TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &alpha);
        }
        if (image->orientation >= 2 && image->orientation <= 8) TIFFSetField(t, TIFFTAG_ORIENTATION, static_cast<std::uint16_t>(image->orientation));
        if (image->icc && image->icc_size > 0) TIFFSetField(t, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(image->icc_size), image->icc);
        // Placeholders for the EXIF and GPS directories, which gpurotate appends and points these at (tiff_exif.cpp).
        if (image->tiff_exif_pointers & gpurotate_cv_tiff_exif) TIFFSetField(t, TIFFTAG_EXIFIFD, std::uint64_t{0});
        if (image->tiff_exif_pointers & gpurotate_cv_tiff_gps) TIFFSetField(t, TIFFTAG_GPSIFD, std::uint64_t{0});
        if (image->iptc && image->iptc_size > 0) {
            // libtiff 4.5 declares RichTIFFIPTC UNDEFINED, a count of bytes; older ones LONG, as Photoshop writes it.
            const TIFFField* field = TIFFFieldWithTag(t, TIFFTAG_RICHTIFFIPTC);
            if (field && TIFFFieldDataType(field) == TIFF_LONG) {
                std::vector<std::uint32_t> longs((image->iptc_size + 3) / 4, 0);
                std::memcpy(longs.data(), image->iptc, image->iptc_size);
                TIFFSetField(t, TIFFTAG_RICHTIFFIPTC, static_cast<std::uint32_t>(longs.size()), longs.data());
            } else {
                TIFFSetField(t, TIFFTAG_RICHTIFFIPTC, static_cast<std::uint32_t>(image->iptc_size), image->iptc);
            }
        }
        if (image->xmp && image->xmp_size > 0) TIFFSetField(t, TIFFTAG_XMLPACKET, static_cast<std::uint32_t>(image->xmp_size), image->xmp);
        for (std::size_t at = 0; image->tiff_text && at + 3 <= image->tiff_text_size;) {  // tag, then its NUL-ended value
            const auto tag = static_cast<std::uint32_t>(static_cast<unsigned char>(image->tiff_text[at]) | static_cast<unsigned char>(image->tiff_text[at + 1]) << 8);
            const char* value = image->tiff_text + at + 2;
            const std::size_t length = strnlen(value, image->tiff_text_size - at - 2);
            if (at + 2 + length >= image->tiff_text_size) break;  // no NUL: damaged
            TIFFSetField(t, tag, value);
            at += 2 + length + 1;
        }
        if (image->x_resolution > 0 && image->y_resolution > 0) {
            TIFFSetField(t, TIFFTAG_XRESOLUTION, static_cast<float>(image->x_resolution));
            TIFFSetField(t, TIFFTAG_YRESOLUTION, static_cast<float>(image->y_resolution));
            TIFFSetField(t, TIFFTAG_RESOLUTIONUNIT, static_cast<std::uint16_t>(image->resolution_unit));
        }
        TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(t, 0));
        std::vector<unsigned char> row(static_cast<std::size_t>(image->width) * static_cast<std::size_t>(image->channels) * static_cast<std::size_t>(bits / 8));
        for (int y = 0; y < image->height; ++y) {
            // libtiff's predictor works in the buffer it is given: a copy of the row, not the caller's pixels.
            std::memcpy(row.data(), image->data + static_cast<std::size_t>(y) * image->pitch, row.size());
            if (TIFFWriteScanline(t, row.data(), static_cast<std::uint32_t>(y), 0) < 0) {
                say(error, error_size, "libtiff could not write a row: " + file.message);
                return 0;
            }
        }
        if (!TIFFFlush(t)) {
            say(error, error_size, "libtiff could not finish the TIFF: " + file.message);
            return 0;
        }
    }  // closed: everything written
    *out = GpurotateCvBytes{bytes->data(), bytes->size(), bytes.get()};
    bytes.release();
    return 1;
}

}  // namespace gpurotate_plugin
