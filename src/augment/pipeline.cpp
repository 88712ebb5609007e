#include "augment/pipeline.hpp"

#include "augment/interrupt.hpp"
#include "convert/staging_buffer.hpp"
#include "formats/format_registry.hpp"
#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"
#include "jpeg/jpeg_scan_coder.hpp"
#include "jpeg/jpeg_scan_coder_check.hpp"
#include "metadata/metadata.hpp"
#include "jpeg/nvjpeg_codec.hpp"
#include "formats/png_codec.hpp"
#include "jpeg/turbojpeg_codec.hpp"
#include "convert/conversion_plan.hpp"
#include "convert/output_fit.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/gpu_session.hpp>
#include <gpurotate/io.hpp>

#include "core/nvtx.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

#include <sys/stat.h>

namespace gpurotate::augment {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t nanoseconds_since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// A few streams per GPU: enough to overlap one image's transfers with another's, few enough that device
// memory stays at (1 + variants) x image size per stream. As many nvJPEG coders: each holds device buffers,
// an encoder state and, with --nvjpeg-decode gpu, a hardware decoder state (0.1 s to make on an H100).
constexpr unsigned sessions_per_device = 4;

// GPU resources shared by the workers, each lent to one worker at a time: sessions (a stream and buffers
// for the fused kernel) and nvJPEG coders. A few per GPU overlap one image's transfers with another's.
template <class Resource>
class ResourcePool {
public:
    explicit ResourcePool(std::vector<std::unique_ptr<Resource>> resources) : free_(std::move(resources)), count_(static_cast<int>(free_.size())) {}

    class Lease {
    public:
        Lease(ResourcePool& pool, std::unique_ptr<Resource> r) : pool_(pool), resource_(std::move(r)) {}
        ~Lease() { pool_.give_back(std::move(resource_)); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Resource& operator*() const { return *resource_; }
        Resource* operator->() const { return resource_.get(); }

    private:
        ResourcePool& pool_;
        std::unique_ptr<Resource> resource_;
    };

    Lease acquire() {
        std::unique_lock<std::mutex> lock(mutex_);
        available_.wait(lock, [this] { return !free_.empty(); });
        auto resource = std::move(free_.back());
        free_.pop_back();
        return Lease(*this, std::move(resource));
    }

    /// A resource made after the pool was (while the first ones are already at work).
    void add(std::unique_ptr<Resource> r) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++count_;
        }
        give_back(std::move(r));
    }

    int count() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return count_;
    }

    /// Calls f on every resource; call when none is lent out (at the end of the run).
    template <class F>
    void for_each(F&& f) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& r : free_) f(*r);
    }

private:
    void give_back(std::unique_ptr<Resource> r) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            free_.push_back(std::move(r));
        }
        available_.notify_one();
    }

    mutable std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<Resource>> free_;
    int count_ = 0;
};

using SessionPool = ResourcePool<GpuSession>;
using CoderPool = ResourcePool<detail::NvjpegCoder>;
using ScanCoderPool = ResourcePool<detail::JpegScanCoder>;

// The GPU's JPEG scan coders as one coder: each call borrows one for as long as it codes, not for the
// whole file's transform (whose entropy decode on the CPU takes longer). A failure is said once a run (the
// file's scans then go to libjpeg).
class PooledScanCoder final : public detail::JpegScanCoder {
public:
    PooledScanCoder(ScanCoderPool& pool, Progress& progress) : pool_(pool), progress_(progress) {}
    std::vector<std::optional<detail::CodedScan>> code(const detail::SourceCoefficients& source, const std::vector<detail::ScanLayout>& layouts,
                                                       const detail::ScanCoding& coding) override {
        try {
            auto scans = pool_.acquire()->code(source, layouts, coding);
            for (const auto& scan : scans) coded_ += scan ? 1 : 0;
            return scans;
        } catch (const std::exception& e) {
            if (!warned_.exchange(true)) {
                progress_.message(std::string("gpurotate: warning: the GPU could not code a JPEG's scans (") + e.what() +
                                  "); libjpeg codes them (said once)");
            }
            throw Error(ErrorCode::device, e.what());
        }
    }

    std::int64_t coded() const { return coded_.load(); }

private:
    ScanCoderPool& pool_;
    Progress& progress_;
    std::atomic<std::int64_t> coded_{0};
    std::atomic<bool> warned_{false};
};

class Pipeline {
public:
    Pipeline(const std::vector<Job>& jobs, const PipelineSettings& settings, ManifestWriter& manifest, Progress& progress)
        : jobs_(jobs), settings_(settings), manifest_(manifest), progress_(progress) {
        if (settings_.backend != Backend::cuda) return;
        // CUDA start-up (driver, contexts, streams) takes a good part of a second: it runs on a thread of
        // its own while the workers read and decode their first images.
        // As many nvJPEG coders as streams, with the same budget each: twice as many coders, with nvJPEG's
        // decode holding its coder, were no faster (bench/RESULTS.md, 2026-11-22).
        per_device_ = std::max(1u, std::min(settings_.workers, sessions_per_device));
        // JPEG scan coders where JPEG outputs may be lossless transforms (without --nvjpeg or --quality), as
        // many as streams. --gpu-memory is per GPU: its streams share it, or half of it where nvJPEG's coders
        // or the scan coders have the rest.
        const bool scan_coders = !settings_.convert.nvjpeg && !settings_.convert.quality_given && detail::turbojpeg_available() &&
                                 std::any_of(jobs_.begin(), jobs_.end(), [](const Job& job) { return detail::is_jpeg_path(job.input.path); });
        budget_each_ = settings_.gpu_memory / per_device_ / (settings_.convert.nvjpeg || scan_coders ? 2 : 1);
        const bool gpu_decode = settings_.convert.nvjpeg_decode == detail::NvjpegDecode::gpu;
        opening_ = std::async(std::launch::async, [devices = settings_.devices, per_device = per_device_, budget = budget_each_,
                                                   nvjpeg = settings_.convert.nvjpeg, gpu_decode, scan_coders] {
            const auto start = Clock::now();
            Opened opened;
            std::vector<std::unique_ptr<GpuSession>> sessions;
            std::vector<std::unique_ptr<detail::JpegScanCoder>> scan_coder_list;
            for (unsigned i = 0; i < per_device; ++i) {
                for (int d : devices) sessions.push_back(std::make_unique<GpuSession>(d, budget));
            }
            opened.pool = std::make_unique<SessionPool>(std::move(sessions));
            if (scan_coders) {  // without them libjpeg codes the scans: a failure here costs the GPU nothing else
                try {
                    for (unsigned i = 0; i < per_device; ++i) {
                        for (int d : devices) scan_coder_list.push_back(detail::open_gpu_jpeg_scan_coder(d, budget));
                    }
                    // Trusted only once they code the built-in check as this system's libjpeg does (jpeg_scan_coder_check.hpp).
                    scan_coder_list = detail::trusted_scan_coders(std::move(scan_coder_list), opened.scan_coder_failure);
                    if (!scan_coder_list.empty() && scan_coder_list.front()) opened.scan_coders = std::make_unique<ScanCoderPool>(std::move(scan_coder_list));
                } catch (const Error& e) {
                    opened.scan_coder_failure = e.what();
                }
            }
            if (nvjpeg) {  // and nvJPEG: one handle per GPU, shared by its coders
                try {
                    std::vector<std::unique_ptr<detail::NvjpegCoder>> coders;
                    for (int d : devices) {
                        opened.jpeg_handles.push_back(detail::NvjpegCoder::open_handle(d, gpu_decode));
                        // One coder per GPU now, the others once the work has begun (add_coders): with the
                        // hardware decoder each takes 0.1 s to make. Standard Huffman tables, as the CPU encoders write.
                        coders.push_back(std::make_unique<detail::NvjpegCoder>(opened.jpeg_handles.back(), budget, false));
                    }
                    opened.coders = std::make_unique<CoderPool>(std::move(coders));
                } catch (const Error& e) {
                    opened.jpeg_failure = e.what();
                    opened.jpeg_handles.clear();
                }
            }
            opened.nanoseconds = nanoseconds_since(start);
            return opened;
        });
    }

    PipelineTotals run() {
        std::vector<std::thread> workers;
        for (unsigned i = 1; i < settings_.workers; ++i) workers.emplace_back([this] { work(); });
        work();
        for (auto& w : workers) w.join();
        workers_done_ = true;  // no more coders wanted
        if (fatal_) std::rethrow_exception(fatal_);
        totals_.decode_seconds = static_cast<double>(decode_ns_.load()) * 1e-9;
        totals_.transform_seconds = static_cast<double>(transform_ns_.load()) * 1e-9;
        totals_.encode_seconds = static_cast<double>(encode_ns_.load()) * 1e-9;
        if (settings_.backend == Backend::cuda) sessions();  // a run with nothing to do still reports a failed GPU start
        if (sessions_) {
            sessions_->for_each([&](GpuSession& s) { totals_.device_bytes += s.device_bytes(); });
            if (scan_coders_) scan_coders_->for_each([&](detail::JpegScanCoder& c) { totals_.device_bytes += c.device_bytes(); });
            totals_.gpu_sessions = sessions_->count();
        }
        if (pooled_scan_coder_) totals_.gpu_coded_scans = pooled_scan_coder_->coded();
        totals_.reencoded_jpeg_outputs = reencoded_jpeg_outputs_.load();
        return totals_;
    }

private:
    void work() {
        convert::StagingBuffer staging(settings_.backend == Backend::cuda);
        while (!stop_requested() && !fatal_flag_.load()) {
            const std::size_t index = next_.fetch_add(1);
            if (index >= jobs_.size()) return;
            try {
                process(jobs_[index], staging);
            } catch (const std::bad_alloc&) {
                // One input's allocation failing (a 20000x20000 decode under a memory limit) fails that input
                // alone, named, as a damaged file does; the other workers' images go on. What this worker's
                // buffer grew to for it is given back first.
                staging.release();
                try {
                    fail_input(jobs_[index], "out of host memory for it and its variants");
                } catch (...) {  // the manifest could not record it: that ends the run, as below
                    std::lock_guard<std::mutex> lock(totals_mutex_);
                    if (!fatal_) fatal_ = std::current_exception();
                    fatal_flag_ = true;
                }
            } catch (...) {
                std::lock_guard<std::mutex> lock(totals_mutex_);
                if (!fatal_) fatal_ = std::current_exception();
                fatal_flag_ = true;
            }
        }
    }

    void process(const Job& job, convert::StagingBuffer& staging) {
        auto start = Clock::now();
        // One read of the file for the pixels, the metadata, the lossless JPEG transform and nvJPEG.
        std::optional<detail::ImageSource> opened;
        try {
            detail::NvtxRange range("read");
            opened.emplace(job.input.path, settings_.convert.max_jpeg_scans);
        } catch (const Error& e) {
            decode_ns_ += nanoseconds_since(start);
            fail_input(job, e.what());
            return;
        }
        decode_ns_ += nanoseconds_since(start);
        const detail::ImageSource& source = *opened;
        // Each output's route, element, metadata and encoding, from the planner the single-image command asks too.
        std::vector<convert::ConversionPlan> plans;
        plans.reserve(job.outputs.size());
        for (const PlannedOutput& out : job.outputs) {
            plans.push_back(convert::plan_conversion(source, sink_for(out), out.operation, settings_.convert, executor()));
            warn_once(job, plans.back());
        }
        std::vector<Remaining> remaining(job.outputs.size());
        for (std::size_t i = 0; i < job.outputs.size(); ++i) remaining[i] = {i, plans[i].why_reencoded};
        // A JPEG's JPEG variants in the compressed domain, all from one decode of its entropy-coded data;
        // what is left (other formats, variants that are not perfect with --jpeg-edge reencode) is decoded.
        bool lossless_failed = false;
        if (std::any_of(plans.begin(), plans.end(), [](const auto& plan) { return plan.route == convert::Route::lossless_jpeg; })) {
            // On the GPU backend the variants' scans are coded there, once the GPU has started (this throws,
            // ending the run, where it cannot and --device cuda leaves no fallback; after a fallback libjpeg codes them).
            if (settings_.backend == Backend::cuda) sessions();
            try {
                remaining = transform_losslessly(job, plans, source, lossless_failed);
            } catch (const Error& e) {
                fail_input(job, e.what());
                return;
            }
            if (remaining.empty()) {
                image_done(lossless_failed);
                return;
            }
        }
        make_variants(job, plans, remaining, source, staging, lossless_failed);
    }

    /// What runs the plans: the resolved backend, and the GPU's JPEG scan coders (a lossless JPEG stays
    /// lossless on the GPU backend).
    convert::Executor executor() const { return convert::Executor{settings_.backend, true}; }

    /// An output still to make from pixels, and why a JPEG among them is re-encoded (empty: not a JPEG from a JPEG).
    struct Remaining {
        std::size_t output = 0;
        std::string why_reencoded;
    };

    /// Writes the JPEG variants of `job` that the lossless transform makes, one coefficient read for all, and
    /// returns the outputs left to decode and encode. Throws Error (input) for a damaged JPEG.
    std::vector<Remaining> transform_losslessly(const Job& job, const std::vector<convert::ConversionPlan>& plans, const detail::ImageSource& source,
                                                bool& any_failed) {
        std::vector<std::size_t> lossless;
        std::vector<detail::LosslessJpegVariant> variants;
        for (std::size_t i = 0; i < plans.size(); ++i) {
            if (plans[i].route != convert::Route::lossless_jpeg) continue;
            lossless.push_back(i);
            variants.push_back({plans[i].element, &plans[i].metadata});
        }
        const convert::ConversionOptions& convert = settings_.convert;
        auto start = Clock::now();
        std::vector<detail::LosslessJpegReport> reports;
        std::vector<std::optional<std::vector<std::uint8_t>>> encoded;
        {
            detail::NvtxRange range("lossless JPEG transform");
            encoded = source.transform_losslessly(variants, convert.jpeg_edge, convert.strip, convert.max_pixels, reports, pooled_scan_coder_.get());
        }
        transform_ns_ += nanoseconds_since(start);
        // The plan chose this route for a JPEG with libjpeg-turbo's transcoding API, which answers every variant.
        if (encoded.size() != variants.size()) throw Error(ErrorCode::internal, "'" + job.input.path + "': the lossless JPEG transform answered nothing");
        start = Clock::now();
        std::vector<std::string> why(plans.size());
        std::vector<bool> made(plans.size(), false);
        for (std::size_t k = 0; k < lossless.size(); ++k) {
            const std::size_t i = lossless[k];
            const detail::LosslessJpegReport& report = reports[k];
            // Re-encoded: the imperfect variants by default, and with trim those under one MCU across their
            // mirrored side (trimming would leave nothing), as the single-image command does.
            if (!encoded[k] && convert.jpeg_edge != detail::JpegEdge::error) {
                why[i] = convert::why_not_lossless(report, variants[k].element, convert.jpeg_edge);
                continue;
            }
            made[i] = true;
            const bool ok = write_output(job, job.outputs[i], report.out_width, report.out_height, [&] {
                if (!encoded[k]) throw detail::imperfect_transform_error(job.input.path, variants[k].element, report);
                sink_for(job.outputs[i]).write_encoded(*encoded[k]);
            });
            any_failed |= !ok;
            std::lock_guard<std::mutex> lock(totals_mutex_);
            totals_.lossless_outputs += ok ? 1 : 0;
            totals_.trimmed_outputs += ok && report.trimmed ? 1 : 0;
        }
        encode_ns_ += nanoseconds_since(start);
        std::vector<Remaining> rest;
        for (std::size_t i = 0; i < plans.size(); ++i) {
            if (!made[i]) rest.push_back({i, why[i].empty() ? plans[i].why_reencoded : why[i]});
        }
        return rest;
    }

    /// Decodes the input, makes the `remaining` variants of `job` in one pass and encodes them; `failed_before`
    /// is whether an output of the same input already failed (the input's progress line says so).
    void make_variants(const Job& job, const std::vector<convert::ConversionPlan>& plans, const std::vector<Remaining>& remaining,
                       const detail::ImageSource& source, convert::StagingBuffer& staging, bool failed_before) {
        const convert::ConversionOptions& convert = settings_.convert;
        const auto all_remaining = [&](auto&& predicate) {
            return std::all_of(remaining.begin(), remaining.end(), [&](const Remaining& r) { return predicate(plans[r.output]); });
        };
        auto start = Clock::now();
        Image input;
        try {
            detail::NvtxRange range("decode");
            // nvJPEG's route where every output takes it; the pixels' route where it declines.
            const bool jpeg_on_gpu = all_remaining([](const convert::ConversionPlan& plan) { return plan.route == convert::Route::gpu_jpeg; });
            if (jpeg_on_gpu && convert.nvjpeg_decode == detail::NvjpegDecode::gpu && transcode_on_gpu(job, plans, source, nullptr, start)) return;
            // A PNG whose outputs are all PNG keeps its stored format (palette indices, 1/2/4-bit samples).
            input = source.decode(convert.max_pixels, all_remaining([](const convert::ConversionPlan& plan) { return plan.keep_stored_png; }));
            // --depth 8 and --flatten/--background, and the refusal where the outputs' format still cannot hold
            // the pixels (the outputs of one input share their format).
            input = convert::fit_to_output(std::move(input), convert, sink_for(job.outputs[remaining.front().output]));
            // Also where nvJPEG declined to decode a file that libjpeg-turbo takes.
            if (jpeg_on_gpu && transcode_on_gpu(job, plans, source, &input, start)) return;
        } catch (const Error& e) {
            decode_ns_ += nanoseconds_since(start);
            fail_input(job, e.what());
            return;
        }
        decode_ns_ += nanoseconds_since(start);
        if (!warned_losses_.load()) {  // once a run, as the animation warning
            const std::string losses = source.decoder_losses(input.format(), convert.strip);
            if (!losses.empty() && !warned_losses_.exchange(true)) {
                progress_.message("gpurotate: warning: '" + job.input.path + "' (and perhaps others): " + losses);
            }
        }

        // One target per distinct element: `--random N --with-replacement` draws an element many times, and
        // D4 has 8, the fused transform's most; each output is written from its element's target.
        std::vector<TransformTarget> targets;
        std::vector<std::size_t> target_of(remaining.size());
        for (std::size_t k = 0; k < remaining.size(); ++k) {
            const Orientation element = plans[remaining[k].output].element;
            const auto same = std::find_if(targets.begin(), targets.end(), [&](const TransformTarget& t) { return t.orientation == element; });
            target_of[k] = static_cast<std::size_t>(same - targets.begin());
            if (same != targets.end()) continue;
            const Extent e = output_extent(element, {input.width(), input.height()});
            const std::size_t pitch = static_cast<std::size_t>(e.width) * input.format().pixel_bytes();
            targets.push_back({element, ImageView{nullptr, e.width, e.height, pitch, input.format()}});
        }
        // Every variant has the input's bytes. As many as fit this worker's share of --host-memory beside the
        // decoded input and one encoded output (up to an image's bytes: a PNG stored uncompressed) are made in
        // one pass (the fused kernel reads the input once for all of them); a larger image makes them a group at
        // a time, at least one.
        const std::size_t variant_bytes = (checked_image_bytes(input.width(), input.height(), input.format()) + 63) / 64 * 64;
        const std::size_t held = input.view().pitch * static_cast<std::size_t>(input.height()) + variant_bytes;
        const std::size_t share = settings_.host_memory / std::max(1u, settings_.workers);
        const std::size_t group = share > held ? std::max<std::size_t>(1, (share - held) / variant_bytes) : 1;

        // Throws, ending the run, when the GPU cannot start and --device cuda leaves no fallback.
        SessionPool* const pool = settings_.backend == Backend::cuda ? sessions() : nullptr;

        if (all_remaining([](const convert::ConversionPlan& plan) { return plan.keep_stored_png; }) && !convert.strip && !noted_png_.load()) {
            // Once a run, as the EXIF warning: a dataset of interlaced PNGs would otherwise say it per image.
            const std::string notes = detail::png_output_notes(source.metadata(), input.format());
            if (!notes.empty() && !noted_png_.exchange(true)) progress_.message("gpurotate: note: '" + job.input.path + "' (and perhaps others): PNG " + notes);
        }
        if (!noted_unwritten_.load()) {  // once a run, as above
            for (const Remaining& r : remaining) {
                const std::string unwritten = sink_for(job.outputs[r.output]).unwritten(source, plans[r.output].metadata, convert.strip);
                if (!unwritten.empty() && !noted_unwritten_.exchange(true)) {
                    progress_.message("gpurotate: note: '" + job.input.path + "' (and perhaps others): " + unwritten);
                }
            }
        }
        bool any_failed = failed_before;
        for (std::size_t first = 0; first < targets.size(); first += group) {
            const std::size_t last = std::min(targets.size(), first + group);
            // The group's variants side by side in the staging buffer, each starting on a 64-byte boundary.
            std::byte* base = staging.reserve((last - first) * variant_bytes);
            std::vector<TransformTarget> made(targets.begin() + static_cast<std::ptrdiff_t>(first), targets.begin() + static_cast<std::ptrdiff_t>(last));
            for (std::size_t i = 0; i < made.size(); ++i) made[i].dst.data = base + i * variant_bytes;
            start = Clock::now();
            try {
                transform_all(job, input, made, pool);
            } catch (const Error& e) {  // a GPU failure with --device cuda: this image fails, the run goes on
                transform_ns_ += nanoseconds_since(start);
                fail_input(job, e.what());
                return;
            }
            transform_ns_ += nanoseconds_since(start);
            start = Clock::now();
            for (std::size_t k = 0; k < remaining.size(); ++k) {
                if (target_of[k] < first || target_of[k] >= last) continue;
                const Remaining& r = remaining[k];
                const ConstImageView pixels = made[target_of[k] - first].dst;
                any_failed |= !write_output(job, job.outputs[r.output], pixels.width, pixels.height, [&] {
                    sink_for(job.outputs[r.output]).write(pixels, plans[r.output].write_options());
                    if (!r.why_reencoded.empty()) reencoded(job, r.why_reencoded);
                });
            }
            encode_ns_ += nanoseconds_since(start);
        }
        image_done(any_failed);
    }

    /// Counts a JPEG variant of a JPEG written with new pixels, and says so once a run: a rotation is lossless
    /// by default, so this is said without -v (the summary counts them all).
    void reencoded(const Job& job, const std::string& why) {
        ++reencoded_jpeg_outputs_;
        if (!noted_reencoded_.exchange(true)) {
            progress_.message("gpurotate: note: '" + job.input.path + "' (and perhaps others): JPEG variants re-encoded, not transformed losslessly: " + why);
        }
    }

    /// A plan's warnings, each kind once a run (a dataset would otherwise say it per image).
    void warn_once(const Job& job, const convert::ConversionPlan& plan) {
        for (const convert::PlanWarning& warning : plan.warnings) {
            using Kind = convert::PlanWarning::Kind;
            std::atomic<bool>& warned = warning.kind == Kind::animation        ? warned_frames_
                                        : warning.kind == Kind::option_unused  ? warned_unused_
                                        : warning.kind == Kind::trailing_bytes ? warned_trailing_
                                        : warning.kind == Kind::thumbnail_left_out ? warned_thumbnail_
                                                                               : warned_orientation_;
            if (!warned.exchange(true)) progress_.message("gpurotate: warning: '" + job.input.path + "' (and perhaps others) " + warning.text);
        }
    }

    /// Where an output goes: replaced only with --overwrite or --resume, and without an fsync per file (one
    /// syncfs at the end instead, augment.cpp).
    detail::ImageSink sink_for(const PlannedOutput& out) const {
        detail::ImageSink sink(out.path, settings_.replace_outputs, false, settings_.output_folder, out.relative);
        sink.chosen_by(detail::FormatChoice::format_option);  // an output's format is --format's, not its name's
        return sink;
    }

    void image_done(bool any_failed) {
        {
            std::lock_guard<std::mutex> lock(totals_mutex_);
            ++totals_.inputs_done;
        }
        progress_.image_done(any_failed);
    }

    /// A JPEG's variants encoded on the GPU by a coder of the pool, from `decoded` (libjpeg-turbo's pixels,
    /// uploaded) or, without it, from nvJPEG's decode of the file. False when nvJPEG is not usable or
    /// declines the file (damaged, CMYK, over the GPU budget): the caller then takes the CPU codecs, which
    /// decide, and name any damage.
    bool transcode_on_gpu(const Job& job, const std::vector<convert::ConversionPlan>& plans, const detail::ImageSource& source, const Image* decoded,
                          Clock::time_point start) {
        const std::int64_t before_ns = nanoseconds_since(start);  // the file, its metadata and a CPU decode
        if (!sessions()) return false;  // the GPU did not start (--device auto fell back to the CPU)
        if (!coders_) {
            if (!warned_coder_.exchange(true)) progress_.message("gpurotate: warning: nvJPEG is not usable (" + jpeg_failure_ + "); JPEGs take the CPU codecs");
            return false;
        }
        std::vector<Orientation> elements;
        for (const convert::ConversionPlan& plan : plans) elements.push_back(plan.element);
        detail::GpuJpegReport report;
        std::optional<std::vector<std::vector<std::uint8_t>>> encoded;
        const auto gpu_start = Clock::now();
        {
            auto coder = coders_->acquire();
            encoded = coder->variants(source.bytes(), source.path(), elements, plans.front().encoding.quality, settings_.convert.read_options(), report,
                                      decoded);
        }
        if (!encoded) return false;
        // Decode is the read and the decode (nvJPEG's included); transform is the rest of the GPU work, the
        // wait for a coder included (upload, kernel, encodes, downloads).
        decode_ns_ += before_ns + static_cast<std::int64_t>(report.decode_seconds * 1e9);
        transform_ns_ += nanoseconds_since(gpu_start) - static_cast<std::int64_t>(report.decode_seconds * 1e9);
        const auto write_start = Clock::now();
        bool any_failed = false;
        for (std::size_t i = 0; i < job.outputs.size(); ++i) {
            // The report has the first output's size; the others are it or its transpose.
            const bool swaps = swaps_axes(elements[i]) != swaps_axes(elements.front());
            const std::int64_t w = swaps ? report.height : report.width, h = swaps ? report.width : report.height;
            any_failed |= !write_output(job, job.outputs[i], w, h, [&] {
                sink_for(job.outputs[i]).write_encoded(detail::with_metadata((*encoded)[i], plans[i].metadata));
                reencoded(job, plans[i].why_reencoded);
            });
        }
        encode_ns_ += nanoseconds_since(write_start);
        {
            std::lock_guard<std::mutex> lock(totals_mutex_);
            ++totals_.nvjpeg_inputs;
            if (report.decoder == std::string_view("nvJPEG hardware")) ++totals_.hardware_decoded;
        }
        image_done(any_failed);
        return true;
    }

    void transform_all(const Job& job, const Image& input, const std::vector<TransformTarget>& targets, SessionPool* pool) {
        if (pool) {
            try {
                const auto session = pool->acquire();
                detail::NvtxRange range("gpu");
                (*session).transform(input.view(), targets);
                return;
            } catch (const Error& e) {
                if (e.code() != ErrorCode::device || !settings_.cpu_fallback) throw;
                progress_.message("gpurotate: warning: GPU failed on '" + job.input.path + "' (" + e.what() + "); done on the CPU");
            }
        }
        detail::NvtxRange range("cpu transform");
        transform_multi(input.view(), targets, Backend::cpu, 1);  // one thread: the workers already fill the cores
    }

    /// An output's manifest record, not yet written (ok false, no size).
    static ManifestRecord record_of(const Job& job, const PlannedOutput& out) {
        ManifestRecord record;
        record.input = job.input.path;
        record.operation = std::string(name(out.operation));
        record.output = out.path;
        record.file = out.relative;
        if (out.draw) {
            record.seed = out.draw->seed;
            record.draw = out.draw->index;
            if (out.draw->parameters) record.parameters = *out.draw->parameters;
        }
        return record;
    }

    /// Runs `write` for one output and records what happened in the manifest and the totals.
    template <class Write>
    bool write_output(const Job& job, const PlannedOutput& out, std::int64_t width, std::int64_t height, Write&& write) {
        ManifestRecord record = record_of(job, out);
        record.width = width;
        record.height = height;
        try {
            detail::NvtxRange range("encode");
            write();
            struct stat info {};
            if (::stat(out.path.c_str(), &info) != 0) throw Error(ErrorCode::output, "'" + out.path + "' vanished after it was written");
            record.ok = true;
            record.bytes = static_cast<std::uint64_t>(info.st_size);
        } catch (const Error& e) {
            record.error = e.what();
            progress_.message(std::string("gpurotate: error: ") + e.what());
        }
        manifest_.append(record);
        std::lock_guard<std::mutex> lock(totals_mutex_);
        if (record.ok) {
            ++totals_.outputs_written;
            totals_.bytes_written += record.bytes;
        } else {
            ++totals_.outputs_failed;
        }
        return record.ok;
    }

    void fail_input(const Job& job, const std::string& cause) {
        // Every failure names its file, also where the cause's own words do not (an allocation's).
        const std::string reason = cause.find(job.input.path) == std::string::npos ? "'" + job.input.path + "': " + cause : cause;
        progress_.message("gpurotate: error: " + reason + " (skipped)");
        for (const PlannedOutput& out : job.outputs) {
            ManifestRecord record = record_of(job, out);
            record.error = reason;
            manifest_.append(record);
        }
        {
            std::lock_guard<std::mutex> lock(totals_mutex_);
            ++totals_.inputs_done;
            ++totals_.inputs_failed;
            totals_.outputs_failed += static_cast<std::int64_t>(job.outputs.size());
        }
        progress_.image_done(true);
    }

    const std::vector<Job>& jobs_;
    const PipelineSettings& settings_;
    ManifestWriter& manifest_;
    Progress& progress_;
    // The GPU sessions once they are open; nullptr on the CPU backend or after a fallback.
    SessionPool* sessions() {
        std::call_once(opened_, [this] {
            if (!opening_.valid()) return;
            try {
                Opened opened = opening_.get();
                sessions_ = std::move(opened.pool);
                coders_ = std::move(opened.coders);
                if (opened.scan_coders) {
                    scan_coders_ = std::move(opened.scan_coders);
                    pooled_scan_coder_ = std::make_unique<PooledScanCoder>(*scan_coders_, progress_);
                }
                if (!opened.scan_coder_failure.empty()) {
                    progress_.message("gpurotate: warning: no JPEG scan coder on the GPU (" + opened.scan_coder_failure + "); libjpeg codes lossless variants");
                }
                jpeg_failure_ = std::move(opened.jpeg_failure);
                totals_.gpu_start_seconds = static_cast<double>(opened.nanoseconds) * 1e-9;
                if (coders_) add_coders(std::move(opened.jpeg_handles));
            } catch (const Error& e) {
                if (!settings_.cpu_fallback) {
                    start_failure_ = std::current_exception();
                    return;
                }
                progress_.message(std::string("gpurotate: warning: the GPU is not usable (") + e.what() + "); using the CPU");
                totals_.fell_back_to_cpu = true;
            }
        });
        if (start_failure_) std::rethrow_exception(start_failure_);
        return sessions_.get();
    }

    /// The rest of the coders, made on a thread while the first ones work.
    void add_coders(std::vector<std::shared_ptr<detail::NvjpegCoder::Handle>> handles) {
        adding_coders_ = std::async(std::launch::async, [this, handles = std::move(handles)] {
            try {
                for (unsigned i = 1; i < per_device_ && !workers_done_; ++i) {
                    for (const auto& h : handles) coders_->add(std::make_unique<detail::NvjpegCoder>(h, budget_each_, false));
                }
            } catch (const Error& e) {  // the run goes on with the coders it has
                progress_.message(std::string("gpurotate: warning: fewer nvJPEG coders than planned (") + e.what() + ")");
            }
        });
    }

    // What the start-up thread opens.
    struct Opened {
        std::unique_ptr<SessionPool> pool;
        std::unique_ptr<CoderPool> coders;  ///< with --nvjpeg, unless nvJPEG failed
        std::unique_ptr<ScanCoderPool> scan_coders;  ///< without --nvjpeg and --quality, for JPEG inputs
        std::string scan_coder_failure;              ///< why there are none where there should be
        std::vector<std::shared_ptr<detail::NvjpegCoder::Handle>> jpeg_handles;  ///< one per GPU, for the coders still to make
        std::string jpeg_failure;          ///< why it did
        std::int64_t nanoseconds = 0;
    };
    std::future<Opened> opening_;
    unsigned per_device_ = 0;      // GPU sessions (streams) per GPU, and as many nvJPEG coders
    std::size_t budget_each_ = 0;  // device bytes each session and each coder may hold
    std::unique_ptr<CoderPool> coders_;
    std::atomic<bool> workers_done_{false};
    std::future<void> adding_coders_;  // declared after coders_: waited for before they are destroyed
    std::string jpeg_failure_;
    std::once_flag opened_;
    std::exception_ptr start_failure_;
    std::unique_ptr<SessionPool> sessions_;
    std::unique_ptr<ScanCoderPool> scan_coders_;
    std::unique_ptr<PooledScanCoder> pooled_scan_coder_;  // nullptr: libjpeg codes every lossless variant
    std::atomic<std::size_t> next_{0};
    std::atomic<std::int64_t> decode_ns_{0}, transform_ns_{0}, encode_ns_{0};
    std::mutex totals_mutex_;
    PipelineTotals totals_;
    std::exception_ptr fatal_;
    std::atomic<bool> fatal_flag_{false};
    std::atomic<bool> warned_orientation_{false};  // the EXIF warning once a run, not once an image
    std::atomic<bool> warned_frames_{false};       // and the animation warning
    std::atomic<bool> warned_unused_{false};       // and an option that does nothing for the outputs
    std::atomic<bool> warned_trailing_{false};     // and bytes after an image's end
    std::atomic<bool> warned_thumbnail_{false};    // and an EXIF thumbnail that could not be turned
    std::atomic<bool> warned_losses_{false};       // and what a decoder leaves behind
    std::atomic<bool> noted_png_{false};           // what a PNG output leaves out, once a run
    std::atomic<bool> noted_unwritten_{false};     // what an output format cannot carry, once a run
    std::atomic<bool> warned_coder_{false};
    std::atomic<bool> noted_reencoded_{false};     // JPEG variants of a JPEG given new pixels, once a run
    std::atomic<std::int64_t> reencoded_jpeg_outputs_{0};
};

}  // namespace

PipelineTotals run_pipeline(const std::vector<Job>& jobs, const PipelineSettings& settings, ManifestWriter& manifest,
                            Progress& progress) {
    return Pipeline(jobs, settings, manifest, progress).run();
}

}  // namespace gpurotate::augment
