// The dispatch of a transform to its launcher: the kernel asked for or, for `automatic`, the tuning policy's
// (cuda/tuning/tuning_transform.hpp: the element's kernel and blocks per SM, a batch's route) where it applies,
// and the pixel width. The launchers themselves are instantiated one pixel width a translation unit (launch.cuh,
// cuda/instantiate/).

#include "check.cuh"
#include "device_query.cuh"
#include "kernels/mirror_rows.cuh"
#include "launch.cuh"
#include "pixel_width_dispatch.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace gpurotate::detail {
namespace {

/// The vectorized kernel of l.map at l's width: a mirror, or a transpose, as one stack of planes where `route`
/// names it and it applies.
void launch_vectorized_of_width(const Launch& l, tuning::BatchRoute route) {
    with_pixel_width(l.src.format.pixel_bytes(), [&](auto width) {
        constexpr int S = decltype(width)::value;
        if (!l.map.swap_axes) {
            launch_vectorized_mirror<S>(l);
        } else if (route != tuning::BatchRoute::stacked_planes || !launched_stacked_transpose<S>(l)) {
            launch_vectorized_transpose<S>(l);
        }
    });
}

/// Runs an axis-keeping element on a batch with mirror_rows_kernel where mirror_rows_apply holds; returns whether
/// it did (tuning::mirror_rows_width says for which widths the policy asks for it).
bool launched_mirror_rows(ConstImageView src, ImageView dst, AxisMap map, const BatchLayout& batch, cudaStream_t stream) {
    if (map.swap_axes || !mirror_rows_apply(src, dst, batch.src_image_stride, batch.dst_image_stride, batch.count)) return false;
    const MirrorRowsArgs args = mirror_rows_args(src, dst, batch.count);
    const unsigned blocks = mirror_rows_blocks(args);
    const std::size_t bytes = src.format.pixel_bytes();
    return with_pixel_width(bytes, [&](auto width) {
        constexpr int S = decltype(width)::value;
        if constexpr (tuning::mirror_rows_width(S)) {  // the widths mirror_rows_apply lets through
            const auto launch = [&](auto kernel) { kernel<<<blocks, mirror_rows_threads, 0, stream>>>(args); };
            if (map.mirror_x && map.mirror_y) {
                launch(mirror_rows_kernel<S, true, true>);
            } else if (map.mirror_x) {
                launch(mirror_rows_kernel<S, true, false>);
            } else {
                launch(mirror_rows_kernel<S, false, true>);
            }
        }
    });
}

}  // namespace

bool vectorized_applies(ConstImageView src, ConstImageView dst, AxisMap /*every element, at any width*/) {
    return with_pixel_width(src.format.pixel_bytes(), [](auto) {}) && allows_aligned_word(src.data, src.pitch, vector_bytes) &&
           allows_aligned_word(dst.data, dst.pitch, vector_bytes);
}

void transform_in_place_cuda(ImageView image, AxisMap map, CUstream_st* stream) {
    const std::size_t bytes = image.format.pixel_bytes();
    const bool aligned = allows_aligned_word(image.data, image.pitch, bytes);
    if (!with_pixel_width(bytes, [&](auto width) { launch_in_place<decltype(width)::value>(image, map, aligned, stream); })) {
        throw_unsupported_width(bytes);
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

void transform_device_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream,
                           const BatchLayout& batch) {
    const auto images = static_cast<std::size_t>(batch.count);
    if (!map.swap_axes && !map.mirror_x && !map.mirror_y) {
        // A flat copy when the whole batch is one contiguous block on both sides: cudaMemcpy2DAsync is
        // far slower. Otherwise one 2D copy with the images' rows stacked, if their strides allow.
        const std::size_t src_bytes = src.pitch * static_cast<std::size_t>(src.height);
        const bool stacked = images == 1 || stacked_back_to_back(src, dst, batch);
        if (stacked && src.pitch == src.row_bytes() && dst.pitch == dst.row_bytes()) {
            GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(dst.data, src.data, src_bytes * images, cudaMemcpyDeviceToDevice, stream));
        } else if (stacked) {
            GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                                                   static_cast<std::size_t>(src.height) * images, cudaMemcpyDeviceToDevice, stream));
        } else {
            for (std::size_t i = 0; i < images; ++i) {
                GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data + i * batch.dst_image_stride, dst.pitch, src.data + i * batch.src_image_stride,
                                                       src.pitch, src.row_bytes(), static_cast<std::size_t>(src.height),
                                                       cudaMemcpyDeviceToDevice, stream));
            }
        }
        return;
    }
    const std::size_t bytes = src.format.pixel_bytes();
    const bool automatic = kernel == CudaKernel::automatic;
    const tuning::BatchShape shape{batch.count, stacked_back_to_back(src, dst, batch), src.row_bytes() * static_cast<std::size_t>(src.height)};
    const tuning::BatchRoute route = automatic ? tuning::select_batch_route(static_cast<int>(bytes), map.swap_axes, shape) : tuning::BatchRoute::per_image;
    if (route == tuning::BatchRoute::mirror_rows && launched_mirror_rows(src, dst, map, batch, stream)) {
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return;
    }
    if (runs_as_one_tall_image(src, dst, map, batch)) {
        ConstImageView tall_src = src;
        ImageView tall_dst = dst;
        tall_src.height = tall_dst.height = src.height * static_cast<std::int64_t>(images);
        transform_device_cuda(tall_src, tall_dst, map, kernel, stream, BatchLayout{1, 0, 0});
        return;
    }
    // The policy's kernel and launch shape (automatic_kernel: the policy's tile where the vectorized kernels do not apply).
    const bool applies = vectorized_applies(src, dst, map) && strides_allow_vectors(batch);
    const tuning::ElementPolicy policy = tuning::select_element(static_cast<int>(bytes), map.swap_axes, current_device_class());
    if (automatic) kernel = automatic_kernel(policy, applies);
    const bool vectorized = kernel == CudaKernel::vectorized;
    const Launch launch{src, dst, map, batch, stream, vectorized ? policy.blocks_per_sm : 0};
    if (vectorized) {
        if (!applies) {
            throw Error(ErrorCode::usage, "the vectorized kernel needs 16-byte aligned pointers, pitches and image strides");
        }
        launch_vectorized_of_width(launch, route);
    } else {
        const bool aligned = allows_aligned_word(src.data, src.pitch, bytes) && allows_aligned_word(dst.data, dst.pitch, bytes) &&
                             batch.src_image_stride % natural_alignment(bytes) == 0 && batch.dst_image_stride % natural_alignment(bytes) == 0;
        if (!with_pixel_width(bytes, [&](auto width) { launch_tiled<decltype(width)::value>(launch, kernel, aligned); })) {
            throw_unsupported_width(bytes);
        }
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpurotate::detail
