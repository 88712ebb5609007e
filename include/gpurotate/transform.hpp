#pragma once
/// \file transform.hpp
/// Applying a D4 element to pixels: on host images (either backend) and on device buffers (CUDA).

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct CUstream_st;  // cudaStream_t is CUstream_st*; declared here so this header needs no CUDA headers

namespace gpurotate {

/// Which implementation does the work.
enum class Backend : std::uint8_t {
    automatic,  ///< CUDA when a usable GPU is present, the CPU otherwise
    cuda,       ///< the GPU; an error when none is usable
    cpu,        ///< the cache-blocked, multithreaded CPU backend
};

/// Which CUDA kernel moves pixels. For elements that keep the axes (rot180, flips) `vectorized` and
/// `automatic` use the vectorized mirror kernel, `tile32_padded` the plain mirror kernel (32x8 threads,
/// 4 pixels each) and `tile16_skiplines` the same with 16x16 threads, one pixel each; identity is always
/// a 2D copy.
enum class CudaKernel : std::uint8_t {
    automatic,         ///< the fastest measured kernel that applies (default): `vectorized` where its alignment
                       ///< rules hold, except 16-byte pixels (`tile16_skiplines`),
                       ///< else `tile32_padded`
    vectorized,        ///< 16-byte loads and stores, pixels exchanged in registers; needs 16-byte aligned
                       ///< pointers and pitches (throws Error otherwise), any width
    tile32_padded,     ///< 32x32 shared-memory tile padded to 32x33, 32x8 threads, 4 pixels per thread
    tile16_skiplines,  ///< 16x16 tile, one warp spans two rows, padded by 2 every other row ("skip-lines")
};

/// Whether `CudaKernel::vectorized` can run `o` on these views (the alignment rule above).
bool vectorized_applies(ConstImageView src, ConstImageView dst, Orientation o);

/// `to_string(Backend::cuda)` == "cuda", etc.
std::string to_string(Backend b);
/// `to_string(CudaKernel::tile32_padded)` == "tile32-padded", etc.
std::string to_string(CudaKernel k);

/// Whether this build has the CUDA backend and a usable GPU is present. Never throws.
bool cuda_available();

/// The backend `automatic` resolves to on this machine.
Backend resolve_backend(Backend requested);

/// How `transform` does its work on host images.
struct TransformOptions {
    Backend backend = Backend::automatic;
    CudaKernel kernel = CudaKernel::automatic;
    /// Device memory the GPU backend may use, in bytes; 0: 90% of what the GPU has free. An image whose
    /// source and result do not fit together streams through the GPU in bands of rows (same output).
    std::size_t gpu_memory = 0;
};

/// Applies `o` to the host image `src`, writing `dst`, which must be `output_extent(o, src.extent())` in size,
/// of the same pixel format, and must not overlap `src`. Any pitches. Throws `Error`: (device) when the GPU
/// fails, out of memory included; `Backend::automatic` does not retry on the CPU, the caller decides.
void transform(ConstImageView src, ImageView dst, Orientation o, const TransformOptions& options);
void transform(ConstImageView src, ImageView dst, Orientation o, Backend backend = Backend::automatic,
               CudaKernel kernel = CudaKernel::automatic);
/// The same from a mutable view. A view's type names std::byte, so an unqualified call also finds
/// std::transform by argument-dependent lookup; this exact match wins over that template.
inline void transform(ImageView src, ImageView dst, Orientation o, Backend backend = Backend::automatic,
                      CudaKernel kernel = CudaKernel::automatic) {
    transform(ConstImageView(src), dst, o, backend, kernel);
}
inline void transform(ImageView src, ImageView dst, Orientation o, const TransformOptions& options) {
    transform(ConstImageView(src), dst, o, options);
}

/// Applies `o` to a host image and returns the result (pinned when the work went to the GPU).
Image transform(const Image& src, Orientation o, const TransformOptions& options);
Image transform(const Image& src, Orientation o, Backend backend = Backend::automatic,
                CudaKernel kernel = CudaKernel::automatic);

/// Applies `o` to `src` in device memory, writing `dst` (device memory, not overlapping `src`), as one kernel
/// launch (or one 2D copy for identity) enqueued on `stream`. Returns without synchronising; launch errors are
/// thrown as `Error` (device). Pixel widths: 1, 2, 3, 4, 6, 8, 12, 16 bytes.
void transform_device(ConstImageView src, ImageView dst, Orientation o, CUstream_st* stream,
                      CudaKernel kernel = CudaKernel::automatic);

/// Whether `o` is its own inverse (transpose, transverse, rot180, flip-h, flip-v, identity): exactly the
/// elements `transform_in_place_device` can apply.
bool is_involution(Orientation o);

/// Applies `o` to the image in device memory in place, for callers with no room for a second image.
/// `o` must be an involution, and the image square if `o` swaps axes; throws Error (usage) otherwise
/// (rot90 in place would need a second pass). One launch on `stream`, no synchronisation.
void transform_in_place_device(ImageView image, Orientation o, CUstream_st* stream);

/// Applies `o` to `count` images of one size and format in device memory, in one launch: image i of the
/// source starts `src_image_stride` bytes after image i - 1 (`src` describes image 0), likewise for the
/// destination. A batch of small images then runs at large-image speed. 1 <= count <= 65535; the
/// strides must be at least one image (pitch x height) so that images do not overlap.
void transform_device_batch(ConstImageView src, ImageView dst, Orientation o, int count, std::size_t src_image_stride,
                            std::size_t dst_image_stride, CUstream_st* stream, CudaKernel kernel = CudaKernel::automatic);

/// As transform_device_batch, with its own element for each image: image i gets `elements[i]` (random
/// D4 augmentation of a batch). The output's size must be every element's: elements that swap the axes
/// mix with ones that do not only on square images. The images of each kernel family (transposes,
/// mirrors) run in one launch that indexes them, so a random element per image costs about what one
/// element for all does.
void transform_device_batch_elements(ConstImageView src, ImageView dst, const Orientation* elements, int count, std::size_t src_image_stride,
                                     std::size_t dst_image_stride, CUstream_st* stream);

/// One image of a grouped launch: its source and destination in device memory and its own element. An
/// image may be a stack of `planes` planes of the same size and element, `src_plane_stride` and
/// `dst_plane_stride` bytes apart (a sample of a planar CHW batch: C planes, one element): one table entry
/// for all of them, so the host's work is per sample, not per plane.
struct GroupedTransform {
    ConstImageView src;
    ImageView dst;
    Orientation orientation;
    int planes = 1;
    std::size_t src_plane_stride = 0;  ///< bytes from one plane's first pixel to the next's (with planes > 1)
    std::size_t dst_plane_stride = 0;
    /// Whether the bytes between the end of each destination row and its pitch are scratch, as in a buffer the
    /// caller allocated at pitch x height for this output: the launch may then write them (up to the end of the
    /// row's last 32-byte sector, never past the pitch), so that no sector of the output is written in part,
    /// which the GPU's memory reads back to merge (one extra 32-byte read a row: an 800x600 u8 rot90 ran 1.38x
    /// slower than at a 608-byte row). Off by default: a view into a larger image keeps its neighbours' bytes.
    /// With it on, the destination's memory must hold `pitch * height` bytes (the last row's padding too).
    bool scratch_padding = false;
};

/// Transforms every image of `images` (device memory; any sizes, one pixel width; each with its own
/// element, so a training batch can get a random one per image) in one kernel launch on `stream`: a table
/// of the images goes to the GPU and each block finds its image's tile there, so small images of mixed
/// sizes run as one large job. No image's destination may overlap any image's source: the images' blocks
/// run in no set order. Returns without synchronising. Throws `Error` (usage) for bad arguments. A call
/// whose images are the same as the calling thread's last call of that pixel width on that GPU (every
/// pointer, size, pitch, element and flag) reuses the table that call copied, as a `GroupedPlan` does.
void transform_device_grouped(const std::vector<GroupedTransform>& images, CUstream_st* stream);

/// A grouped transform prepared once and run many times: what `transform_device_grouped` does on every call
/// (checking the images, sorting them into kernel families, building their table and copying it to the GPU)
/// is done when the plan is made, so each `run` only enqueues the launches (one per kernel family present).
/// For a pipeline that transforms the same buffers again and again (a training loop's fixed batch buffers,
/// each refilled before the run): the plan keeps the views' pointers, not their pixels. The host's share of a
/// call for 1024 images falls from tens of microseconds to a few.
class GroupedPlan {
public:
    /// Checks `images` as `transform_device_grouped` does (throws `Error` (usage)), builds their table and
    /// copies it to the current GPU on `stream`; returns when it is there (having waited for the work enqueued
    /// on `stream` before). The images' memory must outlive every run; the plan holds a little device memory
    /// (about 110 bytes an image and 8 for each block's work) until it is destroyed, which waits for the GPU's work in flight (cudaFree).
    GroupedPlan(const std::vector<GroupedTransform>& images, CUstream_st* stream);
    ~GroupedPlan();
    GroupedPlan(GroupedPlan&&) noexcept;
    GroupedPlan& operator=(GroupedPlan&&) noexcept;
    GroupedPlan(const GroupedPlan&) = delete;
    GroupedPlan& operator=(const GroupedPlan&) = delete;

    /// Transforms every image of the plan, as `transform_device_grouped` would, on `stream`; returns without
    /// synchronising. The GPU current when the plan was made must be current (throws `Error` (usage) if not).
    void run(CUstream_st* stream) const;
    /// The images in the plan.
    std::size_t size() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// One output of a multi-output transform: the element to apply and the view its pixels go to.
struct TransformTarget {
    Orientation orientation;
    ImageView dst;
};

/// Applies every target's element to `src` in device memory with one launch that reads each source tile
/// once and writes it to every target: k variants cost one read and k writes. 1 to 8 targets, each the
/// size `output_extent(orientation, src.extent())`, none overlapping `src`. Enqueued on `stream`.
void transform_device_multi(ConstImageView src, const std::vector<TransformTarget>& targets, CUstream_st* stream);

/// The same for host images: on the GPU one upload, one fused launch and one download per target; on the
/// CPU one pass per target with at most `cpu_threads` threads (0: all cores). For many images in a row,
/// `GpuSession` keeps the stream and device buffers between calls.
void transform_multi(ConstImageView src, const std::vector<TransformTarget>& targets, Backend backend = Backend::automatic,
                     unsigned cpu_threads = 0);

}  // namespace gpurotate
