#include "convert/run_conversion.hpp"

#include "convert/output_fit.hpp"
#include "convert/rotation_step.hpp"
#include "core/decode_limits.hpp"
#include "core/nvtx.hpp"
#include "core/stage_account.hpp"
#include "core/text.hpp"
#include "formats/format_registry.hpp"
#include "formats/png_codec.hpp"
#include "frontend/cuda_backend.hpp"
#include "metadata/metadata.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>

#include <algorithm>
#include <mutex>

namespace gpurotate::convert {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Whether an identity has nothing else to do: no upright step, nothing asked of the encoding or metadata.
bool leaves_as_it_is(const detail::ImageSource& source, const ConversionPlan& plan, const ConversionOptions& c) {
    return plan.element == Orientation::identity && !plan.rotation && !(c.auto_orient && source.orientation_tag() > 1) && !c.strip &&
           !c.quality_given && !c.nvjpeg && c.depth == 0 && !c.flatten && c.background.empty();
}

// One input's trip; the state its steps share.
class Trip {
public:
    Trip(const detail::ImageSource& source, const std::vector<ConversionOutput>& outputs, const ConversionOptions& options, const ConversionRun& run,
         ConversionObserver& observer)
        : source_(source), outputs_(outputs), options_(options), run_(run), observer_(observer) {}

    void run() {
        for (const ConversionOutput& out : outputs_) {
            for (const PlanWarning& warning : out.plan.warnings) observer_.notice(source_.path(), warning.kind, warning.text);
        }
        if (run_.leave_identity_untouched && outputs_.size() == 1 && leaves_as_it_is(source_, outputs_.front().plan, options_)) {
            observer_.notice(source_.path(), Notice::left_as_is, "the operations make the identity; the file is left as it is");
            return;
        }
        observer_.stage(Stage::read, seconds_since(run_.started));
        clock_ = Clock::now();
        for (std::size_t i = 0; i < outputs_.size(); ++i) remaining_.push_back({i, outputs_[i].plan.why_reencoded});
        refuse_rotations_over_limit();
        if (remaining_.empty()) {
            observer_.finished(trip_);
            return;
        }
        if (std::any_of(outputs_.begin(), outputs_.end(), [](const ConversionOutput& out) { return out.plan.route == Route::lossless_jpeg; })) {
            if (!transform_losslessly()) return;
            if (remaining_.empty()) {
                observer_.finished(trip_);
                return;
            }
        }
        make_from_pixels();
    }

private:
    /// An output still to make, and why a JPEG among them gets new pixels (empty: not a JPEG from a JPEG).
    struct Remaining {
        std::size_t output = 0;
        std::string why_reencoded;
    };

    double lap() {
        const auto now = Clock::now();
        const double seconds = std::chrono::duration<double>(now - clock_).count();
        clock_ = now;
        return seconds;
    }

    bool all_remaining(bool (*predicate)(const ConversionPlan&)) const {
        return std::all_of(remaining_.begin(), remaining_.end(), [&](const Remaining& r) { return predicate(outputs_[r.output].plan); });
    }

    /// Writes output `r` with `write`; says a re-encoded JPEG once it is written.
    template <class Write>
    bool write_output(const Remaining& r, const OutputReport& report, Write&& write) {
        try {
            detail::NvtxRange range("encode");
            write();
        } catch (const Error& e) {
            observer_.output_failed(r.output, report, e);
            return false;
        }
        if (!r.why_reencoded.empty()) observer_.notice(source_.path(), Notice::reencoded, r.why_reencoded);
        observer_.written(r.output, report);
        return true;
    }

    /// Fails the outputs rotated by an angle whose canvas, from the size the input's header declares, would be
    /// over --max-pixels (or a side at OpenCV's limit), before the input is decoded: a small file declaring an
    /// image whose rotation is a bomb is refused with nothing allocated. An input that declares more than the
    /// limit itself, or nothing readable, is left to its decoder's message; rotate_pixels checks the decoded size.
    void refuse_rotations_over_limit() {
        const bool rotates = std::any_of(remaining_.begin(), remaining_.end(), [&](const Remaining& r) { return outputs_[r.output].plan.rotation; });
        const std::optional<Extent> declared = rotates ? declared_within_limit() : std::nullopt;
        if (!declared) return;
        std::vector<Remaining> kept;
        for (const Remaining& r : remaining_) {
            const ConversionPlan& plan = outputs_[r.output].plan;
            if (!plan.rotation) {
                kept.push_back(r);
                continue;
            }
            const Extent turned = output_extent(plan.element, *declared);
            try {
                checked_rotated_extent(turned, *plan.rotation, options_.max_pixels, source_.path());
                kept.push_back(r);
            } catch (const Error& e) {
                const Extent rotated = rotated_output_extent(turned, *plan.rotation);
                observer_.output_failed(r.output, OutputReport{Route::pixels, rotated.width, rotated.height, false, turned}, e);
            }
        }
        remaining_ = std::move(kept);
    }

    /// The size the input's header declares; nothing where it says none, or one its decoder refuses in its own words.
    std::optional<Extent> declared_within_limit() const {
        const std::optional<Extent> declared = detail::declared_extent_of_any_format(source_.bytes());
        if (!declared) return std::nullopt;
        try {
            detail::check_declared_size(source_.path(), declared->width, declared->height, options_.read_options());
        } catch (const Error&) {
            return std::nullopt;
        }
        return declared;
    }

    /// The JPEG outputs the lossless transform makes, one coefficient read for all; the others stay in
    /// remaining_, with why they are re-encoded. False where the input failed.
    bool transform_losslessly() {
        // On the GPU backend the outputs' scans are coded there, once the GPU has started: the entropy decode
        // runs beside its start-up, and only the coding waits for it (after a fallback libjpeg codes them).
        detail::JpegScanCoder* const scan_coder = run_.gpu ? run_.gpu->scan_coder_once_started() : nullptr;
        std::vector<std::size_t> lossless;
        std::vector<detail::LosslessJpegVariant> variants;
        for (std::size_t i = 0; i < outputs_.size(); ++i) {
            if (outputs_[i].plan.route != Route::lossless_jpeg) continue;
            lossless.push_back(i);
            variants.push_back({outputs_[i].plan.element, &outputs_[i].plan.metadata});
        }
        std::vector<detail::LosslessJpegReport> reports;
        std::vector<std::optional<std::vector<std::uint8_t>>> encoded;
        try {
            detail::NvtxRange range("lossless JPEG transform");
            encoded = source_.transform_losslessly(variants, options_.jpeg_edge, options_.strip, options_.max_pixels, reports, scan_coder,
                                                 run_.cpu_threads);
            // The plan chose this route for a JPEG with libjpeg-turbo's transcoding API, which answers every variant.
            if (encoded.size() != variants.size()) throw Error(ErrorCode::internal, "'" + source_.path() + "': the lossless JPEG transform answered nothing");
        } catch (const Error& e) {
            observer_.stage(Stage::transform, lap());
            observer_.input_failed(e, Step::lossless);
            return false;
        }
        observer_.stage(Stage::transform, lap());
        // A GPU that did not start fails the run here under --device cuda, before anything is written (under
        // auto the CPU's bytes are written as they are: the GPU's would be the same).
        if (run_.gpu && !run_.gpu->policy().cpu_fallback) run_.gpu->ready();
        trip_.route = Route::lossless_jpeg;
        trip_.lossless = reports.front();
        std::vector<Remaining> rest;
        std::size_t k = 0;
        for (const Remaining& r : remaining_) {
            if (k == lossless.size() || lossless[k] != r.output) {
                rest.push_back(r);
                continue;
            }
            const detail::LosslessJpegReport& report = reports[k];
            const Orientation element = variants[k].element;
            const std::optional<std::vector<std::uint8_t>>& bytes = encoded[k++];
            // Re-encoded: the imperfect outputs by default, and with trim those under one MCU across their mirrored
            // side (trimming would leave nothing).
            if (!bytes && options_.jpeg_edge != detail::JpegEdge::error) {
                rest.push_back({r.output, why_not_lossless(report, element, options_.jpeg_edge)});
                continue;
            }
            const OutputReport made{Route::lossless_jpeg, report.out_width, report.out_height, report.trimmed};
            if (!bytes) {
                observer_.output_failed(r.output, made, detail::imperfect_transform_error(source_.path(), element, report));
                continue;
            }
            if (!write_output(r, made, [&] { outputs_[r.output].sink.write_encoded(*bytes); })) continue;
            say_edges(report, element);
        }
        observer_.stage(Stage::encode, lap());
        remaining_ = std::move(rest);
        return true;
    }

    void say_edges(const detail::LosslessJpegReport& report, Orientation element) {
        const auto size = [](std::int64_t w, std::int64_t h) { return std::to_string(w) + "x" + std::to_string(h); };
        if (report.edge_kept) {
            observer_.notice(source_.path(), Notice::edge_kept,
                             size(report.width, report.height) + " is not whole " + size(report.mcu_width, report.mcu_height) +
                                 " blocks: the partial edge blocks stay where they are, unturned (--jpeg-edge keep, as exiftran -i; "
                                 "--jpeg-edge trim drops them, reencode turns every pixel)");
        }
        if (report.trimmed) {
            const bool swaps = swaps_axes(element);
            observer_.notice(source_.path(), Notice::edge_trimmed,
                             "--jpeg-edge trim dropped the partial edge blocks: " + size(report.out_width, report.out_height) +
                                 " written where the whole image is " + size(swaps ? report.height : report.width, swaps ? report.width : report.height));
        }
    }

    /// nvJPEG's route for every output left: transformed and encoded in device memory, from `decoded`
    /// (libjpeg-turbo's pixels, uploaded) or, without it, from nvJPEG's decode. False where nvJPEG is not
    /// usable or declines the file (damaged, CMYK, over the GPU budget): the CPU codecs then decide, and
    /// name any damage. Throws Error (from the GPU's start-up or nvJPEG), which the caller reports.
    bool transcode_on_gpu(const Image* decoded) {
        const bool own_codec = static_cast<bool>(run_.gpu_jpeg);
        if (!own_codec && (!run_.gpu || !run_.gpu->ready())) return false;  // the GPU did not start (--device auto fell back to the CPU)
        ResourcePool<detail::NvjpegCoder>* const coders = own_codec ? nullptr : run_.gpu->coders();
        if (!own_codec && !coders) {
            observer_.notice({}, Notice::nvjpeg_unusable, "nvJPEG is not usable (" + run_.gpu->nvjpeg_failure() + "); JPEGs take the CPU codecs");
            return false;
        }
        const double before = seconds_since(clock_);  // the CPU decode, where there was one
        std::vector<Orientation> elements;
        for (const Remaining& r : remaining_) elements.push_back(outputs_[r.output].plan.element);
        detail::GpuJpegReport report;
        std::optional<std::vector<std::vector<std::uint8_t>>> encoded;
        const auto gpu_start = Clock::now();
        const int quality = outputs_[remaining_.front().output].plan.encoding.quality;
        if (own_codec) {
            detail::StageScope account(detail::WorkStage::nvjpeg);
            encoded = run_.gpu_jpeg(source_, elements, quality, decoded, report);
        } else {
            detail::StageScope account(detail::WorkStage::nvjpeg);
            auto coder = coders->acquire();
            encoded = coder->variants(source_.bytes(), source_.path(), elements, quality, options_.read_options(), report, decoded);
        }
        if (!encoded) return false;
        // Decode is the read and the decodes (nvJPEG's included); transform the rest of the GPU's work, the
        // wait for a coder included (upload, kernel, encodes, downloads).
        observer_.stage(Stage::decode, before + report.decode_seconds);
        observer_.stage(Stage::transform, seconds_since(gpu_start) - report.decode_seconds);
        lap();
        trip_.route = Route::gpu_jpeg;
        trip_.gpu = report;
        trip_.uploaded = decoded != nullptr;
        for (std::size_t k = 0; k < remaining_.size(); ++k) {
            const Remaining& r = remaining_[k];
            // The report has the first output's size; the others are it or its transpose.
            const bool swaps = swaps_axes(elements[k]) != swaps_axes(elements.front());
            const OutputReport made{Route::gpu_jpeg, swaps ? report.height : report.width, swaps ? report.width : report.height, false};
            write_output(r, made, [&] {
                outputs_[r.output].sink.write_encoded(detail::with_metadata(std::move((*encoded)[k]), outputs_[r.output].plan.metadata));
            });
        }
        observer_.stage(Stage::encode, lap());
        observer_.finished(trip_);
        return true;
    }

    /// nvJPEG where it takes the file, reported as the input's failure where it throws. True: done.
    bool try_gpu(const Image* decoded) {
        try {
            return transcode_on_gpu(decoded);
        } catch (const Error& e) {
            observer_.input_failed(e, Step::nvjpeg);
            return true;
        }
    }

    void make_from_pixels() {
        const bool jpeg_on_gpu = all_remaining([](const ConversionPlan& plan) { return plan.route == Route::gpu_jpeg; });
        if (jpeg_on_gpu && options_.nvjpeg_decode == detail::NvjpegDecode::gpu && try_gpu(nullptr)) return;
        Image input;
        const detail::ImageSink& sink = outputs_[remaining_.front().output].sink;  // the outputs of one input share their format
        try {
            detail::NvtxRange range("decode");
            detail::StageScope account(detail::WorkStage::pixel_decode);
            // A PNG whose outputs are all PNG keeps its stored format (palette indices, 1/2/4-bit samples).
            input = source_.decode(options_.max_pixels, all_remaining([](const ConversionPlan& plan) { return plan.keep_stored_png; }));
        } catch (const Error& e) {
            observer_.stage(Stage::decode, lap());
            observer_.input_failed(e, Step::decode);
            return;
        }
        // Also where nvJPEG declined to decode a file that libjpeg-turbo takes.
        if (jpeg_on_gpu && try_gpu(&input)) return;
        if (observer_.wants(Notice::decoder_losses)) {
            if (const std::string losses = source_.decoder_losses(input.format(), options_.strip); !losses.empty()) {
                observer_.notice(source_.path(), Notice::decoder_losses, losses);
            }
        }
        try {
            // --depth 8 and --flatten/--background; a refusal where the format still cannot hold the pixels.
            detail::StageScope account(detail::WorkStage::pixel_decode);
            input = fit_to_output(std::move(input), options_, sink);
        } catch (const Error& e) {
            observer_.stage(Stage::decode, lap());
            observer_.input_failed(e, Step::decode);
            return;
        }
        observer_.stage(Stage::decode, lap());
        say_what_is_left_out(input.format());
        // Throws, ending the run, when the GPU cannot start and --device cuda leaves no fallback. Pixels wait for the
        // start-up under --device auto too (only a JPEG's lossless scans are coded on the CPU meanwhile): which
        // backend turns them decides what a run says (a GPU that cannot take an image, rotations by an angle
        // moved to the CPU), and that must not depend on how fast the driver starts.
        const bool gpu_usable = run_.gpu && run_.gpu->ready();
        trip_.waited_for_gpu = run_.gpu != nullptr;
        observer_.stage(Stage::gpu_wait, lap());
        transform_and_write(input, gpu_usable);
    }

    /// What the outputs made from pixels leave out: a PNG's interlacing and unsafe chunks, and metadata the
    /// format cannot carry.
    void say_what_is_left_out(PixelFormat pixels) {
        const ConversionPlan& first = outputs_[remaining_.front().output].plan;
        if (observer_.wants(Notice::png_output) && all_remaining([](const ConversionPlan& plan) { return plan.keep_stored_png; })) {
            if (const std::string notes = detail::png_output_notes(first.metadata, pixels); !notes.empty()) {
                observer_.notice(source_.path(), Notice::png_output, notes);
            }
        }
        for (const Remaining& r : remaining_) {
            if (!observer_.wants(Notice::unwritten)) break;
            const std::string unwritten = outputs_[r.output].sink.unwritten(source_, outputs_[r.output].plan.metadata, options_.strip);
            if (!unwritten.empty()) observer_.notice(source_.path(), Notice::unwritten, unwritten);
        }
    }

    void transform(const Image& input, const std::vector<TransformTarget>& targets, bool gpu_usable) {
        detail::StageScope account(detail::WorkStage::kernels);  // a GPU session's wait, upload and downloads too
        ResourcePool<GpuSession>* const sessions = gpu_usable ? run_.gpu->sessions() : nullptr;
        if (sessions) {
            try {
                const auto session = sessions->acquire();
                detail::NvtxRange range("gpu");
                (*session).transform(input.view(), targets);
                trip_.transformed_on = Backend::cuda;
                return;
            } catch (const Error& e) {
                if (e.code() != ErrorCode::device || !run_.gpu->policy().cpu_fallback) throw;
                observer_.notice({}, Notice::gpu_failed_image, "GPU failed on '" + source_.path() + "' (" + e.what() + "); done on the CPU");
            }
        } else if (gpu_usable || run_.cpu_threads == 0) {  // one image: transform() on the executor, with its kernel and its memory
            detail::NvtxRange range("transform");
            const Backend backend = gpu_usable ? run_.backend : Backend::cpu;
            const std::unique_lock<std::mutex> turn = turn_on_gpu(gpu_usable);
            for (const TransformTarget& t : targets) gpurotate::transform(input.view(), t.dst, t.orientation, TransformOptions{backend, run_.kernel, run_.gpu_memory});
            trip_.transformed_on = backend;
            return;
        }
        detail::NvtxRange range("cpu transform");
        transform_multi(input.view(), targets, Backend::cpu, run_.cpu_threads);
    }

    /// This image's turn at device memory of its own where its work runs on the GPU (GpuResources::turn_for_own_device_memory).
    std::unique_lock<std::mutex> turn_on_gpu(bool on_gpu) const {
        return on_gpu && run_.gpu ? run_.gpu->turn_for_own_device_memory() : std::unique_lock<std::mutex>();
    }

    /// The device bytes this trip's GPU work may take: a session's or coder's budget where the run has GPU
    /// resources, else the one image's --gpu-memory (0: no limit of our own).
    std::size_t gpu_memory() const { return run_.gpu ? run_.gpu->policy().budget_each : run_.gpu_memory; }

    /// Where `pixels` are rotated by `angle`. rotate() runs on the calling thread's current GPU with buffers of
    /// its own, outside a dataset's sessions: a dataset rotates on the GPU only where that cannot leave the
    /// GPUs and the memory it was given (GPU 0 alone, no --gpu-memory), else on the CPU, said once. One image
    /// rotates on its GPU unless its two device copies (a rotation does not stream in bands) are over
    /// --gpu-memory: a device error naming both sizes.
    Backend rotation_backend(ConstImageView pixels, const AnyAngle& angle, bool gpu_usable) {
        if (!gpu_usable || run_.backend != Backend::cuda) return Backend::cpu;
        const std::size_t budget = gpu_memory();
        if (run_.gpu && run_.gpu->policy().sessions) {
            const std::vector<int>& devices = run_.gpu->policy().devices;
            if (budget == 0 && devices.size() == 1 && devices.front() == 0) return Backend::cuda;
            observer_.notice({}, Notice::rotation_on_cpu,
                             "rotations by an angle are made on the CPU where --devices names a GPU other than 0 alone or --gpu-memory is "
                             "given (the GPU rotation would run outside the streams that keep to them); the D4 variants stay on the GPU");
            return Backend::cpu;
        }
        const Extent rotated = rotated_extent(pixels.extent(), rotate_options_of(angle));
        const std::size_t bytes = detail::rotation_device_bytes(pixels.extent(), rotated, pixels.format.pixel_bytes());
        if (budget == 0 || bytes <= budget) return Backend::cuda;
        throw Error(ErrorCode::device, "rotating '" + source_.path() + "' by " + detail::number_text(angle.degrees) + " degrees takes " +
                                           detail::size_text(static_cast<double>(bytes)) + " of device memory at once, over the " +
                                           detail::size_text(static_cast<double>(budget)) + " of --gpu-memory (a rotation by an angle does not "
                                           "stream in bands: raise --gpu-memory, or rotate on the CPU)");
    }

    /// Output `r` from its element's pixels rotated by an angle that is not a multiple of 90: its size and its
    /// EXIF pixel dimensions are the rotation's.
    void write_rotated(const Remaining& r, ConstImageView pixels, const AnyAngle& angle, bool gpu_usable) {
        const ConversionOutput& out = outputs_[r.output];
        const Extent extent = rotated_output_extent(pixels.extent(), angle);
        // Flattened pixels were composed over white unless --background says otherwise: so are the corners.
        const std::string fill = options_.flatten && options_.background.empty() ? "white" : options_.background;
        write_output(r, OutputReport{Route::pixels, extent.width, extent.height, false, pixels.extent()}, [&] {
            std::optional<detail::StageScope> rotating(std::in_place, detail::WorkStage::kernels);  // until the encode
            Image rotated;
            const Backend backend = rotation_backend(pixels, angle, gpu_usable);
            try {
                const std::unique_lock<std::mutex> turn = turn_on_gpu(backend == Backend::cuda);
                rotated = rotate_pixels(pixels, angle, fill, backend, options_.max_pixels, source_.path(), gpu_memory());
            } catch (const Error& e) {
                // As the transform does: a GPU failure is redone on the CPU where the policy falls back.
                if (e.code() != ErrorCode::device || backend != Backend::cuda || (run_.gpu && !run_.gpu->policy().cpu_fallback)) throw;
                observer_.notice({}, Notice::gpu_failed_image, "GPU failed on '" + source_.path() + "' (" + e.what() + "); done on the CPU");
                rotated = rotate_pixels(pixels, angle, fill, Backend::cpu, options_.max_pixels, source_.path());
            }
            rotating.reset();
            ImageMetadata metadata = out.plan.metadata;
            detail::set_exif_dimensions(metadata.exif, rotated.width(), rotated.height());
            WriteOptions write = out.plan.encoding;
            write.metadata = &metadata;
            out.sink.write(rotated.view(), write);
        });
        trip_.output = extent;
    }

    void transform_and_write(const Image& input, bool gpu_usable) {
        // One target per distinct element: `--random N --with-replacement` draws an element many times, and
        // D4 has 8, the fused transform's most; each output is written from its element's target.
        std::vector<TransformTarget> targets;
        std::vector<std::size_t> target_of(remaining_.size());
        for (std::size_t k = 0; k < remaining_.size(); ++k) {
            const Orientation element = outputs_[remaining_[k].output].plan.element;
            const auto same = std::find_if(targets.begin(), targets.end(), [&](const TransformTarget& t) { return t.orientation == element; });
            target_of[k] = static_cast<std::size_t>(same - targets.begin());
            if (same != targets.end()) continue;
            const Extent e = output_extent(element, {input.width(), input.height()});
            const std::size_t pitch = static_cast<std::size_t>(e.width) * input.format().pixel_bytes();
            targets.push_back({element, ImageView{nullptr, e.width, e.height, pitch, input.format()}});
        }
        // Every variant has the input's bytes. As many as fit run_.host_memory beside the decoded input and one
        // encoded output (up to an image's bytes: a PNG stored uncompressed) are made in one pass (the fused
        // kernel reads the input once for all of them); a larger image makes them a group at a time, at least one.
        const std::size_t variant_bytes = (checked_image_bytes(input.width(), input.height(), input.format()) + 63) / 64 * 64;
        const std::size_t held = input.view().pitch * static_cast<std::size_t>(input.height()) + variant_bytes;
        const std::size_t share = run_.host_memory;
        const std::size_t group = share > held ? std::max<std::size_t>(1, (share - held) / variant_bytes) : 1;
        trip_.route = Route::pixels;
        trip_.input = {input.width(), input.height()};
        trip_.format = input.format();
        trip_.output = output_extent(targets.front().orientation, trip_.input);
        for (std::size_t first = 0; first < targets.size(); first += group) {
            const std::size_t last = std::min(targets.size(), first + group);
            // The group's variants side by side in the staging buffer, each starting on a 64-byte boundary.
            std::byte* base = run_.staging->reserve((last - first) * variant_bytes);
            std::vector<TransformTarget> made(targets.begin() + static_cast<std::ptrdiff_t>(first), targets.begin() + static_cast<std::ptrdiff_t>(last));
            for (std::size_t i = 0; i < made.size(); ++i) made[i].dst.data = base + i * variant_bytes;
            try {
                transform(input, made, gpu_usable);
            } catch (const Error& e) {  // a GPU failure with --device cuda: this image fails
                observer_.stage(Stage::transform, lap());
                observer_.input_failed(e, Step::transform);
                return;
            }
            observer_.stage(Stage::transform, lap());
            for (std::size_t k = 0; k < remaining_.size(); ++k) {
                if (target_of[k] < first || target_of[k] >= last) continue;
                const Remaining& r = remaining_[k];
                const ConstImageView pixels = made[target_of[k] - first].dst;
                if (const auto& angle = outputs_[r.output].plan.rotation) {
                    write_rotated(r, pixels, *angle, gpu_usable);
                    continue;
                }
                write_output(r, OutputReport{Route::pixels, pixels.width, pixels.height, false},
                             [&] { outputs_[r.output].sink.write(pixels, outputs_[r.output].plan.write_options()); });
            }
            observer_.stage(Stage::encode, lap());
        }
        observer_.finished(trip_);
    }

    const detail::ImageSource& source_;
    const std::vector<ConversionOutput>& outputs_;
    const ConversionOptions& options_;
    const ConversionRun& run_;
    ConversionObserver& observer_;
    std::vector<Remaining> remaining_;
    TripReport trip_;
    Clock::time_point clock_ = Clock::now();
};

}  // namespace

void run_conversion(const detail::ImageSource& source, const std::vector<ConversionOutput>& outputs, const ConversionOptions& options,
                    const ConversionRun& run, ConversionObserver& observer) {
    if (outputs.empty()) return;
    Trip(source, outputs, options, run, observer).run();
}

void check_nvjpeg_request(const ConversionOptions& options, Backend device, const std::string& command) {
    if (options.nvjpeg && !detail::nvjpeg_available()) throw Error(ErrorCode::usage, command + "--nvjpeg: this build has no nvJPEG");
    if (options.nvjpeg && device == Backend::cpu) throw Error(ErrorCode::usage, command + "--nvjpeg runs on the GPU: it cannot go with --device cpu");
}

}  // namespace gpurotate::convert
