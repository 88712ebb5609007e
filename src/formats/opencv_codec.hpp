#pragma once
// The optional codec plugin: OpenEXR, the rarer formats OpenCV reads, and a true greyscale JPEG encoder, through
// OpenCV. OpenCV keeps colour pixels in BGR(A) order; the plugin converts so that gpurotate always sees the
// file's RGB(A) order.

#include "formats/format_registry.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Whether the OpenCV codec plugin is there (built, and found beside the executable or library).
bool opencv_codecs_available();

/// The decoded image, or nothing if the plugin is absent or cannot decode `bytes`. Throws Error (input) naming
/// `path` when the image is over `options.max_pixels` (OpenCV refuses more than 2^30 pixels in any format
/// before allocating), or for an OpenEXR image without colour channels.
std::optional<Image> opencv_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// Encodes `image` as `format` (exr, or jpeg where this build has no libjpeg-turbo). Throws Error (output) on
/// failure or without the plugin.
std::vector<std::uint8_t> opencv_encode(ConstImageView image, OutputFormat format, int quality);

}  // namespace gpurotate::detail
