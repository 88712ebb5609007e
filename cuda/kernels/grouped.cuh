#pragma once
// Many images of mixed sizes in one launch. Blocks walk the concatenated list of every image's work items
// (runs of consecutive output tiles of one image, grouped_tiles_per_item of them); a block reads its item's
// image and first tile from the item's descriptor, built on the host with the table, and runs that image's tile
// body with its arguments on each tile of the item. (The bench's study of the launch before descriptors finds
// the image by a warp-wide search of each image's first item instead.)
//
// The launcher splits a group into up to five launches by tile body family, because a kernel's register
// count is that of its largest body: the vectorized transposes of vectorized.cuh (up to 240 registers
// a thread, 6-byte pixels), the vectorized mirrors (32-80, and they need the occupancy, having fewer loads
// in flight), each again for images whose mirrored columns load shifted, and the padded 32x32 tile of
// transpose_tile32_padded.cuh for images the vectorized alignment rule excludes.
// Within a family each image runs its own element (its mirror bits pick one of four bodies).

#include "kernels/grouped_tables.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "kernels/vectorized.cuh"

#include <cstdint>

namespace gpurotate::detail {

constexpr int most_of(int a, int b) { return a > b ? a : b; }

/// Shared bytes of a block whose warps stage `words` words each.
constexpr std::size_t staging_bytes(int words) { return sizeof(std::uint32_t) * static_cast<std::size_t>(words) * vectorized_warps; }

/// This warp's `words` staging words in its block's shared bytes.
__device__ __forceinline__ std::uint32_t* warp_staging(unsigned char* shared, int words) {
    return reinterpret_cast<std::uint32_t*>(shared) + (threadIdx.x / 32) * words;
}

/// The vectorized bodies of one family (Body<S, mirror x, mirror y>: the mirrors), the image's mirror bits
/// picking one. Shift: ColumnShift::aligned for images whose mirrored columns start on vectors (or that mirror
/// none), ColumnShift::shifted for the images that mirror the columns of rows that are not whole vectors (a
/// family of its own, as for the transposes: with both loads in one kernel, the 3-byte transposes needed 219
/// registers a thread, not 163).
template <template <int, bool, bool> class Body, int S, ColumnShift Shift = ColumnShift::aligned>
struct GroupedVectorized {
    static constexpr Extent tile_shape{Body<S, false, false>::Tile::tile_w, Body<S, false, false>::Tile::tile_h};
    static constexpr int staging_words = most_of(most_of(Body<S, false, false>::staging_words, Body<S, true, false>::staging_words),
                                                 most_of(Body<S, false, true>::staging_words, Body<S, true, true>::staging_words));
    static constexpr std::size_t shared_bytes = staging_bytes(staging_words);
    __device__ static void tile(int mirrors, const TransformArgs& a, int col, int row, unsigned char* shared) {
        std::uint32_t* const staging = warp_staging(shared, staging_words);
        // The same for the whole block, so no divergence.
        if constexpr (Shift == ColumnShift::shifted) {  // every image here mirrors x
            if (mirrors & 2) {
                run_tile<Body<S, true, true>, Shift>(a, col, row, staging);
            } else {
                run_tile<Body<S, true, false>, Shift>(a, col, row, staging);
            }
        } else {
            switch (mirrors) {
                case 0: run_tile<Body<S, false, false>, Shift>(a, col, row, staging); break;
                case 1: run_tile<Body<S, true, false>, Shift>(a, col, row, staging); break;
                case 2: run_tile<Body<S, false, true>, Shift>(a, col, row, staging); break;
                default: run_tile<Body<S, true, true>, Shift>(a, col, row, staging); break;
            }
        }
    }
};

/// The axis-swapping family: one body with the image's mirrors read at run time (VectorizedTranspose's
/// RuntimeMirrors), so that a launch mixing rot90, rot270, transpose and transverse runs one body's code.
template <int S, ColumnShift Shift = ColumnShift::aligned>
struct GroupedTransposes {
    using Body = VectorizedTranspose<S, false, false, vectorized_lanes_x, 1, true, false, false, true>;  // the production lane layout
    static constexpr Extent tile_shape{Body::Tile::tile_w, Body::Tile::tile_h};
    static constexpr int staging_words = Body::staging_words;
    static constexpr std::size_t shared_bytes = staging_bytes(staging_words);
    __device__ static void tile(int, const TransformArgs& a, int col, int row, unsigned char* shared) {
        run_tile<Body, Shift>(a, col, row, warp_staging(shared, staging_words));
    }
};
template <int S, ColumnShift Shift = ColumnShift::aligned>
using GroupedMirrors = GroupedVectorized<VectorizedMirror, S, Shift>;

/// The padded 32x32 tile by 32x4 threads; it maps each output pixel to its source, so it serves every element.
template <class Word>
struct GroupedTiles {
    static constexpr int dim = tile32_policy.tile_dim, padding = column_padding(tile32_policy);
    using Tile = Word[dim][dim + padding];
    static constexpr Extent tile_shape{dim, dim};
    static constexpr std::size_t shared_bytes = sizeof(Tile);
    __device__ static void tile(int, const TransformArgs& a, int col, int row, unsigned char* shared) {
        const int thread = static_cast<int>(threadIdx.x);
        transpose_one_tile<Word, dim, dim, vectorized_threads / dim, padding>(a, col, row, *reinterpret_cast<Tile*>(shared), thread % dim,
                                                                             thread / dim);
    }
};

/// The last image whose first item is at or before item `t`, searched by a whole warp 32 ways at once: two
/// rounds of loads for 1024 images where a binary search waited on ten in a row before the tile's own
/// loads could go out. Every lane of the warp calls it, with the same `t`, and gets the same answer.
__device__ __forceinline__ int image_of_item(const long long* first_item, int count, long long t) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    int first = 0, candidates = count;  // the answer is in [first, first + candidates); first_item[first] <= t
    while (candidates > 1) {
        const int stride = (candidates + 31) / 32;
        const bool at_or_before = lane * stride < candidates && first_item[first + lane * stride] <= t;
        const int last = 31 - __clz(__ballot_sync(0xffffffffu, at_or_before));  // lane 0 holds: first_item[first] <= t
        first += last * stride;
        candidates = min(stride, candidates - last * stride);
    }
    return first;
}

/// For a launcher's launches over disjoint images (programmatic dependent launch, compute capability 9.0
/// and later): the next launch may start once every block of this one has, and this one ends only after
/// the launch it overlapped has, so work that follows on the stream finds every image written.
__device__ __forceinline__ void let_the_next_launch_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}
__device__ __forceinline__ void end_after_the_overlapped_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();  // returns at once where nothing was overlapped
#endif
}

/// The grouped kernels' one body: `images` and `first_item` are the table's arrays, in global memory (a plan's, or a
/// call's staged copy) or in the launch's parameters (a single call's table that fits them).
template <class Family>
__device__ __forceinline__ void run_grouped_items(const GroupedTable& table, const GroupedImage* images, const long long* first_item,
                                                  unsigned char* shared) {
    let_the_next_launch_start();
    for (long long item = blockIdx.x; item < table.total_items; item += gridDim.x) {
        int lo = 0, first = 0;  // the item's image, and its first tile there
        if (table.work != nullptr) {  // the same for the whole launch
            const GroupedWork work = table.work[item];
            lo = static_cast<int>(work.image);
            first = static_cast<int>(work.first_tile);
        } else {
            lo = image_of_item(first_item, table.count, item);
            // An image has fewer than 2^31 tiles: 32-bit division.
            first = static_cast<int>(item - first_item[lo]) * table.tiles_per_item;
        }
        // A copy in registers, not a reference into the table: the compiler cannot tell that the image's
        // stores leave the table alone, so through a reference it reloaded the arguments after every store
        // (about 110 table loads to 16 pixel loads in the 1-byte transpose body): 1024 mixed u8c1 images
        // rotated at 58% of copy against 67-73% now (H100, bench/RESULTS.md, 2026-11-22).
        const GroupedImage image = images[lo];
        const int end = first + min(table.tiles_per_item, image.tiles - first);  // no int overflow near 2^31 tiles
        for (int local = first; local < end; ++local) {
            const int plane = local / image.plane_tiles, in_plane = local - plane * image.plane_tiles;
            TransformArgs a = image.args;
            a.src += static_cast<std::size_t>(plane) * a.src_image_stride;
            a.dst += static_cast<std::size_t>(plane) * a.dst_image_stride;
            // Pointers loaded from memory are generic; these let the compiler emit global loads and stores, as
            // it does for a single image's kernel parameters.
            __builtin_assume(__isGlobal(a.src));
            __builtin_assume(__isGlobal(a.dst));
            Family::tile(image.mirrors, a, in_plane % image.tiles_x, in_plane / image.tiles_x, shared);
        }
    }
    end_after_the_overlapped_launch();
}

/// A plan's family, or a single call's staged through global memory.
template <class Family>
__global__ void __launch_bounds__(vectorized_threads) transform_grouped_kernel(GroupedTable table) {
    __shared__ alignas(16) unsigned char shared[Family::shared_bytes];
    run_grouped_items<Family>(table, table.images, table.first_item, shared);
}

/// A single call's family whose table fits the parameters: its arrays read from the parameter itself (its address
/// may be taken because it is __grid_constant__; every block reads the same image, a broadcast from the constant
/// bank), so the launch needs no copy before it. `table` holds the counts, its pointers null.
template <class Family>
__global__ void __launch_bounds__(vectorized_threads) transform_grouped_inline_kernel(GroupedTable table,
                                                                                      const __grid_constant__ GroupedInlineTable carried) {
    __shared__ alignas(16) unsigned char shared[Family::shared_bytes];
    run_grouped_items<Family>(table, carried.images, carried.first_item, shared);
}

/// The images of one launch of a batch of one size with an element per image
/// (transform_device_batch_elements), passed in the kernel's parameters: no table to copy to the GPU
/// first, and so no wait for the previous call's copy out of a staging buffer. 960 of them keep the
/// parameters under the 4 KiB that every CUDA version passes; larger batches take several launches.
constexpr int batch_entries_per_launch = 960;
struct BatchEntries {
    std::uint32_t image_and_mirrors[batch_entries_per_launch];  ///< image index * 4 + mirror bits (1: x, 2: y)
};

/// The batch kernel of transpose_vectorized_kernel and mirror_vectorized_kernel (blockIdx.z picks the
/// image, blocks loop over tile rows), with the image and its element taken from `entries`. A launch holds
/// the images of one family; the mirror bits go into the image's map, which the transposes' one body reads,
/// and pick one of the mirrors' bodies for the whole block.
template <class Family>
__global__ void __launch_bounds__(vectorized_threads) transform_batch_elements_kernel(TransformArgs args, const __grid_constant__ BatchEntries entries) {
    __shared__ alignas(16) unsigned char shared[Family::shared_bytes];
    const std::uint32_t entry = entries.image_and_mirrors[blockIdx.z];
    const int mirrors = static_cast<int>(entry & 3u);
    TransformArgs a = args;
    a.src += static_cast<std::size_t>(entry >> 2) * a.src_image_stride;
    a.dst += static_cast<std::size_t>(entry >> 2) * a.dst_image_stride;
    a.map.mirror_x = (mirrors & 1) != 0;
    a.map.mirror_y = (mirrors & 2) != 0;
    let_the_next_launch_start();
    for (int row = static_cast<int>(blockIdx.y); row < a.tiles_y; row += static_cast<int>(gridDim.y)) {
        Family::tile(mirrors, a, static_cast<int>(blockIdx.x), row, shared);
    }
    end_after_the_overlapped_launch();
}

}  // namespace gpurotate::detail
