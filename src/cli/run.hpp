#pragma once
// The single-image job: decode, one transform, encode.

#include "cli/options.hpp"

#include <iosfwd>

namespace gpurotate::convert {
class GpuResources;
}

namespace gpurotate::cli {

/// Runs the job `options` describes; progress for -v goes to `log`. Throws Error. Where the job runs on the GPU
/// (--device cuda, --nvjpeg), it takes `shared_gpu` where given (the files of one command share one start of the
/// GPU), else starts it for the one file.
void run_single_image(const Options& options, std::ostream& log, convert::GpuResources* shared_gpu = nullptr);

/// Whether the single-image command turns its files on the GPU: --device cuda or --nvjpeg (--device auto means the
/// CPU for a file; docs/cli.md).
bool converts_on_gpu(const Options& options);

/// Prints what `gpurotate --version` prints: the GPUs as the driver lists them, or with `query_cuda`
/// (--version -v) as CUDA reports them, which starts CUDA (0.2 s or more).
void print_version(std::ostream& out, bool query_cuda);

}  // namespace gpurotate::cli
