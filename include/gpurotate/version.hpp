#pragma once
/// \file version.hpp
/// What this build of gpurotate is and what it found on the machine.

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate {

/// "0.1.0"
std::string version();

/// One CUDA device as the runtime reports it.
struct GpuInfo {
    int index = 0;
    std::string name;
    std::uint64_t total_memory_bytes = 0;
    int compute_major = 0;
    int compute_minor = 0;
};

/// Whether the CUDA backend was compiled in.
bool cuda_compiled_in();
/// The CUDA devices present (empty without CUDA or without a GPU). `problem`, if given, receives the
/// runtime's reason when none is usable ("no CUDA-capable device is detected", ...).
std::vector<GpuInfo> cuda_devices(std::string* problem = nullptr);
/// The CUDA runtime version this build was compiled against, "13.0", or "" without CUDA.
std::string cuda_runtime_version();

}  // namespace gpurotate
