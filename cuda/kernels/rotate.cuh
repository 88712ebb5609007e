#pragma once
// Rotation by any angle: one thread per output pixel, each calling core/rotation_sampling.hpp's sample_pixel,
// the function the CPU backend calls, so that both give OpenCV's bytes. 32x8 threads a block; the grid's
// rows step over the image where it is taller than gridDim.y allows.

#include "core/rotation_sampling.hpp"

#include <cstddef>

namespace gpurotate::detail {

inline constexpr int rotate_block_x = 32;
inline constexpr int rotate_block_y = 8;

/// `plan.weights` points to device memory; `src` and `dst` hold samples at addresses and pitches that are
/// multiples of the sample's size.
template <class Sample, int Channels>
__global__ void __launch_bounds__(rotate_block_x * rotate_block_y)
    rotate_kernel(RotationPlan plan, const std::byte* __restrict__ src, std::size_t src_pitch, std::byte* __restrict__ dst, std::size_t dst_pitch) {
    const int x = static_cast<int>(blockIdx.x) * rotate_block_x + static_cast<int>(threadIdx.x);
    if (x >= plan.dst_width) return;
    for (int y = static_cast<int>(blockIdx.y) * rotate_block_y + static_cast<int>(threadIdx.y); y < plan.dst_height;
         y += static_cast<int>(gridDim.y) * rotate_block_y) {
        Sample pixel[Channels];
        sample_pixel<Sample, Channels>(plan, src, src_pitch, x, y, pixel);
        Sample* out = reinterpret_cast<Sample*>(dst + static_cast<std::size_t>(y) * dst_pitch) + static_cast<std::size_t>(x) * Channels;
#pragma unroll
        for (int k = 0; k < Channels; ++k) out[k] = pixel[k];
    }
}

}  // namespace gpurotate::detail
