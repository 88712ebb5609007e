#pragma once
// One read, k writes, at the speed of the vectorized kernels: the augmentation kernel. A lane loads a
// block of R source rows by K source pixels as 16-byte vectors (the layout of the vectorized transpose,
// vectorized.cuh), and from those registers writes the block to every target: rows as they are (or
// reversed) for the elements that keep the axes, K output rows of R pixels for those that swap them.
// The grid walks the *source*, so each source byte is read once whatever the number of targets.
//
// The element is a template parameter of the block writer (a switch per target, uniform across the
// launch), so every mirror is a register renaming or a row address; for 1-byte pixels the mirror that
// picks rows is read at run time (row_mirror_per_target).
// Blocks that overhang the image copy pixel by pixel.
// 3-, 6- and 12-byte pixels make block rows of 24 or 48 bytes, whose direct stores fill half sectors per
// instruction; a warp whose blocks are all inside stages them through shared memory (WarpStaging, as the
// single-element kernels do) and stores the warp's output row segments as consecutive 16-byte vectors.
// Alignment (checked by the launcher): 16-byte aligned pointers and pitches; a source width that is a
// multiple of K when a target mirrors x without swapping, a height that is a multiple of R when a target
// swaps and mirrors y (the block's output rows then start on whole stores). Staged stores need whole
// vectors: where a mirrored edge's bytes are not (a 1080-row RGB8 image), that target stores directly.

#include "kernels/multi_output.cuh"
#include "kernels/vectorized.cuh"

namespace gpurotate::detail {

/// How write_block knows the mirror that picks output rows (y for the elements that keep the axes, x for
/// those that swap them): fixed at compile time, or read from the target at run time.
enum class RowMirror { no, yes, per_target };

/// Where the fused kernel reads the row mirror at run time: for 1-byte pixels, whose blocks (16 x 16) make
/// the largest bodies. Then the seven targets of an augmentation run four bodies, not seven, and a thread
/// needs 96 registers, not 168: u8c1 at 8192x8192 took 0.191 ms against 0.207 (0.55 of seven launches
/// against 0.60). 2- and 4-byte pixels lost 3-4% the same way (u8c4 0.875 against 0.846 ms), so they keep
/// one body per element (H100, bench/RESULTS.md, 2026-11-24). 3-byte pixels, staged, as well: with
/// seven bodies a thread needed 255 registers and spilled; with four, 178. 6- and 12-byte pixels keep seven
/// (238 and 244 registers against 168): with four, u16c3 was 0.3-3% slower, f32c3 level (2026-11-25).
template <int S>
inline constexpr bool row_mirror_per_target = S == 1 || S == 3;

/// Whether the fused kernel stages a warp's stores through shared memory: pixels of 3, 6 and 12 bytes.
template <int S>
inline constexpr bool fused_staged = S % 3 == 0;

/// The fused kernel's warp staging: for the elements that keep the axes, one slot per source row a warp
/// covers (its lanes_x lanes are the parts); for those that swap them, one slot per output row (a lane_x),
/// whose parts are the warp's lanes_y_per_warp lanes.
template <int S>
struct FusedStaging {
    using Tile = VectorizedTransposeTile<S>;
    static constexpr int row_words = VectorBlock<S>::K * S / 4, out_words = VectorBlock<S>::R * S / 4;
    using KeepAxes = WarpStaging<Tile::lanes_y_per_warp, Tile::lanes_x, row_words>;
    using SwapAxes = WarpStaging<Tile::lanes_x, Tile::lanes_y_per_warp, out_words>;
    static constexpr int words = fused_staged<S> ? (KeepAxes::buffer_words > SwapAxes::buffer_words ? KeepAxes::buffer_words
                                                                                                     : SwapAxes::buffer_words)
                                                 : 1;
};

/// Where a lane's block sits, and the warp's staging buffer (null: each lane stores its block itself).
struct BlockPlace {
    int sx, sy;         ///< the block's first source column and row
    int lane, lane_x;   ///< the lane in the warp, and its column of lanes
    int lane_y_in_warp; ///< its row of lanes inside the warp
    std::uint32_t* staging;
};

/// Writes the block to one target. `GatherMirror` is the mirror that reorders the pixels within an output
/// row (x for the elements that keep the axes, y for those that swap them): a register renaming, so it is
/// compiled in; the other one picks output rows, an address.
template <int S, bool Swap, bool GatherMirror, RowMirror Rows, int N>
__device__ __forceinline__ void write_block(const MultiTarget& t, const std::uint32_t (&rows)[N], const BlockPlace& p, int W, int H) {
    using B = VectorBlock<S>;
    using Tile = VectorizedTransposeTile<S>;
    constexpr int K = B::K, R = B::R;
    constexpr int row_words = K * S / 4;
    const int sx = p.sx, sy = p.sy;
    const bool row_mirror = Rows == RowMirror::per_target ? (Swap ? t.map.mirror_x : t.map.mirror_y) : Rows == RowMirror::yes;
    const bool mirror_x = Swap ? row_mirror : GatherMirror, mirror_y = Swap ? GatherMirror : row_mirror;
    // The warp's first block, whose segment starts the warp's output row segments (or ends them, mirrored).
    const int sx_warp = sx - p.lane_x * K, sy_warp = sy - p.lane_y_in_warp * R;
    if constexpr (!Swap) {
        const int ox = mirror_x ? W - sx - K : sx;
        const int ox_warp = mirror_x ? W - sx_warp - Tile::lanes_x * K : sx_warp;
        // A mirrored x's segments start on vectors too: the launcher's W % K == 0 makes W * S a multiple of
        // K * S = 48 bytes.
        const bool staged = fused_staged<S> && p.staging != nullptr;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int oy = mirror_y ? H - 1 - (sy + r) : sy + r;
            std::uint32_t out[row_words];
#pragma unroll
            for (int j = 0; j < row_words; ++j) {
                int src[4];
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int b = 4 * j + q;  // output byte b is byte b % S of pixel b / S, mirrored from K - 1 - b / S
                    src[q] = r * row_words * 4 + (GatherMirror ? K - 1 - b / S : b / S) * S + b % S;
                }
                out[j] = gather_word(rows, src[0], src[1], src[2], src[3]);
            }
            if constexpr (fused_staged<S>) {
                if (staged) {
                    const typename FusedStaging<S>::KeepAxes staging{p.staging};
                    staging.put(p.lane_y_in_warp, mirror_x ? Tile::lanes_x - 1 - p.lane_x : p.lane_x, out);
                    staging.store(p.lane, [&](int slot) {
                        const int y = sy_warp + slot * R + r;
                        return t.dst + static_cast<std::size_t>(mirror_y ? H - 1 - y : y) * t.pitch + static_cast<std::size_t>(ox_warp) * S;
                    });
                    continue;
                }
            }
            store_words<K * S>(t.dst + static_cast<std::size_t>(oy) * t.pitch + static_cast<std::size_t>(ox) * S, out);
        }
    } else {
        constexpr int out_words = R * S / 4;
        const int oy0 = mirror_x ? W - sx - K : sx;
        const int ox = mirror_y ? H - sy - R : sy;
        const int ox_warp = mirror_y ? H - sy_warp - Tile::lanes_y_per_warp * R : sy_warp;
        // Staged segments start on a vector when the warp's first output column does: with a mirrored y,
        // only where the image's height in bytes is whole vectors.
        const bool staged = fused_staged<S> && p.staging != nullptr && (!mirror_y || H * S % 16 == 0);
#pragma unroll
        for (int i = 0; i < K; ++i) {
            // Source pixel column i of the block goes to output row oy0 + i, or oy0 + K - 1 - i mirrored.
            const int oy = oy0 + (mirror_x ? K - 1 - i : i);
            std::uint32_t out[out_words];
#pragma unroll
            for (int j = 0; j < out_words; ++j) {
                int src[4];
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int b = 4 * j + q;  // output byte b: byte b % S of source row (b / S, reversed by the y mirror), pixel i
                    const int row = GatherMirror ? R - 1 - b / S : b / S;
                    src[q] = row * row_words * 4 + i * S + b % S;
                }
                out[j] = gather_word(rows, src[0], src[1], src[2], src[3]);
            }
            if constexpr (fused_staged<S>) {
                if (staged) {
                    const typename FusedStaging<S>::SwapAxes staging{p.staging};
                    staging.put(p.lane_x, mirror_y ? Tile::lanes_y_per_warp - 1 - p.lane_y_in_warp : p.lane_y_in_warp, out);
                    staging.store(p.lane, [&](int slot) {
                        const int x = sx_warp + slot * K;  // the slot's block's first source column
                        const int y = mirror_x ? W - x - 1 - i : x + i;
                        return t.dst + static_cast<std::size_t>(y) * t.pitch + static_cast<std::size_t>(ox_warp) * S;
                    });
                    continue;
                }
            }
            store_words<R * S>(t.dst + static_cast<std::size_t>(oy) * t.pitch + static_cast<std::size_t>(ox) * S, out);
        }
    }
}

/// The block at (sx, sy) that overhangs the image: pixel by pixel, every target.
template <int S>
__device__ __forceinline__ void copy_block_per_pixel(const MultiOutputArgs& a, int sx, int sy, int K, int R) {
    const int W = static_cast<int>(a.src_extent.width), H = static_cast<int>(a.src_extent.height);
#pragma unroll 1
    for (int y = sy; y < min(sy + R, H); ++y) {
#pragma unroll 1
        for (int x = sx; x < min(sx + K, W); ++x) {
            const std::byte* s = a.src + static_cast<std::size_t>(y) * a.src_pitch + static_cast<std::size_t>(x) * S;
#pragma unroll 1
            for (int j = 0; j < a.count; ++j) {
                const MultiTarget& t = a.targets[j];
                const int u = t.map.mirror_x ? W - 1 - x : x;
                const int v = t.map.mirror_y ? H - 1 - y : y;
                const int ox = t.map.swap_axes ? v : u, oy = t.map.swap_axes ? u : v;
                std::byte* d = t.dst + static_cast<std::size_t>(oy) * t.pitch + static_cast<std::size_t>(ox) * S;
#pragma unroll 1
                for (int b = 0; b < S; ++b) d[b] = s[b];
            }
        }
    }
}

template <int S>
__global__ void __launch_bounds__(vectorized_threads) multi_output_vectorized_kernel(const MultiOutputArgs a) {
    using B = VectorBlock<S>;
    using Tile = VectorizedTransposeTile<S>;
    constexpr int K = B::K, R = B::R;
    constexpr int row_words = K * S / 4;
    constexpr int tile_rows = Tile::lanes_y * R * Tile::blocks_per_lane;  // source rows per tile
    const int lane_x = static_cast<int>(threadIdx.x) % Tile::lanes_x;
    const int lane_y = static_cast<int>(threadIdx.x) / Tile::lanes_x;
    const int W = static_cast<int>(a.src_extent.width), H = static_cast<int>(a.src_extent.height);
    const int sx = static_cast<int>(blockIdx.x) * Tile::lanes_x * K + lane_x * K;
    __shared__ std::uint32_t staging[vectorized_warps][FusedStaging<S>::words];
    const int lane = static_cast<int>(threadIdx.x) % 32;
    for (int tile_row = static_cast<int>(blockIdx.y); tile_row < a.tiles_y; tile_row += static_cast<int>(gridDim.y)) {
#pragma unroll
        for (int blk = 0; blk < Tile::blocks_per_lane; ++blk) {
            const int sy = tile_row * tile_rows + (blk * Tile::lanes_y + lane_y) * R;
            const bool inside = sx + K <= W && sy + R <= H;
            // Staged only by a warp whose blocks are all inside: the staging stores are the whole warp's.
            const bool warp_inside = fused_staged<S> && __all_sync(0xffffffffu, inside);
            if (sx >= W || sy >= H) continue;
            if (!inside) {
                copy_block_per_pixel<S>(a, sx, sy, K, R);
                continue;
            }
            const BlockPlace place{sx, sy, lane, lane_x, lane_y % Tile::lanes_y_per_warp,
                                   warp_inside ? staging[threadIdx.x / 32] : nullptr};
            std::uint32_t rows[R * row_words];
#pragma unroll
            for (int r = 0; r < R; ++r) {
                load_words<K * S, true>(a.src + static_cast<std::size_t>(sy + r) * a.src_pitch + static_cast<std::size_t>(sx) * S,
                                        rows + r * row_words);
            }
#pragma unroll 1
            for (int j = 0; j < a.count; ++j) {
                const MultiTarget& t = a.targets[j];
                if constexpr (row_mirror_per_target<S>) {
                    constexpr RowMirror per_target = RowMirror::per_target;
                    switch (static_cast<int>(t.map.swap_axes) << 1 | static_cast<int>(t.map.swap_axes ? t.map.mirror_y : t.map.mirror_x)) {
                        case 0: write_block<S, false, false, per_target>(t, rows, place, W, H); break;
                        case 1: write_block<S, false, true, per_target>(t, rows, place, W, H); break;
                        case 2: write_block<S, true, false, per_target>(t, rows, place, W, H); break;
                        default: write_block<S, true, true, per_target>(t, rows, place, W, H); break;
                    }
                } else {
                    constexpr RowMirror no = RowMirror::no, yes = RowMirror::yes;
                    switch (static_cast<int>(t.map.swap_axes) << 2 | static_cast<int>(t.map.mirror_x) << 1 | static_cast<int>(t.map.mirror_y)) {
                        case 0: write_block<S, false, false, no>(t, rows, place, W, H); break;
                        case 1: write_block<S, false, false, yes>(t, rows, place, W, H); break;
                        case 2: write_block<S, false, true, no>(t, rows, place, W, H); break;
                        case 3: write_block<S, false, true, yes>(t, rows, place, W, H); break;
                        case 4: write_block<S, true, false, no>(t, rows, place, W, H); break;
                        case 5: write_block<S, true, true, no>(t, rows, place, W, H); break;
                        case 6: write_block<S, true, false, yes>(t, rows, place, W, H); break;
                        default: write_block<S, true, true, yes>(t, rows, place, W, H); break;
                    }
                }
            }
        }
    }
}

}  // namespace gpurotate::detail
