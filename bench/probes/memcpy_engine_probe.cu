// Probe: does a device-to-device cudaMemcpyAsync, the bench's ceiling, run as a kernel on the SMs or on a
// copy engine? Run under Nsight Compute, which profiles kernels only: if it lists the two marker kernels
// and nothing between them, the copies ran on a copy engine. Not part of the build:
//   nvcc -std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -o memcpy_engine bench/probes/memcpy_engine_probe.cu
//   ncu ./memcpy_engine
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__global__ void marker() {}

int main() {
    const size_t bytes = size_t{64} << 20;  // an 8192x8192 u8c1 image
    void *a = nullptr, *b = nullptr;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    cudaStream_t stream;
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    marker<<<1, 1, 0, stream>>>();
    CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream));  // as the bench's memcpy-d2d row
    CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, nullptr));
    CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    marker<<<1, 1, 0, stream>>>();
    CK(cudaDeviceSynchronize());
    std::printf("three 64 MiB device-to-device copies between two marker kernels: done\n");
    return 0;
}
