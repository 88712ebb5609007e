#pragma once
// Run-length coded BMPs (RLE8, RLE4), which stb_image does not read and OpenCV's reader (4.6) decodes wrong
// at odd widths: expanded here into the uncompressed 8-bit BMP with the same palette, which stb reads.

#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The uncompressed BMP equal to `bytes` where they are an RLE8 or RLE4 BMP; nothing for any other file.
/// Pixels the runs skip (delta and early end-of-line codes) take palette index 0, as Windows and Pillow
/// leave them. Throws Error (input) naming `path` where the runs are damaged or cut short, or the size is
/// over the pixel limit.
std::optional<std::vector<std::uint8_t>> expand_rle_bmp(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

}  // namespace gpurotate::detail
