#pragma once
// The elements that keep the axes (flip-h, flip-v, rot180) on a batch whose rows are whole 16-byte vectors:
// one thread per output vector across the whole batch, not one tile of one image per block. A tile that
// overhangs a small image's edge leaves its lanes idle: a row of 224 u8 pixels fills 1.75 of the vectorized
// mirror's 128-pixel tiles, and a batch of 224x224 planes ran at 85% of the copy on an H200 where a plain
// vector copy of the same bytes ran at 96% (bench/RESULTS.md, 2026-11-25). Here every lane moves a
// vector: a mirrored row is its vectors in the opposite order, each with its pixels reversed in registers.

#include <cstddef>
#include <cstdint>

namespace gpurotate::detail {

/// A batch of images stacked rows after rows (image i's rows follow image i - 1's on both sides).
struct MirrorRowsArgs {
    const std::byte* __restrict__ src;
    std::byte* __restrict__ dst;
    std::size_t src_pitch;
    std::size_t dst_pitch;
    std::uint32_t vectors_per_row;
    std::uint32_t rows_per_image;
    std::uint32_t vectors;  ///< in the whole batch (the launcher keeps batches under 2^32 vectors: 64 GiB)
};

/// Threads a block of mirror_rows_kernel, and the vectors each moves per step (loads before stores, so that
/// several are in flight).
inline constexpr int mirror_rows_threads = 256;
inline constexpr int mirror_rows_vectors_per_thread = 2;
/// Blocks an SM holds at once (2048 threads, the most Hopper's and Ampere's SMs run), which the launcher sizes the grid
/// by: the kernel is held to the 32 registers a thread that takes.
inline constexpr int mirror_rows_blocks_per_sm = 8;

/// The pixels of S bytes (1, 2, 4, 8 or 16; the launcher uses 1 and 2) held by a 16-byte vector, in the opposite order.
template <int S>
__device__ __forceinline__ uint4 reverse_pixels(uint4 v) {
    if constexpr (S == 1) {
        return make_uint4(__byte_perm(v.w, 0, 0x0123), __byte_perm(v.z, 0, 0x0123), __byte_perm(v.y, 0, 0x0123), __byte_perm(v.x, 0, 0x0123));
    } else if constexpr (S == 2) {
        return make_uint4(__byte_perm(v.w, 0, 0x1032), __byte_perm(v.z, 0, 0x1032), __byte_perm(v.y, 0, 0x1032), __byte_perm(v.x, 0, 0x1032));
    } else if constexpr (S == 4) {
        return make_uint4(v.w, v.z, v.y, v.x);
    } else if constexpr (S == 8) {
        return make_uint4(v.z, v.w, v.x, v.y);
    } else {
        static_assert(S == 16, "pixels of 1, 2, 4, 8 or 16 bytes");
        return v;
    }
}

template <int S, bool MirrorX, bool MirrorY>
__global__ void __launch_bounds__(mirror_rows_threads, mirror_rows_blocks_per_sm) mirror_rows_kernel(MirrorRowsArgs a) {
    constexpr int n = mirror_rows_vectors_per_thread;
    const std::uint32_t stride = gridDim.x * blockDim.x;
    for (std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x; first < a.vectors; first += stride * n) {
        uint4 v[n];
        std::uint32_t row[n], column[n];
#pragma unroll
        for (int k = 0; k < n; ++k) {
            const std::uint32_t o = first + static_cast<std::uint32_t>(k) * stride;
            if (o >= a.vectors) break;
            row[k] = o / a.vectors_per_row;
            column[k] = o - row[k] * a.vectors_per_row;
            std::uint32_t source_row = row[k];
            if constexpr (MirrorY) {
                const std::uint32_t image_first = row[k] / a.rows_per_image * a.rows_per_image;
                source_row = image_first + (a.rows_per_image - 1 - (row[k] - image_first));
            }
            const std::uint32_t source_column = MirrorX ? a.vectors_per_row - 1 - column[k] : column[k];
            v[k] = *reinterpret_cast<const uint4*>(a.src + source_row * a.src_pitch + source_column * std::size_t{16});
        }
#pragma unroll
        for (int k = 0; k < n; ++k) {
            const std::uint32_t o = first + static_cast<std::uint32_t>(k) * stride;
            if (o >= a.vectors) break;
            *reinterpret_cast<uint4*>(a.dst + row[k] * a.dst_pitch + column[k] * std::size_t{16}) = MirrorX ? reverse_pixels<S>(v[k]) : v[k];
        }
    }
}

}  // namespace gpurotate::detail
