// What the CUDA runtime reports about this machine, and page-locked host memory.

#include "check.cuh"

#include "frontend/cuda_backend.hpp"

#include <gpurotate/version.hpp>

namespace gpurotate {

bool cuda_compiled_in() { return true; }

std::vector<GpuInfo> cuda_devices(std::string* problem) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        // No driver or no device: a normal state for this program, so clear the error and report it.
        static_cast<void>(cudaGetLastError());
        if (problem) {
            // The runtime reports a missing driver as an insufficient one; say both.
            *problem = status == cudaErrorInsufficientDriver
                           ? "no NVIDIA driver, or one older than the CUDA " + cuda_runtime_version() + " runtime"
                           : cudaGetErrorString(status);
        }
        return {};
    }
    std::vector<GpuInfo> devices;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        devices.push_back({i, prop.name, static_cast<std::uint64_t>(prop.totalGlobalMem), prop.major, prop.minor});
    }
    if (devices.empty() && problem) *problem = "no CUDA-capable device is detected";
    return devices;
}

std::string cuda_runtime_version() {
    return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string((CUDART_VERSION % 1000) / 10);
}

namespace detail {

void* allocate_pinned(std::size_t bytes) noexcept {
    void* pointer = nullptr;
    if (cudaMallocHost(&pointer, bytes) != cudaSuccess) {
        static_cast<void>(cudaGetLastError());
        return nullptr;
    }
    return pointer;
}

void free_pinned(void* pointer) noexcept { GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaFreeHost(pointer)); }

void start_cuda(int device) {
    GPUROTATE_CUDA_CHECK(cudaSetDevice(device));
    GPUROTATE_CUDA_CHECK(cudaFree(nullptr));  // the runtime makes the primary context on its first real call
}

}  // namespace detail
}  // namespace gpurotate
