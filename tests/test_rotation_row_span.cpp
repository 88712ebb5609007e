// The rows of a tile's footprint that the CUDA kernel stages (core/rotation_row_span.hpp): every tap of every
// sample of the tile, enumerated one by one as the kernel's tables give them, lies in its row's columns; and at
// 45 degrees those columns are much less than the bounding box the footprint had.

#include "core/rotation_row_span.hpp"
#include "core/rotation_sampling.hpp"
#include "core/rotation_tables.hpp"

#include <gpurotate/rotate.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

using gpurotate::Extent;
using gpurotate::Interpolation;
using gpurotate::RotateOptions;
using gpurotate::SampleType;
namespace detail = gpurotate::detail;

namespace {

struct TileCheck {
    long long taps = 0;        // taps enumerated
    long long missed = 0;      // taps outside their row's columns
    long long span_cells = 0;  // the rows' columns, summed over the rows the taps reach
    long long box_cells = 0;   // the taps' bounding box
};

template <Interpolation Interp>
void check_tile(const detail::RotationPlan& plan, int tile_x, int tile_y, int side, int extra, TileCheck& out) {
    constexpr int taps = detail::rotation_side_taps(Interp);
    const int h = std::min(side, plan.dst_height - tile_y);
    const int first_x = std::max(tile_x - extra, 0), last_x = std::min(tile_x + side, plan.dst_width) - 1;
    std::int32_t o0x, o0y, o1x, o1y, c0x, c0y, c1x, c1y;
    detail::rotation_row_origin(plan, tile_y, o0x, o0y);
    detail::rotation_row_origin(plan, tile_y + h - 1, o1x, o1y);
    detail::rotation_column_step(plan, first_x, c0x, c0y);
    detail::rotation_column_step(plan, last_x, c1x, c1y);
    const detail::TileParallelogram p = detail::tile_parallelogram(o0x, o0y, o1x, o1y, c0x, c0y, c1x, c1y);
    // Each source row's tapped columns in the image, from every sample as the kernel computes it (row origin plus
    // column step).
    std::map<int, std::pair<int, int>> tapped;
    for (int y = tile_y; y < tile_y + h; ++y) {
        std::int32_t ox, oy;
        detail::rotation_row_origin(plan, y, ox, oy);
        for (int x = first_x; x <= last_x; ++x) {
            std::int32_t cx, cy;
            detail::rotation_column_step(plan, x, cx, cy);
            const detail::RotationTap tap = detail::rotation_tap<Interp>(ox + cx, oy + cy);
            // Only taps in the image come from the footprint (the others are the background).
            const int left = std::max(tap.x, 0), right = std::min(tap.x + taps - 1, plan.src_width - 1);
            for (int r = 0; r < taps; ++r) {
                if (tap.y + r < 0 || tap.y + r >= plan.src_height || left > right) continue;
                auto [it, fresh] = tapped.try_emplace(tap.y + r, left, right);
                if (!fresh) it->second = {std::min(it->second.first, left), std::max(it->second.second, right)};
                out.taps += right - left + 1;
            }
        }
    }
    int box_left = 1 << 30, box_right = -(1 << 30);
    for (const auto& [row, columns] : tapped) {
        const detail::ColumnRange range = detail::rotation_row_columns(p, row, Interp);
        if (columns.first < range.first || columns.second > range.last) {
            ++out.missed;
            MESSAGE("tile (" << tile_x << ", " << tile_y << ") side " << side << " row " << row << ": taps " << columns.first << " to "
                             << columns.second << ", staged " << range.first << " to " << range.last);
        }
        out.span_cells += range.last - range.first + 1;
        box_left = std::min(box_left, columns.first);
        box_right = std::max(box_right, columns.second);
    }
    out.box_cells += static_cast<long long>(tapped.size()) * (box_right - box_left + 1);
}

// Every tile of the plan, or those of tile rows `first_tile_row` on.
TileCheck check_plan(int width, int height, double degrees, Interpolation interpolation, int side, int extra, int first_tile_row = 0) {
    RotateOptions options;
    options.degrees = degrees;
    options.interpolation = interpolation;
    const Extent out = gpurotate::rotated_extent({width, height}, options);
    const detail::RotationPlan plan = detail::make_rotation_plan({width, height}, out, SampleType::u8, options);
    TileCheck check;
    for (int ty = first_tile_row * side; ty < out.height; ty += side) {
        for (int tx = 0; tx < out.width + extra; tx += side) {
            switch (interpolation) {
                case Interpolation::nearest: check_tile<Interpolation::nearest>(plan, tx, ty, side, extra, check); break;
                case Interpolation::bilinear: check_tile<Interpolation::bilinear>(plan, tx, ty, side, extra, check); break;
                case Interpolation::bicubic: check_tile<Interpolation::bicubic>(plan, tx, ty, side, extra, check); break;
            }
        }
    }
    return check;
}

}  // namespace

TEST_CASE("every tap of a rotated tile lies in the columns its footprint row stages") {
    for (const Interpolation interpolation : {Interpolation::nearest, Interpolation::bilinear, Interpolation::bicubic}) {
        for (const double degrees : {0.5, 7.5, 30.0, 45.0, 89.9, 135.0, -60.0, 1000.0, 180.2, 269.99, 0.01, 90.007, -0.003}) {
            // The kernels' tiles: 64 pixels a side up to 4 bytes, 32 above; a shifted tile reaches run - 1 columns
            // further left (1 byte 15, 2 bytes 7, 4 bytes 3; 6 bytes 7, 12 bytes 3, 8 bytes 1).
            for (const std::pair<int, int>& tile : {std::pair{64, 0}, std::pair{64, 15}, std::pair{64, 7}, std::pair{64, 3}, std::pair{32, 0},
                                                    std::pair{32, 7}, std::pair{32, 3}, std::pair{32, 1}}) {
                const int side = tile.first, extra = tile.second;  // not a structured binding: CAPTURE's lambda takes them
                CAPTURE(static_cast<int>(interpolation));
                CAPTURE(degrees);
                CAPTURE(side);
                CAPTURE(extra);
                const TileCheck check = check_plan(203, 117, degrees, interpolation, side, extra);
                CHECK(check.taps > 0);
                CHECK(check.missed == 0);
            }
        }
    }
}

TEST_CASE("at 45 degrees a tile's row columns hold well under the bounding box of its taps") {
    // The box is twice the tile's area at 45 degrees; the rows' columns are the tile's area plus their margins.
    const TileCheck check = check_plan(1024, 1024, 45.0, Interpolation::bilinear, 64, 0);
    CHECK(check.missed == 0);
    REQUIRE(check.box_cells > 0);
    const double share = static_cast<double>(check.span_cells) / static_cast<double>(check.box_cells);
    MESSAGE("rows' columns / bounding box at 45 degrees: " << share);
    CHECK(share < 0.7);
}

TEST_CASE("the rows' columns hold every tap of a tile far from the origin at an angle near an axis") {
    // Sides near OpenCV's 32767 put the coordinates past 2^24 fixed-point units, where a float of the absolute
    // coordinate loses one; an edge within 0.05 degrees of an axis then moved its crossings by pixels (nearest,
    // 0.01 and 0.007 degrees: tiles of the bottom row read words that were not staged).
    for (const Interpolation interpolation : {Interpolation::nearest, Interpolation::bilinear}) {
        for (const double degrees : {0.01, 0.007, 89.993, -0.01}) {
            for (const std::pair<int, int>& tile : {std::pair{64, 3}, std::pair{32, 7}}) {
                CAPTURE(static_cast<int>(interpolation));
                CAPTURE(degrees);
                const int side = tile.first, extra = tile.second;
                CAPTURE(side);
                RotateOptions options;
                options.degrees = degrees;
                const Extent out = gpurotate::rotated_extent({32766, 32766}, options);
                const TileCheck check = check_plan(32766, 32766, degrees, interpolation, side, extra, static_cast<int>((out.height - 1) / side));
                CHECK(check.taps > 0);
                CHECK(check.missed == 0);
            }
        }
    }
}
