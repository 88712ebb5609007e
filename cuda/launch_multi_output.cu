// The dispatch of the multi-output transform. Which fused kernel runs depends on the pixel width and the
// size, as measured with `gpurotate bench --kernel multi-output,multi-out-vector,multi-out-tile32,auto-x7`
// (H100, all 7 elements, 8192x8192, 4000x3000 and 1920x1080; bench/RESULTS.md, 2026-11-25):
// - 1, 2, 3, 4 and 12 bytes: the vectorized fused kernel, wherever its alignment rules hold. 3-byte pixels
//   at 8192x8192: 0.614 ms against seven launches' 1.018 and the shared-memory kernel's 1.051, since a warp
//   stages its 24- and 48-byte block rows into whole vectors; level with the shared-memory kernel at 12
//   and 2 MP. 12-byte pixels: ahead of it by 4-6% at all three sizes;
// - 6 bytes: the vectorized fused kernel above `tiled_max_pixels` (8192x8192: 1.272 against 1.333 ms), the
//   shared-memory one below (4000x3000: 0.343 against 0.374; 1920x1080: 0.056 against 0.064);
// - 8 and 16 bytes: the shared-memory fused kernel, at every size (8 bytes: 1.55 ms against 1.72 at
//   8192x8192, 0.052 against 0.058 at 1920x1080: a thread's 8-byte word is already a wide access;
//   bench/RESULTS.md, 2026-11-24).
// Where the vectorized kernel's alignment rules fail (a 1080- or 3000-row image and 16-row blocks), the
// shared-memory kernel for pixels of 4 bytes and more and for small images; one automatic launch per element
// for large images of narrow pixels, whose one-byte accesses in the shared-memory kernel lose (u8c1
// 4000x3000: 0.178 ms against seven launches' 0.072; 1920x1080: 0.035 against 0.041). Storing the rows such
// edges misalign as words instead cost u8c1 at 8192x8192 registers (96 to 128) and 3% for the aligned
// targets, and was slower than either at 4000x3000 and 1920x1080 (0.127 and 0.070 ms).
// The launchers themselves are instantiated one pixel width a unit (launch_multi_output.cuh).

#include "check.cuh"
#include "launch.cuh"
#include "pixel_width_dispatch.cuh"

#include "frontend/cuda_backend.hpp"
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

// Above this many source pixels the vectorized fused kernel overtakes the shared-memory one for 6-byte
// pixels, and one launch per element overtakes the shared-memory kernel for 3-byte pixels (ahead at 12 MP,
// behind at 67 MP).
constexpr std::int64_t tiled_max_pixels = 16LL << 20;
// The same for 1- and 2-byte pixels (u8c1: ahead at 2 MP, behind 2.5x at 12 MP).
constexpr std::int64_t narrow_tiled_max_pixels = 4LL << 20;

bool vectorized_fused_wins(std::size_t pixel_bytes, std::int64_t pixels) {
    switch (pixel_bytes) {
        case 1: case 2: case 3: case 4: case 12: return true;
        case 6: return pixels > tiled_max_pixels;
        default: return false;
    }
}

bool tiled_fused_wins(std::size_t pixel_bytes, std::int64_t pixels) {
    if (pixel_bytes >= 4) return true;
    return pixels <= (pixel_bytes == 3 ? tiled_max_pixels : narrow_tiled_max_pixels);
}

}  // namespace

bool multi_output_fused_applies(ConstImageView src, const TransformTarget* targets, std::size_t count) {
    bool fits = false;
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) { fits = multi_output_vectorized_fits<decltype(width)::value>(src, targets, count); });
    return fits;
}

void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    const std::size_t bytes = src.format.pixel_bytes();
    const std::int64_t pixels = src.width * src.height;
    if (vectorized_fused_wins(bytes, pixels) && try_fused_vectorized(src, targets, count, stream)) {
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return;
    }
    if (tiled_fused_wins(bytes, pixels)) {
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
