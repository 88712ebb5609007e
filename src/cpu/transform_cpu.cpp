#include "cpu/transform_cpu.hpp"

#include "cpu/transform_cpu_targets.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>

namespace gpurotate::detail {

std::string_view name(CpuKernels kernels) {
    switch (kernels) {
        case CpuKernels::baseline: return "baseline";
        case CpuKernels::avx2: return "avx2";
    }
    return "unknown";
}

const std::vector<CpuKernels>& runnable_cpu_kernels() {
    static const std::vector<CpuKernels> runnable = [] {
        std::vector<CpuKernels> kernels{CpuKernels::baseline};
#if GPUROTATE_CPU_HAVE_AVX2_UNIT
        // Without pshufb (SSSE3 and up) a byte reversal or byte transpose takes a dozen SSE2 shifts and
        // unpacks; AVX2 is the first level every x86-64 CPU of the last ten years has, so one extra unit covers them.
        if (__builtin_cpu_supports("avx2")) kernels.push_back(CpuKernels::avx2);
#endif
        return kernels;
    }();
    return runnable;
}

void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads) {
    transform_cpu(src, dst, map, max_threads, runnable_cpu_kernels().back());
}

void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuKernels kernels) {
    const auto& runnable = runnable_cpu_kernels();
    if (std::find(runnable.begin(), runnable.end(), kernels) == runnable.end()) {
        throw Error(ErrorCode::usage, std::string("the CPU kernels for ") + std::string(name(kernels)) + " are not built or this CPU cannot run them");
    }
    switch (kernels) {
        case CpuKernels::baseline: transform_cpu_baseline(src, dst, map, max_threads); return;
        case CpuKernels::avx2:
#if GPUROTATE_CPU_HAVE_AVX2_UNIT
            transform_cpu_avx2(src, dst, map, max_threads);
#endif
            return;
    }
}

}  // namespace gpurotate::detail
