#pragma once
// PNG: checksum verification before decoding (stb_image does not check CRCs) and an encoder for 8- and
// 16-bit samples with 1 to 4 channels (stb_image_write stores 8-bit only), on zlib.

#include <gpurotate/image.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Whether `bytes` start with the PNG signature.
bool is_png(const std::vector<std::uint8_t>& bytes);

/// Throws Error (input) naming `path` unless every chunk of the PNG in `bytes` is complete and its CRC
/// matches, and the stream ends with IEND.
void verify_png_chunks(const std::vector<std::uint8_t>& bytes, const std::string& path);

/// Encodes `image` (u8 or u16, 1 to 4 channels) as a PNG, deflated by zlib at `level` (0-9).
std::vector<std::uint8_t> encode_png(ConstImageView image, int level);

}  // namespace gpurotate::detail
