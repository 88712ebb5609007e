#pragma once
// The CPU backend: the same element-to-pixels work as the CUDA kernels, cache-blocked, vectorized and
// multithreaded.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpurotate::detail {

/// The instruction sets the CPU kernels are built for (one source, one unit each).
enum class CpuKernels : std::uint8_t {
    baseline,  ///< the compiler's default target: SSE2 on x86-64
    avx2,      ///< x86-64 with AVX2: byte shuffles are one instruction
};

/// "baseline", "avx2".
std::string_view name(CpuKernels kernels);

/// The kernels this build has and this CPU can run, baseline first; the last is the one `transform_cpu` picks.
const std::vector<CpuKernels>& runnable_cpu_kernels();

/// Applies `map` to `src`, writing `dst`, on up to `max_threads` threads (0: all cores), with the widest
/// kernels this CPU runs. Arguments are already validated by the front end (transform.cpp).
void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads = 0);

/// The same with the given kernels, which must be among `runnable_cpu_kernels()` (tests check every one).
void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuKernels kernels);

}  // namespace gpurotate::detail
