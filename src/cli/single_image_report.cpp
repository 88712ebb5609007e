#include "cli/single_image_report.hpp"

#include <gpurotate/version.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace gpurotate::cli {

using convert::Notice;
using convert::Stage;

void SingleImageReport::notice(const std::string& path, Notice kind, const std::string& text) {
    switch (kind) {
        case Notice::reencoded: why_reencoded_ = text; return;  // said once the file is written
        case Notice::png_output: png_notes_ = text; return;     // -v
        case Notice::unwritten: unwritten_ = text; return;      // -v
        case Notice::left_as_is:
            if (options_.verbose) log_ << "gpurotate: " << path << ": " << text << "\n";
            return;
        default: break;
    }
    if (convert::is_about_gpu(kind)) {
        log_ << "gpurotate: warning: " << text << "\n";
    } else if (convert::is_warning(kind)) {
        log_ << "gpurotate: warning: '" << path << "'" << (convert::is_plan_warning(kind) ? " " : ": ") << text << "\n";
    } else if (!options_.quiet) {  // --quiet silences notes, not warnings, as augment's does
        log_ << "gpurotate: note: '" << path << "': " << text << "\n";
    }
}

void SingleImageReport::input_failed(const Error& error, convert::Step step) {
    if (step == convert::Step::nvjpeg) throw Error(error.code(), std::string(error.what()) + " (without --nvjpeg the CPU codecs do this)");
    throw error;
}

// The line that says a JPEG written from a JPEG got new pixels, once it is written: the user asked for a
// rotation, which is lossless by default, so it is said without -v.
void SingleImageReport::say_reencoded() {
    if (!options_.quiet && !why_reencoded_.empty()) {
        log_ << "gpurotate: note: '" << source_->path() << "': JPEG re-encoded, not transformed losslessly: " << why_reencoded_ << "\n";
    }
}

void SingleImageReport::finished(const convert::TripReport& trip) {
    if (trip.route == convert::Route::gpu_jpeg) {
        if (options_.verbose) verbose_gpu_jpeg(trip);
        say_reencoded();
        return;
    }
    say_reencoded();
    if (!options_.verbose) return;
    if (trip.route == convert::Route::lossless_jpeg) {
        verbose_lossless(trip);
    } else {
        verbose_pixels(trip);
    }
}

std::string SingleImageReport::startup_text() const {
    std::ostringstream text;
    const double seconds = gpu_->start_seconds();
    text << std::fixed << std::setprecision(1) << "CUDA start-up " << seconds * 1e3 << " ms on its own thread, "
         << std::max(0.0, seconds - gpu_->waited_seconds()) * 1e3 << " ms of it hidden behind reading and decoding";
    return text.str();
}

std::string SingleImageReport::device_name() const {
    const auto gpus = cuda_devices();
    return gpus.empty() ? std::string("?") : gpus.front().name;
}

void SingleImageReport::verbose_lossless(const convert::TripReport& trip) {
    const detail::LosslessJpegReport& report = trip.lossless;
    log_ << std::fixed << std::setprecision(1) << "gpurotate: " << source_->path() << " (" << report.width << "x" << report.height << " JPEG, "
         << report.mcu_width << "x" << report.mcu_height << " MCUs) -> " << name(output_->plan.element) << " -> " << output_->sink.path() << " ("
         << report.out_width << "x" << report.out_height << ")\n"
         << "gpurotate: lossless JPEG transform of the DCT coefficients (no decode, no re-encode" << (report.trimmed ? ", trimmed" : "")
         << (report.coded_in_segments ? ", the scan entropy-coded in segments on the cores" : "") << "): transform " << ms(Stage::read) + ms(Stage::transform) << " ms, write " << ms(Stage::encode) << " ms\n";
}

void SingleImageReport::verbose_gpu_jpeg(const convert::TripReport& trip) {
    const detail::GpuJpegReport& report = trip.gpu;
    log_ << std::fixed << std::setprecision(1) << "gpurotate: " << source_->path() << " -> " << name(output_->plan.element) << " -> " << output_->sink.path()
         << " (" << report.width << "x" << report.height << ", " << (report.channels == 1 ? "grey" : "RGB") << ", " << report.subsampling << ")\n"
         << "gpurotate: backend cuda (" << device_name() << "), decoded by " << report.decoder << ", encoded on the GPU by nvJPEG; " << startup_text() << "\n"
         << "gpurotate: " << (trip.uploaded ? "upload" : "decode") << " + transform + encode "
         << ms(Stage::read) + ms(Stage::decode) + ms(Stage::transform) << " ms (with the wait for the GPU), write " << ms(Stage::encode) << " ms\n";
}

void SingleImageReport::verbose_pixels(const convert::TripReport& trip) {
    const convert::ConversionPlan& plan = output_->plan;
    // Where the pixels were turned, not where they were asked to be: the two differ only where a GPU fell back.
    const std::string device = trip.transformed_on == Backend::cuda && backend_ == Backend::cuda
                                   ? "cuda (" + device_name() + ", kernel " + to_string(options_.kernel) + "); " + startup_text()
                                   : std::string("cpu");
    std::ostringstream wait;
    if (trip.waited_for_gpu) wait << std::fixed << std::setprecision(1) << "wait for the GPU " << ms(Stage::gpu_wait) << " ms, ";
    log_ << std::fixed << std::setprecision(1) << "gpurotate: " << source_->path() << " (" << trip.input.width << "x" << trip.input.height << " "
         << to_string(trip.format) << ") -> " << name(plan.element) << " -> " << output_->sink.path() << " (" << trip.output.width << "x"
         << trip.output.height << ")\n"
         << "gpurotate: backend " << device << "\n"
         << "gpurotate: decode " << ms(Stage::read) + ms(Stage::decode) << " ms, " << wait.str() << "transform " << ms(Stage::transform)
         << " ms (with transfers), encode " << ms(Stage::encode) << " ms\n";
    const WriteOptions write = plan.write_options();
    if (output_->sink.is_jpeg() && source_->jpeg_character()) {
        log_ << "gpurotate: JPEG encoded at quality " << write.quality
             << (plan.quality_from_input ? " (the input's, from its quantization tables)" : " (--quality)") << ", chroma " << to_string(write.chroma) << "\n";
    }
    if (write.lossless) log_ << "gpurotate: WebP encoded losslessly, as the input is coded (--quality makes it lossy)\n";
    if (!unwritten_.empty()) log_ << "gpurotate: " << unwritten_ << "\n";
    if (plan.keep_stored_png) {
        const PngStorage& stored = *source_->metadata().png_storage;
        log_ << "gpurotate: PNG written as the input stores it: colour type " << stored.color_type << ", " << stored.bit_depth << "-bit"
             << (stored.palette.empty() ? "" : ", PLTE") << (stored.transparency.empty() ? "" : ", tRNS") << "\n";
        if (!png_notes_.empty()) log_ << "gpurotate: PNG: " << png_notes_ << "\n";
    }
}

}  // namespace gpurotate::cli
