// The dispatch of the multi-output transform. Which fused kernel runs depends on the pixel width, as
// measured with `gpurotate bench --kernel multi-output` on an H200 (bench/RESULTS.md, all 7 elements):
// - 1, 2, 4 bytes: the vectorized fused kernel, 1.4-2x faster than one launch per element; where its
//   alignment rules fail (a 1080-row image and 16-row blocks), as for 3 bytes below;
// - 6, 8, 12, 16 bytes: the shared-memory fused kernel, at every size (8 bytes, H100: 1.55 ms against the
//   vectorized fused kernel's 1.72 at 8192x8192, 0.59 of seven launches' time against 0.65, as in every run
//   since the eighth session; 0.052 against 0.058 ms at 1920x1080: a thread's 8-byte word is already a wide
//   access; bench/RESULTS.md, fourteenth session);
// - 3 bytes: the shared-memory fused kernel up to `tiled_max_pixels`, one automatic launch per element
//   above, where the vectorized single-element kernels' 16-byte stores win.
// (The vectorized fused kernel stores 3-, 6- and 12-byte pixels in 8-byte pieces and loses to both.)
// The launchers themselves are instantiated one pixel width a unit (launch_multi_output.cuh).

#include "check.cuh"
#include "launch.cuh"
#include "pixel_width_dispatch.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

namespace gpurotate::detail {
namespace {

bool try_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, cudaStream_t stream) {
    bool launched = false;
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) {
        launched = launch_multi_output_vectorized<decltype(width)::value>(src, targets, count, stream);
    });
    return launched;
}

// Above this many source pixels the shared-memory fused kernel loses to one launch per element for 1- to
// 3-byte pixels (measured: ahead at 12 MP, behind at 67 MP).
constexpr std::int64_t tiled_max_pixels = 16LL << 20;

}  // namespace

bool multi_output_fused_applies(ConstImageView src, const TransformTarget* targets, std::size_t count) {
    bool fits = false;
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) { fits = multi_output_vectorized_fits<decltype(width)::value>(src, targets, count); });
    return fits;
}

void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const std::size_t bytes = src.format.pixel_bytes();
    if (bytes % 3 != 0 && bytes < 8 && try_fused_vectorized(src, targets, count, stream)) {
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return;
    }
    if (bytes >= 6 || src.width * src.height <= tiled_max_pixels) {
        transform_device_multi_tiled(src, targets, count, stream);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        transform_device_cuda(src, targets[i].dst, axis_map(targets[i].orientation), CudaKernel::automatic, stream);
    }
}

bool multi_output_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const bool ran = try_fused_vectorized(src, targets, count, stream);
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
    return ran;
}

void transform_device_multi_tiled(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const std::size_t bytes = src.format.pixel_bytes();
    bool aligned = allows_aligned_word(src.data, src.pitch, bytes);
    for (std::size_t i = 0; i < count; ++i) aligned = aligned && allows_aligned_word(targets[i].dst.data, targets[i].dst.pitch, bytes);
    if (!with_pixel_width(bytes, [&](auto width) { launch_multi_output_tiled<decltype(width)::value>(src, targets, count, aligned, stream); })) {
        throw_unsupported_width(bytes);
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpurotate::detail
