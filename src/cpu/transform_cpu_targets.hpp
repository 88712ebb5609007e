#pragma once
// The CPU kernels built for each instruction set (one unit each, from transform_cpu_kernels.hpp);
// transform_cpu picks one at run time.

#include "cpu/transform_cpu.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

namespace gpurotate::detail {

/// The kernels built for the compiler's default target (SSE2 on x86-64).
void transform_cpu_baseline(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuStores stores);

#if GPUROTATE_CPU_HAVE_AVX2_UNIT
/// The same kernels built with AVX2 (byte shuffles in one instruction); call only where the CPU has it.
void transform_cpu_avx2(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuStores stores);
#endif

}  // namespace gpurotate::detail
