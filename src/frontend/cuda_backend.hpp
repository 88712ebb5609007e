#pragma once
// The seam between the host front end and the CUDA backend. Implemented in cuda/ when CUDA is compiled in,
// and by cuda/cuda_unavailable.cpp otherwise, so that the front end never needs #ifdefs.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include "core/pinned_memory.hpp"

#include <cstddef>
#include <memory>

namespace gpurotate::detail {

/// Makes GPU `device` current and creates its context (the driver's start-up: hundreds of milliseconds),
/// so that a thread can pay it while another reads and decodes. Throws Error (device).
void start_cuda(int device);

/// Uploads `src`, runs one kernel, downloads into `dst`; synchronous. Where source and result need more
/// device memory than `gpu_memory` bytes (0: 90% of the free memory), streams bands of source rows through
/// the GPU instead, with identical output. Arguments already validated.
void transform_host_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, std::size_t gpu_memory);

/// `count` images of one size, each `*_image_stride` bytes after the previous one.
struct BatchLayout {
    int count = 1;
    std::size_t src_image_stride = 0;
    std::size_t dst_image_stride = 0;
    int nreps = 1;  ///< the bench's kernel-internal repetitions; 1 everywhere else
};

/// Enqueues the transform of device buffers (a batch: one launch for all images) on `stream`.
/// Arguments already validated.
void transform_device_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream,
                           const BatchLayout& batch = {});

/// A layout of the vectorized transpose other than the tuned one, for the bench's tuning study.
struct VectorizedTransposeVariant {
    int lanes_x = 8;             ///< lanes per source row: 8, 16 or 32
    int blocks_scale = 1;        ///< with 8 lanes, 1 or 2 times the register blocks per lane
    bool resident_grid = false;  ///< only as many blocks as the GPU holds at once, each looping over tile rows
    bool l2_prefetch = true;     ///< loads that have L2 fetch 256 bytes from DRAM (plain loads: 8 lanes, 1 block scale)
    bool unrolled = false;       ///< a lane's register blocks unrolled, all loads at once (8 lanes, 1 block scale)
    bool split_rows = false;     ///< each register block split into two of half the rows, in sequence (8 lanes, 1 block scale)
    int blocks_per_sm = -1;      ///< at most this many blocks per SM, by reserving shared memory (-1: the pixel width's
                                 ///< tuned cap, 0: as many as fit)
};

/// Whether transform_device_vectorized_variant runs `variant` on these views: the tuned layout wherever the
/// vectorized kernels apply, the study's other layouts only where mirrored source columns start on a vector.
bool vectorized_variant_applies(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant);

/// The vectorized kernel of `map` in layout `variant` (a mirror takes only its blocks_per_sm), over one image
/// or a batch. Throws Error (usage) unless the vectorized kernels apply.
void transform_device_vectorized_variant(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant,
                                         CUstream_st* stream, const BatchLayout& batch = {});

/// Enqueues one launch for all `count` images of a grouped transform (arguments already validated).
/// `tiles_per_item`: tiles of one image a block runs one after another; 0 for the tuned default (the bench's
/// study rows name others).
void transform_device_grouped_cuda(const GroupedTransform* images, std::size_t count, CUstream_st* stream, int tiles_per_item = 0);

/// A grouped transform's tables in device memory, built once (cuda/launch_grouped.cu).
struct GroupedPlanTables;
struct GroupedPlanTablesDeleter {
    void operator()(GroupedPlanTables* plan) const noexcept;
};
using GroupedPlanHandle = std::unique_ptr<GroupedPlanTables, GroupedPlanTablesDeleter>;
/// Builds the tables of `count` images (arguments already validated) and copies them to the current GPU on
/// `stream`; returns when they are there.
GroupedPlanHandle build_grouped_plan_cuda(const GroupedTransform* images, std::size_t count, CUstream_st* stream);
/// Enqueues a plan's launches on `stream`. Throws Error (usage) where another GPU than the plan's is current.
void run_grouped_plan_cuda(const GroupedPlanTables& plan, CUstream_st* stream);

/// Enqueues a batch of one size with an element per image (arguments already validated).
void transform_device_batch_elements_cuda(ConstImageView src, ImageView dst, const Orientation* elements, int count, std::size_t src_image_stride,
                                          std::size_t dst_image_stride, CUstream_st* stream);

/// Enqueues the in-place involution `map` on `image`. Arguments already validated.
void transform_in_place_cuda(ImageView image, AxisMap map, CUstream_st* stream);

/// The width of the vectorized kernels' accesses: pointers, pitches and batch strides must be multiples.
inline constexpr std::size_t vector_bytes = 16;

/// DRAM and L2 move 32-byte sectors.
inline constexpr std::size_t sector_bytes = 32;

/// The pitch the library gives device copies of `row_bytes`-wide rows: rounded up to whole sectors (so
/// also whole vectors: the vectorized kernels apply to any width). With rows 16 bytes off a sector, a
/// warp's output pieces of each row split sectors with the next row's, and a batch of 800x600 u16 rot90
/// ran at 64% of copy against 95% with rows of whole sectors (H100: 23% more sectors written, 7% more
/// bytes read from DRAM; bench/RESULTS.md, 2026-11-22).
constexpr std::size_t device_pitch(std::size_t row_bytes) { return (row_bytes + sector_bytes - 1) / sector_bytes * sector_bytes; }

/// Whether the vectorized kernels can run `map` on these views: 16-byte aligned pointers and pitches (any
/// element, any width: mirrored columns that do not start on a vector are loaded shifted).
bool vectorized_applies(ConstImageView src, ConstImageView dst, AxisMap map);

/// Enqueues the multi-output transform of device buffers on `stream`: a fused kernel (one read, `count`
/// writes) chosen by pixel width and size, or one automatic launch per target where that is faster or the
/// vectorized kernel's alignment rules fail (launch_multi_output.cu). Arguments already validated.
void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream);

/// Whether the vectorized fused kernel's alignment rules hold for these targets (whether it runs also
/// depends on the pixel width).
bool multi_output_fused_applies(ConstImageView src, const TransformTarget* targets, std::size_t count);

/// The vectorized fused kernel alone, for the bench and the tests; false (nothing launched) where its
/// alignment rules fail.
bool multi_output_fused_vectorized(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream);

/// The shared-memory fused kernel (32x33 tile, one pixel per access) for the bench's comparison.
void transform_device_multi_tiled(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream);

/// A GPU, its stream and reusable device buffers (cuda/device_session.cu).
class DeviceSession;
struct DeviceSessionDeleter {
    void operator()(DeviceSession* session) const noexcept;
};
using DeviceSessionHandle = std::unique_ptr<DeviceSession, DeviceSessionDeleter>;

/// Opens a session on GPU `device` that holds at most `budget` bytes of device memory (0: no limit of its
/// own); throws Error (device), also for an image over the budget.
DeviceSessionHandle open_device_session(int device, std::size_t budget = 0);
/// Upload, fused launch, downloads, wait. Arguments already validated.
void transform_host_multi_cuda(DeviceSession& session, ConstImageView src, const TransformTarget* targets, std::size_t count);
/// Device bytes the session holds.
std::size_t device_session_bytes(const DeviceSession& session) noexcept;


}  // namespace gpurotate::detail
