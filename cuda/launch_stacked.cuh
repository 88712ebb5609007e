#pragma once
// The launchers of stacked_planes.cuh's kernels: when a batch runs as one stack of planes, and its grid. Included
// by the vectorized and grouped per-width units (cuda/instantiate/), which call them before their own kernels.

#include "device_query.cuh"
#include "kernels/stacked_planes.cuh"
#include "launch.cuh"

#include "core/pixel_word.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace gpurotate::detail {

/// Pixel widths whose transposes run as a stack of planes (tuning::stacked_planes_width).
template <int S>
inline constexpr bool stacks_transposes_of_width = tuning::stacked_planes_width(S);

/// Whether `count` images of `src`'s size, `*_stride` bytes apart, transpose as one stack of planes: more than one,
/// back to back on both sides, rows of aligned 16-byte vectors on both sides (the source's width a whole number of
/// the transpose's K pixels, its height of R rows, so that no register block straddles two planes), and tiles of
/// the per-image kernel that would overhang each plane (where they fit whole, no lane idles there either).
template <int S>
bool stacks_transposes(const ConstImageView& src, const ImageView& dst, std::size_t src_stride, std::size_t dst_stride, int count) {
    if constexpr (!stacks_transposes_of_width<S>) {
        return false;
    } else {
        using B = VectorBlock<S>;
        using PerImage = VectorizedTransposeTile<S>;
        if (count < 2 || !stacked_back_to_back(src, dst, src_stride, dst_stride)) return false;
        if (!allows_aligned_word(src.data, src.pitch, vector_bytes) || !allows_aligned_word(dst.data, dst.pitch, vector_bytes)) return false;
        if (src.width % B::K != 0 || src.height % B::R != 0) return false;
        if (src.height % PerImage::tile_w == 0 && src.width % PerImage::tile_h == 0) return false;  // output width x height
        if (src.row_bytes() * static_cast<std::size_t>(src.height) > tuning::most_stacked_plane_bytes) return false;
        return static_cast<std::int64_t>(count) * src.height <= INT_MAX;
    }
}

/// Lanes across a source row in the stacked transposes (tuning::stacked_lanes_x).
inline constexpr int stacked_lanes_x = tuning::stacked_lanes_x;

/// Launches the stacked transposes over `planes` planes of `args` (the first plane's, with the image strides): of the
/// whole batch in order, or (Listed) of the planes `entries` lists. Uncapped: caps of 3-6 blocks an SM cost 3-30 points.
template <int S, bool Listed, class... Entries>
void launch_stacked_transposes(const TransformArgs& args_in, int planes, cudaStream_t stream, bool overlap,
                               const Entries&... entries) {
    if constexpr (stacks_transposes_of_width<S>) {
        using Tile = VectorizedTransposeTile<S, stacked_lanes_x>;
        constexpr auto kernel = [] {
            if constexpr (Listed) {
                return transpose_listed_kernel<S, stacked_lanes_x>;
            } else {
                return transpose_stacked_kernel<S, stacked_lanes_x>;
            }
        }();
        TransformArgs args = args_in;
        args.tiles_y = (args.dst_height + Tile::tile_h - 1) / Tile::tile_h;
        const auto stack_width = static_cast<std::int64_t>(planes) * args.dst_width;
        const auto stack_tiles = static_cast<int>((stack_width + Tile::tile_w - 1) / Tile::tile_w);
        const dim3 grid(static_cast<unsigned>(args.tiles_y), std::min(static_cast<unsigned>(stack_tiles), max_grid_y));
        launch_overlapping(kernel, grid, dim3(vectorized_threads), 0, stream, overlap, args, planes, stack_tiles, entries...);
    }
}

/// The transposing element of `l` on its batch as one stack of planes, where stacks_transposes allows it. Returns
/// whether it launched.
template <int S>
bool launched_stacked_transpose(const Launch& l) {
    if constexpr (!stacks_transposes_of_width<S>) {
        return false;
    } else {
        if (!l.map.swap_axes || !stacks_transposes<S>(l.src, l.dst, l.batch.src_image_stride, l.batch.dst_image_stride, l.batch.count)) {
            return false;
        }
        launch_stacked_transposes<S, false>(make_args(l, 1), l.batch.count, l.stream, false);
        return true;
    }
}

/// mirror_rows_listed_kernel over the `planes` planes `entries` lists.
template <int S>
void launch_listed_mirror_rows(const ConstImageView& src, const ImageView& dst, int planes, const BatchEntries& entries, cudaStream_t stream,
                               bool overlap) {
    if constexpr (tuning::mirror_rows_width(S)) {
        const MirrorRowsArgs args = mirror_rows_args(src, dst, planes);
        launch_overlapping(mirror_rows_listed_kernel<S>, dim3(mirror_rows_blocks(args)), dim3(mirror_rows_threads), 0, stream, overlap, args, entries);
    }
}

}  // namespace gpurotate::detail
