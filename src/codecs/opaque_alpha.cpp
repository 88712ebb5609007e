#include "codecs/opaque_alpha.hpp"

#include <cstring>

namespace gpurotate::detail {
namespace {

template <class T>
std::optional<Image> without_opaque(ConstImageView image, HostMemory memory, T opaque_value) {
    const auto channels = static_cast<std::size_t>(image.format.channels);
    const auto width = static_cast<std::size_t>(image.width);
    for (std::int64_t y = 0; y < image.height; ++y) {
        const auto* row = reinterpret_cast<const T*>(image.row(y));
        for (std::size_t x = 0; x < width; ++x) {
            if (row[x * channels + channels - 1] != opaque_value) return std::nullopt;
        }
    }
    Image out(image.width, image.height, PixelFormat{image.format.sample, image.format.channels - 1}, memory);
    for (std::int64_t y = 0; y < image.height; ++y) {
        const auto* from = reinterpret_cast<const T*>(image.row(y));
        auto* to = reinterpret_cast<T*>(out.view().row(y));
        for (std::size_t x = 0; x < width; ++x) std::memcpy(to + x * (channels - 1), from + x * channels, (channels - 1) * sizeof(T));
    }
    return out;
}

}  // namespace

std::optional<Image> without_opaque_alpha(ConstImageView image, HostMemory memory) {
    if (image.format.channels != 2 && image.format.channels != 4) return std::nullopt;
    if (image.format.sample == SampleType::u8) return without_opaque<std::uint8_t>(image, memory, 0xff);
    if (image.format.sample == SampleType::u16) return without_opaque<std::uint16_t>(image, memory, 0xffff);
    return std::nullopt;
}

}  // namespace gpurotate::detail
