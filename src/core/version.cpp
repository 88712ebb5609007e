#include <gpurotate/version.hpp>

namespace gpurotate {

std::string version() { return GPUROTATE_VERSION; }

}  // namespace gpurotate
