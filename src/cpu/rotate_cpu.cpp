// Compiled with -ffp-contract=off (CMakeLists.txt): the sampling's float sums must round as the GPU's do.

#include "cpu/rotate_cpu.hpp"

#include "core/parallel_for.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpurotate::detail {
namespace {

// A thread's share of the output before a call is split: a bicubic pixel costs tens of nanoseconds, so a
// few thousand pixels outweigh waking a pool thread (20-30 us).
constexpr std::int64_t min_pixels_per_thread = 16384;

template <class Sample, int Channels, Interpolation Interp>
void rotate_rows(ConstImageView src, ImageView dst, const RotationPlan& plan, unsigned max_threads) {
    const std::int32_t width = plan.dst_width;
    std::vector<std::int32_t> column_x(static_cast<std::size_t>(width)), column_y(static_cast<std::size_t>(width));
    for (std::int32_t x = 0; x < width; ++x) {
        rotation_column_step(plan, x, column_x[static_cast<std::size_t>(x)], column_y[static_cast<std::size_t>(x)]);
    }
    const PitchedPixels<sizeof(Sample) * Channels> pixels{src.data, src.pitch};
    const std::int64_t rows_per_chunk = std::max<std::int64_t>(1, min_pixels_per_thread / std::max<std::int64_t>(1, width));
    parallel_for(
        dst.height, rows_per_chunk,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t y = begin; y < end; ++y) {
                std::int32_t x0 = 0, y0 = 0;
                rotation_row_origin(plan, static_cast<std::int32_t>(y), x0, y0);
                std::byte* row = dst.row(y);
                for (std::int32_t x = 0; x < width; ++x) {
                    Sample pixel[Channels];
                    sample_at<Sample, Channels, Interp>(plan, pixels, rotation_math::add_wrapping(x0, column_x[static_cast<std::size_t>(x)]),
                                                rotation_math::add_wrapping(y0, column_y[static_cast<std::size_t>(x)]), pixel);
                    std::memcpy(row + static_cast<std::size_t>(x) * sizeof(pixel), pixel, sizeof(pixel));
                }
            }
        },
        max_threads);
}

template <class Sample, int Channels>
void rotate_interpolated(ConstImageView src, ImageView dst, const RotationPlan& plan, unsigned max_threads) {
    switch (plan.interpolation) {
        case Interpolation::nearest: return rotate_rows<Sample, Channels, Interpolation::nearest>(src, dst, plan, max_threads);
        case Interpolation::bilinear: return rotate_rows<Sample, Channels, Interpolation::bilinear>(src, dst, plan, max_threads);
        case Interpolation::bicubic: return rotate_rows<Sample, Channels, Interpolation::bicubic>(src, dst, plan, max_threads);
    }
}

template <class Sample>
void rotate_channels(ConstImageView src, ImageView dst, const RotationPlan& plan, unsigned max_threads) {
    switch (src.format.channels) {
        case 1: return rotate_interpolated<Sample, 1>(src, dst, plan, max_threads);
        case 2: return rotate_interpolated<Sample, 2>(src, dst, plan, max_threads);
        case 3: return rotate_interpolated<Sample, 3>(src, dst, plan, max_threads);
        case 4: return rotate_interpolated<Sample, 4>(src, dst, plan, max_threads);
        default: throw Error(ErrorCode::usage, "rotation: " + std::to_string(src.format.channels) + " channels (1 to 4)");
    }
}

}  // namespace

void rotate_cpu(ConstImageView src, ImageView dst, const RotationPlan& plan, unsigned max_threads) {
    switch (src.format.sample) {
        case SampleType::u8: return rotate_channels<std::uint8_t>(src, dst, plan, max_threads);
        case SampleType::u16: return rotate_channels<std::uint16_t>(src, dst, plan, max_threads);
        case SampleType::f32: return rotate_channels<float>(src, dst, plan, max_threads);
    }
    throw Error(ErrorCode::usage, "rotation: unknown sample type");
}

}  // namespace gpurotate::detail
