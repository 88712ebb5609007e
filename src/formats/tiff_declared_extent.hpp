#pragma once
// The image size a TIFF file declares in its first directory, read before libtiff decodes anything, so that
// the pixel limit applies before any allocation (the other formats' decoders expose their headers; WebP's is
// libwebp's WebPGetFeatures, webp_declared_extent).

#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace gpurotate::detail {

/// The declared width and height of the first image of a TIFF (classic or BigTIFF), saturated at 2^31 a
/// side; nothing for other formats or headers too damaged to say.
std::optional<Extent> tiff_declared_extent(const std::vector<std::uint8_t>& bytes);

}  // namespace gpurotate::detail
