// The dispatch of a transform to its launcher: the kernel family for the element and the kernel asked
// for, and the pixel width. The launchers themselves are instantiated one pixel width a translation unit
// (launch.cuh, cuda/instantiate/).

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

void launch_vectorized_of_width(const Launch& l, bool automatic) {
    with_pixel_width(l.src.format.pixel_bytes(), [&](auto width) {
        constexpr int S = decltype(width)::value;
        if (!l.map.swap_axes) {
            launch_vectorized_mirror<S>(l);
        } else if (!automatic || !launched_stacked_transpose<S>(l)) {
            launch_vectorized_transpose<S>(l);
        }
    });
}

/// What `CudaKernel::automatic` runs, by pixel width: measured with `gpurotate bench` on an H200
/// (bench/RESULTS.md). The vectorized kernels win for every width but 16 bytes, where a pixel already is
/// one 16-byte access: there the 16x16 skip-lines tile (axis-swapping elements, 95% of the copy against
/// 92%) and its mirror, one pixel a thread, are faster. That mirror ran at 100.1-100.3% of the copy on an
/// H100, level with NPP's (100.2-100.3), where the plain mirror's 4 pixels a thread gave 99.0-99.1
/// (2026-11-23; the vectorized mirror 96 on the H200); at other widths one pixel a thread is far
/// slower (16-89%).
struct AutomaticChoice {
    bool vectorized;
    CudaKernel otherwise;  ///< the tiled kernel when not vectorized, or when vectorized does not apply
};

AutomaticChoice automatic_choice(std::size_t pixel_bytes) {
    if (pixel_bytes == 16) return {false, CudaKernel::tile16_skiplines};
    return {true, CudaKernel::tile32_padded};
}

/// Runs an axis-keeping element on a batch with mirror_rows_kernel where mirror_rows_apply holds; returns whether
/// it did. On an H200 (bench/RESULTS.md, 2026-11-25) it took the mirrors of 768 planes of 224x224 u8 from
/// 84-85% of the copy to 94-96%, u16 from 87-89% to 91-95%, and 1920x1080 u8 flip-v and rot180 from 90% to 95-96%;
/// for 4-byte pixels and wider the vectorized mirror's tiles were as fast or faster (u8c4 and f32c1 flip-h 97%
/// against 93%; f32c4 99% in the 16x16 tile against 93%).
bool launched_mirror_rows(ConstImageView src, ImageView dst, AxisMap map, const BatchLayout& batch, cudaStream_t stream) {
    if (map.swap_axes || batch.nreps != 1 || !mirror_rows_apply(src, dst, batch.src_image_stride, batch.dst_image_stride, batch.count)) return false;
    const MirrorRowsArgs args = mirror_rows_args(src, dst, batch.count);
    const unsigned blocks = mirror_rows_blocks(args);
    const std::size_t bytes = src.format.pixel_bytes();
    return with_pixel_width(bytes, [&](auto width) {
        constexpr int S = decltype(width)::value;
        if constexpr (S <= 2) {
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
    if (kernel == CudaKernel::automatic && launched_mirror_rows(src, dst, map, batch, stream)) {
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return;
    }
    if (!map.swap_axes && !map.mirror_y && images > 1 && batch.nreps == 1 && stacked_back_to_back(src, dst, batch) &&
        src.height * static_cast<std::int64_t>(images) <= std::numeric_limits<int>::max() / 2) {
        // Under flip-h every row keeps its place, so images that lie back to back on both sides are one tall
        // image: no tile row is left part-empty at each image's foot (a 224-row plane fills 3.5 tiles of 64 rows).
        ConstImageView tall_src = src;
        ImageView tall_dst = dst;
        tall_src.height = tall_dst.height = src.height * static_cast<std::int64_t>(images);
        transform_device_cuda(tall_src, tall_dst, map, kernel, stream, BatchLayout{1, 0, 0, batch.nreps});
        return;
    }
    const std::size_t bytes = src.format.pixel_bytes();
    const bool applies = vectorized_applies(src, dst, map) && strides_allow_vectors(batch);
    const AutomaticChoice choice = automatic_choice(bytes);
    const bool automatic = kernel == CudaKernel::automatic;
    const bool vectorized = kernel == CudaKernel::vectorized || (automatic && applies && choice.vectorized);
    if (automatic && !vectorized) kernel = choice.otherwise;
    const Launch launch{src, dst, map, batch, stream};
    if (vectorized) {
        if (!applies) {
            throw Error(ErrorCode::usage, "the vectorized kernel needs 16-byte aligned pointers, pitches and image strides");
        }
        launch_vectorized_of_width(launch, automatic);
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
