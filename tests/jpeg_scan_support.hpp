#pragma once
// What the scan coder's tests share: JPEGs of every subsampling made by the library's encoder, and every
// variant of one transformed losslessly, with libjpeg coding the scans and with another coder.

#include "codecs/jpeg_lossless.hpp"
#include "codecs/jpeg_scan_coder.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace jpeg_scan_support {

/// A photograph-like image (gradients, edges and noise, so that coefficients of every size occur) as a JPEG.
inline std::vector<std::uint8_t> make_jpeg(std::int64_t width, std::int64_t height, gpurotate::ChromaSubsampling chroma, int quality,
                                           std::uint32_t seed) {
    const int channels = chroma == gpurotate::ChromaSubsampling::grey ? 1 : 3;
    gpurotate::Image image(width, height, {gpurotate::SampleType::u8, channels});
    std::mt19937 rng(seed);
    for (std::int64_t y = 0; y < height; ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(image.view().row(y));
        for (std::int64_t x = 0; x < width; ++x) {
            for (int c = 0; c < channels; ++c) {
                const auto edge = ((x / 11 + y / 7 + c) % 3) * 70;
                row[x * channels + c] = static_cast<std::uint8_t>((x * (2 + c) + y * (3 - c) + edge + rng() % 24) % 256);
            }
        }
    }
    gpurotate::WriteOptions options;
    options.quality = quality;
    options.chroma = chroma;
    return gpurotate::encode_image(image.view(), "made.jpg", options);
}

constexpr gpurotate::ChromaSubsampling every_subsampling[] = {gpurotate::ChromaSubsampling::s444, gpurotate::ChromaSubsampling::s422,
                                                               gpurotate::ChromaSubsampling::s420, gpurotate::ChromaSubsampling::s440,
                                                               gpurotate::ChromaSubsampling::grey};

/// Every element of `jpeg`, its imperfect ones trimmed, coded by libjpeg (no coder) or by `coder`.
inline std::vector<std::optional<std::vector<std::uint8_t>>> every_variant(const std::vector<std::uint8_t>& jpeg,
                                                                           gpurotate::detail::JpegScanCoder* coder) {
    using namespace gpurotate;
    std::vector<detail::LosslessJpegVariant> variants;
    for (Orientation o : all_orientations) variants.push_back({o, nullptr});
    std::vector<detail::LosslessJpegReport> reports;
    return detail::transform_jpeg_lossless_variants(jpeg, "made.jpg", variants, detail::JpegEdge::trim, false, ReadOptions{}, reports, coder);
}

}  // namespace jpeg_scan_support
