// The launcher of the fused multi-output kernel: the grid covers source tiles, one launch writes every target.

#include "check.cuh"
#include "kernels/multi_output.cuh"
#include "tile_policy.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>

namespace gpurotate::detail {

void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream) {
    constexpr int tile = tile32_policy.tile_dim;
    MultiOutputArgs args{};
    args.src = src.data;
    args.src_pitch = src.pitch;
    args.src_extent = src.extent();
    args.tiles_y = static_cast<int>((src.height + tile - 1) / tile);
    args.count = static_cast<int>(count);
    const std::size_t bytes = src.format.pixel_bytes();
    bool aligned = allows_aligned_word(src.data, src.pitch, bytes);
    for (std::size_t i = 0; i < count; ++i) {
        const ImageView& d = targets[i].dst;
        args.targets[i] = MultiTarget{d.data, d.pitch, axis_map(targets[i].orientation), static_cast<int>(d.width),
                                      static_cast<int>(d.height)};
        aligned = aligned && allows_aligned_word(d.data, d.pitch, bytes);
    }
    const dim3 grid(static_cast<unsigned>((src.width + tile - 1) / tile), std::min(static_cast<unsigned>(args.tiles_y), max_grid_y));
    visit_pixel_word(bytes, aligned, [&](auto word) {
        multi_output_kernel<decltype(word), tile32_policy.tile_dim, tile32_policy.block_rows>
            <<<grid, dim3(tile32_policy.tile_dim, tile32_policy.block_rows), 0, stream>>>(args);
    });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpurotate::detail
