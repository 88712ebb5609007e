#pragma once
// The optional OpenCV codecs (TIFF, WebP, OpenEXR, and a true greyscale JPEG encoder). OpenCV keeps colour
// pixels in BGR(A) order; these functions convert so that gpurotate always sees the file's RGB(A) order.

#include "codecs/output_format.hpp"

#include <gpurotate/image.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The decoded image, or nothing if OpenCV is absent or cannot decode `bytes`.
std::optional<Image> opencv_decode(const std::vector<std::uint8_t>& bytes, HostMemory memory);

/// Encodes `image` as `format` (tiff, webp, exr, jpeg). Throws Error (output) on failure or without OpenCV.
std::vector<std::uint8_t> opencv_encode(ConstImageView image, OutputFormat format, int quality);

}  // namespace gpurotate::detail
