#pragma once
// Netpbm images (P1-P6 PBM, PGM, PPM, plain and binary; P7 PAM), read to their stored depth: samples over
// 255 are 16-bit, big-endian in binary files; a maxval other than 255 or 65535 is scaled to the full range
// of the output's depth, as ImageMagick and libnetpbm read it; a bitmap is 8-bit grey. stb reads P5 and P6
// only, leaves 16-bit samples in the file's byte order and ignores maxval; OpenCV reads a PAM's RGB as BGR
// and does not scale a plain file's maxval: both gave wrong pixels.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The image, or nothing where `bytes` are not a Netpbm file. Throws Error (input) naming `path` for a
/// damaged header, a sample over maxval or pixel data cut short, and for a PAM of more than 4 channels or of
/// a tuple type other than grey or RGB (with alpha).
std::optional<Image> decode_pnm(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// The width and height a Netpbm header declares, read as decode_pnm reads it; nothing where `bytes` are not a
/// Netpbm file or the header is damaged.
std::optional<Extent> pnm_declared_extent(const std::vector<std::uint8_t>& bytes);

}  // namespace gpurotate::detail
