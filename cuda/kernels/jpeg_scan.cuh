#pragma once
// The kernels of the GPU's JPEG scan coder: one thread a block of the output scan, a variant per grid row.
// Where a scan is coded with tables made for it, count_scan_symbols counts each table's symbols first.
// Then three passes, as a scan's bits can only be placed once every block before them is counted:
//   count_scan_bits   counts each block's bits and places them within its thread block's share;
//   place_thread_blocks  sums the thread blocks' shares of a variant in order (one thread block a variant);
//   write_scan_bits   codes each block again, now at its place in the variant's stream.
// Coding twice costs less than keeping the codes: a block's bits are a few dozen registers' work, and the
// coefficients come from L2 the second time.

#include "jpeg/jpeg_scan_coding.hpp"

#include <cstdint>

namespace gpurotate::detail {

constexpr int scan_threads = 256;       // blocks of the scan per thread block
constexpr int max_batch_variants = 8;   // variants per launch: every D4 element once

/// What the kernels share (with `tables`, the variants' tables in the same order): the variants' layouts and where each variant's data sit.
struct ScanBatch {
    ScanLayout layout[max_batch_variants];
    std::int64_t first_slot[max_batch_variants];          ///< the variant's first entry in the per-block offsets
    std::int64_t first_thread_block[max_batch_variants];  ///< and in the per-thread-block sums
    std::uint64_t first_word[max_batch_variants];         ///< its stream's first word (write_scan_bits only)
    int count = 0;
};

static_assert(sizeof(ScanBatch) <= 4096, "ScanBatch is passed as a kernel parameter");

template <class T>
__device__ T exclusive_block_sum(T value, T& total) {
    __shared__ T warp_totals[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    T inclusive = value;
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        const T other = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += other;
    }
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        T mine = lane < warps ? warp_totals[lane] : T(0);
#pragma unroll
        for (int offset = 1; offset < 32; offset <<= 1) {
            const T other = __shfl_up_sync(0xffffffffu, mine, offset);
            if (lane >= offset) mine += other;
        }
        if (lane < warps) warp_totals[lane] = mine;  // inclusive sums of the warps
    }
    __syncthreads();
    total = warp_totals[warps - 1];
    const T before = (warp > 0 ? warp_totals[warp - 1] : T(0)) + inclusive - value;
    __syncthreads();  // warp_totals is read before the next call writes it
    return before;
}

/// Adds each table's symbol counts of the variant's blocks to `counts[variant][slot][symbol]`: a thread
/// block counts in shared memory, then adds its counts.
__global__ void __launch_bounds__(scan_threads) count_scan_symbols(const __grid_constant__ ScanBatch batch, const ScanTables* tables,
                                                                   const std::int16_t* store, unsigned long long* counts, int* refused) {
    __shared__ std::uint32_t local[table_slots * 256];
    for (int i = threadIdx.x; i < table_slots * 256; i += scan_threads) local[i] = 0;
    __syncthreads();
    const int variant = static_cast<int>(blockIdx.y);
    const ScanLayout& layout = batch.layout[variant];
    const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * scan_threads + threadIdx.x;
    if (slot < layout.slots()) {
        SymbolCount count{local};
        const bool ok = layout.map.swap_axes ? code_scan_block<true>(layout, tables[variant], store, slot, count)
                                             : code_scan_block<false>(layout, tables[variant], store, slot, count);
        if (!ok) refused[variant] = 1;
    }
    __syncthreads();
    unsigned long long* mine = counts + static_cast<std::size_t>(variant) * table_slots * 256;
    for (int i = threadIdx.x; i < table_slots * 256; i += scan_threads) {
        if (local[i]) atomicAdd(mine + i, static_cast<unsigned long long>(local[i]));
    }
}

__global__ void __launch_bounds__(scan_threads) count_scan_bits(const __grid_constant__ ScanBatch batch, const ScanTables* tables,
                                                                const std::int16_t* store, std::uint32_t* offsets,
                                                                std::uint64_t* thread_block_bits, int* refused) {
    const int variant = static_cast<int>(blockIdx.y);
    const ScanLayout& layout = batch.layout[variant];
    const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * scan_threads + threadIdx.x;
    const bool mine = slot < layout.slots();
    BitCount count;
    bool ok = true;
    if (mine) {
        ok = layout.map.swap_axes ? code_scan_block<true>(layout, tables[variant], store, slot, count)
                                  : code_scan_block<false>(layout, tables[variant], store, slot, count);
    }
    if (!ok) refused[variant] = 1;
    std::uint32_t total = 0;
    const std::uint32_t before = exclusive_block_sum(count.bits, total);
    if (mine) offsets[batch.first_slot[variant] + slot] = before;
    if (threadIdx.x == 0 && static_cast<std::int64_t>(blockIdx.x) * scan_threads < layout.slots()) {
        thread_block_bits[batch.first_thread_block[variant] + blockIdx.x] = total;
    }
}

/// One thread block a variant: each thread block's share becomes the bits before it; `variant_bits`
/// gets the variant's total.
__global__ void __launch_bounds__(1024) place_thread_blocks(const __grid_constant__ ScanBatch batch, std::uint64_t* thread_block_bits,
                                                            std::uint64_t* variant_bits) {
    const int variant = static_cast<int>(blockIdx.x);
    const std::int64_t slots = batch.layout[variant].slots();
    const std::int64_t count = (slots + scan_threads - 1) / scan_threads;
    std::uint64_t* bits = thread_block_bits + batch.first_thread_block[variant];
    std::uint64_t carried = 0;
    for (std::int64_t first = 0; first < count; first += blockDim.x) {
        const std::int64_t i = first + threadIdx.x;
        const std::uint64_t value = i < count ? bits[i] : 0;
        std::uint64_t total = 0;
        const std::uint64_t before = exclusive_block_sum(value, total);
        if (i < count) bits[i] = carried + before;
        carried += total;
    }
    if (threadIdx.x == 0) variant_bits[variant] = carried;
}

__global__ void __launch_bounds__(scan_threads) write_scan_bits(const __grid_constant__ ScanBatch batch, const ScanTables* tables,
                                                                const std::int16_t* store, const std::uint32_t* offsets,
                                                                const std::uint64_t* thread_block_bits, std::uint32_t* words) {
    const int variant = static_cast<int>(blockIdx.y);
    const ScanLayout& layout = batch.layout[variant];
    const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * scan_threads + threadIdx.x;
    if (slot >= layout.slots()) return;
    const std::uint64_t position = thread_block_bits[batch.first_thread_block[variant] + blockIdx.x] + offsets[batch.first_slot[variant] + slot];
    BitWriter writer(words + batch.first_word[variant], position);
    if (layout.map.swap_axes) {
        code_scan_block<true>(layout, tables[variant], store, slot, writer);
    } else {
        code_scan_block<false>(layout, tables[variant], store, slot, writer);
    }
    writer.finish();
}

}  // namespace gpurotate::detail
