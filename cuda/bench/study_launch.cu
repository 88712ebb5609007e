// The bench's study entry points other than the vectorized layouts (bench/study_launch.hpp): each fused
// multi-output kernel on its own, the grouped launch with other work items, and the loop inside the kernel.

#include "bench/study_launch.hpp"
#include "bench/repeated_passes.cuh"
#include "bench/variant_groups.cuh"
#include "check.cuh"
#include "launch.cuh"
#include "launch_tiled.cuh"
#include "pixel_width_dispatch.cuh"

#include "core/pixel_word.hpp"

namespace gpurotate::bench {

bool multi_output_fused_applies(ConstImageView src, const TransformTarget* targets, std::size_t count) {
    return detail::fused_vectorized_fits(src, targets, count);
}

bool multi_output_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    return detail::launch_fused(detail::tuning::FusedKernel::vectorized, src, targets, count, stream);
}

void transform_device_multi_tiled(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    detail::launch_fused(detail::tuning::FusedKernel::tiled, src, targets, count, stream);
}

void transform_device_grouped_study(const GroupedTransform* images, std::size_t count, CUstream_st* stream, detail::GroupedSchedule schedule) {
    detail::with_pixel_width(images[0].src.format.pixel_bytes(),
                             [&](auto width) { detail::launch_grouped<decltype(width)::value>(images, count, stream, schedule); });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

bool transform_device_repeated(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream,
                               const detail::BatchLayout& batch_in, int passes) {
    namespace tuning = detail::tuning;
    const bool back_to_back = detail::stacked_back_to_back(src, dst, batch_in);
    if (kernel == CudaKernel::automatic) {
        const tuning::BatchShape shape{batch_in.count, back_to_back, src.row_bytes() * static_cast<std::size_t>(src.height)};
        // Batches the policy gives a kernel of their own have no repeated launch.
        if (tuning::select_batch_route(static_cast<int>(src.format.pixel_bytes()), map.swap_axes, shape) != tuning::BatchRoute::per_image) return false;
    }
    detail::BatchLayout batch = batch_in;
    if (detail::runs_as_one_tall_image(src, dst, map, batch)) {  // as transform_device_cuda runs it
        src.height *= batch.count;
        dst.height *= batch.count;
        batch = detail::BatchLayout{};
    }
    const std::size_t bytes = src.format.pixel_bytes();
    const tuning::ElementPolicy policy = tuning::select_element(static_cast<int>(bytes), map.swap_axes, detail::current_device_class());
    const bool vectorized_fits = detail::vectorized_applies(src, dst, map) && detail::strides_allow_vectors(batch);
    if (kernel == CudaKernel::automatic) kernel = detail::automatic_kernel(policy, vectorized_fits);  // production's choice, not a copy
    const detail::Launch l{src, dst, map, batch, stream, kernel == CudaKernel::vectorized ? policy.blocks_per_sm : 0};
    if (kernel == CudaKernel::vectorized) {
        if (!vectorized_fits || detail::loads_shifted_columns(map.mirror_x, src.width, static_cast<int>(bytes))) return false;
        detail::with_pixel_width(bytes, [&](auto width) { detail::launch_vectorized_repeated<decltype(width)::value>(l, passes); });
    } else {
        const bool aligned = detail::allows_aligned_word(src.data, src.pitch, bytes) && detail::allows_aligned_word(dst.data, dst.pitch, bytes) &&
                             batch.src_image_stride % detail::natural_alignment(bytes) == 0 && batch.dst_image_stride % detail::natural_alignment(bytes) == 0;
        detail::visit_pixel_word(bytes, aligned, [&](auto word) { detail::launch_tiled_word<decltype(word)>(l, kernel, detail::RepeatedPasses{passes}); });
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
    return true;
}

}  // namespace gpurotate::bench
