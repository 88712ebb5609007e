#pragma once
// Alpha channels as the formats need them. One a decoder adds though it says nothing (a GIF frame with no
// transparent pixel, a PNG colour key that no pixel has) is dropped: such an image is the colours alone, as
// ImageMagick reads it, so that a JPEG takes it and outputs keep the input's channels. Premultiplied
// colours (a TIFF's associated alpha) are divided out for every other format, whose alpha is straight.

#include <gpurotate/image.hpp>

#include <optional>

namespace gpurotate::detail {

/// `image` without its alpha channel where it has one (2 or 4 channels of 8 or 16 bits) and every pixel's
/// alpha is the largest value; nothing otherwise.
std::optional<Image> without_opaque_alpha(ConstImageView image, HostMemory memory);

/// `image` (2 or 4 channels, alpha last, colours premultiplied by it) with straight colours: each divided
/// by its alpha, rounded; colours under alpha 0 stay 0. Other formats come back as a plain copy.
Image unpremultiplied(ConstImageView image);

}  // namespace gpurotate::detail
