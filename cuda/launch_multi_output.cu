// The launchers of the multi-output transform. Which fused kernel runs depends on the pixel width, as
// measured with `gpurotate bench --kernel multi-output` on an H200 (bench/RESULTS.md, all 7 elements):
// - 1, 2, 4, 8 bytes: the vectorized fused kernel, 1.4-2x faster than one launch per element; where its
//   alignment rules fail (a 1080-row image and 16-row blocks), as for 3 bytes below;
// - 6, 12, 16 bytes: the shared-memory fused kernel, at every size;
// - 3 bytes: the shared-memory fused kernel up to `tiled_max_pixels`, one automatic launch per element
//   above, where the vectorized single-element kernels' 16-byte stores win.
// (The vectorized fused kernel stores 3-, 6- and 12-byte pixels in 8-byte pieces and loses to both.)

#include "check.cuh"
#include "kernels/multi_output.cuh"
#include "kernels/multi_output_vectorized.cuh"
#include "pixel_width_dispatch.cuh"
#include "tile_policy.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>

namespace gpurotate::detail {
namespace {

MultiOutputArgs make_args(ConstImageView src, const TransformTarget* targets, std::size_t count, int tile_rows) {
    MultiOutputArgs args{};
    args.src = src.data;
    args.src_pitch = src.pitch;
    args.src_extent = src.extent();
    args.tiles_y = static_cast<int>((src.height + tile_rows - 1) / tile_rows);
    args.count = static_cast<int>(count);
    for (std::size_t i = 0; i < count; ++i) {
        const ImageView& d = targets[i].dst;
        args.targets[i] = MultiTarget{d.data, d.pitch, axis_map(targets[i].orientation), static_cast<int>(d.width), static_cast<int>(d.height)};
    }
    return args;
}

// Whether the vectorized fused kernel for S-byte pixels can write every target (see its header).
template <int S>
bool fused_vectorized_fits(ConstImageView src, const TransformTarget* targets, std::size_t count) {
    using B = VectorBlock<S>;
    if (!allows_aligned_word(src.data, src.pitch, vector_bytes)) return false;
    for (std::size_t i = 0; i < count; ++i) {
        const AxisMap m = axis_map(targets[i].orientation);
        if (!allows_aligned_word(targets[i].dst.data, targets[i].dst.pitch, vector_bytes)) return false;
        if (!m.swap_axes && m.mirror_x && src.width % B::K != 0) return false;
        if (m.swap_axes && m.mirror_y && src.height % B::R != 0) return false;
    }
    return true;
}

template <int S>
bool launch_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, cudaStream_t stream) {
    if (!fused_vectorized_fits<S>(src, targets, count)) return false;
    using Tile = VectorizedTransposeTile<S>;
    const int tile_rows = Tile::lanes_y * VectorBlock<S>::R * Tile::blocks_per_lane;
    const MultiOutputArgs args = make_args(src, targets, count, tile_rows);
    const int tile_cols = Tile::lanes_x * VectorBlock<S>::K;
    const dim3 grid(static_cast<unsigned>((src.width + tile_cols - 1) / tile_cols), std::min(static_cast<unsigned>(args.tiles_y), max_grid_y));
    multi_output_vectorized_kernel<S><<<grid, vectorized_threads, 0, stream>>>(args);
    return true;
}

bool try_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, cudaStream_t stream) {
    bool launched = false;
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) {
        launched = launch_fused_vectorized<decltype(width)::value>(src, targets, count, stream);
    });
    return launched;
}

// Above this many source pixels the shared-memory fused kernel loses to one launch per element for 1- to
// 3-byte pixels (measured: ahead at 12 MP, behind at 67 MP).
constexpr std::int64_t tiled_max_pixels = 16LL << 20;

}  // namespace

bool multi_output_fused_applies(ConstImageView src, const TransformTarget* targets, std::size_t count) {
    bool fits = false;
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) { fits = fused_vectorized_fits<decltype(width)::value>(src, targets, count); });
    return fits;
}

void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const std::size_t bytes = src.format.pixel_bytes();
    if (bytes % 3 != 0 && bytes < 16 && try_fused_vectorized(src, targets, count, stream)) {
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return;
    }
    if (bytes >= 6 || src.width * src.height <= tiled_max_pixels) {
        transform_device_multi_tiled(src, targets, count, stream);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        transform_device_cuda(src, targets[i].dst, axis_map(targets[i].orientation), CudaKernel::automatic, stream);
    }
}

bool multi_output_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const bool ran = try_fused_vectorized(src, targets, count, stream);
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
    return ran;
}

void transform_device_multi_tiled(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    constexpr int tile = tile32_policy.tile_dim;
    const MultiOutputArgs args = make_args(src, targets, count, tile);
    const std::size_t bytes = src.format.pixel_bytes();
    bool aligned = allows_aligned_word(src.data, src.pitch, bytes);
    for (std::size_t i = 0; i < count; ++i) aligned = aligned && allows_aligned_word(targets[i].dst.data, targets[i].dst.pitch, bytes);
    const dim3 grid(static_cast<unsigned>((src.width + tile - 1) / tile), std::min(static_cast<unsigned>(args.tiles_y), max_grid_y));
    visit_pixel_word(bytes, aligned, [&](auto word) {
        multi_output_kernel<decltype(word), tile32_policy.tile_dim, tile32_policy.block_rows>
            <<<grid, dim3(tile32_policy.tile_dim, tile32_policy.block_rows), 0, stream>>>(args);
    });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpurotate::detail
