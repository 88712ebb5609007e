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

/// Output bytes a thread must have before a call is split: waking a pool thread and waiting for it costs 20-30 us
/// on the 2-core VM, the time a mirror (40 GB/s of reads and writes) takes for about 1 MB and a transpose for a
/// third of that. On two threads against one (bench --cpu --threads, u8c1): 2 MB mirrors 0.07 against 0.05 ms,
/// 4 MB level; 1 MB transposes 0.11-0.16 against 0.10, 2 MB 0.14-0.16 against 0.20. The Python batches and the
/// bench's memcpy split by the same rules.
inline constexpr std::int64_t min_bytes_per_thread_mirrors = 2 << 20, min_bytes_per_thread_transposes = 1 << 20;

/// Output bytes from which the mirrors write with streaming stores, past the caches: half the level-3 cache
/// (source and output then no longer both fit), read once from sysfs, and at most 16 MiB (16 MiB where sysfs shows
/// no L3). Below it plain stores win, since the output stays in the cache for whatever reads it next; above it a
/// plain store first reads the line it writes. 2-core EPYC VM (32 MiB L3), u8c1 flip-v: 2 MB 0.045 ms plain
/// against 0.074 streaming; 72 MB 4.6-5.2 ms as row memcpys against 3.1-3.4 streaming. The 16-core Xeon host of
/// the H100 machine reports 300 MiB, yet streaming won there from 18 MB (3000x2000 u8c3 rot180 on one thread
/// 3.7-3.8 ms plain against 2.5-2.9) and lost at 6 MB (u8c1): hence the cap (bench/RESULTS.md, 2026-11-25;
/// `bench --cpu --cpu-stores` compares the two).
std::int64_t streaming_store_min_bytes();

/// How the mirrors store their output: streaming from streaming_store_min_bytes() on, or either way for every size
/// (the tests run both on small images).
enum class CpuStores : std::uint8_t { by_size, cached, streaming };

/// Applies `map` to `src`, writing `dst`, on up to `max_threads` threads (0: usable_cores()), with the widest
/// kernels this CPU runs. Arguments are already validated by the front end (transform.cpp).
void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads = 0);

/// The same with the given kernels, which must be among `runnable_cpu_kernels()` (tests check every one).
void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuKernels kernels,
                   CpuStores stores = CpuStores::by_size);

}  // namespace gpurotate::detail
