#include "augment/pipeline.hpp"

#include "augment/interrupt.hpp"
#include "augment/run_notices.hpp"
#include "convert/conversion_plan.hpp"
#include "convert/gpu_resources.hpp"
#include "convert/run_conversion.hpp"
#include "convert/staging_buffer.hpp"
#include "formats/format_registry.hpp"
#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"

#include <gpurotate/error.hpp>

#include "core/nvtx.hpp"
#include "core/worker_threads.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>

#include <sys/stat.h>

namespace gpurotate::augment {
namespace {

using convert::Notice;
class Pipeline {
public:
    Pipeline(const std::vector<Job>& jobs, const PipelineSettings& settings, ManifestWriter& manifest, Progress& progress)
        : jobs_(jobs), settings_(settings), manifest_(manifest), progress_(progress), notices_(progress) {
        if (settings_.backend != Backend::cuda) return;
        // CUDA start-up (driver, contexts, streams) takes a good part of a second: it runs on a thread of its own
        // while the workers read and decode their first images.
        const bool jpeg_inputs = std::any_of(jobs_.begin(), jobs_.end(), [](const Job& job) { return detail::is_jpeg_path(job.input.path); });
        gpu_.emplace(convert::dataset_gpu_policy(settings_.convert, settings_.devices, settings_.workers, settings_.gpu_memory, jpeg_inputs,
                                                 settings_.cpu_fallback),
                     notices_);
    }

    PipelineTotals run() {
        run_workers(settings_.workers, [this] { work(); }, totals_);
        if (gpu_) gpu_->finish();  // no more coders wanted
        if (fatal_) std::rethrow_exception(fatal_);
        totals_.decode_seconds = static_cast<double>(decode_ns_.load()) * 1e-9;
        totals_.transform_seconds = static_cast<double>(transform_ns_.load()) * 1e-9;
        totals_.encode_seconds = static_cast<double>(encode_ns_.load()) * 1e-9;
        add_run_totals(totals_, gpu_ ? &*gpu_ : nullptr, notices_);
        return totals_;
    }

private:
    // One input's outputs reported: its notices to the run's, each output to the manifest and the totals.
    // A variant's mask, as its conversion went (made before the image, so that the image's variant can be
    // refused where its mask is missing).
    struct MaskResult {
        bool ok = false;
        std::int64_t width = 0, height = 0;
        std::string error;
    };

    // The mask's conversion: each variant's result, notices to the run's.
    class MaskReport final : public convert::ConversionObserver {
    public:
        MaskReport(Pipeline& pipeline, std::vector<MaskResult>& results) : p_(pipeline), results_(results) {}
        void notice(const std::string& path, Notice kind, const std::string& text) override { p_.notices_.notice(path, kind, text); }
        void written(std::size_t output, const convert::OutputReport& report) override {
            results_[output].ok = true;
            results_[output].width = report.width;
            results_[output].height = report.height;
        }
        void output_failed(std::size_t output, const convert::OutputReport&, const Error& error) override { results_[output].error = error.what(); }
        void input_failed(const Error& error, convert::Step) override {
            for (MaskResult& r : results_) {
                if (!r.ok && r.error.empty()) r.error = error.what();
            }
        }

    private:
        Pipeline& p_;
        std::vector<MaskResult>& results_;
    };

    class JobReport final : public convert::ConversionObserver {
    public:
        JobReport(Pipeline& pipeline, const Job& job, const SampleLabels::Prepared* labels, const std::vector<MaskResult>* masks)
            : p_(pipeline), job_(job), labels_(labels), masks_(masks), image_ok_(job.outputs.size(), false) {}
        bool image_ok(std::size_t output) const { return image_ok_[output]; }
        void notice(const std::string& path, Notice kind, const std::string& text) override { p_.notices_.notice(path, kind, text); }
        void stage(convert::Stage stage, double seconds) override {
            const auto ns = static_cast<std::int64_t>(seconds * 1e9);
            if (stage == convert::Stage::gpu_wait) return;  // the start-up's own time is gpu_start_seconds
            (stage == convert::Stage::transform ? p_.transform_ns_ : stage == convert::Stage::encode ? p_.encode_ns_ : p_.decode_ns_) += ns;
        }
        void written(std::size_t output, const convert::OutputReport& report) override {
            const PlannedOutput& out = job_.outputs[output];
            struct stat info {};
            if (::stat(out.path.c_str(), &info) != 0) {
                output_failed(output, report, Error(ErrorCode::output, "'" + out.path + "' vanished after it was written"));
                return;
            }
            // The variant's label and mask: where either cannot be, the image variant is taken back, so that
            // no image is left without its labels.
            try {
                write_companions(output, report);
            } catch (const Error& e) {
                try {
                    p_.settings_.output_folder->remove_file(out.relative);
                    if (!out.mask_relative.empty()) p_.settings_.output_folder->remove_file(out.mask_relative);
                } catch (const Error& removal) {  // said; the variant's own failure is what the manifest records
                    p_.progress_.message(std::string("gpurotate: error: ") + removal.what());
                }
                // A label or mask that does not fit its image is the input's fault (exit 3), as a bad label found
                // before the image was touched is.
                if (e.code() == ErrorCode::input) companion_input_error_ = true;
                output_failed(output, report, e);
                return;
            }
            image_ok_[output] = true;
            ManifestRecord record = p_.record_of(job_, out, report);
            record.labels = out.label_relative;
            record.mask = out.mask_relative;
            if (out.image_id > 0) {
                record.labels = p_.settings_.labels->coco_file();
                record.image_id = out.image_id;
            }
            record.ok = true;
            record.bytes = static_cast<std::uint64_t>(info.st_size);
            p_.manifest_.append(record);
            std::lock_guard<std::mutex> lock(p_.totals_mutex_);
            ++p_.totals_.outputs_written;
            p_.totals_.bytes_written += record.bytes;
            p_.totals_.lossless_outputs += report.route == convert::Route::lossless_jpeg ? 1 : 0;
            p_.totals_.trimmed_outputs += report.trimmed ? 1 : 0;
        }
        void output_failed(std::size_t output, const convert::OutputReport& report, const Error& error) override {
            ManifestRecord record = p_.record_of(job_, job_.outputs[output], report);
            record.error = error.what();
            p_.progress_.message(std::string("gpurotate: error: ") + error.what());
            p_.manifest_.append(record);
            any_failed_ = true;
            std::lock_guard<std::mutex> lock(p_.totals_mutex_);
            ++p_.totals_.outputs_failed;
        }
        void input_failed(const Error& error, convert::Step) override { p_.fail_input(job_, error.what()); }
        void finished(const convert::TripReport& trip) override {
            std::lock_guard<std::mutex> lock(p_.totals_mutex_);
            if (companion_input_error_) ++p_.totals_.inputs_failed;
            if (trip.route == convert::Route::gpu_jpeg) {
                ++p_.totals_.nvjpeg_inputs;
                if (trip.gpu.decoder == std::string_view("nvJPEG hardware")) ++p_.totals_.hardware_decoded;
            }
            ++p_.totals_.inputs_done;
            p_.progress_.image_done(any_failed_);
        }

    private:
        void write_companions(std::size_t output, const convert::OutputReport& report) {
            const PlannedOutput& out = job_.outputs[output];
            if (masks_) {
                const MaskResult& mask = (*masks_)[output];
                if (!mask.ok) throw Error(ErrorCode::input, "'" + job_.mask_path + "' (its mask): " + mask.error);
                if (mask.width != report.width || mask.height != report.height) {
                    throw Error(ErrorCode::input, "'" + job_.mask_path + "' is " + std::to_string(mask.width) + "x" + std::to_string(mask.height) +
                                                      " turned, and its image '" + job_.input.path + "' " + std::to_string(report.width) + "x" +
                                                      std::to_string(report.height) + ": a mask must have its image's size");
                }
            }
            if (!labels_) return;
            // An output rotated by an angle: its labels are turned at the element's size, then rotated.
            const labels::ImageSize written{report.width, report.height};
            const labels::ImageSize turned = out.angle != 0 ? labels::ImageSize{report.rotated_from.width, report.rotated_from.height} : written;
            const std::string text = p_.settings_.labels->label_text(*labels_, job_, output, turned, written);
            if (!out.label_relative.empty()) {
                p_.settings_.output_folder->write_file(out.label_relative, std::vector<std::uint8_t>(text.begin(), text.end()), p_.settings_.replace_outputs,
                                                       false);
            }
        }

        Pipeline& p_;
        const Job& job_;
        const SampleLabels::Prepared* labels_;
        const std::vector<MaskResult>* masks_;
        std::vector<bool> image_ok_;
        bool any_failed_ = false;
        bool companion_input_error_ = false;
    };

    // The mask's variants, made before the image's with the image's elements, in its stored format (a palette
    // PNG stays one; a JPEG mask turns losslessly where its blocks allow, and is re-encoded at its own quality
    // where they do not, as a JPEG image is). False where the mask could not be read (the sample has failed).
    bool make_masks(const Job& job, convert::StagingBuffer& staging, std::vector<MaskResult>& results) {
        results.assign(job.outputs.size(), MaskResult{});
        std::optional<detail::ImageSource> mask;
        try {
            mask.emplace(job.mask_path, settings_.convert.max_jpeg_scans);
        } catch (const Error& e) {
            fail_input(job, e.what());
            return false;
        }
        convert::ConversionOptions options = settings_.convert;
        options.quality_given = false;
        options.depth = 0;
        options.flatten = false;
        options.background.clear();
        options.nvjpeg = false;
        options.samples_are_labels = true;
        std::vector<convert::ConversionOutput> outputs;
        for (const PlannedOutput& out : job.outputs) {
            detail::ImageSink sink(settings_.output_folder->path() + "/" + out.mask_relative, settings_.replace_outputs, false, settings_.output_folder,
                                   out.mask_relative);
            // A mask's angle is its image's, always nearest (a class between two classes is no class), corners 0.
            options.rotation.reset();
            if (out.angle != 0) options.rotation = convert::AnyAngle{out.angle, Interpolation::nearest, settings_.keep_size, Orientation::identity};
            convert::ConversionPlan plan = convert::plan_conversion(*mask, sink, out.operation, options, convert::Executor{settings_.backend, true});
            outputs.push_back({std::move(sink), std::move(plan)});
        }
        convert::ConversionRun run;
        run.backend = settings_.backend;
        run.gpu = gpu_ ? &*gpu_ : nullptr;
        run.cpu_threads = 1;
        run.host_memory = settings_.host_memory / std::max(1u, settings_.workers);
        run.staging = &staging;
        MaskReport report(*this, results);
        convert::run_conversion(*mask, outputs, options, run, report);
        if (std::none_of(results.begin(), results.end(), [](const MaskResult& r) { return r.ok; })) {
            fail_input(job, "'" + job.mask_path + "' (its mask): " + (results.empty() ? std::string("no variants") : results.front().error));
            return false;
        }
        return true;
    }

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
        convert::ConversionRun run;
        run.started = std::chrono::steady_clock::now();
        // One read of the file for the pixels, the metadata, the lossless JPEG transform and nvJPEG.
        std::optional<detail::ImageSource> opened;
        try {
            detail::NvtxRange range("read");
            detail::StageScope account(detail::WorkStage::read);
            opened.emplace(job.input.path, settings_.convert.max_jpeg_scans);
        } catch (const Error& e) {
            decode_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - run.started).count();
            fail_input(job, e.what());
            return;
        }
        const detail::ImageSource& source = *opened;
        // Its labels read and checked, and its mask's variants made, before its own variants.
        std::optional<SampleLabels::Prepared> labels;
        if (settings_.labels) {
            try {
                labels = settings_.labels->prepare(job);
            } catch (const Error& e) {
                fail_input(job, e.what());
                return;
            }
        }
        std::vector<MaskResult> masks;
        if (!job.mask_path.empty() && !make_masks(job, staging, masks)) return;
        // Each output's route, element, metadata and encoding, from the planner the single-image command asks
        // too; on the GPU backend a lossless JPEG stays lossless (its scans coded by the GPU's scan coders).
        std::vector<convert::ConversionOutput> outputs;
        outputs.reserve(job.outputs.size());
        for (const PlannedOutput& out : job.outputs) {
            detail::ImageSink sink = sink_for(out);
            convert::ConversionPlan plan = convert::plan_conversion(source, sink, out.operation, conversion_options_for(settings_, out), convert::Executor{settings_.backend, true});
            outputs.push_back({std::move(sink), std::move(plan)});
        }
        // The executor: the GPU's sessions (or the CPU after a fallback), or the CPU with one thread per worker
        // (the workers already fill the cores); each worker's share of --host-memory for the variants in flight.
        run.backend = settings_.backend;
        run.gpu = gpu_ ? &*gpu_ : nullptr;
        run.cpu_threads = 1;
        run.host_memory = settings_.host_memory / std::max(1u, settings_.workers);
        run.staging = &staging;
        JobReport report(*this, job, labels ? &*labels : nullptr, job.mask_path.empty() ? nullptr : &masks);
        convert::run_conversion(source, outputs, settings_.convert, run, report);
        // A mask variant whose image variant failed goes too: a sample is written whole or not at all.
        for (std::size_t i = 0; i < masks.size(); ++i) {
            if (masks[i].ok && !report.image_ok(i)) settings_.output_folder->remove_file(job.outputs[i].mask_relative);
        }
    }

    /// An output's manifest record, not yet written (ok false, no size).
    static ManifestRecord record_of(const Job& job, const PlannedOutput& out, const convert::OutputReport& made = {}) {
        ManifestRecord record;
        record.input = job.input.path;
        record.operation = std::string(name(out.operation));
        record.output = out.path;
        record.file = out.relative;
        if (out.angle != 0) record.angle = out.angle;
        record.width = made.width;
        record.height = made.height;
        if (out.draw) {
            record.seed = out.draw->seed;
            record.draw = out.draw->index;
            if (out.draw->parameters) record.parameters = *out.draw->parameters;
        }
        return record;
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

    /// Where an output goes: replaced only with --overwrite or --resume, and without an fsync per file (one
    /// syncfs at the end instead, augment.cpp).
    detail::ImageSink sink_for(const PlannedOutput& out) const {
        detail::ImageSink sink(out.path, settings_.replace_outputs, false, settings_.output_folder, out.relative);
        sink.chosen_by(detail::FormatChoice::format_option);  // an output's format is --format's, not its name's
        return sink;
    }

    const std::vector<Job>& jobs_;
    const PipelineSettings& settings_;
    ManifestWriter& manifest_;
    Progress& progress_;
    OncePerRun notices_;
    std::optional<convert::GpuResources> gpu_;  // on the GPU backend; after notices_, which it reports to
    std::atomic<std::size_t> next_{0};
    std::atomic<std::int64_t> decode_ns_{0}, transform_ns_{0}, encode_ns_{0};
    std::mutex totals_mutex_;
    PipelineTotals totals_;
    std::exception_ptr fatal_;
    std::atomic<bool> fatal_flag_{false};
};

}  // namespace

convert::ConversionOptions conversion_options_for(const PipelineSettings& settings, const PlannedOutput& out) {
    if (out.angle == 0) return settings.convert;
    convert::ConversionOptions options = settings.convert;
    options.rotation = convert::AnyAngle{out.angle, settings.interpolation, settings.keep_size, Orientation::identity};
    return options;
}

void add_run_totals(PipelineTotals& totals, convert::GpuResources* gpu, const OncePerRun& notices) {
    if (gpu && gpu->ready()) {  // a run with nothing to do still reports a failed GPU start
        totals.device_bytes = gpu->device_bytes();
        totals.gpu_sessions = gpu->session_count();
        totals.gpu_coded_scans = gpu->coded_scans();
    }
    if (gpu) {
        totals.gpu_start_seconds = gpu->fell_back() ? 0 : gpu->start_seconds();
        totals.fell_back_to_cpu = gpu->fell_back();
    }
    totals.reencoded_jpeg_outputs = notices.reencoded();
}

void run_workers(unsigned workers, const std::function<void()>& work, PipelineTotals& totals) {
    const auto start = std::chrono::steady_clock::now();
    std::mutex adding;
    detail::run_on_workers(workers, [&] {
        detail::StageSeconds mine;
        {
            detail::ThreadStageAccount account(mine);
            work();
        }
        std::lock_guard<std::mutex> lock(adding);
        totals.stage_seconds += mine;
    });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    totals.pipeline_seconds += wall;
    totals.worker_seconds_available += wall * std::max(1u, workers);
}

PipelineTotals run_pipeline(const std::vector<Job>& jobs, const PipelineSettings& settings, ManifestWriter& manifest,
                            Progress& progress) {
    return Pipeline(jobs, settings, manifest, progress).run();
}

}  // namespace gpurotate::augment
