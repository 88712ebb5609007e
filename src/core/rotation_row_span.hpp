#pragma once
// Which source columns of one source row a tile of rotated output can read: the staging of the CUDA kernel
// (cuda/kernels/rotate.cuh) copies only those of each row of a tile's footprint. At 45 degrees the footprint's
// bounding box is twice the tile's area, and the taps cover about half of each of its rows. Host and device
// code, so that a CPU test can hold it against every tap of a tile.

#include "core/rotation_sampling.hpp"

#include <cmath>
#include <cstdint>

namespace gpurotate::detail {

/// A tile's samples' parallelogram in source pixels, from the whole pixel (x0, y0) at or before its first sample:
/// that sample at (x0 + ax, y0 + ay), and the steps to the first row's last sample (ux, uy) and to the last row's
/// first (vx, vy). Both coordinate tables are rounded linear functions, so every sample of the tile lies in it
/// (to their rounding, 1/2048 of a pixel). Relative to a whole pixel, the floats hold the fixed-point coordinates
/// exactly: absolute ones past 16384 pixels lost a fixed-point unit, which at an edge within 0.05 degrees of an
/// axis moved its crossings by pixels.
struct TileParallelogram {
    std::int32_t x0, y0;
    float ax, ay, ux, uy, vx, vy;
};

/// The parallelogram of the tile whose first and last rows' origins are o0 and o1 and whose first and last
/// columns' steps are c0 and c1 (rotation_row_origin, rotation_column_step; fixed point). In 64 bits: the bounds
/// compute it for every tile, wild ones (whose sums would wrap in 32) included.
GPUROTATE_HOST_DEVICE inline TileParallelogram tile_parallelogram(std::int32_t o0x, std::int32_t o0y, std::int32_t o1x, std::int32_t o1y,
                                                                  std::int32_t c0x, std::int32_t c0y, std::int32_t c1x, std::int32_t c1y) {
    constexpr float pixel = 1.0f / rotation_ab_scale;
    const std::int64_t first_x = std::int64_t{o0x} + c0x, first_y = std::int64_t{o0y} + c0y;
    const std::int64_t whole_x = first_x >> rotation_ab_bits, whole_y = first_y >> rotation_ab_bits;  // floor: arithmetic shift
    const auto f = [](std::int64_t v) { return static_cast<float>(v) * pixel; };
    return {static_cast<std::int32_t>(whole_x),
            static_cast<std::int32_t>(whole_y),
            f(first_x - whole_x * rotation_ab_scale),  // a product: a left shift of a negative value is undefined
            f(first_y - whole_y * rotation_ab_scale),
            f(std::int64_t{c1x} - c0x),
            f(std::int64_t{c1y} - c0y),
            f(std::int64_t{o1x} - o0x),
            f(std::int64_t{o1y} - o0y)};
}

/// Columns first to last (inclusive) of source row `y` that the tile's taps can read under `interpolation`;
/// first > last where none. A sample at (sx, sy) reads columns floor(sx) - lead to floor(sx) - lead + taps - 1
/// of as many rows from floor(sy) - lead: all within lead + 1 pixels before it and taps - 1 - lead after it
/// (nearest 1 and 0, bilinear 1 and 1, bicubic 2 and 2). `reach` is a pixel more on both sides (nearest and
/// bilinear 2, bicubic 3), for the floats' rounding. So row y holds taps only of the samples in the band y - reach
/// to y + reach, between the leftmost and the rightmost of them, less and plus reach. A convex shape's extremes
/// in a band lie at its corners inside the band or where its edges cross the band's two lines. Columns are
/// clamped to -1 and 65536 (no side reaches 32767).
struct ColumnRange {
    int first, last;
};
GPUROTATE_HOST_DEVICE inline ColumnRange rotation_row_columns(const TileParallelogram& p, int y, Interpolation interpolation) {
    const float reach = static_cast<float>((rotation_side_taps(interpolation) + 1) / 2 + 1);
    constexpr float slack = 1e-3f;  // keeps a corner or a crossing that rounding puts just past a band's line
    // From (x0, y0): a tile's rows and columns lie within a few hundred pixels of it. A wild tile's (never
    // staged) may not: its row is clamped, so that the float stays finite.
    const std::int64_t row = std::int64_t{y} - p.y0;
    const float ry = static_cast<float>(row < -(1 << 20) ? -(1 << 20) : row > (1 << 20) ? (1 << 20) : row);
    const float low = ry - reach, high = ry + reach;
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
#ifdef __CUDA_ARCH__
    const float per_uy = __frcp_rn(p.uy), per_vy = __frcp_rn(p.vy);  // 1.0f / x, correctly rounded, without the division's slow path
#else
    const float per_uy = 1.0f / p.uy, per_vy = 1.0f / p.vy;
#endif
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
    // Relative columns within +-2^20 (a float's whole numbers there are exact), then absolute, clamped.
    const auto absolute = [&](float relative) {
        const std::int64_t column = static_cast<std::int64_t>(fminf(fmaxf(relative, -1048576.0f), 1048576.0f)) + p.x0;
        return static_cast<int>(column < -1 ? -1 : column > 65536 ? 65536 : column);
    };
    return {absolute(floorf(left - reach)), absolute(ceilf(right + reach))};
}

}  // namespace gpurotate::detail
