#include "cpu/transform_cpu.hpp"

#include "cpu/transform_cpu_targets.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <fstream>
#include <string>

namespace gpurotate::detail {

std::string_view name(CpuKernels kernels) {
    switch (kernels) {
        case CpuKernels::baseline: return "baseline";
        case CpuKernels::avx2: return "avx2";
    }
    return "unknown";
}

namespace {

// The size of the level-3 cache cpu0 sees, from Linux's sysfs ("32768K"); 0 where it cannot be read or there is
// none (a VM that shows only L1 and L2 would otherwise set the threshold at half an L2, streaming outputs that
// fit the cache).
std::int64_t level3_cache_bytes() {
    int best_level = 0;
    std::int64_t best_bytes = 0;
    for (int index = 0; index < 8; ++index) {
        const std::string folder = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        std::ifstream level_file(folder + "level"), size_file(folder + "size");
        int level = 0;
        std::int64_t size = 0;
        std::string unit;
        if (!(level_file >> level) || !(size_file >> size)) continue;
        size_file >> unit;
        const std::int64_t bytes = size * (unit == "K" ? 1024 : unit == "M" ? 1024 * 1024 : unit == "G" ? 1024 * 1024 * 1024 : 1);
        if (level > best_level || (level == best_level && bytes > best_bytes)) {
            best_level = level;
            best_bytes = bytes;
        }
    }
    return best_level >= 3 ? best_bytes : 0;
}

}  // namespace

std::int64_t streaming_store_min_bytes() {
    static const std::int64_t min_bytes = [] {
        constexpr std::int64_t at_most = std::int64_t{16} << 20;
        const std::int64_t cache = level3_cache_bytes();
        return cache > 0 ? std::min(cache / 2, at_most) : at_most;
    }();
    return min_bytes;
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

void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuKernels kernels, CpuStores stores) {
    const auto& runnable = runnable_cpu_kernels();
    if (std::find(runnable.begin(), runnable.end(), kernels) == runnable.end()) {
        throw Error(ErrorCode::usage, std::string("the CPU kernels for ") + std::string(name(kernels)) + " are not built or this CPU cannot run them");
    }
    switch (kernels) {
        case CpuKernels::baseline: transform_cpu_baseline(src, dst, map, max_threads, stores); return;
        case CpuKernels::avx2:
#if GPUROTATE_CPU_HAVE_AVX2_UNIT
            transform_cpu_avx2(src, dst, map, max_threads, stores);
#endif
            return;
    }
}

}  // namespace gpurotate::detail
