// The grouped launch: the table of images to the GPU (stream-ordered allocation, freed after the kernel),
// one launch over all their tiles.

#include "check.cuh"
#include "kernels/grouped.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace gpurotate::detail {

void transform_device_grouped_cuda(const GroupedTransform* images, std::size_t count, cudaStream_t stream) {
    constexpr int tile = tile32_policy.tile_dim;
    std::vector<TransformArgs> args(count);
    std::vector<long long> first(count);
    long long total = 0;
    bool aligned = true;
    const std::size_t bytes = images[0].src.format.pixel_bytes();
    for (std::size_t i = 0; i < count; ++i) {
        const GroupedTransform& g = images[i];
        const int tiles_x = static_cast<int>((g.dst.width + tile - 1) / tile);
        const int tiles_y = static_cast<int>((g.dst.height + tile - 1) / tile);
        args[i] = TransformArgs{g.src.data, g.src.pitch, g.dst.data, g.dst.pitch, g.src.extent(), static_cast<int>(g.dst.width),
                                static_cast<int>(g.dst.height), axis_map(g.orientation), tiles_y};
        first[i] = total;
        total += static_cast<long long>(tiles_x) * tiles_y;
        aligned = aligned && allows_aligned_word(g.src.data, g.src.pitch, bytes) && allows_aligned_word(g.dst.data, g.dst.pitch, bytes);
    }
    // One allocation for both arrays; pageable source memory is staged before cudaMemcpyAsync returns.
    const std::size_t args_bytes = count * sizeof(TransformArgs);
    std::vector<std::byte> staging(args_bytes + count * sizeof(long long));
    std::memcpy(staging.data(), args.data(), args_bytes);
    std::memcpy(staging.data() + args_bytes, first.data(), count * sizeof(long long));
    void* table = nullptr;
    GPUROTATE_CUDA_CHECK(cudaMallocAsync(&table, staging.size(), stream));
    GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(table, staging.data(), staging.size(), cudaMemcpyHostToDevice, stream));
    const GroupedTable t{static_cast<const TransformArgs*>(table),
                         reinterpret_cast<const long long*>(static_cast<const std::byte*>(table) + args_bytes), static_cast<int>(count), total};
    const unsigned blocks = static_cast<unsigned>(std::min<long long>(total, 1LL << 30));
    visit_pixel_word(bytes, aligned, [&](auto word) {
        transpose_grouped_kernel<decltype(word)><<<blocks, dim3(tile, tile32_policy.block_rows), 0, stream>>>(t);
    });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
    GPUROTATE_CUDA_CHECK(cudaFreeAsync(table, stream));
}

}  // namespace gpurotate::detail
