#pragma once
// 16-byte loads with and without the 256-byte L2 fetch hint: shared by the vectorized kernels and the
// bench's copy ceilings, which must not depend on each other's headers (touching the vectorized kernels
// would rebuild the bench's study).

#include <cstddef>

namespace gpurotate::detail {

/// A 16-byte load through the read-only path that asks L2 to fetch the whole 256-byte block around it
/// from DRAM (PTX `.L2::256B`). A transpose's warp reads 128 bytes of each of several source rows, and
/// the neighbouring 128 bytes belong to the next tile row, whose blocks run at about the same time: with
/// the hint they find them in L2, and DRAM serves each row in longer bursts (+1.5 to +5 points of copy
/// bandwidth on an H100, bench/RESULTS.md). Only where the source is not written during the kernel.
/// The hint exists from sm_80 on; older GPUs get a plain read-only load.
__device__ __forceinline__ uint4 load_vector_l2_256(const void* p) {
#if __CUDA_ARCH__ >= 800
    uint4 v;
    asm("ld.global.nc.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
#else
    return __ldg(static_cast<const uint4*>(p));
#endif
}

/// A 16-byte load at `p` (16-byte aligned), with the 256-byte L2 fetch hint or plain.
template <bool L2Prefetch>
__device__ __forceinline__ uint4 load_vector(const std::byte* p) {
    return L2Prefetch ? load_vector_l2_256(p) : *reinterpret_cast<const uint4*>(p);
}

}  // namespace gpurotate::detail
