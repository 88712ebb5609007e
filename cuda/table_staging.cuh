#pragma once
// Per-call tables on their way to the GPU (the grouped transform's and the grouped rotation's): a memory pool
// that keeps what it has mapped, and a page-locked staging buffer per thread and GPU.

#include "check.cuh"

#include "frontend/cuda_backend.hpp"

#include <cstddef>
#include <map>

#include <cuda_runtime.h>

namespace gpurotate::detail {

// The device's default pool gives its memory back at every synchronisation (release threshold 0), so a
// caller that synchronises between batches paid for mapping the table's memory again on every call: the
// grouped call took 0.41 ms where its kernel took 0.24 (bench/RESULTS.md, 2026-11-22). This pool keeps
// what it has mapped (a few tables' worth); it lives as long as the process.
cudaMemPool_t table_pool();

// Page-locked staging for the tables of one thread's calls on one GPU: the copy from pageable memory went
// through the driver's own staging first. Reused once the previous call's copy out of it has completed.
class TableStaging {
public:
    static TableStaging& for_this_thread() {
        int device = 0;
        GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
        thread_local std::map<int, TableStaging> by_device;  // an event belongs to one GPU
        return by_device[device];
    }
    TableStaging() = default;
    TableStaging(const TableStaging&) = delete;
    TableStaging& operator=(const TableStaging&) = delete;

    /// `bytes` of page-locked memory, free to overwrite.
    std::byte* reserve(std::size_t bytes) {
        GPUROTATE_CUDA_CHECK(cudaEventSynchronize(copied_.get()));
        return buffer_.reserve(bytes);
    }
    /// Marks the end of a copy out of the buffer, enqueued on `stream`.
    void copied_on(cudaStream_t stream) { copied_.record(stream); }

private:
    PinnedBuffer buffer_;
    Event copied_;
};

}  // namespace gpurotate::detail
