// Launchers: pick the kernel for the element and the pixel word, compute the grid, launch, check.
// The word list in visit_pixel_word is the instantiation list of every kernel.

#include "check.cuh"
#include "kernels/mirror.cuh"
#include "kernels/transpose_tile16_skiplines.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "kernels/vectorized.cuh"
#include "tile_policy.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>
#include <cstdint>

namespace gpurotate::detail {
namespace {

TransformArgs make_args(ConstImageView src, ImageView dst, AxisMap map, int tile_h) {
    const int tiles_y = static_cast<int>((dst.height + tile_h - 1) / tile_h);
    return TransformArgs{src.data, src.pitch, dst.data, dst.pitch, src.extent(), static_cast<int>(dst.width),
                         static_cast<int>(dst.height), map, tiles_y};
}

dim3 grid_for(const TransformArgs& a, int tile_w) {
    const unsigned tiles_x = static_cast<unsigned>((a.dst_width + tile_w - 1) / tile_w);
    return dim3(tiles_x, std::min(static_cast<unsigned>(a.tiles_y), max_grid_y));
}

bool aligned16(const void* p, std::size_t pitch) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && pitch % 16 == 0; }

// Mirror flags become template arguments: four instantiations per pixel width and kernel family.
template <template <int, bool, bool> class Launch, int S>
void launch_mirrored(const TransformArgs& a, cudaStream_t stream) {
    if (a.map.mirror_x) {
        a.map.mirror_y ? Launch<S, true, true>::run(a, stream) : Launch<S, true, false>::run(a, stream);
    } else {
        a.map.mirror_y ? Launch<S, false, true>::run(a, stream) : Launch<S, false, false>::run(a, stream);
    }
}

template <int S, bool MirrorX, bool MirrorY>
struct LaunchVectorizedTranspose {
    static void run(const TransformArgs& a, cudaStream_t stream) {
        using Tile = VectorizedTransposeTile<S>;
        transpose_vectorized_kernel<S, MirrorX, MirrorY><<<grid_for(a, Tile::tile_w), vectorized_threads, 0, stream>>>(a);
    }
};

template <int S, bool MirrorX, bool MirrorY>
struct LaunchVectorizedMirror {
    static void run(const TransformArgs& a, cudaStream_t stream) {
        using Tile = VectorizedMirrorTile<S>;
        mirror_vectorized_kernel<S, MirrorX, MirrorY><<<grid_for(a, Tile::tile_w), vectorized_threads, 0, stream>>>(a);
    }
};

template <int S>
void launch_vectorized(ConstImageView src, ImageView dst, AxisMap map, cudaStream_t stream) {
    if (map.swap_axes) {
        launch_mirrored<LaunchVectorizedTranspose, S>(make_args(src, dst, map, VectorizedTransposeTile<S>::tile_h), stream);
    } else {
        launch_mirrored<LaunchVectorizedMirror, S>(make_args(src, dst, map, VectorizedMirrorTile<S>::tile_h), stream);
    }
}

template <int S>
constexpr int vector_pixels() {
    return VectorBlock<S>::K;
}

int vector_pixels_of(std::size_t bytes) {
    switch (bytes) {
        case 1: return vector_pixels<1>();
        case 2: return vector_pixels<2>();
        case 3: return vector_pixels<3>();
        case 4: return vector_pixels<4>();
        case 6: return vector_pixels<6>();
        case 8: return vector_pixels<8>();
        case 12: return vector_pixels<12>();
        case 16: return vector_pixels<16>();
        default: return 0;
    }
}

template <class Word>
void launch_tiled(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, cudaStream_t stream) {
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
        transpose_tiled_kernel<Word, p.tile_dim, p.tile_dim, p.block_rows, column_padding(p)>
            <<<grid_for(a, p.tile_dim), dim3(p.tile_dim, p.block_rows), 0, stream>>>(a);
    }
}

}  // namespace

bool vectorized_applies(ConstImageView src, ConstImageView dst, AxisMap map) {
    const int k = vector_pixels_of(src.format.pixel_bytes());
    return k > 0 && aligned16(src.data, src.pitch) && aligned16(dst.data, dst.pitch) && (!map.mirror_x || src.width % k == 0);
}

void transform_device_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream) {
    if (!map.swap_axes && !map.mirror_x && !map.mirror_y) {
        // A flat copy when both images are one contiguous block: cudaMemcpy2DAsync is far slower.
        if (src.pitch == src.row_bytes() && dst.pitch == dst.row_bytes()) {
            GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(dst.data, src.data, src.row_bytes() * static_cast<std::size_t>(src.height),
                                                 cudaMemcpyDeviceToDevice, stream));
        } else {
            GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, src.data, src.pitch, src.row_bytes(),
                                                   static_cast<std::size_t>(src.height), cudaMemcpyDeviceToDevice, stream));
        }
        return;
    }
    const std::size_t bytes = src.format.pixel_bytes();
    const bool vectorized = kernel == CudaKernel::vectorized || (kernel == CudaKernel::automatic && vectorized_applies(src, dst, map));
    if (vectorized) {
        if (!vectorized_applies(src, dst, map)) {
            throw Error(ErrorCode::usage, "the vectorized kernel needs 16-byte aligned pointers and pitches, and a source width "
                                          "that is a multiple of " + std::to_string(vector_pixels_of(bytes)) +
                                          " pixels for elements that mirror source columns");
        }
        switch (bytes) {
            case 1: launch_vectorized<1>(src, dst, map, stream); break;
            case 2: launch_vectorized<2>(src, dst, map, stream); break;
            case 3: launch_vectorized<3>(src, dst, map, stream); break;
            case 4: launch_vectorized<4>(src, dst, map, stream); break;
            case 6: launch_vectorized<6>(src, dst, map, stream); break;
            case 8: launch_vectorized<8>(src, dst, map, stream); break;
            case 12: launch_vectorized<12>(src, dst, map, stream); break;
            case 16: launch_vectorized<16>(src, dst, map, stream); break;
            default: break;
        }
    } else {
        const bool aligned = allows_aligned_word(src.data, src.pitch, bytes) && allows_aligned_word(dst.data, dst.pitch, bytes);
        visit_pixel_word(bytes, aligned, [&](auto word) { launch_tiled<decltype(word)>(src, dst, map, kernel, stream); });
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpurotate::detail
