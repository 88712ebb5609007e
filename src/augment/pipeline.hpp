#pragma once
// The workers of `augment`: each takes the next input, decodes it, has all its variants made in one pass
// (a fused launch on a shared GPU session, or the CPU), encodes and writes them, and records each output
// in the manifest. The number of images in flight is the number of workers, whatever the dataset size.

#include "augment/manifest.hpp"
#include "augment/output_folder.hpp"
#include "augment/output_plan.hpp"
#include "augment/progress.hpp"
#include "augment/run_notices.hpp"
#include "augment/sample_labels.hpp"
#include "convert/conversion_options.hpp"
#include "convert/gpu_resources.hpp"
#include "core/stage_account.hpp"

#include <gpurotate/transform.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace gpurotate::augment {

struct PipelineSettings {
    const OutputFolder* output_folder = nullptr;  ///< where every output is written (nullptr: by path, as a library caller)
    Backend backend = Backend::cpu;  ///< resolved: cuda or cpu
    bool cpu_fallback = false;       ///< --device auto: an image the GPU fails on is redone on the CPU
    std::vector<int> devices{0};
    unsigned workers = 1;
    convert::ConversionOptions convert;  ///< how each output is made (convert/conversion_plan.hpp decides its route)
    std::size_t gpu_memory = 0;  ///< device bytes per GPU for all its streams; 0: no limit of our own
    /// Host bytes for the images in flight, shared by the workers: an image whose variants do not fit its
    /// worker's share beside it makes them a group at a time.
    std::size_t host_memory = std::size_t{1} << 40;
    bool replace_outputs = false;    ///< --overwrite or --resume: outputs not recorded as complete are replaced
    /// --labels and --masks: each input's labels and mask turned with it (needs output_folder); nullptr: none.
    const SampleLabels* labels = nullptr;
    Interpolation interpolation = Interpolation::bilinear;  ///< --degrees' angles: --interpolate
    bool keep_size = false;                                 ///< and --keep-size
};

struct PipelineTotals {
    std::int64_t inputs_done = 0;
    std::int64_t inputs_failed = 0;
    std::int64_t outputs_written = 0;
    std::int64_t outputs_failed = 0;
    std::uint64_t bytes_written = 0;
    double decode_seconds = 0;     ///< summed over workers
    double transform_seconds = 0;  ///< GPU sessions (upload, kernel, downloads) or CPU transforms
    double encode_seconds = 0;     ///< encoding and writing
    std::size_t device_bytes = 0;  ///< device memory the sessions held at the end
    int gpu_sessions = 0;
    double gpu_start_seconds = 0;  ///< opening the GPU sessions (CUDA start-up), overlapped with the first decodes
    std::int64_t lossless_outputs = 0;  ///< JPEG variants transformed in the compressed domain (no re-encode)
    std::int64_t trimmed_outputs = 0;   ///< of them, variants --jpeg-edge trim cut
    std::int64_t reencoded_jpeg_outputs = 0;  ///< JPEG variants of JPEG inputs decoded and encoded again (new pixels)
    std::int64_t gpu_coded_scans = 0;   ///< lossless variants whose scans the GPU entropy-coded
    std::int64_t nvjpeg_inputs = 0;  ///< inputs encoded by nvJPEG (the others took the CPU codecs)
    std::int64_t hardware_decoded = 0;  ///< of them, inputs the GPU's hardware JPEG decoder decoded
    bool fell_back_to_cpu = false;
    /// -v's account: the workers' seconds by stage (core/stage_account.hpp), the pipelines' wall time, and the
    /// workers' seconds they had (workers x wall: what the stages did not take, the workers waited).
    detail::StageSeconds stage_seconds;
    double pipeline_seconds = 0;
    double worker_seconds_available = 0;
};

/// How one output is made: the run's options, with its drawn angle (--degrees) after its element.
convert::ConversionOptions conversion_options_for(const PipelineSettings& settings, const PlannedOutput& out);

/// What the GPU's sessions (`gpu`, nullptr on the CPU) and the run's notices add to `totals`, once the workers
/// have stopped.
void add_run_totals(PipelineTotals& totals, convert::GpuResources* gpu, const OncePerRun& notices);

/// Runs `work` on `workers` threads (this one among them), each with a stage account of its own, added to
/// `totals` with the wall time once they have all returned.
void run_workers(unsigned workers, const std::function<void()>& work, PipelineTotals& totals);

/// Runs every job (until a stop is requested) and returns what happened. Throws Error when the manifest
/// cannot be written (it must never lie), after the workers have stopped.
PipelineTotals run_pipeline(const std::vector<Job>& jobs, const PipelineSettings& settings, ManifestWriter& manifest,
                            Progress& progress);

}  // namespace gpurotate::augment
