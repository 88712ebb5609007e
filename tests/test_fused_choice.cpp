// The fused multi-output rule (cuda/tuning/tuning_transform.hpp, select_fused) at sizes that are not rows of
// measured_fused.hpp, against what issue 51 measured there; the measured rows themselves are its static_assert's.

#include "tuning/tuning_transform.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>

using gpurotate::detail::tuning::FusedKernel;
using gpurotate::detail::tuning::select_fused;
using gpurotate::detail::tuning::swapped_rows_end_in_sector;

TEST_CASE("fused choice at 4096x4096 is the vectorized kernel issue 51 measured fastest") {
    // H200, all 7 elements: the vectorized fused kernel took 0.645 (u16c1), 0.647 (u8c2) and 0.674 (u16c3) of the
    // time of 7 launches; the old choice 0.999, 0.993 and 0.754.
    CHECK(select_fused(2, 4096, 4096, true, false) == FusedKernel::vectorized);
    CHECK(select_fused(6, 4096, 4096, true, false) == FusedKernel::vectorized);
}

TEST_CASE("fused choice follows the sweep where the old rule missed") {
    // H100, --fused-sweep 2026-12-06 (ms of the vectorized kernel, the tile, seven launches).
    CHECK(select_fused(2, 512, 512, true, false) == FusedKernel::tiled);        // 0.011, 0.009, 0.027
    CHECK(select_fused(3, 512, 512, true, false) == FusedKernel::tiled);        // 0.017, 0.010, 0.055
    CHECK(select_fused(4, 512, 512, true, false) == FusedKernel::vectorized);   // 0.008, 0.009, 0.024
    CHECK(select_fused(6, 512, 512, true, false) == FusedKernel::tiled);        // 0.017, 0.011, 0.035
    CHECK(select_fused(6, 1000, 1000, true, false) == FusedKernel::vectorized); // 0.029, 0.036, 0.051
    CHECK(select_fused(6, 3000, 4000, true, false) == FusedKernel::vectorized); // 0.266, 0.315, 0.380
    CHECK(select_fused(6, 4000, 3000, true, false) == FusedKernel::tiled);      // 0.361, 0.343, 0.387 (2026-11-25)
    CHECK(select_fused(3, 3000, 4000, false, false) == FusedKernel::tiled);     // -, 0.194, 0.236
    CHECK(select_fused(4, 8191, 8193, false, false) == FusedKernel::separate);  // -, 1.446, 1.335
    CHECK(select_fused(6, 4095, 4097, false, false) == FusedKernel::separate);  // -, 0.587, 0.541
}

TEST_CASE("fused choice never takes the vectorized kernel where it does not fit") {
    for (const int bytes : {1, 2, 3, 4, 6, 8, 12, 16}) {
        for (const std::int64_t side : {1LL, 512LL, 4095LL, 16384LL}) {
            CAPTURE(bytes);
            CAPTURE(side);
            CHECK(select_fused(bytes, side, side + 2, false, swapped_rows_end_in_sector(bytes, side + 2)) != FusedKernel::vectorized);
        }
    }
}

TEST_CASE("fused choice leaves the vectorized kernel where a large image's swapped outputs' rows end inside a sector") {
    // H100, --fused-sweep 2026-12-06, twice: 12000x9000 (ms of the vectorized kernel, the tile, seven launches).
    CHECK(swapped_rows_end_in_sector(2, 9000));   // 18000-byte rows: 562.5 sectors
    CHECK(!swapped_rows_end_in_sector(4, 9000));  // 36000: 1125
    CHECK(select_fused(2, 12000, 9000, true, swapped_rows_end_in_sector(2, 9000)) == FusedKernel::separate);  // 1.292, 1.477, 1.076
    CHECK(select_fused(3, 12000, 9000, true, swapped_rows_end_in_sector(3, 9000)) == FusedKernel::separate);  // 1.802, 1.771, 1.603
    CHECK(select_fused(4, 12000, 9000, true, swapped_rows_end_in_sector(4, 9000)) == FusedKernel::vectorized);  // 1.503, 1.477, 2.091
    // The rule looks only at the axis-swapping outputs' rows (the slow rows' trait); without such an output it keeps
    // the vectorized kernel. Not measured: a 9000x12000 image's mirrors have 18000-byte rows too.
    CHECK(select_fused(2, 12000, 9000, true, false) == FusedKernel::vectorized);
    // Smaller images keep it: 4000x3000 u8c3, rows of 9000 bytes (H200: 0.152, 0.195, 0.179).
    CHECK(swapped_rows_end_in_sector(3, 3000));
    CHECK(select_fused(3, 4000, 3000, true, true) == FusedKernel::vectorized);
}

TEST_CASE("fused choice from the targets: the sector trait counts only where some target swaps the axes") {
    using gpurotate::detail::tuning::select_fused_for_targets;
    for (const int bytes : {1, 2, 3, 4, 6, 8, 12, 16}) {
        for (const std::int64_t height : {512LL, 3000LL, 4500LL, 8200LL, 9000LL}) {
            for (const bool fits : {false, true}) {
                CAPTURE(bytes);
                CAPTURE(height);
                CHECK(select_fused_for_targets(bytes, 12000, height, fits, false) == select_fused(bytes, 12000, height, fits, false));
                CHECK(select_fused_for_targets(bytes, 12000, height, fits, true) ==
                      select_fused(bytes, 12000, height, fits, height * bytes % 32 != 0));
            }
        }
    }
    CHECK(select_fused_for_targets(2, 12000, 9000, true, true) == FusedKernel::separate);
    CHECK(select_fused_for_targets(2, 12000, 9000, true, false) == FusedKernel::vectorized);
}
