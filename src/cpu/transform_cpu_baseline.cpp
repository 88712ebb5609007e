#include "cpu/transform_cpu_kernels.hpp"
#include "cpu/transform_cpu_targets.hpp"

namespace gpurotate::detail {

void transform_cpu_baseline(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuStores stores) {
    transform_cpu_kernels(src, dst, map, max_threads, stores);
}

}  // namespace gpurotate::detail
