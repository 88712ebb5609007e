#pragma once
// The multi-output transform's launchers for S-byte pixels (declared in launch.cuh): the vectorized fused
// kernel and the shared-memory fused kernel, instantiated one pixel width a generated translation unit
// (cuda/instantiate/multi_output.cu.in) as the single-output launchers are. The choice between them is
// launch_multi_output.cu's.

#include "check.cuh"
#include "launch.cuh"
#include "kernels/multi_output.cuh"
#include "kernels/multi_output_vectorized.cuh"
#include "kernels/tile_policy.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>

namespace gpurotate::detail {

inline MultiOutputArgs make_multi_output_args(ConstImageView src, const TransformTarget* targets, std::size_t count, int tile_rows) {
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

template <int S>
bool multi_output_vectorized_fits(ConstImageView src, const TransformTarget* targets, std::size_t count) {
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
bool launch_multi_output_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, cudaStream_t stream) {
    if (!multi_output_vectorized_fits<S>(src, targets, count)) return false;
    using Tile = VectorizedTransposeTile<S>;
    const int tile_rows = Tile::lanes_y * VectorBlock<S>::R * Tile::blocks_per_lane;
    const MultiOutputArgs args = make_multi_output_args(src, targets, count, tile_rows);
    const int tile_cols = Tile::lanes_x * VectorBlock<S>::K;
    const dim3 grid(static_cast<unsigned>((src.width + tile_cols - 1) / tile_cols), std::min(static_cast<unsigned>(args.tiles_y), max_grid_y));
    multi_output_vectorized_kernel<S><<<grid, vectorized_threads, 0, stream>>>(args);
    return true;
}

template <class Word>
void launch_multi_output_tiled_word(ConstImageView src, const TransformTarget* targets, std::size_t count, cudaStream_t stream) {
    constexpr TilePolicy p = tile32_policy;
    const MultiOutputArgs args = make_multi_output_args(src, targets, count, p.tile_dim);
    const dim3 grid(static_cast<unsigned>((src.width + p.tile_dim - 1) / p.tile_dim), std::min(static_cast<unsigned>(args.tiles_y), max_grid_y));
    multi_output_kernel<Word, p.tile_dim, p.block_rows><<<grid, dim3(p.tile_dim, p.block_rows), 0, stream>>>(args);
}

template <int S>
void launch_multi_output_tiled(ConstImageView src, const TransformTarget* targets, std::size_t count, bool aligned_word, cudaStream_t stream) {
    // Not visit_pixel_word: its switch would instantiate every width here.
    aligned_word ? launch_multi_output_tiled_word<AlignedWord<S>>(src, targets, count, stream)
                 : launch_multi_output_tiled_word<UnalignedWord<S>>(src, targets, count, stream);
}

}  // namespace gpurotate::detail
