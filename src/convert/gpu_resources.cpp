#include "convert/gpu_resources.hpp"

#include "frontend/cuda_backend.hpp"
#include "jpeg/jpeg_scan_coder_check.hpp"
#include "jpeg/turbojpeg_codec.hpp"

#include <gpurotate/transform.hpp>

#include <algorithm>
#include <chrono>

namespace gpurotate::convert {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A few streams per GPU: enough to overlap one image's transfers with another's, few enough that device
// memory stays at (1 + variants) x image size per stream. As many nvJPEG coders: each holds device buffers,
// an encoder state and, with --nvjpeg-decode gpu, a hardware decoder state (0.1 s to make on an H100).
constexpr unsigned sessions_per_device = 4;

}  // namespace

GpuPolicy single_image_gpu_policy(const ConversionOptions& options, bool nvjpeg, std::size_t gpu_memory) {
    GpuPolicy policy;
    policy.nvjpeg = nvjpeg;
    policy.hardware_decoder = options.nvjpeg_decode == detail::NvjpegDecode::gpu;
    policy.budget_each = gpu_memory;
    policy.optimized_huffman = true;
    return policy;
}

GpuPolicy dataset_gpu_policy(const ConversionOptions& options, const std::vector<int>& devices, unsigned workers, std::size_t gpu_memory,
                             bool jpeg_inputs, bool cpu_fallback) {
    GpuPolicy policy;
    policy.devices = devices;
    policy.sessions = true;
    policy.cpu_fallback = cpu_fallback;
    // As many nvJPEG coders as streams, with the same budget each: twice as many coders, with nvJPEG's decode
    // holding its coder, were no faster (bench/RESULTS.md, 2026-11-22).
    policy.per_device = std::max(1u, std::min(workers, sessions_per_device));
    // JPEG scan coders where JPEG outputs may be lossless transforms (without --nvjpeg or --quality), as many as
    // streams. --gpu-memory is per GPU: its streams share it, or half of it where nvJPEG's coders or the scan
    // coders have the rest.
    policy.scan_coders = !options.nvjpeg && !options.quality_given && detail::turbojpeg_available() && jpeg_inputs;
    policy.budget_each = gpu_memory / policy.per_device / (options.nvjpeg || policy.scan_coders ? 2 : 1);
    policy.nvjpeg = options.nvjpeg;
    policy.hardware_decoder = options.nvjpeg_decode == detail::NvjpegDecode::gpu;
    policy.nvjpeg_optional = true;  // a dataset's JPEGs go on with the CPU codecs, said once
    return policy;
}

GpuPolicy many_files_gpu_policy(const ConversionOptions& options, bool nvjpeg, unsigned workers, std::size_t gpu_memory) {
    GpuPolicy policy = single_image_gpu_policy(options, nvjpeg, gpu_memory);
    policy.per_device = std::max(1u, std::min(workers, sessions_per_device));
    return policy;
}

// What the start-up thread opens.
struct GpuResources::Opened {
    std::unique_ptr<ResourcePool<GpuSession>> sessions;
    std::unique_ptr<ResourcePool<detail::NvjpegCoder>> coders;  ///< with nvjpeg, unless nvJPEG failed
    std::unique_ptr<ResourcePool<detail::JpegScanCoder>> scan_coders;
    std::string scan_coder_failure;  ///< why there are none where there should be
    std::vector<std::shared_ptr<detail::NvjpegCoder::Handle>> jpeg_handles;  ///< one per GPU, for the coders still to make
    std::string jpeg_failure;
    double seconds = 0;
};

// The GPU's JPEG scan coders as one coder: each call borrows one for as long as it codes, not for the whole
// file's transform (whose entropy decode on the CPU takes longer). A failure is said (the observer says it
// once a run), and the file's scans then go to libjpeg.
class GpuResources::PooledScanCoder final : public detail::JpegScanCoder {
public:
    PooledScanCoder(ResourcePool<detail::JpegScanCoder>& pool, ConversionObserver& observer) : pool_(pool), observer_(observer) {}
    std::vector<std::optional<detail::CodedScan>> code(const detail::SourceCoefficients& source, const std::vector<detail::ScanLayout>& layouts,
                                                       const detail::ScanCoding& coding) override {
        try {
            auto scans = pool_.acquire()->code(source, layouts, coding);
            for (const auto& scan : scans) coded_ += scan ? 1 : 0;
            return scans;
        } catch (const std::exception& e) {
            observer_.notice({}, Notice::scan_coding_failed, std::string("the GPU could not code a JPEG's scans (") + e.what() + "); libjpeg codes them (said once)");
            throw Error(ErrorCode::device, e.what());
        }
    }
    std::int64_t coded() const { return coded_.load(); }

private:
    ResourcePool<detail::JpegScanCoder>& pool_;
    ConversionObserver& observer_;
    std::atomic<std::int64_t> coded_{0};
};

// Lent while the start-up runs: the caller's entropy decode has gone on beside it, and only the coding waits.
class GpuResources::WaitingScanCoder final : public detail::JpegScanCoder {
public:
    explicit WaitingScanCoder(GpuResources& owner) : owner_(owner) {}
    std::vector<std::optional<detail::CodedScan>> code(const detail::SourceCoefficients& source, const std::vector<detail::ScanLayout>& layouts,
                                                       const detail::ScanCoding& coding) override {
        try {
            // --device auto: libjpeg codes these while the GPU starts; --device cuda waits for it here.
            if (!owner_.ready_unless_starting()) return {};
        } catch (...) {  // no GPU: libjpeg codes the scans, and the caller's ready() throws this before it writes
            return {};
        }
        detail::JpegScanCoder* const coder = owner_.scan_coder();  // started: at once
        return coder ? coder->code(source, layouts, coding) : std::vector<std::optional<detail::CodedScan>>{};
    }

private:
    GpuResources& owner_;
};

GpuResources::GpuResources(GpuPolicy policy, ConversionObserver& observer)
    : policy_(std::move(policy)), observer_(observer), waiting_scan_coder_(std::make_unique<WaitingScanCoder>(*this)) {
    opening_ = std::async(std::launch::async, [p = policy_, &finished = start_finished_] {
        struct SayFinished {  // however the start-up ends
            std::atomic<bool>& finished;
            ~SayFinished() { finished = true; }
        } say_finished{finished};
        const auto start = Clock::now();
        auto result = std::make_shared<Opened>();
        Opened& opened = *result;
        // The driver's start-up (0.1-0.2 s on the H100 machine): augment's main thread no longer waits for it.
        resolve_backend(Backend::cuda);  // Error (device) without a usable GPU
        if (p.sessions) {
            std::vector<std::unique_ptr<GpuSession>> sessions;
            for (unsigned i = 0; i < p.per_device; ++i) {
                for (int d : p.devices) sessions.push_back(std::make_unique<GpuSession>(d, p.budget_each));
            }
            opened.sessions = std::make_unique<ResourcePool<GpuSession>>(std::move(sessions));
        } else {
            detail::start_cuda(p.devices.front());
        }
        if (p.scan_coders) {  // without them libjpeg codes the scans: a failure here costs the GPU nothing else
            try {
                std::vector<std::unique_ptr<detail::JpegScanCoder>> coders;
                for (unsigned i = 0; i < p.per_device; ++i) {
                    for (int d : p.devices) coders.push_back(detail::open_gpu_jpeg_scan_coder(d, p.budget_each));
                }
                // Trusted only once they code the built-in check as this system's libjpeg does (jpeg_scan_coder_check.hpp).
                coders = detail::trusted_scan_coders(std::move(coders), opened.scan_coder_failure);
                if (!coders.empty() && coders.front()) opened.scan_coders = std::make_unique<ResourcePool<detail::JpegScanCoder>>(std::move(coders));
            } catch (const Error& e) {
                opened.scan_coder_failure = e.what();
            }
        }
        if (p.nvjpeg) {  // one handle per GPU, shared by its coders
            try {
                std::vector<std::unique_ptr<detail::NvjpegCoder>> coders;
                for (int d : p.devices) {
                    opened.jpeg_handles.push_back(detail::NvjpegCoder::open_handle(d, p.hardware_decoder));
                    // One coder per GPU now, the others once the work has begun (add_coders): with the hardware
                    // decoder each takes 0.1 s to make.
                    coders.push_back(std::make_unique<detail::NvjpegCoder>(opened.jpeg_handles.back(), p.budget_each, p.optimized_huffman));
                }
                opened.coders = std::make_unique<ResourcePool<detail::NvjpegCoder>>(std::move(coders));
            } catch (const Error& e) {
                if (!p.nvjpeg_optional) throw;
                opened.jpeg_failure = e.what();
                opened.jpeg_handles.clear();
            }
        }
        opened.seconds = seconds_since(start);
        return result;
    });
}

GpuResources::~GpuResources() {
    done_ = true;
    if (adding_coders_.valid()) adding_coders_.wait();
}

bool GpuResources::ready() {
    std::call_once(opened_, [this] {
        const auto start = Clock::now();
        try {
            const std::shared_ptr<Opened> result = opening_.get();
            Opened& opened = *result;
            waited_seconds_ = seconds_since(start);
            start_seconds_ = opened.seconds;
            sessions_ = std::move(opened.sessions);
            coders_ = std::move(opened.coders);
            if (opened.scan_coders) {
                scan_coders_ = std::move(opened.scan_coders);
                pooled_scan_coder_ = std::make_unique<PooledScanCoder>(*scan_coders_, observer_);
            }
            if (!opened.scan_coder_failure.empty()) {
                observer_.notice({}, Notice::scan_coders_unusable, "no JPEG scan coder on the GPU (" + opened.scan_coder_failure + "); libjpeg codes lossless variants");
            }
            jpeg_failure_ = std::move(opened.jpeg_failure);
            started_ = true;
            if (coders_) add_coders(std::move(opened.jpeg_handles));
        } catch (const Error& e) {
            waited_seconds_ = seconds_since(start);
            if (!policy_.cpu_fallback) {
                start_failure_ = std::current_exception();
                return;
            }
            // --device auto on a machine without a GPU chose the CPU, as it always has, and says nothing; a GPU
            // that is there but does not start is said.
            if (cuda_available()) observer_.notice({}, Notice::gpu_unusable, std::string("the GPU is not usable (") + e.what() + "); using the CPU");
            fell_back_ = true;
        }
    });
    if (start_failure_) std::rethrow_exception(start_failure_);
    return started_;
}

ResourcePool<GpuSession>* GpuResources::sessions() { return ready() ? sessions_.get() : nullptr; }

ResourcePool<detail::NvjpegCoder>* GpuResources::coders() { return ready() ? coders_.get() : nullptr; }

detail::JpegScanCoder* GpuResources::scan_coder() { return ready() ? pooled_scan_coder_.get() : nullptr; }

bool GpuResources::ready_unless_starting() { return policy_.cpu_fallback && !start_finished_ ? false : ready(); }

detail::JpegScanCoder* GpuResources::scan_coder_once_started() {
    return policy_.scan_coders && !start_finished_ ? waiting_scan_coder_.get() : scan_coder();
}

std::size_t GpuResources::device_bytes() {
    std::size_t bytes = 0;
    if (sessions_) sessions_->for_each([&](GpuSession& s) { bytes += s.device_bytes(); });
    if (scan_coders_) scan_coders_->for_each([&](detail::JpegScanCoder& c) { bytes += c.device_bytes(); });
    return bytes;
}

std::int64_t GpuResources::coded_scans() const { return pooled_scan_coder_ ? pooled_scan_coder_->coded() : 0; }

// The rest of the coders, made on a thread while the first ones work.
void GpuResources::add_coders(std::vector<std::shared_ptr<detail::NvjpegCoder::Handle>> handles) {
    if (policy_.per_device <= 1) return;
    adding_coders_ = std::async(std::launch::async, [this, handles = std::move(handles)] {
        try {
            for (unsigned i = 1; i < policy_.per_device && !done_; ++i) {
                for (const auto& h : handles) coders_->add(std::make_unique<detail::NvjpegCoder>(h, policy_.budget_each, policy_.optimized_huffman));
            }
        } catch (const Error& e) {  // the run goes on with the coders it has
            observer_.notice({}, Notice::fewer_coders, std::string("fewer nvJPEG coders than planned (") + e.what() + ")");
        }
    });
}

}  // namespace gpurotate::convert
