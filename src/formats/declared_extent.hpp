#pragma once
// The image size a TIFF or WebP file declares, read from its header, so that the pixel limit is applied
// before OpenCV allocates anything (gpurotate's own decoders and stb's expose their headers already).

#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace gpurotate::detail {

/// The declared width and height of the first image of a TIFF (classic or BigTIFF) or WebP (lossy,
/// lossless, extended) file; nothing for other formats or headers too damaged to say.
std::optional<Extent> declared_extent(const std::vector<std::uint8_t>& bytes);

}  // namespace gpurotate::detail
