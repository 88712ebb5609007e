#include "cli/gpu_startup.hpp"

#include "frontend/cuda_backend.hpp"

#include <gpurotate/transform.hpp>

#include <chrono>

namespace gpurotate::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

GpuStartup::GpuStartup(bool nvjpeg, bool hardware_decoder, std::size_t gpu_memory)
    : starting_(std::async(std::launch::async, [nvjpeg, hardware_decoder, gpu_memory] {
          const auto start = std::chrono::steady_clock::now();
          Started started;
          resolve_backend(Backend::cuda);  // the driver's start-up; Error (device) without a usable GPU
          detail::start_cuda(0);
          // Optimised Huffman tables: one image, so the smaller file is worth the encoder's second pass.
          if (nvjpeg) started.coder = std::make_unique<detail::NvjpegCoder>(detail::NvjpegCoder::open_handle(0, hardware_decoder), gpu_memory, true);
          started.seconds = seconds_since(start);
          return started;
      })) {}

GpuStartup::Started& GpuStartup::wait() {
    if (!finished_) {
        const auto start = std::chrono::steady_clock::now();
        try {
            started_ = starting_.get();
        } catch (...) {
            failure_ = std::current_exception();
        }
        finished_ = true;
        waited_seconds_ = seconds_since(start);
    }
    if (failure_) std::rethrow_exception(failure_);
    return started_;
}

}  // namespace gpurotate::cli
