#pragma once
// The cases of the rotation tests, shared by the CPU suite (against cv::warpAffine) and the GPU suite (against
// the CPU backend): sample types, channel counts, odd sizes, angles, interpolations, both canvases and two
// backgrounds; and source images of finite samples (random bytes would make NaNs in float).

#include <gpurotate/image.hpp>
#include <gpurotate/rotate.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace test_support {

inline const std::vector<gpurotate::SampleType>& rotation_samples() {
    static const std::vector<gpurotate::SampleType> samples = {gpurotate::SampleType::u8, gpurotate::SampleType::u16, gpurotate::SampleType::f32};
    return samples;
}

inline const std::vector<int>& rotation_channels() {
    static const std::vector<int> channels = {1, 2, 3, 4};
    return channels;
}

struct RotationSize {
    std::int64_t width;
    std::int64_t height;
};

inline const std::vector<RotationSize>& rotation_sizes() {
    static const std::vector<RotationSize> sizes = {{61, 37}, {33, 50}, {1, 7}, {5, 2}};
    return sizes;
}

inline const std::vector<double>& rotation_angles() {
    static const std::vector<double> angles = {0.5, 7.5, 30, 45, 89.9, 135, -60, 1000};
    return angles;
}

inline const std::vector<gpurotate::Interpolation>& rotation_interpolations() {
    static const std::vector<gpurotate::Interpolation> all = {gpurotate::Interpolation::nearest, gpurotate::Interpolation::bilinear,
                                                              gpurotate::Interpolation::bicubic};
    return all;
}

/// Background 0, and a colour in the sample's units with a value to round (127.5 in 8 bits, 300.5 in 16).
inline std::vector<std::array<double, 4>> rotation_backgrounds(gpurotate::SampleType sample) {
    switch (sample) {
        case gpurotate::SampleType::u8: return {{0, 0, 0, 0}, {200, 127.5, 31, 255}};
        case gpurotate::SampleType::u16: return {{0, 0, 0, 0}, {51234, 300.5, 12000, 65535}};
        case gpurotate::SampleType::f32: return {{0, 0, 0, 0}, {0.75, -0.25, 0.3, 1.0}};
    }
    return {};
}

/// Every case of one sample type: each angle, interpolation, canvas and background.
inline std::vector<gpurotate::RotateOptions> rotation_options(gpurotate::SampleType sample) {
    std::vector<gpurotate::RotateOptions> cases;
    for (double degrees : rotation_angles()) {
        for (gpurotate::Interpolation interpolation : rotation_interpolations()) {
            for (bool keep_size : {false, true}) {
                for (const auto& background : rotation_backgrounds(sample)) cases.push_back({degrees, interpolation, keep_size, background});
            }
        }
    }
    return cases;
}

/// Every sample random over the type's range (float: -1 to 2, beyond the usual 0-1 so that clamping shows).
inline void fill_rotation_source(gpurotate::ImageView v, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const std::size_t samples = static_cast<std::size_t>(v.width) * static_cast<std::size_t>(v.format.channels);
    for (std::int64_t y = 0; y < v.height; ++y) {
        std::byte* row = v.row(y);
        for (std::size_t i = 0; i < samples; ++i) {
            switch (v.format.sample) {
                case gpurotate::SampleType::u8: row[i] = static_cast<std::byte>(rng() & 0xff); break;
                case gpurotate::SampleType::u16: {
                    const auto s = static_cast<std::uint16_t>(rng() & 0xffff);
                    std::memcpy(row + 2 * i, &s, 2);
                    break;
                }
                case gpurotate::SampleType::f32: {
                    const float f = std::uniform_real_distribution<float>(-1.0f, 2.0f)(rng);
                    std::memcpy(row + 4 * i, &f, 4);
                    break;
                }
            }
        }
    }
}

inline gpurotate::Image rotation_source(std::int64_t w, std::int64_t h, gpurotate::PixelFormat f, std::uint32_t seed) {
    gpurotate::Image img(w, h, f);
    fill_rotation_source(img.view(), seed);
    return img;
}

}  // namespace test_support
