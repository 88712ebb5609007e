#pragma once
// PNG: checksum verification before decoding (stb_image does not check CRCs) and an encoder for 8- and
// 16-bit samples with 1 to 4 channels (stb_image_write stores 8-bit only), on zlib.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// A big-endian 32-bit value, as PNG stores chunk lengths and CRCs.
std::uint32_t read_be32(const std::uint8_t* p);

/// Appends one chunk to a PNG being written: length, type, data, CRC.
void append_png_chunk(std::vector<std::uint8_t>& out, const char type[4], const std::uint8_t* data, std::size_t size);

/// Whether `bytes` start with the PNG signature.
bool is_png(const std::vector<std::uint8_t>& bytes);

/// Throws Error (input) naming `path` unless every chunk of the PNG in `bytes` is complete and its CRC
/// matches, and the stream ends with IEND.
void verify_png_chunks(const std::vector<std::uint8_t>& bytes, const std::string& path);

/// The decoded PNG for 8- and 16-bit grey, grey+alpha, RGB and RGBA without interlacing (zlib inflate,
/// Adler-32 and chunk CRCs verified); nothing when `bytes` is not a PNG or is a kind that stb decodes
/// (palette, fewer than 8 bits, interlaced). Throws Error (input) naming `path` for a damaged PNG.
std::optional<Image> decode_png(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// Encodes `image` (u8 or u16, 1 to 4 channels) as a PNG, deflated by zlib at `level` (0-9).
std::vector<std::uint8_t> encode_png(ConstImageView image, int level);

}  // namespace gpurotate::detail
