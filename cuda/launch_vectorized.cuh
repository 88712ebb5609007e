#pragma once
// The vectorized kernels' launchers: grid, blocks-per-SM cap, and the choice between aligned and shifted
// mirrored columns. Included by the generated per-width translation units (cuda/instantiate/) and by the
// bench's tuning study, which launches the other layouts through launch_transpose_layout.

#include "blocks_per_sm_cap.cuh"
#include "check.cuh"
#include "device_query.cuh"
#include "kernels/vectorized.cuh"
#include "launch.cuh"

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

/// Whether pixels of S bytes can leave mirrored source columns off a vector (not 16-byte pixels).
template <int S, bool MirrorX>
inline constexpr bool may_shift_columns = MirrorX && S % vector_bytes != 0;

/// Whether the launch's mirrored source columns must be loaded shifted (their rows are not whole vectors).
template <int S, bool MirrorX>
bool shifted_columns(const Launch& l) {
    return may_shift_columns<S, MirrorX> && loads_shifted_columns(MirrorX, l.src.width, S);
}

/// Whether the current device has markedly more DRAM bandwidth per SM than the H100 (SXM: 3.35 TB/s over 132 SMs,
/// 25 GB/s each) that the caps below were tuned on, as the H200 has (4.8 TB/s over the same 132 SMs, 36 GB/s):
/// keeping its memory busy takes more bytes in flight an SM, so fewer blocks in flight starve it. Its study
/// rows (bench/RESULTS.md, 2026-11-25), capped against uncapped: 2-, 6- and 12-byte transposes 72-89%
/// against 79-98% of copy on a batch of 768 planes of 224x224, u16c3 86.5 against 91.8% at 8192x8192; the
/// 3-, 6- and 12-byte mirrors 78-90% against 92-96% on the 224x224 batch and 90-91% against 96% for flip-v at
/// 8192x8192. Only the 3-byte transposes still gain from their cap there (224x224: 68.8 against 65.6%).
inline bool current_device_is_dram_rich() { return current_device_dram_bandwidth_per_sm() > 30e9; }

/// Blocks of the vectorized transpose an SM runs at once, by pixel width (0: as many as fit), on an H100-class
/// device (`dram_rich` false; see current_device_is_dram_rich). Fewer warps
/// in flight serve DRAM better for some widths: when cut lane blocks moved as words, registers fell (2-byte
/// pixels 162 to 80-86 a thread, 4-byte 98 to 50, 8-byte 71 to 32), more blocks fit, and the transposes lost
/// 1-3 points of copy at 8192x8192 (f32c1 95 to 92%, u16c4 96 to 93%). A cap is kept only where the
/// `vectorized-N-per-sm` study rows (H100, bench/RESULTS.md, 2026-11-22 and 2026-11-23) found it at least as
/// good on 8192x8192 and on batches of 1080x1920 and 800x600 alike: 3 for 2-byte pixels (+1.6 to +2.7
/// points on the batches), 2 for 3-, 6- and 12-byte (+0.8 to +5.2 on the batches; at 8192x8192 level, and
/// +2.6 for 6-byte pixels). The caps that helped 4- and 8-byte pixels at 8192x8192 (+2 to +3) cost 9 to 12
/// points on a batch of 1080x1920 (u16c4 rot90 85% against 95% uncapped), so those run uncapped. Measured again
/// on 2026-11-25 on the H100, the caps still win 0-3 points at 1920x1080 and 8192x8192, and 5 for the 3-byte
/// transposes of batches of 224x224, but lose 2-8 elsewhere on those batches (6-byte transposes 84-86% against 88%;
/// 3- and 6-byte flip-v and rot180 85-89% against 93-95%).
constexpr int tuned_blocks_per_sm(int pixel_bytes, bool dram_rich) {
    if (dram_rich) return pixel_bytes == 3 ? 2 : 0;
    switch (pixel_bytes) {
        case 2: return 3;
        case 3: case 6: case 12: return 2;
        default: return 0;
    }
}

/// Blocks of the vectorized mirror an SM runs at once, by pixel width (0: as many as fit); see
/// tuned_blocks_per_sm. Without the per-pixel cut path the mirrors' registers fell (3-, 6- and 12-byte
/// pixels 124-128 to 68-72 a thread), and their mirrors lost 1.5-5 points of copy; at 3 blocks per SM they
/// are back at 98% (H100, the `vectorized-N-per-sm` rows, bench/RESULTS.md, 2026-11-22). 8-byte pixels
/// gained a point at 5 on 8192x8192 but lost 9 on a batch of 1080x1920 (2026-11-23); 4-byte pixels
/// found no cap that helps. A DRAM-rich device runs them uncapped.
constexpr int tuned_mirror_blocks_per_sm(int pixel_bytes, bool dram_rich) {
    if (dram_rich) return 0;
    switch (pixel_bytes) {
        case 3: case 6: case 12: return 3;
        default: return 0;
    }
}

/// The vectorized transpose in one layout (the tuned one by default; the bench's study names others).
template <int S, bool MirrorX, bool MirrorY, int LanesX, int BlocksScale = 1, bool L2Prefetch = true, bool Unrolled = false,
          bool SplitRows = false, ColumnShift Shift = ColumnShift::per_image>
void launch_transpose_layout(const Launch& l) {
    using Tile = VectorizedTransposeTile<S, LanesX, BlocksScale, SplitRows>;
    const TransformArgs a = make_args(l, Tile::tile_h);
    constexpr auto kernel = transpose_vectorized_kernel<S, MirrorX, MirrorY, LanesX, BlocksScale, L2Prefetch, Unrolled, SplitRows, Shift>;
    dim3 grid = grid_for(a, Tile::tile_w, l);
    if (l.variant.resident_grid) grid.y = resident_grid_rows(kernel, grid.x * grid.z, grid.y);
    const int blocks_per_sm = l.variant.blocks_per_sm < 0 ? tuned_blocks_per_sm(S, current_device_is_dram_rich()) : l.variant.blocks_per_sm;
    launch_capped<kernel>(grid, vectorized_threads, a, l.stream, blocks_per_sm);
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

template <int S, bool MirrorX, bool MirrorY>
struct LaunchVectorizedMirror {
    static void run(const Launch& l) {
        using Tile = VectorizedMirrorTile<S>;
        const TransformArgs a = make_args(l, Tile::tile_h);
        const dim3 grid = grid_for(a, Tile::tile_w, l);
        const int blocks_per_sm = l.variant.blocks_per_sm < 0 ? tuned_mirror_blocks_per_sm(S, current_device_is_dram_rich()) : l.variant.blocks_per_sm;
        if (shifted_columns<S, MirrorX>(l)) {
            if constexpr (may_shift_columns<S, MirrorX>) {
                constexpr auto kernel = mirror_vectorized_kernel<S, MirrorX, MirrorY, ColumnShift::shifted>;
                launch_capped<kernel>(grid, vectorized_threads, a, l.stream, blocks_per_sm);
            }
        } else {
            constexpr auto kernel = mirror_vectorized_kernel<S, MirrorX, MirrorY, ColumnShift::aligned>;
            launch_capped<kernel>(grid, vectorized_threads, a, l.stream, blocks_per_sm);
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
