#pragma once
// The last grouped call of a thread, kept for its next call: a call whose images are the same as the last's
// (every pointer, size, pitch, element and flag) runs from the tables that call built and copied, as a plan
// runs from its own. A training loop that turns the same buffers batch after batch (a caching allocator's, a
// pipeline's ring of slots) then pays what a plan pays; any other call builds its tables as before and becomes
// the one kept. The tables are a function of the images' descriptions alone, never of their pixels, so a kept
// table is right for any call that matches. One call is kept per thread, GPU and pixel width: comparing
// against more would cost every other call a search. Like the table pool and the staging buffers, it assumes
// that the context lives as long as the process (no cudaDeviceReset between calls).

#include "check.cuh"

#include "frontend/cuda_backend.hpp"

#include <gpurotate/transform.hpp>

#include <cstddef>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

namespace gpurotate::detail {

/// One thread's last grouped call of one pixel width: its images, the GPU it ran on, and its table in device
/// memory (from `pool`; null where every family travelled in the launches' parameters). `Families` is the
/// launcher's host-side tables (GroupedFamilies), kept with it: a family carried inline is carried again.
template <class Families>
class GroupedCallCache {
public:
    GroupedCallCache() = default;
    GroupedCallCache(const GroupedCallCache&) = delete;
    GroupedCallCache& operator=(const GroupedCallCache&) = delete;
    ~GroupedCallCache() { release(); }

    /// The kept call's tables where `images` match it on `device`, else null.
    Families* find(const GroupedTransform* images, std::size_t count, int device) {
        if (!kept_ || device != device_ || count != images_.size()) return nullptr;
        for (std::size_t i = 0; i < count; ++i) {
            if (!same_grouped_image(images[i], images_[i])) return nullptr;
        }
        return &families_;
    }

    /// The host-side tables to build a new call in: the kept call is forgotten (its device table freed once the
    /// launches that read it are done, ordered on `stream`).
    Families& start(cudaStream_t stream) {
        kept_ = false;
        if (table_) {
            GPUROTATE_CUDA_CHECK(cudaStreamWaitEvent(stream, used_.get()));
            void* table = std::exchange(table_, nullptr);
            GPUROTATE_CUDA_CHECK(cudaFreeAsync(table, stream));
        }
        return families_;
    }

    /// The new call's table, from the moment it is allocated (a call that fails after leaves it to the next start()).
    void hold_table(void* table, int device) {
        table_ = table;
        device_ = device;
    }
    /// Keeps the call just built in start()'s tables: `images`, on `device`.
    void keep(const GroupedTransform* images, std::size_t count, int device) {
        images_.assign(images, images + count);
        device_ = device;
        kept_ = true;
    }

    /// Where the kept table is read by launches on `stream`: before them, the wait for its copy (made on whichever
    /// stream built it); after them, used() marks their end.
    void wait_for_table(cudaStream_t stream) const {
        if (table_) GPUROTATE_CUDA_CHECK(cudaStreamWaitEvent(stream, used_.get()));
    }
    void used(cudaStream_t stream) { used_.record(stream); }

    void* table() const { return table_; }

private:
    /// A CUDA event without timing, cheap to record and to wait on.
    class Marker {
    public:
        Marker() { GPUROTATE_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
        Marker(const Marker&) = delete;
        Marker& operator=(const Marker&) = delete;
        ~Marker() { GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(event_)); }
        cudaEvent_t get() const { return event_; }
        void record(cudaStream_t stream) const { GPUROTATE_CUDA_CHECK(cudaEventRecord(event_, stream)); }

    private:
        cudaEvent_t event_ = nullptr;
    };

    /// At the thread's end: the table freed once its last launches are done, on the GPU it belongs to. Unchecked:
    /// nothing can be thrown here, and at the process's end the runtime may be gone already.
    void release() noexcept {
        if (!table_) return;
        int current = 0;
        const bool switched = cudaGetDevice(&current) == cudaSuccess && current != device_ && cudaSetDevice(device_) == cudaSuccess;
        GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaEventSynchronize(used_.get()));
        GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaFree(table_));
        table_ = nullptr;
        if (switched) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaSetDevice(current));
    }

    Families families_;
    std::vector<GroupedTransform> images_;
    int device_ = -1;
    void* table_ = nullptr;
    bool kept_ = false;
    Marker used_;
};

}  // namespace gpurotate::detail
