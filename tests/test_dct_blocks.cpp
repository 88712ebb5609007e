// The DCT-domain transform against the pixel domain: blocks of random coefficients are taken back to
// pixels by an inverse DCT before and after the transform, and the output's pixels must be the input's
// moved by the element (source_of), block grid and coefficient signs alike.

#include "jpeg/dct_blocks.hpp"

#include <gpurotate/orientation.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using gpurotate::detail::DctBlock;

// f(x, y) = sum over (u, v) of C(u) C(v) / 4 * F[v][u] cos((2x+1) u pi / 16) cos((2y+1) v pi / 16).
std::vector<double> pixels_of(const std::vector<DctBlock*>& rows, std::int64_t blocks_wide, std::int64_t blocks_high) {
    const double pi = std::acos(-1.0);
    const std::int64_t width = blocks_wide * 8;
    std::vector<double> pixels(static_cast<std::size_t>(width * blocks_high * 8));
    for (std::int64_t by = 0; by < blocks_high; ++by) {
        for (std::int64_t bx = 0; bx < blocks_wide; ++bx) {
            const std::int16_t* f = rows[static_cast<std::size_t>(by)][bx];
            for (int y = 0; y < 8; ++y) {
                for (int x = 0; x < 8; ++x) {
                    double sum = 0;
                    for (int v = 0; v < 8; ++v) {
                        for (int u = 0; u < 8; ++u) {
                            const double cu = u ? 1.0 : std::sqrt(0.5), cv = v ? 1.0 : std::sqrt(0.5);
                            sum += cu * cv / 4 * f[v * 8 + u] * std::cos((2 * x + 1) * u * pi / 16) * std::cos((2 * y + 1) * v * pi / 16);
                        }
                    }
                    pixels[static_cast<std::size_t>((by * 8 + y) * width + bx * 8 + x)] = sum;
                }
            }
        }
    }
    return pixels;
}

}  // namespace

TEST_CASE("a DCT-domain transform gives the pixels of the pixel-domain one, for every element") {
    constexpr std::int64_t blocks_wide = 3, blocks_high = 2;
    std::mt19937 random(7);
    std::uniform_int_distribution<int> coefficient(-300, 300);
    std::vector<DctBlock> source(blocks_wide * blocks_high), destination(blocks_wide * blocks_high);
    for (DctBlock& block : source) {
        for (std::int16_t& c : block) c = static_cast<std::int16_t>(coefficient(random));
    }
    std::vector<DctBlock*> source_rows;
    for (std::int64_t y = 0; y < blocks_high; ++y) source_rows.push_back(&source[static_cast<std::size_t>(y * blocks_wide)]);
    const std::vector<double> before = pixels_of(source_rows, blocks_wide, blocks_high);
    const gpurotate::Extent extent{blocks_wide * 8, blocks_high * 8};

    for (const gpurotate::Orientation element : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(element));
        const gpurotate::AxisMap map = gpurotate::axis_map(element);
        const std::int64_t out_wide = map.swap_axes ? blocks_high : blocks_wide, out_high = map.swap_axes ? blocks_wide : blocks_high;
        std::vector<DctBlock*> destination_rows;
        for (std::int64_t y = 0; y < out_high; ++y) destination_rows.push_back(&destination[static_cast<std::size_t>(y * out_wide)]);
        gpurotate::detail::transform_dct_blocks(map, source_rows.data(), blocks_wide, blocks_high, destination_rows.data(), blocks_wide, blocks_high);
        const std::vector<double> after = pixels_of(destination_rows, out_wide, out_high);
        double worst = 0;
        for (std::int64_t y = 0; y < out_high * 8; ++y) {
            for (std::int64_t x = 0; x < out_wide * 8; ++x) {
                const gpurotate::SourcePoint from = gpurotate::source_of(map, extent, x, y);
                worst = std::max(worst, std::abs(after[static_cast<std::size_t>(y * out_wide * 8 + x)] -
                                                 before[static_cast<std::size_t>(from.y * extent.width + from.x)]));
            }
        }
        CHECK(worst < 1e-6);
    }
}
