#pragma once
// What the scan coder's tests share: JPEGs of every subsampling made by the library's encoder, and every
// variant of one transformed losslessly, with libjpeg coding the scans and with another coder.

#include "jpeg/jpeg_lossless.hpp"
#include "jpeg/jpeg_scan_coder.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>  // jpeglib.h uses FILE without including its header
#include <cstdlib>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <jpeglib.h>

namespace jpeg_scan_support {

/// A photograph-like image: gradients, edges and noise, so that coefficients of every size occur.
inline gpurotate::Image photograph(std::int64_t width, std::int64_t height, int channels, std::uint32_t seed) {
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
    return image;
}

/// A JPEG of a photograph, by the library's encoder (the standard Huffman tables).
inline std::vector<std::uint8_t> make_jpeg(std::int64_t width, std::int64_t height, gpurotate::ChromaSubsampling chroma, int quality,
                                           std::uint32_t seed) {
    const int channels = chroma == gpurotate::ChromaSubsampling::grey ? 1 : 3;
    gpurotate::WriteOptions options;
    options.quality = quality;
    options.chroma = chroma;
    return gpurotate::encode_image(photograph(width, height, channels, seed).view(), "made.jpg", options);
}

/// How libjpeg writes a test JPEG: its colour space (of `channels` samples a pixel), each component's
/// sampling factors, tables made for the image or the standard ones, a restart interval in MCUs.
struct LibjpegCoding {
    J_COLOR_SPACE colour = JCS_YCbCr;
    int channels = 3;
    std::vector<std::pair<int, int>> sampling;  ///< per component; empty: libjpeg's defaults
    bool optimize = true;
    unsigned restart_interval = 0;
    bool progressive = false;
};

/// A JPEG of a photograph written by libjpeg itself, which the library's encoder cannot make: tables made for
/// it (`cjpeg -optimize`, ImageMagick's and Pillow's optimize), CMYK and YCCK, two components, unusual sampling.
inline std::vector<std::uint8_t> make_libjpeg_jpeg(int width, int height, const LibjpegCoding& coding, int quality, std::uint32_t seed) {
    const gpurotate::Image image = photograph(width, height, coding.channels, seed);
    jpeg_compress_struct info{};
    jpeg_error_mgr errors{};
    info.err = jpeg_std_error(&errors);
    jpeg_create_compress(&info);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = static_cast<JDIMENSION>(width);
    info.image_height = static_cast<JDIMENSION>(height);
    info.input_components = coding.channels;
    info.in_color_space = coding.colour == JCS_YCbCr ? JCS_RGB : coding.colour == JCS_YCCK ? JCS_CMYK : coding.colour;
    jpeg_set_defaults(&info);
    jpeg_set_colorspace(&info, coding.colour);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = coding.optimize ? TRUE : FALSE;
    info.restart_interval = coding.restart_interval;
    if (coding.progressive) jpeg_simple_progression(&info);
    for (std::size_t c = 0; c < coding.sampling.size(); ++c) {
        info.comp_info[c].h_samp_factor = coding.sampling[c].first;
        info.comp_info[c].v_samp_factor = coding.sampling[c].second;
    }
    jpeg_start_compress(&info, TRUE);
    for (int y = 0; y < height; ++y) {
        JSAMPROW row = reinterpret_cast<JSAMPROW>(const_cast<std::byte*>(image.view().row(y)));
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    std::vector<std::uint8_t> jpeg(buffer, buffer + size);
    std::free(buffer);
    jpeg_destroy_compress(&info);
    return jpeg;
}

/// A JPEG with tables made for it; luma sampled `h` x `v` times chroma, or grey where `channels` is 1.
inline std::vector<std::uint8_t> make_optimized_jpeg(int width, int height, int channels, int h, int v, int quality, std::uint32_t seed) {
    LibjpegCoding coding;
    coding.colour = channels == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
    coding.channels = channels;
    if (channels == 3) coding.sampling = {{h, v}, {1, 1}, {1, 1}};
    return make_libjpeg_jpeg(width, height, coding, quality, seed);
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

/// Checks that every variant of `jpeg` coded through `coder` is libjpeg's, byte for byte; returns how many
/// variants were transformed losslessly (a variant trimmed to nothing is not).
inline std::size_t check_coded_as_libjpeg(const std::vector<std::uint8_t>& jpeg, gpurotate::detail::JpegScanCoder& coder) {
    const auto expected = every_variant(jpeg, nullptr);
    const auto coded = every_variant(jpeg, &coder);
    REQUIRE(coded.size() == expected.size());
    std::size_t lossless = 0;
    for (std::size_t k = 0; k < coded.size(); ++k) {
        CAPTURE(k);
        REQUIRE(expected[k].has_value() == coded[k].has_value());
        if (expected[k]) CHECK(*coded[k] == *expected[k]);
        lossless += expected[k] ? 1 : 0;
    }
    return lossless;
}

}  // namespace jpeg_scan_support
