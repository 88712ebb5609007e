#pragma once
// A minimal fork-join loop for the CPU backend: the range is cut into one contiguous chunk per thread,
// which keeps each thread on its own rows of the output (no false sharing, no work queue to tune); the
// threads come from a pool started on first use (parallel_for.cpp).

#include <cstdint>
#include <functional>

namespace gpurotate::detail {

/// The cores this process may run on: its CPU affinity (taskset, Slurm's and containers' cpusets), where the
/// system says it, else every hardware thread. At least 1.
unsigned usable_cores();

/// Calls `body(begin, end)` on disjoint chunks covering [0, count), on up to `max_threads` threads
/// (0: usable_cores()), never giving a thread fewer than `min_chunk` items. Rethrows the first
/// exception a chunk threw, after all threads have joined.
void parallel_for(std::int64_t count, std::int64_t min_chunk,
                  const std::function<void(std::int64_t, std::int64_t)>& body, unsigned max_threads = 0);

}  // namespace gpurotate::detail
