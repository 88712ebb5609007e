// Probe: the ceiling of issue 23's fused multi-output target. A kernel that reads an image once and writes
// it to K outputs (16-byte vectors, grid-stride, no transposition: the best a fused kernel can do with
// K outputs) against K launches of the same kernel writing one output, and K cudaMemcpyAsync, one run, for
// the byte sizes of 8192x8192 images of 1-12-byte pixels. Not part of the build:
//   nvcc -std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -o fanout bench/probes/fanout_copy_probe.cu && ./fanout
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

constexpr int max_outputs = 7;
struct Outputs { uint4* dst[max_outputs]; };

template <int K>
__global__ void __launch_bounds__(256) fanout_kernel(const uint4* __restrict__ src, Outputs out, size_t vectors) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < vectors; i += stride) {
        const uint4 v = __ldcs(src + i);
#pragma unroll
        for (int k = 0; k < K; ++k) __stcs(out.dst[k] + i, v);
    }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, %d SMs\n", prop.name, sms);
    const int pixel_bytes[] = {1, 2, 3, 4, 6, 8, 12, 16};
    const size_t side = 8192;
    uint4* flush = nullptr;
    const size_t flush_bytes = 256u << 20;
    CK(cudaMalloc(&flush, flush_bytes));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::printf("%-6s %10s %12s %12s %12s %10s %10s\n", "bytes", "MB", "fused7 ms", "7x kernel ms", "7x memcpy ms", "/kernels", "/memcpy");
    for (int s : pixel_bytes) {
        const size_t bytes = side * side * s;
        const size_t vectors = bytes / 16;
        uint4* src = nullptr;
        CK(cudaMalloc(&src, bytes));
        CK(cudaMemset(src, 1, bytes));
        Outputs out{};
        for (auto& d : out.dst) CK(cudaMalloc(&d, bytes));
        const int blocks = sms * 8;
        auto time = [&](auto body) {
            std::vector<float> t;
            for (int r = 0; r < 12; ++r) {
                CK(cudaMemsetAsync(flush, r, flush_bytes));
                CK(cudaEventRecord(a));
                body();
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, a, b));
                if (r >= 2) t.push_back(ms);
            }
            return median(t);
        };
        const float fused = time([&] { fanout_kernel<7><<<blocks, 256>>>(src, out, vectors); });
        const float kernels = time([&] {
            for (int k = 0; k < 7; ++k) {
                Outputs one{};
                one.dst[0] = out.dst[k];
                fanout_kernel<1><<<blocks, 256>>>(src, one, vectors);
            }
        });
        const float copies = time([&] {
            for (int k = 0; k < 7; ++k) CK(cudaMemcpyAsync(out.dst[k], src, bytes, cudaMemcpyDeviceToDevice));
        });
        CK(cudaGetLastError());
        std::printf("%-6d %10.0f %12.3f %12.3f %12.3f %10.3f %10.3f\n", s, bytes / 1e6, fused, kernels, copies, fused / kernels, fused / copies);
        CK(cudaFree(src));
        for (auto d : out.dst) CK(cudaFree(d));
    }
    return 0;
}
