#pragma once
// The bench's tuning study of the vectorized transpose: the layouts other than the tuned one (16 and 32
// lanes per source row, plain loads, split register blocks, unrolled register blocks, twice the register
// blocks) and the tuned layout on a grid of resident blocks. They reach the kernels through
// launch_transpose_layout's template parameters and are compiled into the bench only: four groups, one
// generated translation unit each per pixel width. They are compiled for aligned mirrored columns only
// (rows of whole 16-byte vectors, as 8192x8192 has): with the shifted body too, each kernel held both,
// and the study took 10 minutes of one core to compile, twice what it takes now. The tuned layout with
// other caps of blocks per SM and the mirrors run the library's own instantiations, for every width.

#include "bench/repeated_passes.cuh"
#include "bench/variant_groups.cuh"
#include "launch_vectorized.cuh"

#include <algorithm>

namespace gpurotate::detail {

/// Rows of tiles in a grid of no more blocks than the device holds at once (each block then loops over
/// tile rows), so that no partial last wave of blocks is left running on a part of the GPU.
template <class Kernel>
unsigned resident_grid_rows(Kernel kernel, unsigned tiles_x, unsigned tiles_y) {
    int blocks_per_sm = 0;
    GPUROTATE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, vectorized_threads, 0));
    const unsigned resident = static_cast<unsigned>(std::max(1, current_device_multiprocessors() * blocks_per_sm));
    return std::clamp((resident + tiles_x - 1) / tiles_x, 1u, tiles_y);
}

/// The tuned layout (aligned mirrored columns) on a grid of resident blocks.
template <int S, bool MirrorX, bool MirrorY>
void launch_resident_transpose(const Launch& l) {
    using Tile = VectorizedTransposeTile<S>;
    const TransformArgs a = make_args(l, Tile::tile_h);
    constexpr auto kernel = transpose_vectorized_kernel<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, false, ColumnShift::aligned>;
    dim3 grid = grid_for(a, Tile::tile_w, l);
    grid.y = resident_grid_rows(kernel, grid.x * grid.z, grid.y);
    launch_capped<kernel>(grid, vectorized_threads, l.stream, l.blocks_per_sm, a, OnePass{});
}

template <VariantGroup G>
struct TransposeVariants {
    template <int S, bool MirrorX, bool MirrorY>
    struct Launcher {
        static void run(const StudyLaunch& l) {
            constexpr int lanes = vectorized_lanes_x;
            constexpr ColumnShift aligned = ColumnShift::aligned;  // the study's images have rows of whole vectors
            if constexpr (G == VariantGroup::lanes) {
                l.variant.lanes_x == 16 ? launch_transpose_layout<S, MirrorX, MirrorY, 16, 1, true, false, false, aligned>(l)
                                        : launch_transpose_layout<S, MirrorX, MirrorY, 32, 1, true, false, false, aligned>(l);
            } else if constexpr (G == VariantGroup::loads) {
                !l.variant.l2_prefetch ? launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, false, false, false, aligned>(l)
                                       : launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, true, false, true, aligned>(l);
            } else if constexpr (G == VariantGroup::blocks) {
                l.variant.unrolled ? launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, true, true, false, aligned>(l)
                                   : launch_transpose_layout<S, MirrorX, MirrorY, lanes, 2, true, false, false, aligned>(l);
            } else {
                launch_resident_transpose<S, MirrorX, MirrorY>(l);
            }
        }
    };
};

template <VariantGroup G, int S>
void launch_transpose_variant(const StudyLaunch& l) {
    launch_mirrored<TransposeVariants<G>::template Launcher, S>(l);
}

/// The tuned kernels with repeated passes (aligned mirrored columns).
template <int S, bool MirrorX, bool MirrorY>
struct RepeatedVectorized {
    static void run(const Launch& l, int passes) {
        if (l.map.swap_axes) {
            launch_transpose_layout<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, false, ColumnShift::aligned>(l, RepeatedPasses{passes});
        } else {
            launch_mirror_layout<S, MirrorX, MirrorY, ColumnShift::aligned>(l, RepeatedPasses{passes});
        }
    }
};

template <int S>
void launch_vectorized_repeated(const Launch& l, int passes) {
    if (l.map.mirror_x) {
        l.map.mirror_y ? RepeatedVectorized<S, true, true>::run(l, passes) : RepeatedVectorized<S, true, false>::run(l, passes);
    } else {
        l.map.mirror_y ? RepeatedVectorized<S, false, true>::run(l, passes) : RepeatedVectorized<S, false, false>::run(l, passes);
    }
}

}  // namespace gpurotate::detail
