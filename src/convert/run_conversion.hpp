#pragma once
// The one conversion both front ends run: a source, its N outputs (each a sink and its plan from
// plan_conversion), the resources and an observer. The single-image command is N = 1; augment is an
// input's N variants. run_conversion does the whole trip: one coefficient read for every lossless JPEG
// output, nvJPEG (its GPU decode, then libjpeg-turbo's pixels uploaded), the decode, the fit to the output,
// one fused transform for all the outputs left, their encodes and writes, with each fallback and its reason.
// What differs between the front ends is a parameter: the executor and resources (ConversionRun, GpuPolicy)
// and the observer (conversion_observer.hpp).

#include "convert/conversion_observer.hpp"
#include "convert/conversion_plan.hpp"
#include "convert/gpu_resources.hpp"
#include "convert/staging_buffer.hpp"

#include <gpurotate/transform.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace gpurotate::convert {

/// One output: where it goes and how it is made.
struct ConversionOutput {
    detail::ImageSink sink;
    ConversionPlan plan;
};

/// nvJPEG's route as run_conversion runs it: `source` decoded (or `decoded`, uploaded) and encoded once per
/// element at `quality`; nothing where the codec declines the file. The default uses the coders of
/// ConversionRun::gpu; a test puts a codec of its own here (one that declines, one without a GPU).
using GpuJpegCodec = std::function<std::optional<std::vector<std::vector<std::uint8_t>>>(
    const detail::ImageSource& source, const std::vector<Orientation>& elements, int quality, const Image* decoded, detail::GpuJpegReport& report)>;

/// How the trip runs: the deliberate differences between one image and a dataset.
struct ConversionRun {
    Backend backend = Backend::cpu;  ///< resolved: the executor of the pixels' route (cpu, or cuda with `gpu`)
    GpuResources* gpu = nullptr;     ///< with backend cuda or nvJPEG routes; nullptr on the CPU
    /// Without GPU sessions: the transform's kernel and device memory (one image, through transform()), and
    /// the CPU's threads for a transform (0: every core, one image; 1: augment, whose workers fill the cores).
    CudaKernel kernel = CudaKernel::automatic;
    std::size_t gpu_memory = 0;
    unsigned cpu_threads = 0;
    /// Host bytes the variants may take beside the decoded input: more variants than fit are made a group at a time.
    std::size_t host_memory = std::numeric_limits<std::size_t>::max();
    StagingBuffer* staging = nullptr;  ///< where the variants are made (required)
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();  ///< when the source's read began
    GpuJpegCodec gpu_jpeg;  ///< empty: nvJPEG's coders from `gpu`
    /// -i: an identity with nothing else to change leaves the file as it is (Notice::left_as_is).
    bool leave_identity_untouched = false;
};

/// Runs `source` to every output. Reports to `observer` as it goes (see ConversionObserver: an output or the
/// input that fails is reported there, and the observer decides whether that ends the run by throwing).
/// Throws Error where the GPU cannot start and the policy has no fallback.
void run_conversion(const detail::ImageSource& source, const std::vector<ConversionOutput>& outputs, const ConversionOptions& options,
                    const ConversionRun& run, ConversionObserver& observer);

/// Refuses --nvjpeg where this build has no nvJPEG or `device` is the CPU; `command` ("", "augment ")
/// begins the message. Throws Error (usage).
void check_nvjpeg_request(const ConversionOptions& options, Backend device, const std::string& command);

}  // namespace gpurotate::convert
