#pragma once
// One image's encoded bytes in, the output's encoded bytes out, through the planner and the run the CLI's
// `gpurotate - --rot90 -o jpg:-` takes (plan_conversion, run_conversion): a lossless JPEG transform for a
// JPEG, a PNG in its stored format, the metadata as docs/fidelity.md says. For the Python package's
// gpurotate.transform_encoded; the output is a sink whose containing folder keeps its bytes in memory.

#include "convert/conversion_options.hpp"
#include "convert/gpu_resources.hpp"

#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::convert {

/// What a conversion of bytes says besides its result: the warnings the CLI prints ("gpurotate: warning: ..."
/// without the prefix), in order.
struct EncodedResult {
    std::vector<std::uint8_t> bytes;
    std::vector<std::string> warnings;
};

/// Converts the image in `bytes` (named `name` in messages) by `element` to `format` (an extension: "png",
/// "jpg"; empty: the input's own format, as its content names it) under `options`, on `backend` (cpu, or
/// cuda with `gpu`, which must then be given). Throws Error with the CLI's message and code where the CLI
/// fails (input 3: not an image, damaged; usage 2: an unknown format; output 4: a format that cannot hold
/// the pixels).
EncodedResult convert_encoded(std::vector<std::uint8_t> bytes, const std::string& name, Orientation element, const std::string& format,
                              const ConversionOptions& options, Backend backend = Backend::cpu, GpuResources* gpu = nullptr);

}  // namespace gpurotate::convert
