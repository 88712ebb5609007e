#pragma once
// The last grouped call of a thread, kept for its next call: a call whose images are the same as the last's
// (every pointer, size, pitch, element and flag) runs from the tables that call built and copied, as a plan
// runs from its own. A training loop that turns the same buffers batch after batch (a caching allocator's, a
// pipeline's ring of slots) then pays what a plan pays; any other call builds its tables as before and becomes
// the one kept (a batch with an element per image that falls back to the grouped launch included). The tables
// are a function of the images' descriptions alone, never of their pixels, so a kept table is right for any
// call that matches. One call is kept per thread, GPU and pixel width: comparing against more would cost every
// other call a search. Like the table pool and the staging buffers, it assumes that the context lives as long
// as the process (no cudaDeviceReset between calls). A call during a stream capture neither uses nor replaces it.
//
// Ordering: every launch from a kept table waits for the launches before it that read that table, on whichever
// stream they ran (`used_` is recorded after each and waited on before the next), so the one event covers them
// all. Such calls write the same outputs, which two streams must not write at once anyway. A call with other
// images never waits for them: the table it replaces is freed on a stream of the library's own once they end.

#include "check.cuh"

#include "frontend/cuda_backend.hpp"

#include <gpurotate/transform.hpp>

#include <cstddef>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

namespace gpurotate::detail {

/// The current GPU's stream on which the grouped launches' replaced tables are freed (launch_grouped.cu): it
/// waits for their last readers, so the caller's stream never does.
cudaStream_t table_release_stream();

/// One thread's last grouped call of one pixel width on one GPU: its images and its table in device memory (from
/// the table pool; null where every family travelled in the launches' parameters). `Families` is the launcher's
/// host-side tables (GroupedFamilies), kept with it: a family carried inline is carried again.
template <class Families>
class GroupedCallCache {
public:
    explicit GroupedCallCache(int device) : device_(device) {}
    GroupedCallCache(const GroupedCallCache&) = delete;
    GroupedCallCache& operator=(const GroupedCallCache&) = delete;
    ~GroupedCallCache() { release(); }

    /// The kept call's tables where `images` match it, else null.
    Families* find(const GroupedTransform* images, std::size_t count) {
        if (!kept_ || count != images_.size()) return nullptr;
        for (std::size_t i = 0; i < count; ++i) {
            if (!same_grouped_image(images[i], images_[i])) return nullptr;
        }
        return &families_;
    }

    /// The host-side tables to build a new call in: the kept call is forgotten, its device table freed once the
    /// launches that read it are done, on table_release_stream() (the caller's stream does not wait for them).
    Families& start() {
        kept_ = false;
        if (table_) {
            const cudaStream_t release = table_release_stream();
            GPUROTATE_CUDA_CHECK(cudaStreamWaitEvent(release, used_.get()));
            GPUROTATE_CUDA_CHECK(cudaFreeAsync(table_, release));
            table_ = nullptr;
        }
        return families_;
    }

    /// The new call's table, from the moment it is allocated: a call that fails after leaves it to the next
    /// start(), which waits for whatever it did enqueue (see Use).
    void hold_table(void* table) { table_ = table; }
    /// Keeps the call just built in start()'s tables.
    void keep(const GroupedTransform* images, std::size_t count) {
        images_.assign(images, images + count);
        kept_ = true;
    }

    /// Launches on `stream` that read the table: constructed before them, destroyed after them (they become its
    /// last readers), also where they throw. `after_earlier_readers`: a kept table's reuse, which waits for every
    /// launch that read it before (and so for its copy); false for the call that just copied it on `stream`.
    class Use {
    public:
        Use(GroupedCallCache& cache, cudaStream_t stream, bool after_earlier_readers) : cache_(cache), stream_(stream) {
            if (after_earlier_readers && cache_.table_) GPUROTATE_CUDA_CHECK(cudaStreamWaitEvent(stream_, cache_.used_.get()));
        }
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        ~Use() { GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaEventRecord(cache_.used_.get(), stream_)); }

    private:
        GroupedCallCache& cache_;
        cudaStream_t stream_;
    };

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

    private:
        cudaEvent_t event_ = nullptr;
    };

    /// At the thread's end: the table freed once its last readers are done, on its own GPU, without waiting for
    /// the rest of the device. Unchecked: nothing can be thrown here, and at the process's end the runtime may be
    /// gone already.
    void release() noexcept {
        if (!table_) return;
        int current = 0;
        const bool switched = cudaGetDevice(&current) == cudaSuccess && current != device_ && cudaSetDevice(device_) == cudaSuccess;
        GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaEventSynchronize(used_.get()));
        try {
            GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaFreeAsync(table_, table_release_stream()));
        } catch (...) {  // the release stream could not be made: the memory stays with the pool
        }
        table_ = nullptr;
        if (switched) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaSetDevice(current));
    }

    Families families_;
    std::vector<GroupedTransform> images_;
    int device_;
    void* table_ = nullptr;
    bool kept_ = false;
    Marker used_;  // recorded after every launch that read table_ (Use); a fresh event counts as done
};

}  // namespace gpurotate::detail
