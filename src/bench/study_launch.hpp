#pragma once
// The bench's study entry points into the CUDA backend: layouts and launch shapes of the kernels other than the
// tuning policy's (cuda/tuning/tuning_transform.hpp), each fused multi-output kernel on its own, the grouped
// launch with other work items, and the paper's loop inside the kernel. Implemented under cuda/bench/ and linked
// into gpurotate-bench and the GPU tests only: the product's seam (frontend/cuda_backend.hpp) names none of them.

#include "frontend/cuda_backend.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <cstddef>

namespace gpurotate::bench {

/// A layout of the vectorized transpose other than the tuned one, or the tuned one with another launch shape.
struct VectorizedTransposeVariant {
    int lanes_x = 8;             ///< lanes per source row: 8, 16 or 32
    int blocks_scale = 1;        ///< with 8 lanes, 1 or 2 times the register blocks per lane
    bool resident_grid = false;  ///< only as many blocks as the GPU holds at once, each looping over tile rows
    bool l2_prefetch = true;     ///< loads that have L2 fetch 256 bytes from DRAM (plain loads: 8 lanes, 1 block scale)
    bool unrolled = false;       ///< a lane's register blocks unrolled, all loads at once (8 lanes, 1 block scale)
    bool split_rows = false;     ///< each register block split into two of half the rows, in sequence (8 lanes, 1 block scale)
    int blocks_per_sm = -1;      ///< at most this many blocks per SM, by reserving shared memory (-1: the policy's cap,
                                 ///< 0: as many as fit)
};

/// Whether transform_device_vectorized_variant runs `variant` on these views: the tuned layout wherever the
/// vectorized kernels apply, the study's other layouts only where mirrored source columns start on a vector.
bool vectorized_variant_applies(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant);

/// The vectorized kernel of `map` in layout `variant` (a mirror takes only its blocks_per_sm), over one image
/// or a batch. Throws Error (usage) unless the vectorized kernels apply.
void transform_device_vectorized_variant(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant,
                                         CUstream_st* stream, const detail::BatchLayout& batch = {});

/// The paper's second timing: the kernel that `kernel` runs for `map` on one image or a batch, each block walking
/// its tile rows `passes` times in one launch. False, nothing launched, where that kernel has no such launch: a
/// batch that the policy routes to a kernel of its own (`automatic`), or vectorized mirrored columns that do not
/// start on a vector.
bool transform_device_repeated(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream,
                               const detail::BatchLayout& batch, int passes);

/// Whether the vectorized fused kernel's alignment rules hold for these targets.
bool multi_output_fused_applies(ConstImageView src, const TransformTarget* targets, std::size_t count);
/// The vectorized fused kernel alone; false (nothing launched) where its alignment rules fail.
bool multi_output_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream);
/// The shared-memory fused kernel alone (32x33 tile, one pixel per access).
void transform_device_multi_tiled(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream);

/// The grouped launch, per call, with a study's schedule (other tiles a work item, or the search before descriptors).
void transform_device_grouped_study(const GroupedTransform* images, std::size_t count, CUstream_st* stream, detail::GroupedSchedule schedule);

}  // namespace gpurotate::bench
