#pragma once
// The coding a TIFF output gets: a TIFF input's own (compression, predictor, planes, rows per strip), read
// from its first directory, so that a turned TIFF stays as it was coded; the words --tiff-compression takes.

#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The coding of a TIFF's first page as a TIFF output keeps it: its compression where libtiff writes it (CCITT,
/// JBIG, old-style JPEG and the rest: LZW), its predictor, its planar configuration and its rows per strip (a
/// tiled file's: libtiff's default strips). Nothing for bytes that are not a TIFF.
std::optional<TiffCoding> tiff_coding_of(const std::vector<std::uint8_t>& bytes);

/// TiffCoding::rows_per_strip for one strip of the image's height, however high.
inline constexpr std::uint32_t one_strip = 0xffffffffu;

/// Every compression, in the order of TiffCompression (--tiff-compression's words are their to_string).
inline constexpr TiffCompression tiff_compressions[] = {TiffCompression::none, TiffCompression::lzw,  TiffCompression::deflate, TiffCompression::packbits,
                                                        TiffCompression::zstd, TiffCompression::lzma, TiffCompression::jpeg};

/// TIFF's Compression tag value of `compression` (1, 5, 8, 32773, 50000, 34925, 7).
std::uint16_t tiff_compression_tag(TiffCompression compression);

}  // namespace gpurotate::detail
