#pragma once
// Capping how many blocks of a kernel an SM runs at once. Fewer warps in flight serve DRAM better for
// some kernels (bench/RESULTS.md, 2026-11-22): the cap is unused dynamic shared memory, enough that no
// more blocks fit.

#include "check.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace gpurotate::detail {

/// Dynamic shared memory (unused) that leaves room for at most `blocks` blocks of `Kernel` on an SM. The
/// first call on a device lets the kernel take all the shared memory a block may opt into, since the
/// attribute belongs to the kernel, whatever cap a later launch asks for.
template <auto Kernel>
std::size_t shared_bytes_for_blocks_per_sm(int blocks) {
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    static std::mutex mutex;
    static std::map<std::pair<int, int>, std::size_t> known;  // (device, blocks) -> bytes; (device, 0): attribute set
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = known.find({device, blocks}); it != known.end()) return it->second;
    int per_sm = 0, reserved = 0, optin = 0;
    GPUROTATE_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    GPUROTATE_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
    GPUROTATE_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    cudaFuncAttributes attributes{};
    GPUROTATE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, Kernel));
    const int most = std::max(0, optin - static_cast<int>(attributes.sharedSizeBytes));
    if (known.emplace(std::pair{device, 0}, 0).second) {
        GPUROTATE_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
    }
    // A block's share a little above per_sm / (blocks + 1), so that allocation granularity cannot let one more in.
    const int share = per_sm * 2 / (2 * blocks + 1);
    const int dynamic = std::clamp(share - reserved - static_cast<int>(attributes.sharedSizeBytes), 0, most);
    known.emplace(std::pair{device, blocks}, static_cast<std::size_t>(dynamic));
    return static_cast<std::size_t>(dynamic);
}

/// `Kernel(args...)` on `grid` blocks of `threads`, at most `blocks_per_sm` blocks of it per SM (0: as many as fit).
template <auto Kernel, class... Args>
void launch_capped(dim3 grid, unsigned threads, cudaStream_t stream, int blocks_per_sm, const Args&... args) {
    const std::size_t shared = blocks_per_sm > 0 ? shared_bytes_for_blocks_per_sm<Kernel>(blocks_per_sm) : 0;
    Kernel<<<grid, threads, shared, stream>>>(args...);
}

}  // namespace gpurotate::detail
