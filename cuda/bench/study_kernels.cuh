#pragma once
// The kernels of the seed papers' study that the product itself does not launch: copies (the ceilings),
// the naive transpose with the block shapes the seeds compare, the diagonal block order, and helpers
// that fill inputs and compare outputs on the device. Each is named after what it is, so that
// `gpurotate bench --kernel NAME` under ncu profiles exactly one of them.

#include "bench/repeated_passes.cuh"
#include "kernels/pixel_access.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "kernels/vector_load.cuh"

#include <cstdint>

namespace gpurotate::detail {

/// The paper's shared-memory copy: the same tile through shared memory, to price the staging alone.
template <class Word, int TileDim, int BlockRows>
__global__ void __launch_bounds__(TileDim * BlockRows) copy_shared_kernel(TransformArgs a, RepeatedPasses passes) {
    __shared__ Word tile[TileDim][TileDim];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int x = static_cast<int>(blockIdx.x) * TileDim + tx;
    for (int step = static_cast<int>(blockIdx.y); step < a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        const int tile_row = tile_row_of(a, step);
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) {
            const int y = tile_row * TileDim + r;
            if (inside_output(a, x, y)) tile[r][tx] = load_source<Word>(a, SourcePoint{x, y});
        }
        __syncthreads();
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) {
            const int y = tile_row * TileDim + r;
            if (inside_output(a, x, y)) store_output<Word>(a, x, y, tile[r][tx]);
        }
        __syncthreads();
    }
}

/// The best plain copy: 16 bytes per access, four independent accesses in flight per thread,
/// grid-stride over a contiguous buffer of `bytes` (a multiple of 16). With L2Prefetch, its loads ask L2
/// to fetch 256 bytes from DRAM (load_vector_l2_256).
template <bool L2Prefetch>
__global__ void __launch_bounds__(256) copy_vector16_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, std::size_t vectors) {
    constexpr int unroll = 4;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + (unroll - 1) * stride < vectors; i += unroll * stride) {
        uint4 v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) v[u] = L2Prefetch ? load_vector_l2_256(src + i + u * stride) : src[i + u * stride];
#pragma unroll
        for (int u = 0; u < unroll; ++u) dst[i + u * stride] = v[u];
    }
    for (; i < vectors; i += stride) dst[i] = src[i];
}

/// The paper's diagnostic half-transposes of a square image whose side is a multiple of TileDim, used to
/// tell the cost of moving elements within a tile from the cost of moving tiles: Fine transposes each
/// tile where it is (elements move, tiles do not); coarse moves each tile to its transposed place and
/// leaves its elements as they were. Neither is a transpose; each is checked against its own definition.
template <class Word, int TileDim, int BlockRows, bool Fine>
__global__ void __launch_bounds__(TileDim * BlockRows) half_transpose_kernel(TransformArgs a, RepeatedPasses passes) {
    __shared__ Word tile[TileDim][TileDim + 1];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int bx = static_cast<int>(blockIdx.x) * TileDim, by = static_cast<int>(blockIdx.y) * TileDim;
    for (int rep = 0; rep < passes.count(); ++rep) {
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) tile[r][tx] = load_source<Word>(a, SourcePoint{bx + tx, by + r});
        __syncthreads();
#pragma unroll
        for (int r = ty; r < TileDim; r += BlockRows) {
            if (Fine) {
                store_output<Word>(a, bx + tx, by + r, tile[tx][r]);
            } else {
                store_output<Word>(a, by + tx, bx + r, tile[r][tx]);
            }
        }
        __syncthreads();
    }
}

/// The element's inverse map and the source extent, for kernels that walk the *source* in order.
struct NaiveArgs {
    TransformArgs a;
    AxisMap inverse;  ///< maps a source pixel to the output pixel that receives it
};

/// The naive transpose of the seeds: one thread per source pixel, reading along source rows (coalesced)
/// and writing wherever the pixel lands (strided for the elements that swap axes).
template <class Word, int BlockX, int BlockY>
__global__ void __launch_bounds__(BlockX * BlockY) naive_kernel(NaiveArgs n, RepeatedPasses passes) {
    const int x = static_cast<int>(blockIdx.x) * BlockX + static_cast<int>(threadIdx.x);
    const Extent out_extent{n.a.dst_width, n.a.dst_height};
    for (int step = static_cast<int>(blockIdx.y); step < n.a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        const int y = tile_row_of(n.a, step) * BlockY + static_cast<int>(threadIdx.y);
        if (x < n.a.src_extent.width && y < n.a.src_extent.height) {
            const SourcePoint out = source_of(n.inverse, out_extent, x, y);
            store_output<Word>(n.a, static_cast<int>(out.x), static_cast<int>(out.y), load_source<Word>(n.a, SourcePoint{x, y}));
        }
    }
}

/// The padded tile visited in diagonal block order (the paper's cure for partition camping): block
/// (bx, by) of the launch works on tile ((bx + by) mod tiles_x, bx) of a square grid, or the general
/// rectangular reordering otherwise. Needs the whole grid in one launch (no striding).
template <class Word, int TileDim, int BlockRows>
__global__ void __launch_bounds__(TileDim * BlockRows) transpose_diagonal_kernel(TransformArgs a, RepeatedPasses passes) {
    __shared__ Word tile[TileDim][TileDim + 1];
    int tile_x = 0, tile_y = 0;
    if (gridDim.x == gridDim.y) {
        tile_y = static_cast<int>(blockIdx.x);
        tile_x = static_cast<int>((blockIdx.x + blockIdx.y) % gridDim.x);
    } else {
        const unsigned bid = blockIdx.x + gridDim.x * blockIdx.y;
        tile_y = static_cast<int>(bid % gridDim.y);
        tile_x = static_cast<int>((bid / gridDim.y + static_cast<unsigned>(tile_y)) % gridDim.x);
    }
    for (int rep = 0; rep < passes.count(); ++rep) transpose_one_tile<Word, TileDim, TileDim, BlockRows, 1>(a, tile_x, tile_y, tile);
}

/// Fills `bytes` bytes with a hash of their index and `seed`: random-looking and never zero. With
/// `finite_floats`, every aligned 4-byte word is a float in [1, 2): arithmetic peers (cuBLAS geam computes
/// 1 * a + 0 * c) reproduce those bit for bit, where NaN payloads and negative zeros would not survive.
__global__ void fill_random_kernel(std::uint8_t* p, std::size_t bytes, std::uint32_t seed, bool finite_floats) {
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < bytes;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        std::uint32_t h = static_cast<std::uint32_t>(i) * 0x9e3779b1u ^ static_cast<std::uint32_t>(i >> 32) * 0x85ebca77u ^ seed;
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        std::uint8_t v = static_cast<std::uint8_t>(1 + h % 255);
        if (finite_floats && i % 4 == 3) v = 0x3f;                // sign 0, exponent 127: [1, 2)
        if (finite_floats && i % 4 == 2) v = static_cast<std::uint8_t>(v | 0x80);
        p[i] = v;
    }
}

/// Counts the rows (of `row_bytes` bytes, at the two pitches) in which `a` and `b` differ.
__global__ void count_differing_rows_kernel(const std::uint8_t* a, std::size_t a_pitch, const std::uint8_t* b, std::size_t b_pitch,
                                            std::size_t row_bytes, int rows, unsigned long long* differing) {
    for (int y = static_cast<int>(blockIdx.x); y < rows; y += static_cast<int>(gridDim.x)) {
        const std::uint8_t* ra = a + static_cast<std::size_t>(y) * a_pitch;
        const std::uint8_t* rb = b + static_cast<std::size_t>(y) * b_pitch;
        int mismatch = 0;
        for (std::size_t i = threadIdx.x; i < row_bytes; i += blockDim.x) mismatch |= ra[i] != rb[i];
        if (__syncthreads_or(mismatch) && threadIdx.x == 0) atomicAdd(differing, 1ull);
    }
}

}  // namespace gpurotate::detail
