// Probe: does the bulk tensor copy engine (TMA) move 8192x8192 images closer to cudaMemcpyAsync than
// the register-block kernels? A TMA copy (load box -> shared -> store box) and a TMA transpose of 4-byte
// and 1-byte elements, persistent grid, against cudaMemcpyAsync of the same bytes, one run; every output
// checked. Not part of the build (bench/RESULTS.md, 2026-11-25, has its figures and verdict):
//   nvcc -std=c++17 -O3 -gencode arch=compute_90,code=sm_90 --extended-lambda \
//        -o tma_probe bench/probes/tma_transpose_probe.cu && ./tma_probe
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

static PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

static CUtensorMap make_map(void* base, CUtensorMapDataType type, int elem_bytes, uint64_t w, uint64_t h, uint32_t bw, uint32_t bh,
                            CUtensorMapSwizzle swz = CU_TENSOR_MAP_SWIZZLE_NONE) {
    CUtensorMap m;
    cuuint64_t dims[2] = {w, h};
    cuuint64_t strides[1] = {w * elem_bytes};
    cuuint32_t box[2] = {bw, bh};
    cuuint32_t es[2] = {1, 1};
    CUresult r = encode_tiled()(&m, type, 2, base, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, swz,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { std::printf("encode failed %d\n", (int)r); std::exit(1); }
    return m;
}

__device__ __forceinline__ uint32_t smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void mbar_init(uint64_t* b, int n) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(n)); }
__device__ __forceinline__ void mbar_expect(uint64_t* b, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* b, uint32_t parity) {
    asm volatile(
        "{\n .reg .pred p;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra WAIT_%=;\n}\n" ::"r"(smem(b)),
        "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* m, int x, int y, uint64_t* b) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(dst)),
                 "l"(m), "r"(x), "r"(y), "r"(smem(b)) : "memory");
}
__device__ __forceinline__ void tma_store(const CUtensorMap* m, int x, int y, const void* src) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(x), "r"(y), "r"(smem(src)) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory"); }
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// Copy: one thread drives load -> store through Stages buffers of one box each.
template <int BoxBytes, int Stages>
__global__ void __launch_bounds__(32) tma_copy(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                                               int tiles_x, int tiles, int bw, int bh) {
    extern __shared__ __align__(1024) unsigned char buf[];
    __shared__ uint64_t bar[Stages];
    if (threadIdx.x != 0) return;
    for (int s = 0; s < Stages; ++s) mbar_init(&bar[s], 1);
    fence_async_smem();
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    int k_total = 0;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) ++k_total;
    auto tile_of = [&](int k, int& x, int& y) { int t = blockIdx.x + k * gridDim.x; x = (t % tiles_x) * bw; y = (t / tiles_x) * bh; };
    for (int k = 0; k < (Stages < k_total ? Stages : k_total); ++k) {
        int x, y; tile_of(k, x, y);
        mbar_expect(&bar[k], BoxBytes);
        tma_load(buf + k * BoxBytes, &src, x, y, &bar[k]);
    }
    for (int k = 0; k < k_total; ++k) {
        const int s = k % Stages;
        mbar_wait(&bar[s], (k / Stages) & 1);
        int x, y; tile_of(k, x, y);
        tma_store(&dst, x, y, buf + s * BoxBytes);
        bulk_commit();
        // refill the buffer whose store (k-1) has been read
        if (k >= 1 && k - 1 + Stages < k_total) {
            bulk_wait_read<1>();
            const int s1 = (k - 1) % Stages;
            int x1, y1; tile_of(k - 1 + Stages, x1, y1);
            mbar_expect(&bar[s1], BoxBytes);
            tma_load(buf + s1 * BoxBytes, &src, x1, y1, &bar[s1]);
        }
    }
    bulk_wait_all();
}

// Transpose of E-byte elements (E = 4: words; E = 1: bytes through 4x4 byte blocks), tile T x T.
// Input stages are TMA-dense [T][T]; the output buffer [T][T] too. A lane handles the diagonal
// (row (r0 + lane) % T, column lane + 32 j) so that reads and writes of 4-byte words hit 32 banks.
template <int T, int Stages, int Threads>
__global__ void __launch_bounds__(Threads) tma_transpose4(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                                                           int tiles_x, int tiles) {
    constexpr int Box = T * T * 4;
    extern __shared__ __align__(1024) unsigned char buf[];
    __shared__ uint64_t bar[Stages];
    uint32_t* in = reinterpret_cast<uint32_t*>(buf);
    uint32_t* out = reinterpret_cast<uint32_t*>(buf + Stages * Box);
    if (threadIdx.x == 0) {
        for (int s = 0; s < Stages; ++s) mbar_init(&bar[s], 1);
        fence_async_smem();
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    int k_total = 0;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) ++k_total;
    auto tile_of = [&](int k, int& x, int& y) { int t = blockIdx.x + k * gridDim.x; x = (t % tiles_x) * T; y = (t / tiles_x) * T; };
    if (threadIdx.x == 0) {
        for (int k = 0; k < (Stages < k_total ? Stages : k_total); ++k) {
            int x, y; tile_of(k, x, y);
            mbar_expect(&bar[k], Box);
            tma_load(in + k * T * T, &src, x, y, &bar[k]);
        }
    }
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    constexpr int Warps = Threads / 32;
    for (int k = 0; k < k_total; ++k) {
        const int s = k % Stages, ob = k & 1;
        if (threadIdx.x == 0) bulk_wait_read<1>();  // the store from out[ob] two tiles ago has been read
        __syncthreads();
        mbar_wait(&bar[s], (k / Stages) & 1);
        const uint32_t* ti = in + s * T * T;
        uint32_t* to = out + ob * T * T;
#pragma unroll 4
        for (int r0 = warp; r0 < T; r0 += Warps) {
#pragma unroll
            for (int j = 0; j < T / 32; ++j) {
                const int row = (r0 + lane) % T, col = lane + 32 * j;
                to[col * T + row] = ti[row * T + col];
            }
        }
        fence_async_smem();
        __syncthreads();
        if (threadIdx.x == 0) {
            int x, y; tile_of(k, x, y);
            tma_store(&dst, y, x, to);
            bulk_commit();
            if (k + Stages < k_total) {
                int x1, y1; tile_of(k + Stages, x1, y1);
                mbar_expect(&bar[s], Box);
                tma_load(in + s * T * T, &src, x1, y1, &bar[s]);
            }
        }
    }
    if (threadIdx.x == 0) bulk_wait_all();
}

// 1-byte elements, tile T x T bytes (T multiple of 4 * 32 / ... ): a thread takes a 4x4 byte block:
// four 32-bit loads (rows), byte permutes, four 32-bit stores (columns). Lane handles block
// (bi, bj) with bj = lane-varied diagonal so that word accesses spread over banks.
template <int T, int Stages, int Threads>
__global__ void __launch_bounds__(Threads) tma_transpose1(const __grid_constant__ CUtensorMap src, const __grid_constant__ CUtensorMap dst,
                                                           int tiles_x, int tiles) {
    constexpr int Box = T * T;
    constexpr int NB = T / 4;  // 4x4 blocks per side
    extern __shared__ __align__(1024) unsigned char buf[];
    __shared__ uint64_t bar[Stages];
    unsigned char* in = buf;
    unsigned char* out = buf + Stages * Box;
    if (threadIdx.x == 0) {
        for (int s = 0; s < Stages; ++s) mbar_init(&bar[s], 1);
        fence_async_smem();
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    int k_total = 0;
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) ++k_total;
    auto tile_of = [&](int k, int& x, int& y) { int t = blockIdx.x + k * gridDim.x; x = (t % tiles_x) * T; y = (t / tiles_x) * T; };
    if (threadIdx.x == 0) {
        for (int k = 0; k < (Stages < k_total ? Stages : k_total); ++k) {
            int x, y; tile_of(k, x, y);
            mbar_expect(&bar[k], Box);
            tma_load(in + k * Box, &src, x, y, &bar[k]);
        }
    }
    for (int k = 0; k < k_total; ++k) {
        const int s = k % Stages, ob = k & 1;
        if (threadIdx.x == 0) bulk_wait_read<1>();
        __syncthreads();
        mbar_wait(&bar[s], (k / Stages) & 1);
        const unsigned char* ti = in + s * Box;
        unsigned char* to = out + ob * Box;
        static_assert(NB % 32 == 0, "a warp's lanes take 32 distinct block rows and columns");
        for (int idx = threadIdx.x; idx < NB * NB; idx += Threads) {
            // block (bi, bj): rows 4bi.., cols 4bj..; lanes differ in both bi and bj, so the loads (bank
            // bj) and the stores (bank bi) each hit 32 banks
            const int lane = idx % 32, q = idx / 32;
            const int bi = lane + 32 * (q % (NB / 32));
            const int bj = (lane + q / (NB / 32)) % NB;
            uint32_t r[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) r[i] = *reinterpret_cast<const uint32_t*>(ti + (4 * bi + i) * T + 4 * bj);
            const uint32_t a0 = __byte_perm(r[0], r[1], 0x5140), a1 = __byte_perm(r[2], r[3], 0x5140);
            const uint32_t a2 = __byte_perm(r[0], r[1], 0x7362), a3 = __byte_perm(r[2], r[3], 0x7362);
            uint32_t c[4];
            c[0] = __byte_perm(a0, a1, 0x5410);
            c[1] = __byte_perm(a0, a1, 0x7632);
            c[2] = __byte_perm(a2, a3, 0x5410);
            c[3] = __byte_perm(a2, a3, 0x7632);
#pragma unroll
            for (int i = 0; i < 4; ++i) *reinterpret_cast<uint32_t*>(to + (4 * bj + i) * T + 4 * bi) = c[i];
        }
        fence_async_smem();
        __syncthreads();
        if (threadIdx.x == 0) {
            int x, y; tile_of(k, x, y);
            tma_store(&dst, y, x, to);
            bulk_commit();
            if (k + Stages < k_total) {
                int x1, y1; tile_of(k + Stages, x1, y1);
                mbar_expect(&bar[s], Box);
                tma_load(in + s * Box, &src, x1, y1, &bar[s]);
            }
        }
    }
    if (threadIdx.x == 0) bulk_wait_all();
}

template <class F>
static float time_ms(F f, int reps) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    f(); f();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
        CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <class K>
static int grid_for(K kernel, int threads, size_t smem_bytes) {
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_bytes));
    int per_sm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem_bytes));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return per_sm * sms;
}

int main(int argc, char** argv) {
    const int W = 8192, H = 8192, reps = 30;
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    std::printf("device %s\n", p.name);
    const size_t max_bytes = size_t(W) * H * 4;
    unsigned char *src, *dst;
    CK(cudaMalloc(&src, max_bytes)); CK(cudaMalloc(&dst, max_bytes));
    std::vector<unsigned char> host(max_bytes);
    for (size_t i = 0; i < max_bytes; ++i) host[i] = (unsigned char)(i * 2654435761u >> 13);
    CK(cudaMemcpy(src, host.data(), max_bytes, cudaMemcpyHostToDevice));
    std::vector<unsigned char> back(max_bytes);

    for (int eb : {4, 1}) {
        const size_t bytes = size_t(W) * H * eb;
        const double gb = 2.0 * bytes / 1e9;
        const float t_memcpy = time_ms([&] { CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); }, reps);
        std::printf("E=%d memcpy %.3f ms %.0f GB/s\n", eb, t_memcpy, gb / t_memcpy * 1e3);
        // copy through boxes of 256 bytes x BH rows, Stages deep (uint8 map over the image's bytes)
        auto copy_variant = [&](auto kernel, int bh, int stages, int box_bytes) {
            const int bw = 256;
            CUtensorMap ms = make_map(src, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, uint64_t(W) * eb, H, bw, bh);
            CUtensorMap md = make_map(dst, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, uint64_t(W) * eb, H, bw, bh);
            const int tiles_x = W * eb / bw, tiles = tiles_x * (H / bh);
            const int grid = grid_for(kernel, 32, size_t(stages) * box_bytes);
            CK(cudaMemset(dst, 0, bytes));
            const float t = time_ms([&] { kernel<<<grid, 32, size_t(stages) * box_bytes>>>(ms, md, tiles_x, tiles, bw, bh); }, reps);
            CK(cudaMemcpy(back.data(), dst, bytes, cudaMemcpyDeviceToHost));
            const bool ok = std::memcmp(back.data(), host.data(), bytes) == 0;
            std::printf("E=%d tma-copy 256x%d s%d grid %d: %.3f ms %.1f%% of memcpy %s\n", eb, bh, stages, grid, t, 100 * t_memcpy / t, ok ? "ok" : "WRONG");
        };
        copy_variant(tma_copy<256 * 32, 6>, 32, 6, 256 * 32);
        copy_variant(tma_copy<256 * 32, 12>, 32, 12, 256 * 32);
        copy_variant(tma_copy<256 * 64, 4>, 64, 4, 256 * 64);
        copy_variant(tma_copy<256 * 64, 8>, 64, 8, 256 * 64);
        copy_variant(tma_copy<256 * 128, 3>, 128, 3, 256 * 128);
        copy_variant(tma_copy<256 * 16, 8>, 16, 8, 256 * 16);
        auto check_transpose = [&](const char* name, float t) {
            CK(cudaMemcpy(back.data(), dst, bytes, cudaMemcpyDeviceToHost));
            bool ok = true;
            for (int y = 0; y < H && ok; y += 37)
                for (int x = 0; x < W && ok; x += 13)
                    ok = std::memcmp(&back[(size_t(x) * H + y) * eb], &host[(size_t(y) * W + x) * eb], eb) == 0;
            std::printf("E=%d %s: %.3f ms %.1f%% of memcpy %s\n", eb, name, t, 100 * t_memcpy / t, ok ? "ok" : "WRONG");
        };
        if (eb == 4) {
            auto run = [&](auto kernel, int T, int stages, int threads, const char* name) {
                CUtensorMap ms = make_map(src, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, W, H, T, T);
                CUtensorMap md = make_map(dst, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, H, W, T, T);
                const size_t sm = size_t(stages + 2) * T * T * 4;
                const int grid = grid_for(kernel, threads, sm);
                const int tiles_x = W / T, tiles = tiles_x * (H / T);
                CK(cudaMemset(dst, 0, bytes));
                const float t = time_ms([&] { kernel<<<grid, threads, sm>>>(ms, md, tiles_x, tiles); }, reps);
                char label[96]; std::snprintf(label, sizeof label, "%s grid %d", name, grid);
                check_transpose(label, t);
            };
            run(tma_transpose4<32, 4, 128>, 32, 4, 128, "tma-T4 32x32 s4 t128");
            run(tma_transpose4<32, 8, 128>, 32, 8, 128, "tma-T4 32x32 s8 t128");
            run(tma_transpose4<64, 2, 256>, 64, 2, 256, "tma-T4 64x64 s2 t256");
            run(tma_transpose4<64, 3, 256>, 64, 3, 256, "tma-T4 64x64 s3 t256");
            run(tma_transpose4<64, 3, 128>, 64, 3, 128, "tma-T4 64x64 s3 t128");
        } else {
            auto run = [&](auto kernel, int T, int stages, int threads, const char* name) {
                CUtensorMap ms = make_map(src, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, W, H, T, T);
                CUtensorMap md = make_map(dst, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, H, W, T, T);
                const size_t sm = size_t(stages + 2) * T * T;
                const int grid = grid_for(kernel, threads, sm);
                const int tiles_x = W / T, tiles = tiles_x * (H / T);
                CK(cudaMemset(dst, 0, bytes));
                const float t = time_ms([&] { kernel<<<grid, threads, sm>>>(ms, md, tiles_x, tiles); }, reps);
                char label[96]; std::snprintf(label, sizeof label, "%s grid %d", name, grid);
                check_transpose(label, t);
            };
            run(tma_transpose1<128, 2, 256>, 128, 2, 256, "tma-T1 128x128 s2 t256");
            run(tma_transpose1<128, 3, 256>, 128, 3, 256, "tma-T1 128x128 s3 t256");
            run(tma_transpose1<128, 4, 128>, 128, 4, 128, "tma-T1 128x128 s4 t128");
            run(tma_transpose1<128, 5, 256>, 128, 5, 256, "tma-T1 128x128 s5 t256");
        }
    }
    return 0;
}
