#pragma once
// The vectorized kernels' launchers: grid, blocks-per-SM cap (the launch's, from tuning::select_element), and
// the choice between aligned and shifted mirrored columns. Included by the generated per-width translation units
// (cuda/instantiate/) and by the bench's tuning study, which launches the other layouts through
// launch_transpose_layout's template parameters.

#include "blocks_per_sm_cap.cuh"
#include "check.cuh"
#include "device_query.cuh"
#include "kernels/vectorized.cuh"
#include "launch.cuh"

#include <algorithm>

namespace gpurotate::detail {

/// Whether pixels of S bytes can leave mirrored source columns off a vector (not 16-byte pixels).
template <int S, bool MirrorX>
inline constexpr bool may_shift_columns = MirrorX && S % vector_bytes != 0;

/// Whether the launch's mirrored source columns must be loaded shifted (their rows are not whole vectors).
template <int S, bool MirrorX>
bool shifted_columns(const Launch& l) {
    return may_shift_columns<S, MirrorX> && loads_shifted_columns(MirrorX, l.src.width, S);
}

/// The vectorized transpose in one layout (the tuned one by default; the bench's study names others through these
/// template parameters), at most l.blocks_per_sm blocks an SM, each block walking its tile rows `passes` times.
template <int S, bool MirrorX, bool MirrorY, int LanesX, int BlocksScale = 1, bool L2Prefetch = true, bool Unrolled = false,
          bool SplitRows = false, ColumnShift Shift = ColumnShift::per_image, class Passes = OnePass>
void launch_transpose_layout(const Launch& l, Passes passes = {}) {
    using Tile = VectorizedTransposeTile<S, LanesX, BlocksScale, SplitRows>;
    const TransformArgs a = make_args(l, Tile::tile_h);
    constexpr auto kernel = transpose_vectorized_kernel<S, MirrorX, MirrorY, LanesX, BlocksScale, L2Prefetch, Unrolled, SplitRows, Shift, Passes>;
    launch_capped<kernel>(grid_for(a, Tile::tile_w, l), vectorized_threads, l.stream, l.blocks_per_sm, a, passes);
}

/// The tuned layout, one kernel body each for aligned and for shifted mirrored columns.
template <int S, bool MirrorX, bool MirrorY>
struct LaunchTunedTranspose {
    static void run(const Launch& l) {
        if (shifted_columns<S, MirrorX>(l)) {
            if constexpr (may_shift_columns<S, MirrorX>) {
                launch_transpose_layout<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, false, ColumnShift::shifted>(l);
            }
        } else {
            launch_transpose_layout<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, false, ColumnShift::aligned>(l);
        }
    }
};

/// The vectorized mirror with mirrored columns `Shift`, at most l.blocks_per_sm blocks an SM, `passes` walks.
template <int S, bool MirrorX, bool MirrorY, ColumnShift Shift, class Passes = OnePass>
void launch_mirror_layout(const Launch& l, Passes passes = {}) {
    using Tile = VectorizedMirrorTile<S>;
    const TransformArgs a = make_args(l, Tile::tile_h);
    constexpr auto kernel = mirror_vectorized_kernel<S, MirrorX, MirrorY, Shift, Passes>;
    launch_capped<kernel>(grid_for(a, Tile::tile_w, l), vectorized_threads, l.stream, l.blocks_per_sm, a, passes);
}

template <int S, bool MirrorX, bool MirrorY>
struct LaunchVectorizedMirror {
    static void run(const Launch& l) {
        if (shifted_columns<S, MirrorX>(l)) {
            if constexpr (may_shift_columns<S, MirrorX>) launch_mirror_layout<S, MirrorX, MirrorY, ColumnShift::shifted>(l);
        } else {
            launch_mirror_layout<S, MirrorX, MirrorY, ColumnShift::aligned>(l);
        }
    }
};

template <int S>
void launch_vectorized_transpose(const Launch& l) {
    launch_mirrored<LaunchTunedTranspose, S>(l);
}

template <int S>
void launch_vectorized_mirror(const Launch& l) {
    launch_mirrored<LaunchVectorizedMirror, S>(l);
}

}  // namespace gpurotate::detail
