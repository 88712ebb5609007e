#pragma once
// The host buffer for the variants of one image (one per augment worker, one for the single-image command):
// page-locked when CUDA is usable (downloads then run at full speed and need no extra copy), ordinary memory
// otherwise. Grows, never shrinks, so a worker
// allocates a few times per run rather than once per image (pinning memory costs milliseconds).

#include "core/pinned_memory.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace gpurotate::convert {

class StagingBuffer {
public:
    explicit StagingBuffer(bool pinned) : pinned_(pinned) {}
    ~StagingBuffer() { release(); }
    StagingBuffer(const StagingBuffer&) = delete;
    StagingBuffer& operator=(const StagingBuffer&) = delete;

    /// At least `bytes` of memory; the previous contents are lost when it grows.
    std::byte* reserve(std::size_t bytes) {
        if (bytes <= capacity_) return data_;
        release();
        void* p = pinned_ ? detail::allocate_pinned(bytes) : nullptr;
        on_heap_ = p == nullptr;
        if (on_heap_) p = std::malloc(bytes);
        if (!p) throw std::bad_alloc();
        data_ = static_cast<std::byte*>(p);
        capacity_ = bytes;
        return data_;
    }

    /// Gives the memory back (after an input that made it grow failed).
    void release() {
        if (!data_) return;
        if (on_heap_) {
            std::free(data_);
        } else {
            detail::free_pinned(data_);
        }
        data_ = nullptr;
        capacity_ = 0;
    }

private:
    bool pinned_;
    bool on_heap_ = true;
    std::byte* data_ = nullptr;
    std::size_t capacity_ = 0;
};

}  // namespace gpurotate::convert
