#include "cpu/transform_cpu.hpp"

#include "cpu/transform_cpu_targets.hpp"

namespace gpurotate::detail {

void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads) {
#if GPUROTATE_CPU_HAVE_AVX2_UNIT
    // Without pshufb (SSSE3 and up) a byte reversal or byte transpose takes a dozen SSE2 shifts and unpacks;
    // AVX2 is the first level every x86-64 CPU of the last ten years has, so one extra unit covers them.
    static const bool has_avx2 = __builtin_cpu_supports("avx2");
    if (has_avx2) {
        transform_cpu_avx2(src, dst, map, max_threads);
        return;
    }
#endif
    transform_cpu_baseline(src, dst, map, max_threads);
}

}  // namespace gpurotate::detail
