#include "formats/tiff_coding.hpp"

#include "metadata/tiff_directory.hpp"

#include <algorithm>

namespace gpurotate {

const char* to_string(TiffCompression compression) {
    switch (compression) {
        case TiffCompression::none: return "none";
        case TiffCompression::lzw: return "lzw";
        case TiffCompression::deflate: return "deflate";
        case TiffCompression::packbits: return "packbits";
        case TiffCompression::zstd: return "zstd";
        case TiffCompression::lzma: return "lzma";
        case TiffCompression::jpeg: return "jpeg";
    }
    return "lzw";
}

}  // namespace gpurotate

namespace gpurotate::detail {

std::uint16_t tiff_compression_tag(TiffCompression compression) {
    switch (compression) {
        case TiffCompression::none: return 1;
        case TiffCompression::lzw: return 5;
        case TiffCompression::deflate: return 8;  // Adobe's code, which every reader takes; the old 32946 is read as it
        case TiffCompression::packbits: return 32773;
        case TiffCompression::zstd: return 50000;
        case TiffCompression::lzma: return 34925;
        case TiffCompression::jpeg: return 7;
    }
    return 5;
}

std::optional<TiffCoding> tiff_coding_of(const std::vector<std::uint8_t>& bytes) {
    const auto directory = read_tiff_directory(bytes);
    if (!directory) return std::nullopt;
    TiffCoding coding;
    const std::uint64_t compression = directory->value(259).value_or(1);
    coding.compression = compression == 32946 ? TiffCompression::deflate : TiffCompression::lzw;
    for (const TiffCompression c : tiff_compressions) {
        if (compression == tiff_compression_tag(c)) coding.compression = c;
    }
    // The predictor of a compression that takes one, the tag's absence meaning none; an uncompressed, PackBits
    // or JPEG input has none to keep, and an LZW output asked for by --tiff-compression gets the suited one.
    const bool differenced = compression == 5 || compression == 8 || compression == 32946 || compression == 50000 || compression == 34925;
    switch (differenced ? directory->value(317).value_or(1) : 0) {
        case 1: coding.predictor = TiffPredictor::none; break;
        case 2: coding.predictor = TiffPredictor::horizontal; break;
        case 3: coding.predictor = TiffPredictor::floating_point; break;
        default: coding.predictor = TiffPredictor::suited; break;
    }
    coding.separate_planes = directory->value(284) == 2u && directory->value(277).value_or(1) > 1;
    const bool tiled = directory->value(322).has_value();
    const std::uint64_t height = directory->value(257).value_or(0);
    const std::uint64_t rows = directory->value(278).value_or(0xffffffffu);
    // One strip stays one strip, whatever the output's height: a RowsPerStrip of exactly the height as the output's
    // height, a larger one as it is; a tiled input gets libtiff's strips.
    coding.rows_per_strip = tiled ? 0 : rows == height ? one_strip : static_cast<std::uint32_t>(std::min<std::uint64_t>(rows, 0xffffffffu));
    return coding;
}

}  // namespace gpurotate::detail
