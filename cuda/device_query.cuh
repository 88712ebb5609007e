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

}  // namespace gpurotate::detail
