#pragma once
// The paper's loop inside the kernel, for the bench alone: every block walks its tile rows `n` times in one
// launch. The kernels take it where the product passes OnePass (kernels/pixel_access.cuh).

namespace gpurotate::detail {

struct RepeatedPasses {
    int n = 1;
    __device__ int count() const { return n; }
};

}  // namespace gpurotate::detail
