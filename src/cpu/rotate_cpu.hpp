#pragma once
// The CPU backend of rotation by any angle: core/rotation_sampling.hpp's pixel, the row origins and column steps
// computed once, rows split over threads.

#include "core/rotation_sampling.hpp"

#include <gpurotate/image.hpp>

namespace gpurotate::detail {

/// Rotates `src` into `dst` by `plan` (whose weights are host memory) on up to `max_threads` threads (0:
/// usable_cores()). Arguments already validated by the front end (frontend/rotate.cpp).
void rotate_cpu(ConstImageView src, ImageView dst, const RotationPlan& plan, unsigned max_threads = 0);

}  // namespace gpurotate::detail
