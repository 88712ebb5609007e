#pragma once
// Where the running executable lies, for what is installed beside it (gpurotate-bench, the OpenCV plugin).

#include <string>

namespace gpurotate::detail {

/// The folder of the running executable (not of argv[0], which a shell's PATH lookup leaves bare); "."
/// where the system does not say.
std::string executable_folder();

}  // namespace gpurotate::detail
