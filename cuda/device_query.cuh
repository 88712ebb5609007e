#pragma once
// What launchers ask of the current device.

#include "check.cuh"

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

namespace gpurotate::detail {

/// `compute(device)` for the current device, computed once a device and kept: each call site's lambda is a type of
/// its own, so each keeps its own values.
template <class Compute>
auto once_per_device(Compute compute) {
    using Value = decltype(compute(0));
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    static std::mutex mutex;
    static std::map<int, Value> known;
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = known.find(device); it != known.end()) return it->second;
    const Value value = compute(device);
    known.emplace(device, value);
    return value;
}

/// Peak DRAM bandwidth of the current device per SM, in bytes a second: the memory clock times the bus width,
/// twice (double data rate), over the SMs; 0 where the driver does not give them. Read once a device.
inline double current_device_dram_bandwidth_per_sm() {
    return once_per_device([](int device) {
        int clock_khz = 0, bus_bits = 0, sms = 0;
        // Attributes a driver may not report: 0 then, and the caller's default stands. The failure is cleared, or
        // the next launch's cudaGetLastError would report it.
        if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess) {
            clock_khz = 0;
            static_cast<void>(cudaGetLastError());
        }
        if (cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess) {
            bus_bits = 0;
            static_cast<void>(cudaGetLastError());
        }
        GPUROTATE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return sms > 0 ? 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / sms : 0.0;
    });
}

/// Streaming multiprocessors of the current device.
inline int current_device_multiprocessors() {
    int device = 0, sms = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    GPUROTATE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
}

/// Whether the current device lets a kernel start while the one before it on the stream drains
/// (programmatic dependent launch: compute capability 9.0 and later).
inline bool current_device_overlaps_launches() {
    int device = 0, major = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    GPUROTATE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    return major >= 9;
}

/// A launcher's chain of launches over disjoint data: each after the first overlaps the one before it,
/// where the device can (the first waits for the stream's earlier work as usual).
class OverlappingLaunches {
public:
    /// Whether the next launch overlaps the one before it.
    bool next() { return std::exchange(launched_, true) && overlaps_; }

private:
    bool overlaps_ = current_device_overlaps_launches();
    bool launched_ = false;
};

/// Launches `kernel` on `grid`, overlapping the kernel before it on `stream` where `overlap` (programmatic
/// dependent launch): for a launcher's second and later launches over data disjoint from the earlier
/// ones', whose kernels trigger their dependents early and synchronise on their prerequisite at the end.
template <class... Params, class... Args>
void launch_overlapping(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared, cudaStream_t stream, bool overlap, Args&&... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    if (overlap) {
        config.attrs = &attribute;
        config.numAttrs = 1;
    }
    GPUROTATE_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace gpurotate::detail
