// Launchers: pick the kernel for the element and the pixel word, compute the grid, launch, check.
// The word list in visit_pixel_word is the instantiation list of every kernel.

#include "check.cuh"
#include "kernels/mirror.cuh"
#include "kernels/transpose_tile16_skiplines.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "tile_policy.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>

namespace gpurotate::detail {
namespace {

TransformArgs make_args(ConstImageView src, ImageView dst, AxisMap map, int tile_dim) {
    const int tiles_y = static_cast<int>((dst.height + tile_dim - 1) / tile_dim);
    return TransformArgs{src.data, src.pitch, dst.data, dst.pitch, src.extent(), static_cast<int>(dst.width),
                         static_cast<int>(dst.height), map, tiles_y};
}

dim3 grid_for(const TransformArgs& a, int tile_dim) {
    const unsigned tiles_x = static_cast<unsigned>((a.dst_width + tile_dim - 1) / tile_dim);
    return dim3(tiles_x, std::min(static_cast<unsigned>(a.tiles_y), max_grid_y));
}

template <class Word>
void launch_word(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, cudaStream_t stream) {
    constexpr TilePolicy p = tile32_policy;
    if (!map.swap_axes) {
        const TransformArgs a = make_args(src, dst, map, p.tile_dim);
        mirror_kernel<Word, p.tile_dim, p.block_rows><<<grid_for(a, p.tile_dim), dim3(p.tile_dim, p.block_rows), 0, stream>>>(a);
    } else if (kernel == CudaKernel::tile16_skiplines) {
        constexpr int t = tile16_skiplines_policy.tile_dim;
        const TransformArgs a = make_args(src, dst, map, t);
        transpose_tile16_skiplines_kernel<Word><<<grid_for(a, t), dim3(t, t), 0, stream>>>(a);
    } else {
        const TransformArgs a = make_args(src, dst, map, p.tile_dim);
        transpose_tile32_padded_kernel<Word, p.tile_dim, p.block_rows, column_padding(p)>
            <<<grid_for(a, p.tile_dim), dim3(p.tile_dim, p.block_rows), 0, stream>>>(a);
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void transform_device_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream) {
    if (!map.swap_axes && !map.mirror_x && !map.mirror_y) {
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                                               static_cast<std::size_t>(src.height), cudaMemcpyDeviceToDevice, stream));
        return;
    }
    const std::size_t bytes = src.format.pixel_bytes();
    const bool aligned = allows_aligned_word(src.data, src.pitch, bytes) && allows_aligned_word(dst.data, dst.pitch, bytes);
    visit_pixel_word(bytes, aligned, [&](auto word) { launch_word<decltype(word)>(src, dst, map, kernel, stream); });
}

}  // namespace gpurotate::detail
