#pragma once
// What launchers ask of the current device.

#include "check.cuh"

namespace gpurotate::detail {

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

}  // namespace gpurotate::detail
