#pragma once
// The single-image job: decode, one transform, encode.

#include "cli/options.hpp"

#include <iosfwd>

namespace gpurotate::cli {

/// Runs the job `options` describes; progress for -v goes to `log`. Throws Error.
void run_single_image(const Options& options, std::ostream& log);

/// Prints what `gpurotate --version` prints: the GPUs as the driver lists them, or with `query_cuda`
/// (--version -v) as CUDA reports them, which starts CUDA (0.2 s or more).
void print_version(std::ostream& out, bool query_cuda);

}  // namespace gpurotate::cli
