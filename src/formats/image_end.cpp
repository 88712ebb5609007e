#include "formats/image_end.hpp"

#include "formats/content_signature.hpp"

#include <cstring>

namespace gpurotate::detail {

ImageEndFinder::ImageEndFinder(const std::uint8_t* bytes, std::size_t size) {
    if (starts_as_png(bytes, size)) kind_ = Kind::png;
    if (starts_as_jpeg(bytes, size)) kind_ = Kind::jpeg;
}

std::optional<std::size_t> ImageEndFinder::end_in(const std::uint8_t* bytes, std::size_t size) {
    if (kind_ == Kind::jpeg) {
        continue_jpeg_walk(bytes, size, jpeg_walk_);
        if (jpeg_walk_.ended) return jpeg_walk_.end;
        return std::nullopt;
    }
    if (kind_ != Kind::png) return std::nullopt;
    // Chunks: a 4-byte length (at most 2^31 - 1), a 4-byte type, the data, a 4-byte CRC.
    while (png_position_ + 8 <= size) {
        const std::uint8_t* chunk = bytes + png_position_;
        const std::size_t length = std::size_t{chunk[0]} << 24 | std::size_t{chunk[1]} << 16 | std::size_t{chunk[2]} << 8 | chunk[3];
        if (length > 0x7fffffffu) return std::nullopt;  // not a PNG past here: its decoder says so
        const std::size_t next = png_position_ + 12 + length;
        if (std::memcmp(chunk + 4, "IEND", 4) == 0) {
            if (next <= size) return next;
            return std::nullopt;
        }
        png_position_ = next;
    }
    return std::nullopt;
}

std::size_t bytes_after_image(const std::uint8_t* bytes, std::size_t size) {
    ImageEndFinder finder(bytes, size);
    const std::optional<std::size_t> end = finder.end_in(bytes, size);
    return end && *end < size ? size - *end : 0;
}

}  // namespace gpurotate::detail
