#include "formats/tiff_codec.hpp"

#include "core/decode_limits.hpp"
#include "core/huge_pages.hpp"
#include "core/parallel_for.hpp"
#include "formats/tiff_declared_extent.hpp"
#include "formats/tiff_coding.hpp"
#include "formats/tiff_file.hpp"
#include "formats/tiff_strip_coder.hpp"
#include "metadata/tiff_directory.hpp"
#include "metadata/tiff_exif.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/metadata.hpp>

#include <algorithm>
#include <cstring>

namespace gpurotate::detail {
namespace {

// Below this many bytes of pixels a TIFF is read on one thread: opening another handle and waking a thread
// cost more than they save.
constexpr std::size_t parallel_read_bytes = std::size_t{4} << 20;

// What the first directory says about the pixels.
struct TiffPixels {
    std::uint32_t width = 0, height = 0;
    std::uint16_t samples = 1, bits = 1, format = SAMPLEFORMAT_UINT, photometric = 0, planar = PLANARCONFIG_CONTIG;
    std::uint16_t inkset = INKSET_CMYK;
    bool has_photometric = false;
    bool associated_alpha = false;

    bool grey() const { return photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE; }
    bool separate() const { return planar == PLANARCONFIG_SEPARATE && samples > 1; }
    std::size_t sample_bytes() const { return bits / 8u; }
};

TiffPixels pixels_of(TIFF* t) {
    TiffPixels p;
    TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &p.width);
    TIFFGetField(t, TIFFTAG_IMAGELENGTH, &p.height);
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &p.samples);
    TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &p.bits);
    TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &p.format);
    TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &p.planar);
    TIFFGetFieldDefaulted(t, TIFFTAG_INKSET, &p.inkset);
    p.has_photometric = TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &p.photometric) != 0;
    std::uint16_t extra_count = 0;
    std::uint16_t* extra = nullptr;
    TIFFGetField(t, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    p.associated_alpha = extra_count >= 1 && extra && extra[0] == EXTRASAMPLE_ASSOCALPHA;
    return p;
}

// How a TIFF's pixels are read.
enum class Reading {
    as_stored,  ///< grey, RGB (+ alpha) of 8/16-bit integers or 32-bit floats: every sample as it is
    cmyk,       ///< 8/16-bit CMYK (+ alpha), read as stored, then made RGB
    rgba,       ///< libtiff's RGBA reading: palette, YCbCr, grey of 1, 2 or 4 bits
    refused,
};

Reading reading_of(const TiffPixels& p) {
    const bool integers = p.format == SAMPLEFORMAT_UINT && (p.bits == 8 || p.bits == 16);
    const bool floats = p.format == SAMPLEFORMAT_IEEEFP && p.bits == 32 && p.photometric != PHOTOMETRIC_MINISWHITE;
    const int colour = p.grey() ? 1 : 3;
    if ((p.grey() || p.photometric == PHOTOMETRIC_RGB) && (integers || floats) && p.samples >= colour && p.samples <= colour + 1) return Reading::as_stored;
    if (p.photometric == PHOTOMETRIC_SEPARATED && p.inkset == INKSET_CMYK && integers && (p.samples == 4 || p.samples == 5)) return Reading::cmyk;
    const bool few_bits = p.format == SAMPLEFORMAT_UINT && (p.bits == 1 || p.bits == 2 || p.bits == 4 || p.bits == 8);
    if (few_bits && p.samples <= 4 &&
        (p.photometric == PHOTOMETRIC_PALETTE || p.photometric == PHOTOMETRIC_YCBCR || (p.grey() && p.bits < 8 && p.samples == 1))) {
        return Reading::rgba;
    }
    return Reading::refused;
}

[[noreturn]] void refuse(const std::string& path, const std::string& why, const TiffFile& file) {
    throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt TIFF: " + why + (file.message.empty() ? "" : " (" + file.message + ")"));
}

// Where decoded samples go: rows `pitch` bytes apart of `samples` interleaved samples of `sample_bytes`.
struct Destination {
    std::uint8_t* data;
    std::size_t pitch;
    std::size_t samples;
    std::size_t sample_bytes;
    std::uint32_t width, height;
};

// Copies `rows` rows of one strip or tile (`columns` pixels of interleaved samples, or one plane of a separate
// configuration) to the destination at (x, y), into sample `plane` where separate.
void place(const Destination& to, const std::uint8_t* from, std::size_t from_pitch, std::uint32_t x, std::uint32_t y, std::uint32_t columns,
           std::uint32_t rows, std::uint16_t plane, bool separate) {
    columns = std::min(columns, to.width - x);
    rows = std::min(rows, to.height - y);
    const std::size_t pixel = to.samples * to.sample_bytes;
    for (std::uint32_t r = 0; r < rows; ++r) {
        std::uint8_t* out = to.data + (y + r) * to.pitch + x * pixel;
        const std::uint8_t* row = from + r * from_pitch;
        if (!separate) {
            std::memcpy(out, row, columns * pixel);
            continue;
        }
        for (std::uint32_t c = 0; c < columns; ++c) std::memcpy(out + c * pixel + plane * to.sample_bytes, row + c * to.sample_bytes, to.sample_bytes);
    }
}

// Reads pieces [first, last) (strips, or tiles) of the TIFF open as `t` into `to`.
void read_pieces(TIFF* t, const TiffFile& file, const TiffPixels& p, const Destination& to, std::int64_t first, std::int64_t last,
                 const std::string& path) {
    const bool separate = p.separate();
    const std::size_t stored_pixel = p.sample_bytes() * (separate ? 1u : p.samples);
    std::vector<std::uint8_t> buffer;
    if (TIFFIsTiled(t)) {
        std::uint32_t tile_width = 0, tile_height = 0;
        TIFFGetField(t, TIFFTAG_TILEWIDTH, &tile_width);
        TIFFGetField(t, TIFFTAG_TILELENGTH, &tile_height);
        buffer.resize(static_cast<std::size_t>(TIFFTileSize64(t)));
        const std::uint32_t across = (p.width + tile_width - 1) / tile_width, down = (p.height + tile_height - 1) / tile_height;
        for (std::int64_t i = first; i < last; ++i) {
            const auto plane = static_cast<std::uint16_t>(i / (std::int64_t{across} * down));
            const auto in_plane = static_cast<std::uint32_t>(i % (std::int64_t{across} * down));
            const std::uint32_t x = in_plane % across * tile_width, y = in_plane / across * tile_height;
            const ttile_t tile = TIFFComputeTile(t, x, y, 0, plane);
            if (TIFFReadEncodedTile(t, tile, buffer.data(), static_cast<tmsize_t>(buffer.size())) < 0) refuse(path, "a tile cannot be read", file);
            place(to, buffer.data(), tile_width * stored_pixel, x, y, tile_width, tile_height, plane, separate);
        }
        return;
    }
    std::uint32_t rows_per_strip = 0;
    TIFFGetFieldDefaulted(t, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    rows_per_strip = std::min(std::max<std::uint32_t>(rows_per_strip, 1), p.height);
    const std::uint32_t per_plane = (p.height + rows_per_strip - 1) / rows_per_strip;
    const auto strip_bytes = static_cast<std::size_t>(TIFFStripSize64(t));
    // Interleaved strips whose rows are the destination's, packed, are decoded in place: no copy of the image.
    const bool in_place = !separate && to.samples * to.sample_bytes == stored_pixel && to.pitch == std::size_t{p.width} * stored_pixel;
    if (!in_place) buffer.resize(strip_bytes);
    for (std::int64_t i = first; i < last; ++i) {
        const auto plane = static_cast<std::uint16_t>(i / per_plane);
        const std::uint32_t y = static_cast<std::uint32_t>(i % per_plane) * rows_per_strip;
        const std::uint32_t rows = std::min(rows_per_strip, p.height - y);
        const auto want = static_cast<tmsize_t>(std::uint64_t{rows} * p.width * stored_pixel);
        if (static_cast<std::size_t>(want) > strip_bytes) refuse(path, "a strip is larger than its rows", file);
        std::uint8_t* const into = in_place ? to.data + std::size_t{y} * to.pitch : buffer.data();
        if (TIFFReadEncodedStrip(t, TIFFComputeStrip(t, y, plane), into, want) < want) refuse(path, "a strip cannot be read, or is short", file);
        if (!in_place) place(to, buffer.data(), p.width * stored_pixel, 0, y, p.width, rows, plane, separate);
    }
}

// Every strip or tile of the TIFF in `bytes` into `to`, large images on the available cores, each thread on a
// handle of its own (a libtiff handle is one reader's).
void read_stored(TIFF* t, const TiffFile& file, const std::vector<std::uint8_t>& bytes, const TiffPixels& p, const Destination& to,
                 const std::string& path) {
    if (TIFFIsTiled(t)) {
        // Tiles may overhang the image, but not by more than a little: a small file must not make the reader
        // allocate gigabytes for one tile.
        std::uint32_t tile_width = 0, tile_height = 0;
        TIFFGetField(t, TIFFTAG_TILEWIDTH, &tile_width);
        TIFFGetField(t, TIFFTAG_TILELENGTH, &tile_height);
        if (tile_width == 0 || tile_height == 0) refuse(path, "a tile of no size", file);
        const std::uint64_t image_bytes = std::uint64_t{p.width} * p.height * p.samples * p.sample_bytes();
        const std::uint64_t tile_bytes = TIFFTileSize64(t);
        if (tile_bytes == 0 || tile_bytes > 4 * image_bytes + (std::uint64_t{1} << 20)) refuse(path, "its tiles are far larger than the image", file);
    }
    const std::int64_t pieces = TIFFIsTiled(t) ? TIFFNumberOfTiles(t) : TIFFNumberOfStrips(t);
    const std::size_t piece_bytes = std::max<std::size_t>(1, static_cast<std::size_t>(TIFFIsTiled(t) ? TIFFTileSize64(t) : TIFFStripSize64(t)));
    const std::size_t image_bytes = std::size_t{p.width} * p.height * p.samples * p.sample_bytes();
    if (image_bytes < parallel_read_bytes || pieces < 2) {
        read_pieces(t, file, p, to, 0, pieces, path);
        return;
    }
    const auto min_chunk = static_cast<std::int64_t>(std::max<std::size_t>(1, (std::size_t{1} << 20) / piece_bytes));
    parallel_for(pieces, min_chunk, [&](std::int64_t first, std::int64_t last) {
        TiffFile own = TiffFile::reading(bytes.data(), bytes.size());
        const TiffHandle handle = open_tiff(own, "rm");
        if (!handle) refuse(path, "it cannot be opened again", own);
        read_pieces(handle.get(), own, p, to, first, last, path);
    });
}

// 0 is white in a MINISWHITE file: stored inverted against every other format. The alpha stays.
void invert_grey(ImageView v) {
    const std::size_t channels = static_cast<std::size_t>(v.format.channels);
    for (std::int64_t y = 0; y < v.height; ++y) {
        if (v.format.sample == SampleType::u8) {
            auto* row = reinterpret_cast<std::uint8_t*>(v.row(y));
            for (std::int64_t x = 0; x < v.width; ++x) row[x * channels] = static_cast<std::uint8_t>(255 - row[x * channels]);
        } else {
            auto* row = reinterpret_cast<std::uint16_t*>(v.row(y));
            for (std::int64_t x = 0; x < v.width; ++x) row[x * channels] = static_cast<std::uint16_t>(65535 - row[x * channels]);
        }
    }
}

// CMYK (+ alpha) as RGB (+ alpha), by libtiff's own formula for 8-bit CMYK (R = (max - K) (max - C) / max,
// truncated), at the samples' own depth.
template <class Sample>
void cmyk_to_rgb(const std::vector<std::uint8_t>& cmyk, const TiffPixels& p, ImageView rgb) {
    constexpr std::uint32_t max = sizeof(Sample) == 1 ? 255u : 65535u;
    const auto* in = reinterpret_cast<const Sample*>(cmyk.data());
    for (std::uint32_t y = 0; y < p.height; ++y) {
        auto* out = reinterpret_cast<Sample*>(rgb.row(y));
        for (std::uint32_t x = 0; x < p.width; ++x, in += p.samples, out += rgb.format.channels) {
            const std::uint32_t k = max - in[3];
            for (int c = 0; c < 3; ++c) out[c] = static_cast<Sample>(k * (max - in[c]) / max);
            if (p.samples == 5) out[3] = in[4];
        }
    }
}

// Palette, YCbCr and few-bit grey through libtiff's RGBA reading, in the stored orientation: 8-bit RGB (RGBA
// where the file has alpha), or grey for grey.
Image read_rgba(TIFF* t, const TiffFile& file, const TiffPixels& p, const ReadOptions& options, const std::string& path) {
    char message[1024] = "";
    TIFFRGBAImage reader{};
    if (!TIFFRGBAImageOK(t, message) || !TIFFRGBAImageBegin(&reader, t, 0, message)) refuse(path, message, file);
    const std::unique_ptr<TIFFRGBAImage, void (*)(TIFFRGBAImage*)> end(&reader, TIFFRGBAImageEnd);
    reader.req_orientation = reader.orientation;  // the pixels as stored: the Orientation tag travels as metadata
    std::vector<std::uint32_t> raster(std::size_t{p.width} * p.height);
    if (!TIFFRGBAImageGet(&reader, raster.data(), p.width, p.height)) refuse(path, "its pixels cannot be read", file);
    const int channels = p.grey() ? 1 : reader.alpha ? 4 : 3;
    Image image(p.width, p.height, PixelFormat{SampleType::u8, channels}, options.memory);
    for (std::uint32_t y = 0; y < p.height; ++y) {
        auto* out = reinterpret_cast<std::uint8_t*>(image.view().row(y));
        const std::uint32_t* in = raster.data() + std::size_t{y} * p.width;
        for (std::uint32_t x = 0; x < p.width; ++x) {
            const std::uint8_t rgba[4] = {static_cast<std::uint8_t>(TIFFGetR(in[x])), static_cast<std::uint8_t>(TIFFGetG(in[x])),
                                          static_cast<std::uint8_t>(TIFFGetB(in[x])), static_cast<std::uint8_t>(TIFFGetA(in[x]))};
            std::copy_n(rgba, channels, out + x * channels);
        }
    }
    return image;
}

}  // namespace

std::optional<Image> decode_tiff(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (bytes.size() < 4 || !((bytes[0] == 'I' && bytes[1] == 'I') || (bytes[0] == 'M' && bytes[1] == 'M'))) return std::nullopt;
    const std::uint16_t magic = bytes[0] == 'I' ? static_cast<std::uint16_t>(bytes[2] | bytes[3] << 8) : static_cast<std::uint16_t>(bytes[2] << 8 | bytes[3]);
    if (magic != 42 && magic != 43) return std::nullopt;
    // The size the header declares is checked before libtiff reads more of the file.
    if (const auto declared = tiff_declared_extent(bytes)) check_declared_size(path, declared->width, declared->height, options);
    TiffFile file = TiffFile::reading(bytes.data(), bytes.size());
    const TiffHandle tif = open_tiff(file, "rm");
    if (!tif) refuse(path, "libtiff cannot read its header or first directory", file);
    const TiffPixels p = pixels_of(tif.get());
    check_declared_size(path, p.width, p.height, options);
    if (!p.has_photometric) refuse(path, "it has no PhotometricInterpretation", file);
    const Reading reading = reading_of(p);
    if (reading == Reading::refused) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': a TIFF of " + std::to_string(p.samples) + " samples of " + std::to_string(p.bits) +
                                          " bits (sample format " + std::to_string(p.format) + ", photometric " + std::to_string(p.photometric) +
                                          ") is not read: grey, grey+alpha, RGB and RGBA of 8/16-bit integers or 32-bit floats are, and 8/16-bit "
                                          "CMYK, palette, YCbCr and 1/2/4-bit grey are converted");
    }
    if (reading == Reading::rgba) return read_rgba(tif.get(), file, p, options, path);
    const SampleType sample = p.format == SAMPLEFORMAT_IEEEFP ? SampleType::f32 : p.bits == 16 ? SampleType::u16 : SampleType::u8;
    if (reading == Reading::cmyk) {
        std::vector<std::uint8_t> cmyk(checked_image_bytes(p.width, p.height, PixelFormat{sample, 4}) / 4 * p.samples);
        read_stored(tif.get(), file, bytes, p, Destination{cmyk.data(), std::size_t{p.width} * p.samples * p.sample_bytes(), p.samples, p.sample_bytes(), p.width, p.height},
                    path);
        Image image(p.width, p.height, PixelFormat{sample, p.samples == 5 ? 4 : 3}, options.memory);
        if (sample == SampleType::u8) cmyk_to_rgb<std::uint8_t>(cmyk, p, image.view());
        else cmyk_to_rgb<std::uint16_t>(cmyk, p, image.view());
        return image;
    }
    Image image(p.width, p.height, PixelFormat{sample, p.samples}, options.memory);
    read_stored(tif.get(), file, bytes, p,
                Destination{reinterpret_cast<std::uint8_t*>(image.view().row(0)), image.view().pitch, p.samples, p.sample_bytes(), p.width, p.height}, path);
    if (p.photometric == PHOTOMETRIC_MINISWHITE) invert_grey(image.view());
    return image;
}

namespace {

// A write into the file that failed is said as the system says it ("No space left on device"), as any other
// output's is; libtiff's own failures with what libtiff said.
[[noreturn]] void cannot_write(const std::string& why, const TiffFile& file) {
    if (!file.write_failure.empty()) throw Error(ErrorCode::output, file.write_failure);
    throw Error(ErrorCode::output, "TIFF: " + why + (file.message.empty() ? "" : " (" + file.message + ")"));
}

std::uint16_t predictor_tag(TiffPredictor predictor, SampleType sample) {
    switch (predictor) {
        case TiffPredictor::none: return PREDICTOR_NONE;
        case TiffPredictor::horizontal: return PREDICTOR_HORIZONTAL;
        case TiffPredictor::floating_point:
            if (sample == SampleType::f32) return PREDICTOR_FLOATINGPOINT;
            break;  // integers have no floating-point differences: the suited one
        case TiffPredictor::suited: break;
    }
    return sample == SampleType::f32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL;
}

// The fields the strips are coded under: the same on the output and on each thread's scratch TIFF.
void set_pixel_fields(TIFF* t, ConstImageView image, const WriteOptions& options, std::uint16_t extra_sample) {
    const TiffCoding& coding = options.tiff;
    const std::uint16_t bits = static_cast<std::uint16_t>(sample_bytes(image.format.sample) * 8);
    const bool floats = image.format.sample == SampleType::f32;
    const bool jpeg = coding.compression == TiffCompression::jpeg;
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(image.width));
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(image.height));
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(image.format.channels));
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, floats ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, coding.separate_planes && image.format.channels > 1 ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
    TIFFSetField(t, TIFFTAG_COMPRESSION, tiff_compression_tag(coding.compression));
    // JPEG codes RGB as YCbCr, as every JPEG-in-TIFF writer does: 4:4:4 from quality 90 up, else 4:2:0 (the JPEG
    // output's rule).
    const bool ycbcr = jpeg && image.format.channels == 3 && !coding.separate_planes;
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, ycbcr ? PHOTOMETRIC_YCBCR : image.format.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    std::uint32_t row_multiple = 1;
    if (jpeg) {
        TIFFSetField(t, TIFFTAG_JPEGQUALITY, std::clamp(options.quality, 1, 100));
        row_multiple = 8;
        if (ycbcr) {
            const std::uint16_t sub = options.quality >= 90 ? 1 : 2;
            TIFFSetField(t, TIFFTAG_YCBCRSUBSAMPLING, sub, sub);
            TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
            row_multiple = 8u * sub;
        }
    }
    const bool differenced = coding.compression == TiffCompression::lzw || coding.compression == TiffCompression::deflate ||
                             coding.compression == TiffCompression::zstd || coding.compression == TiffCompression::lzma;
    // No tag for no predictor: its absence says so, as in most files.
    const std::uint16_t predictor = predictor_tag(coding.predictor, image.format.sample);
    if (differenced && predictor != PREDICTOR_NONE) TIFFSetField(t, TIFFTAG_PREDICTOR, predictor);
    if (image.format.channels == 2 || image.format.channels == 4) {
        TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &extra_sample);
    }
    const auto height = static_cast<std::uint32_t>(image.height);
    std::uint32_t rows = coding.rows_per_strip == 0 ? TIFFDefaultStripSize(t, 0) : coding.rows_per_strip == one_strip ? height : coding.rows_per_strip;
    if (rows < height) rows = std::max(row_multiple, rows / row_multiple * row_multiple);  // JPEG's strips are whole MCU rows
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, std::max<std::uint32_t>(rows, 1));
}

// A TIFF's text tags: the input TIFF's, or for a TIFF from another format those of its EXIF's IFD0 (Make,
// Model, ...), which a TIFF holds in its own first directory.
std::vector<std::pair<std::uint16_t, std::string>> text_tags_of(const ImageMetadata& metadata) {
    if (!metadata.tiff_text.empty()) return metadata.tiff_text;
    if (const auto ifd0 = read_tiff_directory(metadata.exif)) return ifd0->text_tags(metadata.exif);
    return {};
}

void set_metadata_fields(TIFF* t, const ImageMetadata& m, const ExifPointers& pointers) {
    // A TIFF's own Orientation tag says what EXIF's did: the input as displayed.
    const int orientation = gpurotate::exif_orientation(m);
    if (orientation >= 2 && orientation <= 8) TIFFSetField(t, TIFFTAG_ORIENTATION, static_cast<std::uint16_t>(orientation));
    if (!m.icc.empty()) TIFFSetField(t, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(m.icc.size()), m.icc.data());
    // Placeholders for the EXIF and GPS directories, which place_exif_in_tiff appends and points these at.
    if (pointers.exif) TIFFSetField(t, TIFFTAG_EXIFIFD, std::uint64_t{0});
    if (pointers.gps) TIFFSetField(t, TIFFTAG_GPSIFD, std::uint64_t{0});
    if (!m.iptc.empty()) {
        // libtiff 4.5 declares RichTIFFIPTC UNDEFINED, a count of bytes; older ones LONG, as Photoshop writes it.
        const TIFFField* field = TIFFFieldWithTag(t, TIFFTAG_RICHTIFFIPTC);
        if (field && TIFFFieldDataType(field) == TIFF_LONG) {
            std::vector<std::uint32_t> longs((m.iptc.size() + 3) / 4, 0);
            std::memcpy(longs.data(), m.iptc.data(), m.iptc.size());
            TIFFSetField(t, TIFFTAG_RICHTIFFIPTC, static_cast<std::uint32_t>(longs.size()), longs.data());
        } else {
            TIFFSetField(t, TIFFTAG_RICHTIFFIPTC, static_cast<std::uint32_t>(m.iptc.size()), m.iptc.data());
        }
    }
    if (!m.xmp.empty()) TIFFSetField(t, TIFFTAG_XMLPACKET, static_cast<std::uint32_t>(m.xmp.size()), m.xmp.data());
    for (const auto& [tag, value] : text_tags_of(m)) {
        const std::string text = value.substr(0, value.find('\0'));
        if (!text.empty()) TIFFSetField(t, tag, text.c_str());
    }
    if (m.resolution && m.resolution->x > 0 && m.resolution->y > 0) {
        TIFFSetField(t, TIFFTAG_XRESOLUTION, static_cast<float>(m.resolution->x));
        TIFFSetField(t, TIFFTAG_YRESOLUTION, static_cast<float>(m.resolution->y));
        const std::uint16_t unit = m.resolution->unit == Resolution::Unit::inch         ? RESUNIT_INCH
                                   : m.resolution->unit == Resolution::Unit::centimetre ? RESUNIT_CENTIMETER
                                                                                         : RESUNIT_NONE;
        TIFFSetField(t, TIFFTAG_RESOLUTIONUNIT, unit);
    }
}

// What the writer's checks and the metadata's fields need, worked out once.
struct TiffWrite {
    const ImageMetadata* metadata;
    ExifPointers pointers;
    std::uint16_t extra_sample;
};

TiffWrite tiff_write_of(ConstImageView image, const WriteOptions& options) {
    const TiffCompression compression = options.tiff.compression;
    if (compression == TiffCompression::jpeg && image.format.sample != SampleType::u8) {
        throw Error(ErrorCode::output, "TIFF: JPEG compression holds 8-bit samples only, not " + to_string(image.format) +
                                           " (--tiff-compression lzw, deflate or zstd keep them)");
    }
    if (!TIFFIsCODECConfigured(tiff_compression_tag(compression))) {
        throw Error(ErrorCode::output, std::string("TIFF: this libtiff has no ") + to_string(compression) + " codec");
    }
    const ImageMetadata* m = options.metadata;
    // What the extra sample is, as the input said: premultiplied alpha, unspecified data, or (the rest) alpha.
    const std::uint16_t extra_sample = m && m->associated_alpha            ? EXTRASAMPLE_ASSOCALPHA
                                       : m && m->unspecified_extra_sample ? EXTRASAMPLE_UNSPECIFIED
                                                                          : EXTRASAMPLE_UNASSALPHA;
    return {m, m ? exif_pointers_for_tiff(m->exif) : ExifPointers{}, extra_sample};
}

// The TIFF coded into `file`, in memory or into its descriptor: the fields, the strips, the directory.
void write_tiff(ConstImageView image, const WriteOptions& options, const TiffWrite& w, TiffFile& file) {
    const TiffHandle tif = open_tiff(file, "w");
    if (!tif) cannot_write("libtiff could not start it", file);
    TIFF* t = tif.get();
    const auto set_fields = [&](TIFF* on) { set_pixel_fields(on, image, options, w.extra_sample); };
    set_fields(t);
    if (w.metadata) set_metadata_fields(t, *w.metadata, w.pointers);
    if (!write_strips(t, file, image, options.tiff.compression != TiffCompression::jpeg, set_fields)) cannot_write("libtiff could not code a strip", file);
    if (!TIFFFlush(t)) cannot_write("libtiff could not finish it", file);
}

std::vector<std::uint8_t> encode_tiff_bytes(ConstImageView image, const WriteOptions& options, const TiffWrite& w) {
    const ImageMetadata* m = w.metadata;
    // Room for the pixels uncompressed and the directory: the file is not copied as it grows (pages not written to
    // are never touched).
    std::vector<std::uint8_t> bytes;
    bytes.reserve(image.row_bytes() * static_cast<std::size_t>(image.height) + (std::size_t{1} << 16) + (m ? m->icc.size() + m->xmp.size() + m->exif.size() : 0));
    if (bytes.capacity() >= huge_page_worthy_bytes) ask_for_huge_pages(bytes.data(), bytes.data() + bytes.capacity());
    TiffFile file = TiffFile::writing(bytes);
    write_tiff(image, options, w, file);
    if ((w.pointers.exif || w.pointers.gps) && !place_exif_in_tiff(bytes, m->exif)) {
        throw Error(ErrorCode::output, "TIFF: the EXIF and GPS directories cannot be added: it passes 4 GiB with them; --strip writes none");
    }
    return bytes;
}

}  // namespace

std::vector<std::uint8_t> encode_tiff(ConstImageView image, const WriteOptions& options) {
    return encode_tiff_bytes(image, options, tiff_write_of(image, options));
}

void encode_tiff_into(ConstImageView image, const WriteOptions& options, int fd) {
    const TiffWrite w = tiff_write_of(image, options);
    TiffFile file = TiffFile::writing_into(fd);
    if (w.pointers.exif || w.pointers.gps) {
        // The EXIF and GPS directories are placed in the whole file's bytes (tiff_exif.hpp): coded in memory first.
        const std::vector<std::uint8_t> bytes = encode_tiff_bytes(image, options, w);
        if (write_into(file, bytes.data(), static_cast<tmsize_t>(bytes.size())) < 0) cannot_write("the file cannot be written", file);
        return;
    }
    write_tiff(image, options, w, file);
}

std::string tiff_library() {
    // TIFFGetVersion: "LIBTIFF, Version 4.5.0\nCopyright ..."
    const std::string version = TIFFGetVersion();
    const auto at = version.find("Version ");
    if (at == std::string::npos) return "libtiff";
    return "libtiff " + version.substr(at + 8, version.find_first_of("\n ", at + 8) - at - 8);
}

}  // namespace gpurotate::detail
