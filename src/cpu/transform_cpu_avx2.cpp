// Built with -mavx2 (CMakeLists.txt): run only on CPUs that have it (transform_cpu.cpp checks).
#include "cpu/transform_cpu_kernels.hpp"
#include "cpu/transform_cpu_targets.hpp"

namespace gpurotate::detail {

void transform_cpu_avx2(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuStores stores) {
    transform_cpu_kernels(src, dst, map, max_threads, stores);
}

}  // namespace gpurotate::detail
