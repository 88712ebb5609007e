#pragma once
/// \file image.hpp
/// Pixel formats, non-owning views of pixel memory (host or device), and an owning host image.

#include <gpurotate/orientation.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gpurotate {

/// The type of one channel sample.
enum class SampleType : std::uint8_t {
    u8,   ///< 8-bit unsigned integer
    u16,  ///< 16-bit unsigned integer (native byte order in memory)
    f32,  ///< 32-bit IEEE float
};

/// Bytes in one sample of `t`.
constexpr std::size_t sample_bytes(SampleType t) {
    return t == SampleType::u8 ? 1 : t == SampleType::u16 ? 2 : 4;
}

/// The layout of one interleaved pixel: sample type and channel count (1 to 4).
struct PixelFormat {
    SampleType sample;
    int channels;
    /// Bytes per pixel (1 to 16).
    constexpr std::size_t pixel_bytes() const { return sample_bytes(sample) * static_cast<std::size_t>(channels); }
    friend constexpr bool operator==(PixelFormat a, PixelFormat b) {
        return a.sample == b.sample && a.channels == b.channels;
    }
    friend constexpr bool operator!=(PixelFormat a, PixelFormat b) { return !(a == b); }
};

/// "u8c3", "u16c1", "f32c4", ...
std::string to_string(PixelFormat f);

/// A view of pixels that it does not own. `pitch` is the distance in bytes between the starts of two rows.
/// Whether `data` points at host or device memory depends on the function it is handed to.
template <class Byte>
struct BasicImageView {
    Byte* data = nullptr;
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::size_t pitch = 0;
    PixelFormat format{SampleType::u8, 1};

    constexpr Extent extent() const { return {width, height}; }
    constexpr std::size_t row_bytes() const { return static_cast<std::size_t>(width) * format.pixel_bytes(); }
    Byte* row(std::int64_t y) const { return data + static_cast<std::size_t>(y) * pitch; }
};

/// A view through which pixels are written.
using ImageView = BasicImageView<std::byte>;
/// A view through which pixels are only read.
struct ConstImageView : BasicImageView<const std::byte> {
    ConstImageView() = default;
    ConstImageView(const std::byte* pixels, std::int64_t w, std::int64_t h, std::size_t row_pitch, PixelFormat f)
        : BasicImageView<const std::byte>{pixels, w, h, row_pitch, f} {}
    ConstImageView(const ImageView& v)  // NOLINT(google-explicit-constructor): a writable view is a readable one
        : BasicImageView<const std::byte>{v.data, v.width, v.height, v.pitch, v.format} {}
};

/// Where an `Image` keeps its pixels.
enum class HostMemory : std::uint8_t {
    pageable,  ///< ordinary heap memory
    pinned,    ///< page-locked memory that the GPU copies at full speed (falls back to pageable without CUDA)
};

/// An owning, tightly packed (pitch = width * pixel bytes) host image. A copy shares the pixels (a handle,
/// freed with the last copy): copy into a new Image, e.g. through `transform` with identity, for pixels of
/// one's own.
class Image {
public:
    Image() = default;
    /// Allocates an uninitialised image. Throws `Error` (usage) if the size is not positive or overflows.
    Image(std::int64_t width, std::int64_t height, PixelFormat format, HostMemory memory = HostMemory::pageable);

    std::int64_t width() const { return view_.width; }
    std::int64_t height() const { return view_.height; }
    PixelFormat format() const { return view_.format; }
    std::size_t size_bytes() const { return view_.pitch * static_cast<std::size_t>(view_.height); }
    /// Whether the pixels are in page-locked memory.
    bool pinned() const { return pinned_; }

    ImageView view() { return view_; }
    ConstImageView view() const { return view_; }
    std::byte* data() { return view_.data; }
    const std::byte* data() const { return view_.data; }

private:
    std::shared_ptr<std::byte> storage_;
    ImageView view_{};
    bool pinned_ = false;
};

/// Bytes needed for `width` x `height` pixels of `format`; throws `Error` (usage) on non-positive sizes or
/// overflow of the size computation.
std::size_t checked_image_bytes(std::int64_t width, std::int64_t height, PixelFormat format);

}  // namespace gpurotate
