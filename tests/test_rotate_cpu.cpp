// Rotation by any angle on the CPU backend: against cv::warpAffine where the tests are built with OpenCV (8-bit
// every byte, 16-bit and float as close as they come, the largest differences reported), rotated_extent
// against its formula, 0 degrees as a copy, and the usage errors.

#include "core/rotation_sampling.hpp"
#include "core/rotation_tables.hpp"
#include "rotate_cases.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include <doctest/doctest.h>

#if GPUROTATE_TEST_WITH_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

using gpurotate::Interpolation;
using gpurotate::RotateOptions;
using gpurotate::SampleType;

namespace {

gpurotate::ErrorCode code_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const gpurotate::Error& e) {
        return e.code();
    }
    return gpurotate::ErrorCode::internal;
}

}  // namespace

TEST_CASE("the 8-bit bilinear weights a kernel computes give the table's bytes, entry for entry") {
    // The table (OpenCV's initInterTab2D) is the reference: every entry's weights are equal but entry 0's,
    // and every entry's rounded sum is equal for the extremes and a spread of taps.
    const auto& table = gpurotate::detail::rotation_tables().bilinear_fixed;
    std::uint32_t state = 12345;
    const auto next_byte = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<int>(state >> 24);
    };
    for (std::uint32_t b = 0; b < 32; ++b) {
        for (std::uint32_t a = 0; a < 32; ++a) {
            std::uint32_t top = 0, bottom = 0;
            gpurotate::detail::bilinear_u8_weight_pairs(a, b, top, bottom);
            const std::size_t entry = (b * 32 + a) * 4;
            const int computed[4] = {static_cast<int>(top & 0xffffu), static_cast<int>(top >> 16), static_cast<int>(bottom & 0xffffu),
                                     static_cast<int>(bottom >> 16)};
            CAPTURE(a);
            CAPTURE(b);
            CHECK(computed[0] + computed[1] + computed[2] + computed[3] == 32768);
            if (a != 0 || b != 0) {
                for (int k = 0; k < 4; ++k) CHECK(computed[k] == table[entry + k]);
            }
            for (int sample = 0; sample < 600; ++sample) {
                int taps[4];
                for (int k = 0; k < 4; ++k) taps[k] = sample < 16 ? ((sample >> k) & 1) * 255 : next_byte();
                int with_table = 1 << 14, with_computed = 1 << 14;
                for (int k = 0; k < 4; ++k) {
                    with_table += table[entry + k] * taps[k];
                    with_computed += computed[k] * taps[k];
                }
                const int expected = std::clamp(with_table >> 15, 0, 255);
                if ((with_computed >> 15) != expected) {
                    CAPTURE(taps[0]);
                    CAPTURE(taps[3]);
                    FAIL_CHECK("sum differs");
                }
            }
        }
    }
    // Entry 0 exhaustively over the two taps the table weighs (32767 and 1).
    std::uint32_t top = 0, bottom = 0;
    gpurotate::detail::bilinear_u8_weight_pairs(0, 0, top, bottom);
    int wrong = 0;
    for (int p00 = 0; p00 < 256; ++p00) {
        for (int p11 = 0; p11 < 256; ++p11) {
            const int with_table = (table[0] * p00 + table[3] * p11 + (1 << 14)) >> 15;
            const int with_computed = (static_cast<int>(top & 0xffffu) * p00 + static_cast<int>(bottom >> 16) * p11 + (1 << 14)) >> 15;
            wrong += with_table != with_computed;
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("the float bilinear weights a kernel computes are the table's, bit for bit") {
    const auto& table = gpurotate::detail::rotation_tables().bilinear_float;
    // The device builds a / 32 as the float 2^18 + a * 2^-5 from its bits, less 2^18.
    for (std::uint32_t a = 0; a < 32; ++a) {
        const std::uint32_t bits = 0x48800000u | a;
        float built = 0;
        std::memcpy(&built, &bits, 4);
        CHECK(built - 262144.0f == static_cast<float>(a) / 32.0f);
    }
    for (std::uint32_t b = 0; b < 32; ++b) {
        for (std::uint32_t a = 0; a < 32; ++a) {
            float w[4];
            gpurotate::detail::bilinear_float_weights(a, b, w);
            CAPTURE(a);
            CAPTURE(b);
            for (int k = 0; k < 4; ++k) {
                std::uint32_t computed = 0, tabled = 0;
                std::memcpy(&computed, &w[k], 4);
                std::memcpy(&tabled, &table[(b * 32 + a) * 4 + static_cast<std::uint32_t>(k)], 4);
                CHECK(computed == tabled);
            }
        }
    }
}

TEST_CASE("the device's rounding of 16-bit sums by an add is rintf's, ties and their neighbours included") {
    using gpurotate::detail::rotation_math::round_small_to_int;
    long wrong = 0;
    float first_wrong = 0;
    const auto check = [&](float v) {
        if (round_small_to_int(v) != static_cast<std::int32_t>(std::nearbyint(v)) && wrong++ == 0) first_wrong = v;
    };
    // Every tie of a 16-bit sample's range and beyond, with the floats either side of it.
    for (int n = -(1 << 18); n <= (1 << 18); ++n) {
        const float tie = static_cast<float>(n) + 0.5f;
        check(tie);
        check(std::nextafter(tie, -1e9f));
        check(std::nextafter(tie, 1e9f));
        check(static_cast<float>(n));
    }
    // Floats of every exponent up to the function's limit, 2^22.
    std::mt19937 random(7);
    std::uniform_int_distribution<std::uint32_t> bits(0, 0x4a7fffffu);
    for (int i = 0; i < 1000000; ++i) {
        const std::uint32_t b = bits(random) | (i % 2 == 0 ? 0u : 0x80000000u);
        float v = 0;
        std::memcpy(&v, &b, 4);
        check(v);
    }
    CAPTURE(first_wrong);
    CHECK(wrong == 0);
}

TEST_CASE("rotated_extent follows its formula, keeps the size on request and turns multiples of 90 exactly") {
    const double pi = std::acos(-1.0);
    for (const auto& size : test_support::rotation_sizes()) {
        for (double degrees : {0.0, 0.5, 7.5, 30.0, 45.0, 89.9, 135.0, -60.0, 1000.0, 12345.678}) {
            RotateOptions options;
            options.degrees = degrees;
            const double c = std::fabs(std::cos(degrees * pi / 180)), s = std::fabs(std::sin(degrees * pi / 180));
            const double w = static_cast<double>(size.width), h = static_cast<double>(size.height);
            const gpurotate::Extent e = gpurotate::rotated_extent({size.width, size.height}, options);
            CAPTURE(options.degrees);
            CHECK(e.width == static_cast<std::int64_t>(std::ceil(w * c + h * s - 1e-6)));
            CHECK(e.height == static_cast<std::int64_t>(std::ceil(w * s + h * c - 1e-6)));
            options.keep_size = true;
            CHECK(gpurotate::rotated_extent({size.width, size.height}, options) == gpurotate::Extent{size.width, size.height});
        }
        for (double degrees : {90.0, -90.0, 270.0, 450.0, 180.0, -180.0, 360.0, 0.0}) {
            RotateOptions options;
            options.degrees = degrees;
            const bool swapped = std::fmod(std::fabs(degrees), 180.0) == 90.0;
            CAPTURE(options.degrees);
            CHECK(gpurotate::rotated_extent({size.width, size.height}, options) ==
                  (swapped ? gpurotate::Extent{size.height, size.width} : gpurotate::Extent{size.width, size.height}));
        }
    }
}

TEST_CASE("rotation by 0 degrees with a black background copies the image, whatever the interpolation") {
    std::uint32_t seed = 70;
    for (SampleType sample : test_support::rotation_samples()) {
        for (int channels : {1, 2, 3, 4}) {
            const gpurotate::PixelFormat format{sample, channels};
            const gpurotate::Image src = test_support::rotation_source(29, 17, format, seed++);
            for (Interpolation interpolation : test_support::rotation_interpolations()) {
                for (bool keep_size : {false, true}) {
                    RotateOptions options;
                    options.interpolation = interpolation;
                    options.keep_size = keep_size;
                    const gpurotate::Image out = gpurotate::rotate(src, options, gpurotate::Backend::cpu);
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(gpurotate::name(options.interpolation));
                    REQUIRE(out.width() == src.width());
                    REQUIRE(out.height() == src.height());
                    CHECK(test_support::first_difference(out.view(), src.view()) == -1);
                }
            }
        }
    }
}

TEST_CASE("rotate refuses angles that are not finite and destinations of the wrong size or format") {
    const gpurotate::Image src = test_support::rotation_source(9, 5, {SampleType::u8, 3}, 3);
    for (double degrees : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()}) {
        RotateOptions options;
        options.degrees = degrees;
        gpurotate::Image dst(9, 5, src.format());
        CHECK(code_of([&] { gpurotate::rotated_extent({9, 5}, options); }) == gpurotate::ErrorCode::usage);
        CHECK(code_of([&] { gpurotate::rotate(src, options, gpurotate::Backend::cpu); }) == gpurotate::ErrorCode::usage);
        options.keep_size = true;
        CHECK(code_of([&] { gpurotate::rotate(src.view(), dst.view(), options, gpurotate::Backend::cpu); }) == gpurotate::ErrorCode::usage);
    }
    RotateOptions options;
    options.degrees = 30;
    const gpurotate::Extent e = gpurotate::rotated_extent({9, 5}, options);
    gpurotate::Image same_size(9, 5, src.format());
    CHECK(code_of([&] { gpurotate::rotate(src.view(), same_size.view(), options, gpurotate::Backend::cpu); }) == gpurotate::ErrorCode::usage);
    gpurotate::Image other_format(e.width, e.height, {SampleType::u16, 3});
    CHECK(code_of([&] { gpurotate::rotate(src.view(), other_format.view(), options, gpurotate::Backend::cpu); }) == gpurotate::ErrorCode::usage);
    gpurotate::Image right(e.width, e.height, src.format());
    CHECK_NOTHROW(gpurotate::rotate(src.view(), right.view(), options, gpurotate::Backend::cpu));
    options.interpolation = static_cast<Interpolation>(7);
    CHECK(code_of([&] { gpurotate::rotate(src.view(), right.view(), options, gpurotate::Backend::cpu); }) == gpurotate::ErrorCode::usage);
}

#if GPUROTATE_TEST_WITH_OPENCV
namespace {

int cv_depth(SampleType s) { return s == SampleType::u8 ? CV_8U : s == SampleType::u16 ? CV_16U : CV_32F; }

int cv_flags(Interpolation i) {
    return i == Interpolation::nearest ? cv::INTER_NEAREST : i == Interpolation::bilinear ? cv::INTER_LINEAR : cv::INTER_CUBIC;
}

/// The task's definition: warpAffine with getRotationMatrix2D about ((W-1)/2, (H-1)/2) by -degrees, the canvas
/// grown to W|cos| + H|sin| by H|cos| + W|sin| (less 1e-6, rounded up) and the translation moved by half the
/// growth.
cv::Mat opencv_rotation(const cv::Mat& src, const RotateOptions& options) {
    cv::Mat m = cv::getRotationMatrix2D(cv::Point2f(static_cast<float>(src.cols - 1) / 2, static_cast<float>(src.rows - 1) / 2), -options.degrees, 1.0);
    cv::Size size = src.size();
    if (!options.keep_size) {
        const double c = std::fabs(m.at<double>(0, 0)), s = std::fabs(m.at<double>(0, 1));
        size = cv::Size(static_cast<int>(std::ceil(src.cols * c + src.rows * s - 1e-6)), static_cast<int>(std::ceil(src.cols * s + src.rows * c - 1e-6)));
        m.at<double>(0, 2) += (size.width - src.cols) / 2.0;
        m.at<double>(1, 2) += (size.height - src.rows) / 2.0;
    }
    const auto& b = options.background;
    cv::Mat out;
    cv::warpAffine(src, out, m, size, cv_flags(options.interpolation), cv::BORDER_CONSTANT, cv::Scalar(b[0], b[1], b[2], b[3]));
    return out;
}

/// The largest difference of one sample type over all cases: absolute for integers, relative for float.
struct Difference {
    double largest = 0;
    std::int64_t samples = 0;
    std::int64_t differing = 0;
};

void compare(const cv::Mat& expected, const gpurotate::Image& got, Difference& difference) {
    const cv::Mat got_mat(static_cast<int>(got.height()), static_cast<int>(got.width()), expected.type(), const_cast<std::byte*>(got.data()),
                          got.view().pitch);
    const cv::Mat a = expected.reshape(1), b = got_mat.reshape(1);
    for (int y = 0; y < a.rows; ++y) {
        for (int x = 0; x < a.cols; ++x) {
            double d = 0;
            switch (a.depth()) {
                case CV_8U: d = std::abs(int(a.at<std::uint8_t>(y, x)) - int(b.at<std::uint8_t>(y, x))); break;
                case CV_16U: d = std::abs(int(a.at<std::uint16_t>(y, x)) - int(b.at<std::uint16_t>(y, x))); break;
                default: {
                    const float e = a.at<float>(y, x), g = b.at<float>(y, x);
                    d = e == g ? 0 : std::fabs(double(e) - double(g)) / std::max({std::fabs(double(e)), std::fabs(double(g)), 1e-30});
                }
            }
            difference.largest = std::max(difference.largest, d);
            difference.differing += d != 0;
            ++difference.samples;
        }
    }
}

}  // namespace

TEST_CASE("CPU rotation matches OpenCV's warpAffine: every byte in 8 bits, 16 bits within 1, float within 1e-5") {
    std::uint32_t seed = 100;
    for (SampleType sample : test_support::rotation_samples()) {
        Difference difference;
        for (int channels : test_support::rotation_channels()) {
            const gpurotate::PixelFormat format{sample, channels};
            for (const auto& size : test_support::rotation_sizes()) {
                // The source inside a wider image: a pitch of more than a row.
                cv::Mat wide(static_cast<int>(size.height), static_cast<int>(size.width) + 3, CV_MAKETYPE(cv_depth(sample), channels));
                cv::Mat src = wide(cv::Rect(1, 0, static_cast<int>(size.width), static_cast<int>(size.height)));
                const gpurotate::ImageView src_view{reinterpret_cast<std::byte*>(src.data), size.width, size.height, src.step, format};
                test_support::fill_rotation_source(src_view, seed++);
                for (const RotateOptions& options : test_support::rotation_options(sample)) {
                    const cv::Mat expected = opencv_rotation(src, options);
                    const gpurotate::Extent e = gpurotate::rotated_extent(src_view.extent(), options);
                    REQUIRE(e == gpurotate::Extent{expected.cols, expected.rows});
                    gpurotate::Image out(e.width, e.height, format);
                    std::memset(out.data(), 0xa5, out.size_bytes());
                    gpurotate::rotate(src_view, out.view(), options, gpurotate::Backend::cpu);
                    Difference one;
                    compare(expected, out, one);
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(size.width);
                    CAPTURE(size.height);
                    CAPTURE(options.degrees);
                    CAPTURE(gpurotate::name(options.interpolation));
                    CAPTURE(options.keep_size);
                    CAPTURE(options.background[1]);
                    CHECK(one.largest <= (sample == SampleType::u8 ? 0 : sample == SampleType::u16 ? 1 : 1e-5));
                    difference.largest = std::max(difference.largest, one.largest);
                    difference.samples += one.samples;
                    difference.differing += one.differing;
                }
            }
        }
        const std::string type = gpurotate::to_string(gpurotate::PixelFormat{sample, 1});
        MESSAGE(type.substr(0, type.size() - 2) << " (1 to 4 channels) against warpAffine: largest difference " << difference.largest << ", "
                                                << difference.differing << " of " << difference.samples << " samples differ");
    }
}
#endif
