// Launchers: pick the kernel for the element and the pixel word, compute the grid, launch, check.
// The word list in visit_pixel_word is the instantiation list of every kernel.

#include "blocks_per_sm_cap.cuh"
#include "check.cuh"
#include "device_query.cuh"
#include "kernels/in_place.cuh"
#include "kernels/mirror.cuh"
#include "kernels/transpose_tile16_skiplines.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "kernels/vectorized.cuh"
#include "pixel_width_dispatch.cuh"
#include "tile_policy.cuh"

#include "core/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace gpurotate::detail {
namespace {

// The batch being launched: every launcher reads it through make_args and grid_for.
struct Launch {
    ConstImageView src;
    ImageView dst;
    AxisMap map;
    BatchLayout batch;
    cudaStream_t stream;
    VectorizedTransposeVariant variant{};  ///< the vectorized transpose's layout; the default is the tuned one
};

TransformArgs make_args(const Launch& l, int tile_h) {
    const int tiles_y = static_cast<int>((l.dst.height + tile_h - 1) / tile_h);
    return TransformArgs{l.src.data, l.src.pitch, l.dst.data, l.dst.pitch, l.src.extent(), static_cast<int>(l.dst.width),
                         static_cast<int>(l.dst.height), l.map, tiles_y, l.batch.src_image_stride, l.batch.dst_image_stride,
                         l.batch.nreps};
}

dim3 grid_for(const TransformArgs& a, int tile_w, const Launch& l) {
    const unsigned tiles_x = static_cast<unsigned>((a.dst_width + tile_w - 1) / tile_w);
    return dim3(tiles_x, std::min(static_cast<unsigned>(a.tiles_y), max_grid_y), static_cast<unsigned>(l.batch.count));
}

// Mirror flags become template arguments: four instantiations per pixel width and kernel family.
template <template <int, bool, bool> class Kernel, int S>
void launch_mirrored(const Launch& l) {
    if (l.map.mirror_x) {
        l.map.mirror_y ? Kernel<S, true, true>::run(l) : Kernel<S, true, false>::run(l);
    } else {
        l.map.mirror_y ? Kernel<S, false, true>::run(l) : Kernel<S, false, false>::run(l);
    }
}

/// Rows of tiles in a grid of no more blocks than the device holds at once (each block then loops over
/// tile rows), so that no partial last wave of blocks is left running on a part of the GPU.
template <class Kernel>
unsigned resident_grid_rows(Kernel kernel, unsigned tiles_x, unsigned tiles_y) {
    int blocks_per_sm = 0;
    GPUROTATE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, vectorized_threads, 0));
    const unsigned resident = static_cast<unsigned>(std::max(1, current_device_multiprocessors() * blocks_per_sm));
    return std::clamp((resident + tiles_x - 1) / tiles_x, 1u, tiles_y);
}

/// Whether pixels of S bytes can leave mirrored source columns off a vector (not 16-byte pixels).
template <int S, bool MirrorX>
inline constexpr bool may_shift_columns = MirrorX && S % vector_bytes != 0;

/// Whether the launch's mirrored source columns must be loaded shifted (their rows are not whole vectors).
template <int S, bool MirrorX>
bool shifted_columns(const Launch& l) {
    return may_shift_columns<S, MirrorX> && loads_shifted_columns(MirrorX, l.src.width, S);
}

/// Blocks of the vectorized transpose an SM runs at once, by pixel width (0: as many as fit). Fewer warps
/// in flight serve DRAM better for some widths: when cut lane blocks moved as words, registers fell (2-byte
/// pixels 162 to 80-86 a thread, 4-byte 98 to 50, 8-byte 71 to 32), more blocks fit, and the transposes lost
/// 1-3 points of copy at 8192x8192 (f32c1 95 to 92%, u16c4 96 to 93%). A cap is kept only where the
/// `vectorized-N-per-sm` study rows (H100, bench/RESULTS.md, ninth and tenth sessions) found it at least as
/// good on 8192x8192 and on batches of 1080x1920 and 800x600 alike: 3 for 2-byte pixels (+1.6 to +2.7
/// points on the batches), 2 for 3-, 6- and 12-byte (+0.8 to +5.2 on the batches; at 8192x8192 level, and
/// +2.6 for 6-byte pixels). The caps that helped 4- and 8-byte pixels at 8192x8192 (+2 to +3) cost 9 to 12
/// points on a batch of 1080x1920 (u16c4 rot90 85% against 95% uncapped), so those run uncapped.
constexpr int tuned_blocks_per_sm(int pixel_bytes) {
    switch (pixel_bytes) {
        case 2: return 3;
        case 3: case 6: case 12: return 2;
        default: return 0;
    }
}

/// Blocks of the vectorized mirror an SM runs at once, by pixel width (0: as many as fit); see
/// tuned_blocks_per_sm. Without the per-pixel cut path the mirrors' registers fell (3-, 6- and 12-byte
/// pixels 124-128 to 68-72 a thread), and their mirrors lost 1.5-5 points of copy; at 3 blocks per SM they
/// are back at 98% (H100, the `vectorized-N-per-sm` rows, bench/RESULTS.md, ninth session). 8-byte pixels
/// gained a point at 5 on 8192x8192 but lost 9 on a batch of 1080x1920 (tenth session); 4-byte pixels
/// found no cap that helps.
constexpr int tuned_mirror_blocks_per_sm(int pixel_bytes) {
    switch (pixel_bytes) {
        case 3: case 6: case 12: return 3;
        default: return 0;
    }
}

template <int S, bool MirrorX, bool MirrorY, int LanesX, int BlocksScale = 1, bool L2Prefetch = true, bool Unrolled = false,
          bool SplitRows = false, ColumnShift Shift = ColumnShift::per_image>
void launch_vectorized_transpose(const Launch& l) {
    using Tile = VectorizedTransposeTile<S, LanesX, BlocksScale, SplitRows>;
    const TransformArgs a = make_args(l, Tile::tile_h);
    constexpr auto kernel = transpose_vectorized_kernel<S, MirrorX, MirrorY, LanesX, BlocksScale, L2Prefetch, Unrolled, SplitRows, Shift>;
    dim3 grid = grid_for(a, Tile::tile_w, l);
    if (l.variant.resident_grid) grid.y = resident_grid_rows(kernel, grid.x * grid.z, grid.y);
    const int blocks_per_sm = l.variant.blocks_per_sm < 0 ? tuned_blocks_per_sm(S) : l.variant.blocks_per_sm;
    launch_capped<kernel>(grid, vectorized_threads, a, l.stream, blocks_per_sm);
}

template <int S, bool MirrorX, bool MirrorY>
struct LaunchVectorizedTranspose {
    static void run(const Launch& l) {
        switch (l.variant.lanes_x) {
            case 16: launch_vectorized_transpose<S, MirrorX, MirrorY, 16>(l); break;
            case 32: launch_vectorized_transpose<S, MirrorX, MirrorY, 32>(l); break;
            default:
                if (!l.variant.l2_prefetch) {
                    launch_vectorized_transpose<S, MirrorX, MirrorY, vectorized_lanes_x, 1, false>(l);
                } else if (l.variant.split_rows) {
                    launch_vectorized_transpose<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, true>(l);
                } else if (l.variant.unrolled) {
                    launch_vectorized_transpose<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, true>(l);
                } else if (l.variant.blocks_scale == 2) {
                    launch_vectorized_transpose<S, MirrorX, MirrorY, vectorized_lanes_x, 2>(l);
                } else if (shifted_columns<S, MirrorX>(l)) {  // the production layout, one body per kernel
                    if constexpr (may_shift_columns<S, MirrorX>) {
                        launch_vectorized_transpose<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, false, ColumnShift::shifted>(l);
                    }
                } else {
                    launch_vectorized_transpose<S, MirrorX, MirrorY, vectorized_lanes_x, 1, true, false, false, ColumnShift::aligned>(l);
                }
                break;
        }
    }
};

template <int S, bool MirrorX, bool MirrorY>
struct LaunchVectorizedMirror {
    static void run(const Launch& l) {
        using Tile = VectorizedMirrorTile<S>;
        const TransformArgs a = make_args(l, Tile::tile_h);
        const dim3 grid = grid_for(a, Tile::tile_w, l);
        const int blocks_per_sm = l.variant.blocks_per_sm < 0 ? tuned_mirror_blocks_per_sm(S) : l.variant.blocks_per_sm;
        if (shifted_columns<S, MirrorX>(l)) {
            if constexpr (may_shift_columns<S, MirrorX>) {
                constexpr auto kernel = mirror_vectorized_kernel<S, MirrorX, MirrorY, ColumnShift::shifted>;
                launch_capped<kernel>(grid, vectorized_threads, a, l.stream, blocks_per_sm);
            }
        } else {
            constexpr auto kernel = mirror_vectorized_kernel<S, MirrorX, MirrorY, ColumnShift::aligned>;
            launch_capped<kernel>(grid, vectorized_threads, a, l.stream, blocks_per_sm);
        }
    }
};

template <int S>
void launch_vectorized(const Launch& l) {
    if (l.map.swap_axes) {
        launch_mirrored<LaunchVectorizedTranspose, S>(l);
    } else {
        launch_mirrored<LaunchVectorizedMirror, S>(l);
    }
}

int vector_pixels_of(std::size_t bytes) {
    int k = 0;
    with_pixel_width(bytes, [&](auto width) { k = VectorBlock<decltype(width)::value>::K; });
    return k;
}

void launch_vectorized_of_width(const Launch& l) {
    with_pixel_width(l.src.format.pixel_bytes(), [&](auto width) { launch_vectorized<decltype(width)::value>(l); });
}

template <class Word>
void launch_tiled(const Launch& l, CudaKernel kernel) {
    constexpr TilePolicy p = tile32_policy;
    if (!l.map.swap_axes && kernel == CudaKernel::tile16_skiplines) {  // its mirror: 16x16 threads, one pixel each
        constexpr int t = tile16_skiplines_policy.tile_dim;
        const TransformArgs a = make_args(l, t);
        mirror_kernel<Word, t, t><<<grid_for(a, t, l), dim3(t, t), 0, l.stream>>>(a);
    } else if (!l.map.swap_axes) {
        const TransformArgs a = make_args(l, p.tile_dim);
        mirror_kernel<Word, p.tile_dim, p.block_rows><<<grid_for(a, p.tile_dim, l), dim3(p.tile_dim, p.block_rows), 0, l.stream>>>(a);
    } else if (kernel == CudaKernel::tile16_skiplines) {
        constexpr int t = tile16_skiplines_policy.tile_dim;
        const TransformArgs a = make_args(l, t);
        transpose_tile16_skiplines_kernel<Word><<<grid_for(a, t, l), dim3(t, t), 0, l.stream>>>(a);
    } else {
        const TransformArgs a = make_args(l, p.tile_dim);
        transpose_tiled_kernel<Word, p.tile_dim, p.tile_dim, p.block_rows, column_padding(p)>
            <<<grid_for(a, p.tile_dim, l), dim3(p.tile_dim, p.block_rows), 0, l.stream>>>(a);
    }
}

/// What `CudaKernel::automatic` runs, by pixel width: measured with `gpurotate bench` on an H200
/// (bench/RESULTS.md). The vectorized kernels win for every width but 16 bytes, where a pixel already is
/// one 16-byte access: there the 16x16 skip-lines tile (axis-swapping elements, 95% of the copy against
/// 92%) and its mirror, one pixel a thread, are faster. That mirror ran at 100.1-100.3% of the copy on an
/// H100, level with NPP's (100.2-100.3), where the plain mirror's 4 pixels a thread gave 99.0-99.1
/// (eleventh session; the vectorized mirror 96 on the H200); at other widths one pixel a thread is far
/// slower (16-89%).
struct AutomaticChoice {
    bool vectorized;
    CudaKernel otherwise;  ///< the tiled kernel when not vectorized, or when vectorized does not apply
};

AutomaticChoice automatic_choice(std::size_t pixel_bytes) {
    if (pixel_bytes == 16) return {false, CudaKernel::tile16_skiplines};
    return {true, CudaKernel::tile32_padded};
}

bool strides_allow_vectors(const BatchLayout& batch) {
    return batch.src_image_stride % vector_bytes == 0 && batch.dst_image_stride % vector_bytes == 0;
}

}  // namespace

bool vectorized_applies(ConstImageView src, ConstImageView dst, AxisMap /*every element, at any width*/) {
    return vector_pixels_of(src.format.pixel_bytes()) > 0 && allows_aligned_word(src.data, src.pitch, vector_bytes) &&
           allows_aligned_word(dst.data, dst.pitch, vector_bytes);
}

void transform_in_place_cuda(ImageView image, AxisMap map, CUstream_st* stream) {
    const std::size_t bytes = image.format.pixel_bytes();
    visit_pixel_word(bytes, allows_aligned_word(image.data, image.pitch, bytes), [&](auto word) {
        using Word = decltype(word);
        // The namespace-scope policy, not a local copy: nvcc 13.0 mishandles constexpr locals in lambdas.
        constexpr int tile_dim = tile32_policy.tile_dim, block_rows = tile32_policy.block_rows;
        if (map.swap_axes && !map.mirror_x && !map.mirror_y) {
            const auto n = static_cast<int>(image.width);
            const unsigned tiles = static_cast<unsigned>((n + tile_dim - 1) / tile_dim);
            transpose_in_place_kernel<Word, tile_dim, block_rows><<<dim3(tiles, tiles), dim3(tile_dim, block_rows), 0, stream>>>(
                image.data, image.pitch, n);
        } else {
            const dim3 block(32, 8);
            const dim3 grid(static_cast<unsigned>((image.width + 31) / 32),
                            std::min(static_cast<unsigned>((image.height + 7) / 8), max_grid_y));
            swap_pairs_kernel<Word, 32, 8><<<grid, block, 0, stream>>>(image.data, image.pitch, image.extent(), map);
        }
    });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

void transform_device_vectorized_variant(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant,
                                         CUstream_st* stream, const BatchLayout& batch) {
    if (!vectorized_applies(src, dst, map) || !strides_allow_vectors(batch)) {
        throw Error(ErrorCode::usage, "vectorized variants need 16-byte aligned rows and image strides");
    }
    launch_vectorized_of_width(Launch{src, dst, map, batch, stream, variant});
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

void transform_device_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream,
                           const BatchLayout& batch) {
    const auto images = static_cast<std::size_t>(batch.count);
    if (!map.swap_axes && !map.mirror_x && !map.mirror_y) {
        // A flat copy when the whole batch is one contiguous block on both sides: cudaMemcpy2DAsync is
        // far slower. Otherwise one 2D copy with the images' rows stacked, if their strides allow.
        const std::size_t src_bytes = src.pitch * static_cast<std::size_t>(src.height);
        const std::size_t dst_bytes = dst.pitch * static_cast<std::size_t>(dst.height);
        const bool stacked = images == 1 || (batch.src_image_stride == src_bytes && batch.dst_image_stride == dst_bytes);
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
    const bool applies = vectorized_applies(src, dst, map) && strides_allow_vectors(batch);
    const AutomaticChoice choice = automatic_choice(bytes);
    const bool vectorized = kernel == CudaKernel::vectorized || (kernel == CudaKernel::automatic && applies && choice.vectorized);
    if (kernel == CudaKernel::automatic && !vectorized) kernel = choice.otherwise;
    const Launch launch{src, dst, map, batch, stream};
    if (vectorized) {
        if (!applies) {
            throw Error(ErrorCode::usage, "the vectorized kernel needs 16-byte aligned pointers, pitches and image strides");
        }
        launch_vectorized_of_width(launch);
    } else {
        const bool aligned = allows_aligned_word(src.data, src.pitch, bytes) && allows_aligned_word(dst.data, dst.pitch, bytes) &&
                             batch.src_image_stride % natural_alignment(bytes) == 0 && batch.dst_image_stride % natural_alignment(bytes) == 0;
        visit_pixel_word(bytes, aligned, [&](auto word) { launch_tiled<decltype(word)>(launch, kernel); });
    }
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gpurotate::detail
