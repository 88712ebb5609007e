#pragma once
// The seam between the host front end and the CUDA backend. Implemented in cuda/ when CUDA is compiled in,
// and by cuda/cuda_unavailable.cpp otherwise, so that the front end never needs #ifdefs.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include "core/pinned_memory.hpp"
#include "core/rotation_sampling.hpp"

#include <cstddef>
#include <cstdint>
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
};

/// Enqueues the transform of device buffers (a batch: one launch for all images) on `stream`.
/// Arguments already validated.
void transform_device_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, CUstream_st* stream,
                           const BatchLayout& batch = {});

/// Enqueues one launch for all `count` images of a grouped transform (arguments already validated).
void transform_device_grouped_cuda(const GroupedTransform* images, std::size_t count, CUstream_st* stream);

/// How a grouped launch's blocks find their work: the product's schedule by default (a call's blocks search
/// the images' first items; a plan's read work descriptors); the bench's studies name others.
struct GroupedSchedule {
    int tiles_per_item = 0;  ///< tiles of one image a block runs in a row; 0: tuning::grouped_tiles_per_item
    /// Blocks search each image's first item, where false they read a work descriptor each. Descriptors make a
    /// call's table larger (one a block, not one an image): built and copied on every call they cost more on the
    /// host than they save on the GPU (H100, 1024 mixed images, u8c1: 64% of a copy against the search's 80%),
    /// so only a plan, which builds them once, has them (90.8% against 89.9%; bench/RESULTS.md, 2026-12-06).
    bool search = true;
    /// A single call's families of up to grouped_inline_images images (292 with CUDA 12.1 and later) carry their
    /// table in the kernel's parameters, with no staging copy or pool allocation; false: every table staged and
    /// copied (the bench's grouped-staged study). A plan's tables stay in device memory either way.
    bool inline_tables = true;
    /// A call whose images are the thread's last call's runs from that call's tables (grouped_call_cache.cuh);
    /// false: built and copied again (the bench's grouped-rebuilt study, what a call with new images costs).
    bool reuse_last_call = true;
    /// With `search` false: the families where the search is faster search all the same
    /// (tuning::grouped_plan_searches); a plan's schedule.
    bool search_where_faster = false;
};
/// Whether two grouped images describe the same work: the same memory, geometry, element and flags (what a
/// grouped call's tables are built from; GroupedSchedule::reuse_last_call).
// A field added to GroupedTransform must be compared below, or a call would run with another call's tables.
static_assert(sizeof(GroupedTransform) == 112, "GroupedTransform changed: compare its new fields in same_grouped_image");
inline bool same_grouped_image(const GroupedTransform& a, const GroupedTransform& b) {
    const auto same_view = [](const auto& x, const auto& y) {
        return x.data == y.data && x.width == y.width && x.height == y.height && x.pitch == y.pitch && x.format == y.format;
    };
    return same_view(a.src, b.src) && same_view(a.dst, b.dst) && a.orientation == b.orientation && a.planes == b.planes &&
           a.src_plane_stride == b.src_plane_stride && a.dst_plane_stride == b.dst_plane_stride && a.scratch_padding == b.scratch_padding;
}
/// The grouped calls this thread ran from the tables its last call kept (GroupedSchedule::reuse_last_call): the
/// tests' evidence that a repeated call reuses them.
inline thread_local std::uint64_t grouped_calls_from_kept_tables = 0;
/// How many images of one family a single call carries in the kernel's parameters (GroupedSchedule::inline_tables).
int grouped_inline_images_cuda();
/// A plan's schedule: work descriptors, but in the families where the search is faster.
inline constexpr GroupedSchedule grouped_plan_schedule{0, false, true, true, true};

/// A grouped transform's tables in device memory, built once (cuda/launch_grouped.cu).
struct GroupedPlanTables;
struct GroupedPlanTablesDeleter {
    void operator()(GroupedPlanTables* plan) const noexcept;
};
using GroupedPlanHandle = std::unique_ptr<GroupedPlanTables, GroupedPlanTablesDeleter>;
/// Builds the tables of `count` images (arguments already validated) and copies them to the current GPU on
/// `stream`; returns when they are there.
GroupedPlanHandle build_grouped_plan_cuda(const GroupedTransform* images, std::size_t count, CUstream_st* stream,
                                          GroupedSchedule schedule = grouped_plan_schedule);
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
/// writes) or one automatic launch per target, whichever cuda/tuning/tuning_transform.hpp's select_fused measured
/// fastest for the pixel width, size and device (launch_multi_output.cu). Arguments already validated.
void transform_device_multi_cuda(ConstImageView src, const TransformTarget* targets, std::size_t count, CUstream_st* stream);

/// Rotation by any angle (cuda/launch_rotate.cu): enqueues core/rotation_sampling.hpp's pixels of device buffers
/// on `stream`, the plan's weights replaced by the current GPU's copy of the tables (uploaded on its first
/// use). Arguments already validated; the plan's weights are the host tables'.
void rotate_device_cuda(ConstImageView src, ImageView dst, const RotationPlan& plan, CUstream_st* stream);
/// One image of a grouped rotation: its device views and its plan (the host tables' weights).
struct RotationJob {
    ConstImageView src;
    ImageView dst;
    RotationPlan plan;
};
/// Enqueues every job (one pixel format) on `stream`: one launch per interpolation present, the jobs' items
/// in a table on the GPU. Arguments already validated.
void rotate_device_grouped_cuda(const RotationJob* jobs, std::size_t count, CUstream_st* stream);
/// Upload, rotate, download; synchronous. Arguments already validated.
void rotate_host_cuda(ConstImageView src, ImageView dst, const RotationPlan& plan);
/// The device memory rotate_host_cuda takes for a `source` image rotated into a `rotated` one of `pixel_bytes`
/// pixels: a copy of each at the library's pitch, at once (a rotation does not stream in bands as a transform does).
constexpr std::size_t rotation_device_bytes(Extent source, Extent rotated, std::size_t pixel_bytes) {
    return device_pitch(static_cast<std::size_t>(source.width) * pixel_bytes) * static_cast<std::size_t>(source.height) +
           device_pitch(static_cast<std::size_t>(rotated.width) * pixel_bytes) * static_cast<std::size_t>(rotated.height);
}

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
