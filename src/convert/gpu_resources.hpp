#pragma once
// The GPU's resources for conversions, in one place: CUDA's start-up on a thread of its own, begun before the
// first file is read, so that it runs while the first decode does; GPU sessions (a stream and buffers for
// the fused kernel), nvJPEG coders and JPEG scan coders, each as a pool lent to one thread at a time. The
// single-image command holds a pool of one; augment a few per GPU. What differs is the GpuPolicy.

#include "convert/conversion_observer.hpp"
#include "convert/conversion_options.hpp"
#include "convert/resource_pool.hpp"

#include <gpurotate/gpu_session.hpp>

#include "jpeg/jpeg_scan_coder.hpp"
#include "jpeg/nvjpeg_codec.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpurotate::convert {

/// What to open, and what a failure to open it means.
struct GpuPolicy {
    std::vector<int> devices{0};
    unsigned per_device = 1;       ///< sessions (streams) per GPU, and as many nvJPEG and scan coders
    std::size_t budget_each = 0;   ///< device bytes each session and each coder may hold; 0: no limit of our own
    bool sessions = false;         ///< GpuSessions for the fused kernel (augment); without, CUDA alone starts (transform() runs it)
    bool scan_coders = false;      ///< JPEG scan coders for lossless JPEG outputs
    bool nvjpeg = false;           ///< nvJPEG coders
    bool hardware_decoder = false; ///< with the GPU's hardware JPEG decoder (--nvjpeg-decode gpu)
    bool optimized_huffman = false;  ///< one image: the smaller file is worth the encoder's second pass
    bool nvjpeg_optional = false;  ///< nvJPEG failing to open leaves JPEGs to the CPU codecs (augment), not an error
    bool cpu_fallback = false;     ///< --device auto: a GPU that does not start, or fails an image, leaves it to the CPU
};

/// The single-image command's: a pool of one on GPU 0, CUDA started for transform(), nvJPEG's coder where the
/// output is a JPEG made by nvJPEG (`nvjpeg`), with optimised Huffman tables (one image: the smaller file is
/// worth the encoder's second pass); `gpu_memory` bytes for it (0: no limit).
GpuPolicy single_image_gpu_policy(const ConversionOptions& options, bool nvjpeg, std::size_t gpu_memory);

/// A dataset's (augment): a few sessions per GPU of `devices` (at most one per worker), as many nvJPEG coders
/// with --nvjpeg and JPEG scan coders where JPEG outputs may be lossless transforms of `jpeg_inputs`;
/// `gpu_memory` bytes per GPU shared by them; standard Huffman tables, as the CPU encoders write.
GpuPolicy dataset_gpu_policy(const ConversionOptions& options, const std::vector<int>& devices, unsigned workers, std::size_t gpu_memory,
                             bool jpeg_inputs, bool cpu_fallback);

/// Several files of the single-image command (`gpurotate --device cuda -o DIR/ *.jpg`) on `workers`: each file's
/// terms alone (single_image_gpu_policy: CUDA started for transform(), so every file's route, kernel, bands and
/// bytes are those it has alone), started once for all, with an nvJPEG coder per worker up to a few (`nvjpeg`).
GpuPolicy many_files_gpu_policy(const ConversionOptions& options, bool nvjpeg, unsigned workers, std::size_t gpu_memory);

class GpuResources {
public:
    /// Starts opening what `policy` names on a thread of its own; the run's notices about the GPU go to
    /// `observer` (which must outlive this).
    GpuResources(GpuPolicy policy, ConversionObserver& observer);
    ~GpuResources();
    GpuResources(const GpuResources&) = delete;
    GpuResources& operator=(const GpuResources&) = delete;

    const GpuPolicy& policy() const { return policy_; }
    /// Waits for the start-up (at once when it has finished). True when the GPU is usable; false where it did not
    /// start and the policy falls back to the CPU (said once). Throws the start-up's Error (device) otherwise.
    bool ready();
    /// ready() for work the CPU does with the same bytes: under --device auto (the policy's cpu_fallback), false
    /// while the start-up still runs, so that the caller does this piece on the CPU rather than wait for the GPU.
    bool ready_unless_starting();
    /// The sessions; nullptr where the policy has none or the GPU fell back. Waits as ready() does.
    ResourcePool<GpuSession>* sessions();
    /// The nvJPEG coders; nullptr where nvJPEG is not usable (nvjpeg_failure() says why) or the GPU fell back.
    ResourcePool<detail::NvjpegCoder>* coders();
    const std::string& nvjpeg_failure() const { return jpeg_failure_; }
    /// The scan coders as one coder, each call borrowing one; nullptr: libjpeg codes every lossless variant.
    detail::JpegScanCoder* scan_coder();
    /// scan_coder() for a caller that entropy-decodes before it codes: while the start-up still runs, a coder
    /// that waits for it only when the scans are ready (--device cuda), or that leaves them to libjpeg meanwhile
    /// (--device auto), so that the first files' work runs beside CUDA's start. Where the GPU does not start,
    /// it codes nothing; under --device cuda the caller asks ready() before it writes, which throws the
    /// start-up's Error.
    detail::JpegScanCoder* scan_coder_once_started();

    /// Seconds the start-up took on its thread, and seconds the callers of ready() waited for it.
    double start_seconds() const { return start_seconds_; }
    double waited_seconds() const { return waited_seconds_; }
    bool fell_back() const { return fell_back_; }
    /// Device memory the sessions and scan coders hold; call when none is lent out.
    std::size_t device_bytes();
    int session_count() const { return sessions_ ? sessions_->count() : 0; }
    /// Lossless variants whose scans the GPU coded.
    std::int64_t coded_scans() const;
    /// No more coders are wanted (the work is done).
    void finish() { done_ = true; }
    /// Where the policy has no sessions (the single-image command), an image's transform or rotation on the GPU
    /// takes device memory of its own, sized to what is free or to the budget as if it were alone: threads
    /// sharing these resources (many files of one command) take turns through this lock. With sessions, which
    /// hold their own memory, it locks nothing.
    std::unique_lock<std::mutex> turn_for_own_device_memory() {
        return policy_.sessions ? std::unique_lock<std::mutex>() : std::unique_lock<std::mutex>(own_device_memory_);
    }

private:
    struct Opened;
    class PooledScanCoder;
    class WaitingScanCoder;
    void add_coders(std::vector<std::shared_ptr<detail::NvjpegCoder::Handle>> handles);

    GpuPolicy policy_;
    ConversionObserver& observer_;
    std::atomic<bool> start_finished_{false};  // set by the start-up's thread, which opening_ waits for
    std::unique_ptr<WaitingScanCoder> waiting_scan_coder_;
    std::future<std::shared_ptr<Opened>> opening_;
    std::once_flag opened_;
    std::exception_ptr start_failure_;
    bool fell_back_ = false;
    double start_seconds_ = 0, waited_seconds_ = 0;
    std::unique_ptr<ResourcePool<GpuSession>> sessions_;
    std::unique_ptr<ResourcePool<detail::JpegScanCoder>> scan_coders_;
    std::unique_ptr<PooledScanCoder> pooled_scan_coder_;
    std::unique_ptr<ResourcePool<detail::NvjpegCoder>> coders_;
    std::string jpeg_failure_;
    std::atomic<bool> done_{false};
    std::mutex own_device_memory_;
    std::future<void> adding_coders_;  // declared after coders_: waited for before they are destroyed
    bool started_ = false;             // the GPU is usable
};

}  // namespace gpurotate::convert
