// The fused multi-output rule (cuda/tuning/tuning_transform.hpp, select_fused) at sizes that are not rows of
// measured_fused.hpp, against what issue 51 measured there; the measured rows themselves are its static_assert's.

#include "tuning/tuning_transform.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>

using gpurotate::detail::tuning::FusedKernel;
using gpurotate::detail::tuning::select_fused;

TEST_CASE("fused choice at 4096x4096 is the vectorized kernel issue 51 measured fastest") {
    // H200, all 7 elements: the vectorized fused kernel took 0.645 (u16c1), 0.647 (u8c2) and 0.674 (u16c3) of the
    // time of 7 launches; the old choice 0.999, 0.993 and 0.754.
    constexpr std::int64_t pixels = 4096LL * 4096LL;
    CHECK(select_fused(2, pixels, true) == FusedKernel::vectorized);
    CHECK(select_fused(6, pixels, true) == FusedKernel::vectorized);
}

TEST_CASE("fused choice never takes the vectorized kernel where it does not fit") {
    for (const int bytes : {1, 2, 3, 4, 6, 8, 12, 16}) {
        for (const std::int64_t pixels : {1LL, 512LL * 512LL, 4095LL * 4097LL, 16384LL * 16384LL}) {
            CAPTURE(bytes);
            CAPTURE(pixels);
            CHECK(select_fused(bytes, pixels, false) != FusedKernel::vectorized);
        }
    }
}
