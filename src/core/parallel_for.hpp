#pragma once
// A minimal fork-join loop for the CPU backend: the range is cut into one contiguous chunk per thread,
// which keeps each thread on its own rows of the output (no false sharing, no work queue to tune).

#include <cstdint>
#include <functional>

namespace gpurotate::detail {

/// Calls `body(begin, end)` on disjoint chunks covering [0, count), on up to `max_threads` threads
/// (0: all hardware threads), never giving a thread fewer than `min_chunk` items. Rethrows the first
/// exception a chunk threw, after all threads have joined.
void parallel_for(std::int64_t count, std::int64_t min_chunk,
                  const std::function<void(std::int64_t, std::int64_t)>& body, unsigned max_threads = 0);

}  // namespace gpurotate::detail
