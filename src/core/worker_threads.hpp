#pragma once
// The workers of a batch of files (augment's images, the file command's files): each takes the next item
// until none is left, so a slow file holds up one worker, not a fixed share of the list.

#include <functional>

namespace gpurotate::detail {

/// Runs `work` on `workers` threads, the calling thread one of them, and returns once every one has returned;
/// fewer where the system refuses a thread (the others take its share). `work` must not throw: each worker
/// catches what its items throw, so that one item's failure is that item's alone.
void run_on_workers(unsigned workers, const std::function<void()>& work);

}  // namespace gpurotate::detail
