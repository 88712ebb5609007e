#pragma once
// Where an image's own bytes end inside a file or a stream: a PNG after its IEND chunk, a JPEG after its EOI
// marker. Bytes past that are no part of the image (a camera's trailer, a motion photo's video, or a stream
// that goes on), which no output carries, and which a stream need not be read for.

#include "jpeg/jpeg_work_limits.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace gpurotate::detail {

class ImageEndFinder {
public:
    /// For the image whose first bytes are `bytes`: a PNG or a JPEG; of any other format the end is not looked for.
    ImageEndFinder(const std::uint8_t* bytes, std::size_t size);

    /// The offset just past the image within `bytes[0, size)` (the bytes given before, and perhaps more), or
    /// nothing where they end first. Each call takes the walk up where the last one stopped.
    std::optional<std::size_t> end_in(const std::uint8_t* bytes, std::size_t size);

private:
    enum class Kind { other, png, jpeg } kind_ = Kind::other;
    std::size_t png_position_ = 8;  // the next chunk's start
    JpegMarkerWalk jpeg_walk_;
};

/// How many bytes of the file `bytes` follow the end of the PNG or JPEG image it holds (0 for other
/// formats, and for an image whose end is not found: a truncated file, which its decoder reports).
std::size_t bytes_after_image(const std::uint8_t* bytes, std::size_t size);

}  // namespace gpurotate::detail
