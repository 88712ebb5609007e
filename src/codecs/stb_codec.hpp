#pragma once
// Decoding with stb_image (PNG, JPEG, BMP, TGA, HDR, PNM, GIF, PSD) and encoding JPEG, BMP, TGA and HDR
// with stb_image_write.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The decoded image, or nothing if stb does not recognise the format (`why` then holds its reason).
/// Throws Error (input) naming `path` when the format is recognised but the data are corrupt.
std::optional<Image> stb_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options,
                                std::string& why);

/// How many images a GIF holds (an animation's frames; 1 for a still GIF), from its block structure; 0 for
/// bytes that are not a GIF. gpurotate decodes the first.
int gif_frame_count(const std::vector<std::uint8_t>& bytes);

/// Encodes with stb_image_write: "jpeg" (quality 1..100), "bmp", "tga", "hdr".
std::vector<std::uint8_t> stb_encode_jpeg(ConstImageView image, int quality);
std::vector<std::uint8_t> stb_encode_bmp(ConstImageView image);
std::vector<std::uint8_t> stb_encode_tga(ConstImageView image);
std::vector<std::uint8_t> stb_encode_hdr(ConstImageView image);

}  // namespace gpurotate::detail
