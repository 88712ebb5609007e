#pragma once
// Which source columns of one source row a tile of rotated output can read: the staging of the CUDA kernel
// (cuda/kernels/rotate.cuh) copies only those of each row of a tile's footprint. At 45 degrees the footprint's
// bounding box is twice the tile's area, and the taps cover about half of each of its rows. Host and device
// code, so that a CPU test can hold it against every tap of a tile.

#include "core/rotation_sampling.hpp"

#include <cmath>
#include <cstdint>

namespace gpurotate::detail {

/// A tile's samples' parallelogram in source pixels: the first row's first sample (ax, ay), and the steps to the
/// first row's last sample (ux, uy) and to the last row's first (vx, vy). Both coordinate tables are rounded
/// linear functions, so every sample of the tile lies in it (to their rounding, 1/2048 of a pixel).
struct TileParallelogram {
    float ax, ay, ux, uy, vx, vy;
};

/// The parallelogram of the tile whose first and last rows' origins are o0 and o1 and whose first and last
/// columns' steps are c0 and c1 (rotation_row_origin, rotation_column_step; fixed point).
GPUROTATE_HOST_DEVICE inline TileParallelogram tile_parallelogram(std::int32_t o0x, std::int32_t o0y, std::int32_t o1x, std::int32_t o1y,
                                                                  std::int32_t c0x, std::int32_t c0y, std::int32_t c1x, std::int32_t c1y) {
    constexpr float pixel = 1.0f / rotation_ab_scale;
    // In 64 bits: the bounds compute this for every tile, wild ones (whose sums would wrap) included.
    const auto f = [](std::int64_t a, std::int64_t b) { return static_cast<float>(a + b) * pixel; };
    return {f(o0x, c0x), f(o0y, c0y), f(c1x, -std::int64_t{c0x}), f(c1y, -std::int64_t{c0y}), f(o1x, -std::int64_t{o0x}), f(o1y, -std::int64_t{o0y})};
}

/// Columns first to last (inclusive) of source row `y` that the tile's taps can read under `interpolation`;
/// first > last where none. A sample at (sx, sy) reads columns floor(sx) - lead to floor(sx) - lead + taps - 1
/// of as many rows from floor(sy) - lead: all within `reach` = taps / 2 + 1 pixels of it on each axis (nearest 1,
/// bilinear 2, bicubic 3: a pixel more than the taps need, for the floats' rounding). So row y holds taps only
/// of the samples in the band y - reach to y + reach, between the leftmost and the rightmost of them, less and
/// plus reach. A convex shape's extremes in a band lie at its corners inside the band or where its edges cross
/// the band's two lines. Columns are clamped to -1 and 65536 (no side reaches 32767).
struct ColumnRange {
    int first, last;
};
GPUROTATE_HOST_DEVICE inline ColumnRange rotation_row_columns(const TileParallelogram& p, int y, Interpolation interpolation) {
    const float reach = static_cast<float>(rotation_side_taps(interpolation) / 2 + 1);
    constexpr float slack = 1e-3f;  // keeps a corner or a crossing that rounding puts just past a band's line
    const float low = static_cast<float>(y) - reach, high = static_cast<float>(y) + reach;
    float left = 1e30f, right = -1e30f;
    const float cx[4] = {p.ax, p.ax + p.ux, p.ax + p.vx, p.ax + p.ux + p.vx};
    const float cy[4] = {p.ay, p.ay + p.uy, p.ay + p.vy, p.ay + p.uy + p.vy};
    for (int k = 0; k < 4; ++k) {
        if (cy[k] >= low - slack && cy[k] <= high + slack) {
            left = fminf(left, cx[k]);
            right = fmaxf(right, cx[k]);
        }
    }
    // Edges 0-1 and 2-3 run along u, 0-2 and 1-3 along v. A horizontal one (1 / 0 is inf, 0 * inf NaN) crosses no
    // line that the comparisons accept; its corners counted above.
    const float per_uy = 1.0f / p.uy, per_vy = 1.0f / p.vy;
    const int from[4] = {0, 2, 0, 1};
    const float dx[4] = {p.ux, p.ux, p.vx, p.vx}, per_dy[4] = {per_uy, per_uy, per_vy, per_vy};
    for (int e = 0; e < 4; ++e) {
        for (int side = 0; side < 2; ++side) {
            const float t = ((side == 0 ? low : high) - cy[from[e]]) * per_dy[e];
            if (t >= -slack && t <= 1.0f + slack) {
                const float x = cx[from[e]] + fminf(fmaxf(t, 0.0f), 1.0f) * dx[e];
                left = fminf(left, x);
                right = fmaxf(right, x);
            }
        }
    }
    if (!(left <= right)) return {0, -1};
    const float first = fminf(fmaxf(floorf(left - reach), -1.0f), 65536.0f);
    const float last = fminf(fmaxf(ceilf(right + reach), -1.0f), 65536.0f);
    return {static_cast<int>(first), static_cast<int>(last)};
}

}  // namespace gpurotate::detail
