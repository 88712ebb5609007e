#include "augment/shard_pipeline.hpp"

#include "augment/interrupt.hpp"
#include "augment/run_notices.hpp"
#include "augment/shard_plan.hpp"
#include "augment/shard_reader.hpp"
#include "augment/shard_writer.hpp"
#include "convert/conversion_plan.hpp"
#include "convert/gpu_resources.hpp"
#include "convert/run_conversion.hpp"
#include "convert/staging_buffer.hpp"
#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <set>

#include <sys/stat.h>

namespace gpurotate::augment {
namespace {

using convert::Notice;

// The variants of one sample, kept in memory until every one is made: a sample is written whole or left out.
class MemberCapture final : public detail::ContainingFolder {
public:
    void write_file(const std::string& relative, const std::vector<std::uint8_t>& bytes, bool, bool) const override {
        std::lock_guard<std::mutex> lock(mutex_);
        files_[relative] = bytes;
    }
    std::vector<std::uint8_t> take(const std::string& relative) {
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<std::uint8_t> bytes = std::move(files_[relative]);
        files_.erase(relative);
        return bytes;
    }

private:
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::vector<std::uint8_t>> files_;
};

// A run stopped by Ctrl-C abandons the shard it is writing (its temporary file goes); --resume redoes it.
struct Interrupted {};

// A sample that cannot be made, with the reason that names its member.
struct SampleFailure {
    std::string reason;
};

class ShardPipeline {
public:
    ShardPipeline(const std::vector<Job>& shards, const PipelineSettings& settings, const AugmentOptions& options,
                  const std::optional<labels::YoloSchema>& yolo, ManifestWriter& manifest, Progress& progress)
        : shards_(shards), settings_(settings), options_(options), yolo_(yolo), manifest_(manifest), progress_(progress), notices_(progress),
          workers_(std::max(1u, std::min<unsigned>(settings.workers, static_cast<unsigned>(shards.size())))) {
        if (settings_.backend != Backend::cuda) return;
        // A shard's members are not known before it is read: the JPEG coders are asked for, as for a JPEG dataset.
        gpu_.emplace(convert::dataset_gpu_policy(settings_.convert, settings_.devices, workers_, settings_.gpu_memory, true, settings_.cpu_fallback),
                     notices_);
    }

    PipelineTotals run() {
        run_workers(workers_, [this] { work(); }, totals_);
        if (gpu_) gpu_->finish();
        if (fatal_) std::rethrow_exception(fatal_);
        totals_.decode_seconds = static_cast<double>(stage_ns_[0].load()) * 1e-9;
        totals_.transform_seconds = static_cast<double>(stage_ns_[1].load()) * 1e-9;
        totals_.encode_seconds = static_cast<double>(stage_ns_[2].load()) * 1e-9;
        add_run_totals(totals_, gpu_ ? &*gpu_ : nullptr, notices_);
        return totals_;
    }

private:
    // One image member's conversion: each variant's report, or the first reason one failed.
    class MemberReport final : public convert::ConversionObserver {
    public:
        MemberReport(ShardPipeline& p, std::size_t variants) : p_(p), reports_(variants) {}
        void notice(const std::string& path, Notice kind, const std::string& text) override { p_.notices_.notice(path, kind, text); }
        bool wants(Notice kind) const override { return p_.notices_.wants(kind); }
        void stage(convert::Stage stage, double seconds) override {
            if (stage == convert::Stage::gpu_wait) return;
            const int slot = stage == convert::Stage::transform ? 1 : stage == convert::Stage::encode ? 2 : 0;
            p_.stage_ns_[slot] += static_cast<std::int64_t>(seconds * 1e9);
        }
        void written(std::size_t output, const convert::OutputReport& report) override { reports_[output] = report; }
        void output_failed(std::size_t, const convert::OutputReport&, const Error& error) override {
            if (error_.empty()) error_ = error.what();
        }
        void input_failed(const Error& error, convert::Step) override {
            if (error_.empty()) error_ = error.what();
        }
        const std::string& error() const { return error_; }
        const convert::OutputReport& report(std::size_t output) const { return reports_[output]; }

    private:
        ShardPipeline& p_;
        std::vector<convert::OutputReport> reports_;
        std::string error_;
    };

    // A member of the output shard, made and not yet written.
    struct OutputMember {
        std::string name;
        std::vector<std::uint8_t> bytes;
        std::time_t mtime = 0;
        unsigned mode = 0644;
    };

    void work() {
        convert::StagingBuffer staging(settings_.backend == Backend::cuda);
        while (!stop_requested() && !fatal_flag_.load()) {
            const std::size_t index = next_.fetch_add(1);
            if (index >= shards_.size()) return;
            try {
                process(shards_[index], staging);
            } catch (...) {
                std::lock_guard<std::mutex> lock(totals_mutex_);
                if (!fatal_) fatal_ = std::current_exception();
                fatal_flag_ = true;
            }
        }
    }

    void process(const Job& shard, convert::StagingBuffer& staging) {
        const PlannedOutput& out = shard.outputs.front();
        const std::size_t share = settings_.host_memory / workers_;
        std::vector<ManifestRecord> written;  // recorded once the shard is in place: the manifest never names a member of a missing shard
        std::set<std::string> keys;           // the variant keys written, which must differ from sample to sample
        std::set<std::string> sample_keys;    // the input's, whose members must be consecutive
        std::size_t failed_samples = 0;       // left out of the shard: it is written, but not complete
        try {
            settings_.output_folder->write_file_streamed(
                out.relative,
                [&](int fd) {
                    ShardWriter writer(fd, out.path, shard_compression(out.path).value_or(ShardCompression::none));
                    ShardReader reader(shard.input.path, share);
                    while (true) {
                        std::optional<ShardSample> sample = reader.next();
                        warn_skipped(shard, reader.take_skipped());
                        if (!sample) break;
                        if (stop_requested()) throw Interrupted{};
                        if (!sample_keys.insert(sample->key).second && sample->error.empty()) {
                            sample->error = "key '" + sample->key + "' comes again after other samples (a WebDataset sample's members must be "
                                            "consecutive; its first members were made a sample of their own)";
                        }
                        if (!make_sample(shard, *sample, staging, writer, written, keys)) ++failed_samples;
                    }
                    writer.finish();
                },
                settings_.replace_outputs, false);
        } catch (const Interrupted&) {
            return;
        } catch (const Error& e) {
            fail_shard(shard, e);
            return;
        }
        struct stat info {};
        if (::stat(out.path.c_str(), &info) != 0) {
            fail_shard(shard, Error(ErrorCode::output, "'" + out.path + "' vanished after it was written"));
            return;
        }
        for (const ManifestRecord& record : written) manifest_.append(record);
        ManifestRecord record;
        record.input = shard.input.path;
        record.output = out.path;
        record.file = out.relative;
        record.bytes = static_cast<std::uint64_t>(info.st_size);
        // A shard written without some of its samples is recorded as failed (its size kept), so that --resume
        // makes it again, whole: the output shard is one file, written at once.
        record.ok = failed_samples == 0;
        if (!record.ok) {
            record.error = "'" + shard.input.path + "': incomplete: " + std::to_string(failed_samples) +
                           " sample(s) left out (named above); '" + out.path + "' holds the others, and --resume makes it again";
        }
        manifest_.append(record);
        progress_.image_done(!record.ok);
    }

    // Members with no WebDataset key, passed over as WebDataset's own reader passes them over: said, not failed.
    void warn_skipped(const Job& shard, const std::vector<std::string>& members) {
        for (const std::string& member : members) {
            progress_.message("gpurotate: warning: '" + shard.input.path + "': member '" + member +
                              "' has no WebDataset key (no extension in its file name): skipped, as WebDataset's readers skip it");
        }
    }

    // Appends the sample's variants to the output shard; false where the sample failed (said and recorded).
    bool make_sample(const Job& shard, ShardSample& sample, convert::StagingBuffer& staging, ShardWriter& writer,
                     std::vector<ManifestRecord>& written, std::set<std::string>& keys) {
        std::vector<OutputMember> members;
        std::vector<ManifestRecord> records;
        std::int64_t lossless = 0;  // JPEG variants turned in the compressed domain
        try {
            if (!sample.error.empty()) throw SampleFailure{sample.error};
            std::vector<const ShardMember*> images, companions;
            for (const ShardMember& member : sample.members) (has_image_extension(member.name) ? images : companions).push_back(&member);
            if (images.empty()) throw SampleFailure{"it has no image member (" + std::to_string(sample.members.size()) + " member(s), none of an image format)"};
            const std::vector<SampleVariant> variants = plan_sample_variants(shard.input.path, images, options_);
            for (const SampleVariant& variant : variants) {
                if (!keys.insert(variant.key).second) {
                    throw SampleFailure{"its variant key '" + variant.key + "' is another sample's too (--name gives both one key)"};
                }
            }
            // Companions first: a label that does not parse fails the sample before its images are decoded.
            std::vector<std::vector<OutputMember>> companion_members(variants.size());
            for (std::size_t v = 0; v < variants.size(); ++v) {
                for (const ShardMember* companion : companions) {
                    OutputMember made{variants[v].key + "." + companion->suffix, companion->bytes, companion->mtime, companion->mode};
                    if (yolo_ && companion->suffix == "txt") {
                        const std::string text(companion->bytes.begin(), companion->bytes.end());
                        const std::string turned = labels::turn_yolo_labels(text, variants[v].planned.operation, *yolo_,
                                                                            shard.input.path + ":" + companion->name);
                        made.bytes.assign(turned.begin(), turned.end());
                    }
                    companion_members[v].push_back(std::move(made));
                }
            }
            std::vector<std::vector<OutputMember>> image_members(variants.size());
            const std::size_t primary = primary_image(images);
            for (std::size_t i = 0; i < images.size(); ++i) {
                make_image(shard, *images[i], i == primary ? options_.format : "same", variants, staging, image_members, records, lossless);
            }
            for (std::size_t v = 0; v < variants.size(); ++v) {
                for (OutputMember& m : image_members[v]) members.push_back(std::move(m));
                for (OutputMember& m : companion_members[v]) members.push_back(std::move(m));
            }
        } catch (const SampleFailure& failure) {
            fail_sample(shard, sample, failure.reason);
            return false;
        } catch (const Error& e) {
            fail_sample(shard, sample, e.what());
            return false;
        } catch (const std::bad_alloc&) {
            staging.release();
            fail_sample(shard, sample, "out of host memory for it and its variants");
            return false;
        }
        std::uint64_t bytes = 0;
        for (const OutputMember& m : members) {
            writer.add(m.name, m.bytes, m.mtime, m.mode);
            bytes += m.bytes.size();
        }
        std::lock_guard<std::mutex> lock(totals_mutex_);
        ++totals_.inputs_done;
        totals_.outputs_written += static_cast<std::int64_t>(records.size());
        totals_.bytes_written += bytes;
        totals_.lossless_outputs += lossless;
        for (ManifestRecord& r : records) written.push_back(std::move(r));
        return true;
    }

    // One image member's variants in `format` (--format's, or "same"), made in memory by the folder mode's
    // planner and conversion.
    void make_image(const Job& shard, const ShardMember& image, const std::string& format, const std::vector<SampleVariant>& variants,
                    convert::StagingBuffer& staging,
                    std::vector<std::vector<OutputMember>>& made, std::vector<ManifestRecord>& records, std::int64_t& lossless) {
        const PlannedOutput& out = shard.outputs.front();
        const std::string input_name = shard.input.path + ":" + image.name;
        const detail::ImageSource source(input_name, image.bytes, settings_.convert.max_jpeg_scans);
        MemberCapture capture;
        std::vector<convert::ConversionOutput> outputs;
        std::vector<std::string> names;
        for (const SampleVariant& variant : variants) {
            names.push_back(variant.key + "." + variant_image_suffix(image.suffix, format));
            detail::ImageSink sink(out.path + ":" + names.back(), true, false, &capture, names.back());
            sink.chosen_by(detail::FormatChoice::format_option);
            convert::ConversionPlan plan =
                convert::plan_conversion(source, sink, variant.planned.operation, conversion_options_for(settings_, variant.planned), convert::Executor{settings_.backend, true});
            outputs.push_back({std::move(sink), std::move(plan)});
        }
        convert::ConversionRun run;
        run.backend = settings_.backend;
        run.gpu = gpu_ ? &*gpu_ : nullptr;
        run.cpu_threads = std::max(1u, settings_.workers / workers_);
        run.host_memory = settings_.host_memory / workers_;
        run.staging = &staging;
        MemberReport report(*this, variants.size());
        convert::run_conversion(source, outputs, settings_.convert, run, report);
        if (!report.error().empty()) throw SampleFailure{report.error()};
        for (std::size_t v = 0; v < variants.size(); ++v) {
            std::vector<std::uint8_t> bytes = capture.take(names[v]);
            ManifestRecord record;
            record.input = input_name;
            record.operation = std::string(name(variants[v].planned.operation));
            record.output = out.path + ":" + names[v];
            record.file = out.relative + ":" + names[v];
            if (variants[v].planned.angle != 0) record.angle = variants[v].planned.angle;
            record.width = report.report(v).width;
            record.height = report.report(v).height;
            if (const auto& draw = variants[v].planned.draw) {
                record.seed = draw->seed;
                record.draw = draw->index;
                if (draw->parameters) record.parameters = *draw->parameters;
            }
            record.ok = true;
            record.bytes = bytes.size();
            lossless += report.report(v).route == convert::Route::lossless_jpeg ? 1 : 0;
            records.push_back(std::move(record));
            made[v].push_back({names[v], std::move(bytes), image.mtime, image.mode});
        }
    }

    void fail_sample(const Job& shard, const ShardSample& sample, const std::string& cause) {
        const std::string reason = "'" + shard.input.path + "': sample '" + sample.key + "': " + cause;
        progress_.message("gpurotate: error: " + reason + " (left out of its output shard)");
        ManifestRecord record;
        record.input = shard.input.path + ":" + sample.key;
        record.output = shard.outputs.front().path;
        record.error = reason;
        manifest_.append(record);
        std::lock_guard<std::mutex> lock(totals_mutex_);
        ++totals_.inputs_done;
        ++totals_.inputs_failed;
        ++totals_.outputs_failed;
    }

    void fail_shard(const Job& shard, const Error& error) {
        const std::string cause = error.what();
        const std::string reason = cause.find(shard.input.path) == std::string::npos ? "'" + shard.input.path + "': " + cause : cause;
        progress_.message("gpurotate: error: " + reason);
        ManifestRecord record;
        record.input = shard.input.path;
        record.output = shard.outputs.front().path;
        record.file = shard.outputs.front().relative;
        record.error = reason;
        manifest_.append(record);
        {
            std::lock_guard<std::mutex> lock(totals_mutex_);
            ++(error.code() == ErrorCode::output ? totals_.outputs_failed : totals_.inputs_failed);
        }
        progress_.image_done(true);
    }

    const std::vector<Job>& shards_;
    const PipelineSettings& settings_;
    const AugmentOptions& options_;
    const std::optional<labels::YoloSchema>& yolo_;
    ManifestWriter& manifest_;
    Progress& progress_;
    OncePerRun notices_;
    unsigned workers_;
    std::optional<convert::GpuResources> gpu_;  // after notices_, which it reports to
    std::atomic<std::size_t> next_{0};
    std::atomic<std::int64_t> stage_ns_[3] = {};  // decode, transform, encode
    std::mutex totals_mutex_;
    PipelineTotals totals_;
    std::exception_ptr fatal_;
    std::atomic<bool> fatal_flag_{false};
};

}  // namespace

PipelineTotals run_shard_pipeline(const std::vector<Job>& shards, const PipelineSettings& settings, const AugmentOptions& options,
                                  const std::optional<labels::YoloSchema>& yolo, ManifestWriter& manifest, Progress& progress) {
    return ShardPipeline(shards, settings, options, yolo, manifest, progress).run();
}

}  // namespace gpurotate::augment
