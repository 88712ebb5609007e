#pragma once
// What every kernel receives, and how it reads and writes one pixel word by coordinates.

#include <gpurotate/orientation.hpp>

#include <cstddef>

namespace gpurotate::detail {

/// One launch's source and destination. Coordinates are int: the front end rejects sides of 2^31 or more;
/// byte offsets are size_t because row * pitch exceeds 2^31 on large images.
struct TransformArgs {
    const std::byte* __restrict__ src;
    std::size_t src_pitch;
    std::byte* __restrict__ dst;
    std::size_t dst_pitch;
    Extent src_extent;
    int dst_width;
    int dst_height;
    AxisMap map;
    int tiles_y;  ///< tile rows of the output; blocks stride over them when gridDim.y is smaller
    std::size_t src_image_stride = 0;  ///< bytes from one image of a batch to the next (blockIdx.z picks one)
    std::size_t dst_image_stride = 0;
    /// Whether the bytes between each output row's end and the pitch are scratch (GroupedTransform::scratch_padding):
    /// a row's last block may then store into them up to the end of the row's last 32-byte sector.
    bool scratch_padding = false;
};

/// How many times each block of a tiled kernel walks its tile rows: once, in the product. The kernels take it as
/// a template parameter, so that the bench's "loop inside the kernel" timing (the paper's second timing) passes a
/// type of its own (cuda/bench/repeated_passes.cuh) and the product's launches carry no count.
struct OnePass {
    __device__ static constexpr int count() { return 1; }
};

/// The tile row of loop step `step` (steps run from blockIdx.y to tiles_y times the passes by gridDim.y): after
/// the first pass each block walks its own tile rows again.
__device__ __forceinline__ int tile_row_of(const TransformArgs& a, int step) { return step < a.tiles_y ? step : step % a.tiles_y; }

/// The arguments for the image of the batch this block works on.
__device__ __forceinline__ TransformArgs for_this_image(TransformArgs a) {
    a.src += static_cast<std::size_t>(blockIdx.z) * a.src_image_stride;
    a.dst += static_cast<std::size_t>(blockIdx.z) * a.dst_image_stride;
    return a;
}

template <class Word>
__device__ __forceinline__ Word load_source(const TransformArgs& a, SourcePoint p) {
    return *reinterpret_cast<const Word*>(a.src + static_cast<std::size_t>(p.y) * a.src_pitch +
                                          static_cast<std::size_t>(p.x) * sizeof(Word));
}

template <class Word>
__device__ __forceinline__ void store_output(const TransformArgs& a, int x, int y, const Word& w) {
    *reinterpret_cast<Word*>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch + static_cast<std::size_t>(x) * sizeof(Word)) = w;
}

__device__ __forceinline__ bool inside_output(const TransformArgs& a, int x, int y) {
    return x < a.dst_width && y < a.dst_height;
}

}  // namespace gpurotate::detail
