#pragma once
// An alpha channel that a decoder adds though it says nothing: a GIF frame with no transparent pixel, a
// PNG colour key that no pixel has. Such an image is the colours alone, as ImageMagick reads it, so that a
// JPEG takes it and outputs keep the input's channels.

#include <gpurotate/image.hpp>

#include <optional>

namespace gpurotate::detail {

/// `image` without its alpha channel where it has one (2 or 4 channels of 8 or 16 bits) and every pixel's
/// alpha is the largest value; nothing otherwise.
std::optional<Image> without_opaque_alpha(ConstImageView image, HostMemory memory);

}  // namespace gpurotate::detail
