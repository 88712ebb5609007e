#pragma once
// Decoding with stb_image (PNG, JPEG, BMP, TGA, HDR, PNM, GIF, PSD) and encoding JPEG, BMP, TGA and HDR
// with stb_image_write.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The decoded image, or nothing if stb does not recognise the format (`why` then holds its reason).
/// Throws Error (input) naming `path` when the format is recognised but the data are corrupt.
std::optional<Image> stb_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options,
                                std::string& why);

/// The width and height stb reads from the header of a file it decodes (BMP, TGA, HDR, GIF, PSD, ...), without
/// decoding; nothing where stb does not take the bytes or stb_decode would refuse its header.
std::optional<Extent> stb_declared_extent(const std::vector<std::uint8_t>& bytes);

/// A GIF's block structure: how many images it holds (an animation's frames; 1 for a still GIF; 0 for bytes
/// that are not a GIF), and whether the first, which gpurotate decodes, has all its data in the file.
struct GifLayout {
    int frames = 0;
    bool first_frame_complete = false;
};
GifLayout gif_layout(const std::vector<std::uint8_t>& bytes);

/// Encodes with stb_image_write: "jpeg" (quality 1..100), "bmp" (with `resolution` in its header's pixels per
/// metre, where it has a unit), "tga", "hdr".
std::vector<std::uint8_t> stb_encode_jpeg(ConstImageView image, int quality);
std::vector<std::uint8_t> stb_encode_bmp(ConstImageView image, const std::optional<Resolution>& resolution = std::nullopt);
std::vector<std::uint8_t> stb_encode_tga(ConstImageView image);
std::vector<std::uint8_t> stb_encode_hdr(ConstImageView image);

}  // namespace gpurotate::detail
