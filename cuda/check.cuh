#pragma once
// Checking CUDA calls and owning CUDA resources. Every runtime call goes through GPUROTATE_CUDA_CHECK,
// which evaluates it once and throws gpurotate::Error (device) naming the call, the file and the line.
// The resources are move-only RAII types so that an exception never leaks device memory or a stream.

#include <gpurotate/error.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

namespace gpurotate::detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
    // The error is reported here: the thread's last error goes back to success, so that the next image's launch
    // check (cudaGetLastError) does not report it again (a sticky error stays, and fails the next call itself).
    static_cast<void>(cudaGetLastError());
    throw Error(ErrorCode::device, std::string("CUDA error: ") + cudaGetErrorString(status) + " (" +
                                       cudaGetErrorName(status) + ") in " + call + " at " + file + ":" +
                                       std::to_string(line));
}

}  // namespace gpurotate::detail

#define GPUROTATE_CUDA_CHECK(call)                                                           \
    do {                                                                                     \
        const cudaError_t gpurotate_status_ = (call);                                        \
        if (gpurotate_status_ != cudaSuccess) {                                              \
            ::gpurotate::detail::throw_cuda_error(gpurotate_status_, #call, __FILE__, __LINE__); \
        }                                                                                    \
    } while (0)

// For destructors: a failure to release cannot be thrown, and the next checked call reports a sticky error.
#define GPUROTATE_CUDA_CHECK_NOEXCEPT(call) static_cast<void>(call)

namespace gpurotate::detail {

/// Device memory from cudaMalloc.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
        if (bytes) GPUROTATE_CUDA_CHECK(cudaMalloc(&pointer_, bytes));
    }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : pointer_(std::exchange(other.pointer_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(pointer_, other.pointer_);
        std::swap(bytes_, other.bytes_);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (pointer_) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaFree(pointer_));
    }
    std::byte* get() const { return static_cast<std::byte*>(pointer_); }
    std::size_t size() const { return bytes_; }

private:
    void* pointer_ = nullptr;
    std::size_t bytes_ = 0;
};

/// Grows `buffer` to at least `bytes` (its contents lost), never shrinks it: a dataset's images are mostly of
/// a few sizes. The old buffer is freed first, so that the two never coexist.
inline std::byte* grow(DeviceBuffer& buffer, std::size_t bytes) {
    if (buffer.size() < bytes) {
        buffer = DeviceBuffer();
        buffer = DeviceBuffer(bytes);
    }
    return buffer.get();
}

/// Page-locked host memory (cudaMallocHost), grown on request.
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer() { release(); }

    /// At least `bytes`; the contents are lost when it grows. Throws Error (device) where the system refuses.
    std::byte* reserve(std::size_t bytes) {
        if (bytes > size_) {
            release();
            void* pointer = nullptr;
            if (cudaMallocHost(&pointer, bytes) != cudaSuccess) {
                static_cast<void>(cudaGetLastError());  // not a sticky error: the next call may ask for less
                throw Error(ErrorCode::device, "cannot allocate " + std::to_string(bytes) + " bytes of page-locked memory");
            }
            pointer_ = static_cast<std::byte*>(pointer);
            size_ = bytes;
        }
        return pointer_;
    }

    void release() noexcept {
        if (pointer_) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaFreeHost(pointer_));
        pointer_ = nullptr;
        size_ = 0;
    }

private:
    std::byte* pointer_ = nullptr;
    std::size_t size_ = 0;
};

/// Selects GPU `device` for the calling thread: a member declared before the streams and buffers of a class,
/// which belong to the GPU selected when they are made.
struct SelectDevice {
    explicit SelectDevice(int device) { GPUROTATE_CUDA_CHECK(cudaSetDevice(device)); }
};

/// A non-blocking stream: it never synchronises implicitly with the legacy default stream.
class Stream {
public:
    Stream() { GPUROTATE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
    Stream& operator=(Stream&& other) noexcept {
        std::swap(stream_, other.stream_);
        return *this;
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() {
        if (stream_) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaStreamDestroy(stream_));
    }
    cudaStream_t get() const { return stream_; }
    void synchronize() const { GPUROTATE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

private:
    cudaStream_t stream_ = nullptr;
};

/// A timing event.
class Event {
public:
    Event() { GPUROTATE_CUDA_CHECK(cudaEventCreate(&event_)); }
    Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
    Event& operator=(Event&& other) noexcept {
        std::swap(event_, other.event_);
        return *this;
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() {
        if (event_) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(event_));
    }
    cudaEvent_t get() const { return event_; }
    void record(cudaStream_t stream) const { GPUROTATE_CUDA_CHECK(cudaEventRecord(event_, stream)); }
    /// Milliseconds from `start` to this event; both must have completed.
    float elapsed_since(const Event& start) const {
        float ms = 0;
        GPUROTATE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
        return ms;
    }

private:
    cudaEvent_t event_ = nullptr;
};

}  // namespace gpurotate::detail
