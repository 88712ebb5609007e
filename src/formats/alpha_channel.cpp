#include "formats/alpha_channel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

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

template <class T>
void unpremultiply(ImageView image, double full) {
    const auto channels = static_cast<std::size_t>(image.format.channels);
    for (std::int64_t y = 0; y < image.height; ++y) {
        auto* row = reinterpret_cast<T*>(image.row(y));
        for (std::int64_t x = 0; x < image.width; ++x) {
            T* pixel = row + static_cast<std::size_t>(x) * channels;
            const double alpha = static_cast<double>(pixel[channels - 1]);
            for (std::size_t c = 0; c + 1 < channels; ++c) {
                if (alpha <= 0) {
                    pixel[c] = T{0};
                } else if constexpr (std::is_floating_point_v<T>) {
                    pixel[c] = static_cast<T>(pixel[c] / alpha);
                } else {
                    pixel[c] = static_cast<T>(std::min(full, std::floor(static_cast<double>(pixel[c]) * full / alpha + 0.5)));
                }
            }
        }
    }
}

}  // namespace

Image unpremultiplied(ConstImageView image) {
    Image out(image.width, image.height, image.format);
    for (std::int64_t y = 0; y < image.height; ++y) std::memcpy(out.view().row(y), image.row(y), image.row_bytes());
    if (image.format.channels != 2 && image.format.channels != 4) return out;
    switch (image.format.sample) {
        case SampleType::u8: unpremultiply<std::uint8_t>(out.view(), 255); break;
        case SampleType::u16: unpremultiply<std::uint16_t>(out.view(), 65535); break;
        case SampleType::f32: unpremultiply<float>(out.view(), 1); break;
    }
    return out;
}

std::optional<Image> without_opaque_alpha(ConstImageView image, HostMemory memory) {
    if (image.format.channels != 2 && image.format.channels != 4) return std::nullopt;
    if (image.format.sample == SampleType::u8) return without_opaque<std::uint8_t>(image, memory, 0xff);
    if (image.format.sample == SampleType::u16) return without_opaque<std::uint16_t>(image, memory, 0xffff);
    return std::nullopt;
}

}  // namespace gpurotate::detail
