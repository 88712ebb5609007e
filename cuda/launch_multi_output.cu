// The dispatch of the multi-output transform: the vectorized fused kernel, the shared-memory fused kernel, or
// one automatic launch per element, as tuning::select_fused (cuda/tuning/tuning_transform.hpp) picks for
// the pixel width and size where the vectorized kernel's alignment rules allow it or not. The launchers themselves are
// instantiated one pixel width a unit (launch_multi_output.cuh).

#include "check.cuh"
#include "launch.cuh"
#include "pixel_width_dispatch.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/pixel_word.hpp"

namespace gpurotate::detail {

bool fused_vectorized_fits(ConstImageView src, const TransformTarget* targets, std::size_t count) {
    bool fits = false;
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) { fits = multi_output_vectorized_fits<decltype(width)::value>(src, targets, count); });
    return fits;
}

bool launch_fused(tuning::FusedKernel kernel, ConstImageView src, const TransformTarget* targets, std::size_t count, cudaStream_t stream) {
    const std::size_t bytes = src.format.pixel_bytes();
    bool launched = true;
    if (kernel == tuning::FusedKernel::vectorized) {
        with_pixel_width(bytes, [&](auto width) { launched = launch_multi_output_vectorized<decltype(width)::value>(src, targets, count, stream); });
    } else if (kernel == tuning::FusedKernel::tiled) {
        bool aligned = allows_aligned_word(src.data, src.pitch, bytes);
        for (std::size_t i = 0; i < count; ++i) aligned = aligned && allows_aligned_word(targets[i].dst.data, targets[i].dst.pitch, bytes);
        if (!with_pixel_width(bytes, [&](auto width) { launch_multi_output_tiled<decltype(width)::value>(src, targets, count, aligned, stream); })) {
            throw_unsupported_width(bytes);
        }
    } else {
        for (std::size_t i = 0; i < count; ++i) {
            transform_device_cuda(src, targets[i].dst, axis_map(targets[i].orientation), CudaKernel::automatic, stream);
        }
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
    return launched;
}

void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const bool fits = fused_vectorized_fits(src, targets, count);
    const int pixel_bytes = static_cast<int>(src.format.pixel_bytes());
    bool swaps = false;
    for (std::size_t i = 0; i < count; ++i) swaps = swaps || axis_map(targets[i].orientation).swap_axes;
    const tuning::FusedKernel kernel = tuning::select_fused_for_targets(pixel_bytes, src.width, src.height, fits, swaps);
    launch_fused(kernel, src, targets, count, stream);
}

}  // namespace gpurotate::detail
