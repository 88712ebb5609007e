#pragma once
// The rotation launcher (launch_rotate.cu) with its levers named: the product runs RotationLevers{}; the bench's
// study rows (bench/bench_runner.cu) turn one at a time, to measure what each buys in the same run.

#include "frontend/cuda_backend.hpp"

#include <optional>

namespace gpurotate::detail {

struct RotationLevers {
    /// Each footprint row stages only the words the tile's taps can reach (kernels/rotate.cuh,
    /// rotation_row_words), not its whole bounding box; empty: where rotation_row_spans_pay says so.
    std::optional<bool> row_spans;
    /// The tile's tables before its footprint's loads, behind a barrier of their own (RotationLaunch::tables_first);
    /// the product makes them while the loads fly.
    bool tables_first = false;
};

/// rotate_device_cuda with `levers` in place of the product's.
void rotate_device_levers(ConstImageView src, ImageView dst, const RotationPlan& plan, const RotationLevers& levers, CUstream_st* stream);

}  // namespace gpurotate::detail
