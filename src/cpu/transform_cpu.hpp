#pragma once
// The CPU backend: the same element-to-pixels work as the CUDA kernels, cache-blocked and multithreaded.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

namespace gpurotate::detail {

/// Applies `map` to `src`, writing `dst`, on up to `max_threads` threads (0: all cores). Arguments are
/// already validated by the front end (transform.cpp).
void transform_cpu(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads = 0);

}  // namespace gpurotate::detail
