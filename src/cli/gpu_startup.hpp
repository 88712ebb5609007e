#pragma once
// CUDA's start-up (driver, context, and nvJPEG's handle and coder with --nvjpeg) on a thread of its own,
// begun at launch, so that a single-image run pays it while it reads and decodes the input instead of
// before (issue: start-up). The seconds it took and the seconds the caller still waited say how much of
// it was hidden.

#include "jpeg/nvjpeg_codec.hpp"

#include <cstddef>
#include <exception>
#include <future>
#include <memory>

namespace gpurotate::cli {

class GpuStartup {
public:
    struct Started {
        std::unique_ptr<detail::NvjpegCoder> coder;  ///< with nvjpeg
        double seconds = 0;                          ///< the start-up's own time, on its thread
    };

    /// Starts GPU 0; with `nvjpeg` also an nvJPEG coder (with the hardware decoder where
    /// `hardware_decoder`) whose source and results may take `gpu_memory` bytes (0: no limit).
    GpuStartup(bool nvjpeg, bool hardware_decoder, std::size_t gpu_memory);
    /// Waits for the start to finish (at once when it has); throws its Error (device: no usable GPU).
    Started& wait();
    /// Seconds wait() blocked: the part of the start-up that was not hidden.
    double waited_seconds() const { return waited_seconds_; }

private:
    std::future<Started> starting_;
    Started started_;
    std::exception_ptr failure_;
    bool finished_ = false;
    double waited_seconds_ = 0;
};

}  // namespace gpurotate::cli
