#pragma once
// The GPUs the NVIDIA kernel driver lists in /proc, read without starting CUDA: starting it takes 0.2 s
// or more, and `gpurotate --version` should answer in milliseconds.

#include <string>
#include <vector>

namespace gpurotate::cli {

struct DriverGpus {
    std::string driver_version;      ///< e.g. "580.159.04"; empty without the driver's /proc files
    std::vector<std::string> models; ///< e.g. "NVIDIA H100 80GB HBM3", in bus order
};

/// What /proc/driver/nvidia says (both empty where it is absent).
DriverGpus driver_gpus();

}  // namespace gpurotate::cli
