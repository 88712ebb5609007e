#pragma once
// A batch of planes that lie back to back on both sides (NCHW tensors), moved as one tall image, so that no
// lane idles at a small plane's edges. A tile of the per-image kernels that overhangs a plane leaves its lanes
// there idle: a 224x224 u8 plane fills 1.75 x 0.875 of the vectorized transpose's 128 x 256 tiles (77% of the
// lanes at work, and every tile takes the cut path), and a batch of 768 such planes transposed at 78-83% of
// the copy on an H200 (bench/RESULTS.md, 2026-11-25). Here the tiles run down the stack of planes, the
// lanes' register blocks never straddle two planes (the launcher asks for planes whose height is a whole
// number of blocks), and a lane works out its block's plane from its row in the stack.
//
// The transposes (each lane the vectorized transpose's register block, mirrors read at run time), for the whole
// batch under one element or for the planes a list names with an element each (a batch with an element per
// image: the planes of one kernel family, as transform_batch_elements_kernel takes them); and the axis-keeping
// elements of such a list, one output vector a thread as mirror_rows_kernel moves a whole batch.

#include "kernels/grouped.cuh"
#include "kernels/mirror_rows.cuh"
#include "kernels/vectorized.cuh"

#include <cstdint>

namespace gpurotate::detail {

/// The plane at place `q` of the stack a launch walks, and its mirrors (1: x, 2: y): the batch's own planes
/// in order under one element, or the planes of a list.
struct WholeBatch {
    std::uint32_t mirrors;
    __device__ __forceinline__ std::uint32_t entry(int q) const { return static_cast<std::uint32_t>(q) * 4u + mirrors; }
};
struct ListedPlanes {
    const BatchEntries& entries;
    __device__ __forceinline__ std::uint32_t entry(int q) const { return entries.image_and_mirrors[q]; }
};

/// `args` moved to the plane of `entry` (image index * 4 + mirror bits), with its mirrors.
__device__ __forceinline__ TransformArgs plane_args(TransformArgs args, std::uint32_t entry) {
    args.src += static_cast<std::size_t>(entry >> 2) * args.src_image_stride;
    args.dst += static_cast<std::size_t>(entry >> 2) * args.dst_image_stride;
    args.map.mirror_x = (entry & 1u) != 0;
    args.map.mirror_y = (entry & 2u) != 0;
    return args;
}

/// The transposes of `planes` planes of one size (args: the first plane, with the image strides; dst_width is a
/// plane's output width, its source height) as one stack of planes * dst_width output columns. Every lane
/// block lies inside one plane and inside the output rows (the launcher's conditions), or is skipped whole.
template <int S, int LanesX, class Planes>
__device__ __forceinline__ void transpose_stacked_tile(const TransformArgs& args, int planes, Planes stack, int tile_col, int tile_row) {
    using Body = VectorizedTranspose<S, false, false, LanesX, 1, true, false, false, true>;  // mirrors at run time
    using Tile = typename Body::Tile;
    constexpr int K = Body::K, R = Body::R;
    static_assert(!Body::staged, "pixels of 1, 2, 4, 8 or 16 bytes: no staged stores");
    const int lane_x = static_cast<int>(threadIdx.x) % LanesX, lane_y = static_cast<int>(threadIdx.x) / LanesX;
    const int plane_width = args.dst_width, stack_width = planes * plane_width;
    const int y_out = tile_row * Tile::tile_h + lane_x * K;
    if (y_out >= args.dst_height) return;
#pragma unroll 1
    for (int blk = 0; blk < Tile::blocks_per_lane; ++blk) {
        const int x_stack = tile_col * Tile::tile_w + (blk * Tile::lanes_y + lane_y) * R;
        if (x_stack >= stack_width) return;
        const int q = x_stack / plane_width, x_out = x_stack - q * plane_width;
        const TransformArgs a = plane_args(args, stack.entry(q));
        std::uint32_t rows[R * Body::row_words];
        Body::template load_block<true, false>(a, x_out, y_out, R, K * S, rows);
#pragma unroll
        for (int i = 0; i < K; ++i) {
            std::uint32_t out[Body::out_words];
            Body::gather_output_row(rows, i, out);
            const int row = Body::output_row_of(a, i);
            store_words<R * S>(a.dst + static_cast<std::size_t>(y_out + row) * a.dst_pitch + static_cast<std::size_t>(x_out) * S, out);
        }
    }
}

/// Grid: (tile rows of a plane's output, tile columns of the stack, at most max_grid_y; blocks stride over the rest).
/// Blocks in launch order take the tiles across whole source rows: with the stack's tiles first, the blocks at work
/// at once each read a strip of 32 or 128 bytes from the rows of hundreds of planes, and the transposes of 768
/// planes of 224x224 ran at 59-73% of the copy on an H200, against 80-94% for the per-image tiles.
template <int S, int LanesX>
__global__ void __launch_bounds__(vectorized_threads) transpose_stacked_kernel(TransformArgs args, int planes, int stack_tiles) {
    const WholeBatch stack{(args.map.mirror_x ? 1u : 0u) + (args.map.mirror_y ? 2u : 0u)};
    for (int col = static_cast<int>(blockIdx.y); col < stack_tiles; col += static_cast<int>(gridDim.y)) {
        transpose_stacked_tile<S, LanesX>(args, planes, stack, col, static_cast<int>(blockIdx.x));
    }
}

/// The same over the planes `entries` lists (one launch of transform_device_batch_elements' transposes).
template <int S, int LanesX>
__global__ void __launch_bounds__(vectorized_threads) transpose_listed_kernel(TransformArgs args, int planes, int stack_tiles,
                                                                             const __grid_constant__ BatchEntries entries) {
    let_the_next_launch_start();
    for (int col = static_cast<int>(blockIdx.y); col < stack_tiles; col += static_cast<int>(gridDim.y)) {
        transpose_stacked_tile<S, LanesX>(args, planes, ListedPlanes{entries}, col, static_cast<int>(blockIdx.x));
    }
    end_after_the_overlapped_launch();
}

/// The axis-keeping elements of the planes `entries` lists, mirror_rows_kernel's way (one output vector a thread
/// across the listed planes, loads before stores), each plane with its own mirrors. `a.vectors` counts the
/// listed planes' vectors; `a.src`, `a.dst` are the batch's first plane, and image i lies i * rows_per_image rows on.
template <int S>
__global__ void __launch_bounds__(mirror_rows_threads, mirror_rows_blocks_per_sm) mirror_rows_listed_kernel(MirrorRowsArgs a,
                                                                                                          const __grid_constant__ BatchEntries entries) {
    constexpr int n = mirror_rows_vectors_per_thread;
    let_the_next_launch_start();
    const std::uint32_t stride = gridDim.x * blockDim.x;
    for (std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x; first < a.vectors; first += stride * n) {
        uint4 v[n];
        std::uint32_t row[n], column[n];
        bool reverse[n];
#pragma unroll
        for (int k = 0; k < n; ++k) {
            const std::uint32_t o = first + static_cast<std::uint32_t>(k) * stride;
            if (o >= a.vectors) break;
            const std::uint32_t stack_row = o / a.vectors_per_row, q = stack_row / a.rows_per_image;
            const std::uint32_t entry = entries.image_and_mirrors[q], image_first = (entry >> 2) * a.rows_per_image;
            const std::uint32_t y = stack_row - q * a.rows_per_image;
            column[k] = o - stack_row * a.vectors_per_row;
            row[k] = image_first + y;
            reverse[k] = (entry & 1u) != 0;
            const std::uint32_t source_row = image_first + ((entry & 2u) != 0 ? a.rows_per_image - 1 - y : y);
            const std::uint32_t source_column = reverse[k] ? a.vectors_per_row - 1 - column[k] : column[k];
            v[k] = *reinterpret_cast<const uint4*>(a.src + source_row * a.src_pitch + source_column * std::size_t{16});
        }
#pragma unroll
        for (int k = 0; k < n; ++k) {
            const std::uint32_t o = first + static_cast<std::uint32_t>(k) * stride;
            if (o >= a.vectors) break;
            *reinterpret_cast<uint4*>(a.dst + row[k] * a.dst_pitch + column[k] * std::size_t{16}) = reverse[k] ? reverse_pixels<S>(v[k]) : v[k];
        }
    }
    end_after_the_overlapped_launch();
}

}  // namespace gpurotate::detail
