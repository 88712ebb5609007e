#pragma once
// BMPs as stb_image reads them right. Run-length coded ones (RLE8, RLE4), which stb does not read and
// OpenCV's reader (4.6) decodes wrong at odd widths, are expanded into the uncompressed 8-bit BMP with the
// same palette. A palette shorter than its bit depth's is padded with black: stb looks an index past its
// end up in uninitialised memory (the output changed from run to run).

#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The BMP stb should read in place of `bytes`: an RLE8 or RLE4 BMP uncompressed (pixels the runs skip,
/// by delta and early end-of-line codes, take palette index 0, as Windows and Pillow leave them), a
/// palette BMP with its palette padded to 2^bits entries; nothing where `bytes` need neither (not a BMP,
/// or one stb reads as it is). Throws Error (input) naming `path` where the runs are damaged or cut short,
/// or the size is over the pixel limit.
std::optional<std::vector<std::uint8_t>> bmp_for_stb(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

}  // namespace gpurotate::detail
