#pragma once
// What a conversion tells its front end as it runs (run_conversion.hpp): notices (warnings and notes), the
// time each stage took, each output written or failed, an input failed, and the trip's report at the end.
// The single-image command's observer prints -v and throws what fails; augment's says each kind of notice
// once per run, writes the manifest and keeps the totals.

#include "convert/conversion_plan.hpp"
#include "convert/notice.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

#include "jpeg/jpeg_lossless.hpp"
#include "jpeg/nvjpeg_codec.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpurotate::convert {

/// A stage of the trip, timed.
enum class Stage {
    read,       ///< the file's bytes and metadata (before run_conversion, counted from ConversionRun::started)
    decode,     ///< the decode and the fit to the output (for nvJPEG: the read, a CPU decode and its GPU decode)
    gpu_wait,   ///< waiting for the GPU's start-up, once the pixels are ready
    transform,  ///< the lossless transform, the GPU's work (upload, kernels, downloads) or the CPU's
    encode,     ///< encoding and writing
};

/// Where an input failed (the single-image command names nvJPEG's alternative).
enum class Step { lossless, nvjpeg, decode, transform };

/// One output, as it was made (or failed to be).
struct OutputReport {
    Route route = Route::pixels;  ///< the route that made it
    std::int64_t width = 0, height = 0;
    bool trimmed = false;  ///< --jpeg-edge trim cut it
    Extent rotated_from{0, 0};  ///< rotated by an angle: the size of the element's result it was rotated from
};

/// The trip of one input, for -v and the totals: the route that made its outputs and what that route saw.
struct TripReport {
    Route route = Route::pixels;
    detail::LosslessJpegReport lossless;  ///< the first lossless output's (route lossless_jpeg)
    detail::GpuJpegReport gpu;            ///< nvJPEG's (route gpu_jpeg)
    bool uploaded = false;                ///< nvJPEG was handed libjpeg-turbo's pixels (not its own decode)
    Extent input{0, 0}, output{0, 0};     ///< route pixels: the decoded input, the first output
    PixelFormat format{};                 ///< route pixels: the pixels transformed
    bool waited_for_gpu = false;          ///< route pixels: the GPU's start-up was waited for
    Backend transformed_on = Backend::cpu;  ///< route pixels: where the elements were made (cpu or cuda)
};

class ConversionObserver {
public:
    virtual ~ConversionObserver() = default;
    /// A warning or note. About one file: `path` names it and `text` follows the quoted name (after a space
    /// for the planner's warnings, is_plan_warning; after a colon for the others). About the GPU (is_about_gpu):
    /// `path` is empty and `text` is the whole sentence.
    virtual void notice(const std::string& path, Notice kind, const std::string& text) = 0;
    /// Whether a notice of `kind` would be said now: a notice that takes work to compose (what a decoder or an
    /// output format leaves out) is composed only where it is (-v only, once a run).
    virtual bool wants(Notice /*kind*/) const { return true; }
    /// A stage ended, after `seconds`.
    virtual void stage(Stage, double /*seconds*/) {}
    /// Output `output` (its index in run_conversion's list) was written.
    virtual void written(std::size_t output, const OutputReport& report) = 0;
    /// Output `output` could not be made or written; the others go on (unless this throws).
    virtual void output_failed(std::size_t output, const OutputReport& report, const Error& error) = 0;
    /// The input failed at `step`: its outputs not yet written will not be (unless this throws).
    virtual void input_failed(const Error& error, Step step) = 0;
    /// The trip ended with every output written or failed.
    virtual void finished(const TripReport&) {}
};

}  // namespace gpurotate::convert
