#pragma once
// The optional OpenCV codecs (TIFF, WebP, OpenEXR, and a true greyscale JPEG encoder). OpenCV keeps colour
// pixels in BGR(A) order; these functions convert so that gpurotate always sees the file's RGB(A) order.

#include "codecs/output_format.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The decoded image, or nothing if OpenCV is absent or cannot decode `bytes`. Throws Error (input) naming
/// `path` when the image is over `options.max_pixels` (from the header for TIFF and WebP; OpenCV refuses
/// more than 2^30 pixels in any format before allocating).
std::optional<Image> opencv_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// Encodes `image` as `format` (tiff, webp, exr, jpeg). Throws Error (output) on failure or without OpenCV.
std::vector<std::uint8_t> opencv_encode(ConstImageView image, OutputFormat format, int quality);

}  // namespace gpurotate::detail
