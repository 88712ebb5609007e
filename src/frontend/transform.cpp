// The front end of the library: validates arguments once, resolves the backend, and hands the work to
// exactly one backend.

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include "frontend/cuda_backend.hpp"
#include "core/pixel_word.hpp"
#include "core/validate.hpp"
#include "cpu/transform_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>

namespace gpurotate {
namespace {

using detail::check_element;
using detail::validate_view;
using detail::validate_pair;

}  // namespace

std::string to_string(Backend b) {
    switch (b) {
        case Backend::automatic: return "auto";
        case Backend::cuda: return "cuda";
        case Backend::cpu: return "cpu";
    }
    return "?";
}

std::string to_string(CudaKernel k) {
    switch (k) {
        case CudaKernel::automatic: return "auto";
        case CudaKernel::vectorized: return "vectorized";
        case CudaKernel::tile32_padded: return "tile32-padded";
        case CudaKernel::tile16_skiplines: return "tile16-skiplines";
    }
    return "?";
}

bool vectorized_applies(ConstImageView src, ConstImageView dst, Orientation o) {
    return detail::vectorized_applies(src, dst, axis_map(o));
}

bool cuda_available() {
    static const bool available = !cuda_devices().empty();
    return available;
}

Backend resolve_backend(Backend requested) {
    if (requested == Backend::automatic) return cuda_available() ? Backend::cuda : Backend::cpu;
    if (requested == Backend::cuda && !cuda_available()) {
        std::string problem;
        cuda_devices(&problem);
        throw Error(ErrorCode::device, "the CUDA backend has no usable GPU (" + problem + ")");
    }
    return requested;
}

void transform(ConstImageView src, ImageView dst, Orientation o, const TransformOptions& options) {
    validate_pair(src, dst, o);
    if (resolve_backend(options.backend) == Backend::cuda) {
        detail::transform_host_cuda(src, dst, axis_map(o), options.kernel, options.gpu_memory);
    } else {
        detail::transform_cpu(src, dst, axis_map(o));
    }
}

void transform(ConstImageView src, ImageView dst, Orientation o, Backend backend, CudaKernel kernel) {
    transform(src, dst, o, TransformOptions{backend, kernel, 0});
}

Image transform(const Image& src, Orientation o, const TransformOptions& options) {
    TransformOptions resolved = options;
    resolved.backend = resolve_backend(options.backend);
    const Extent out = output_extent(o, {src.width(), src.height()});
    Image dst(out.width, out.height, src.format(), resolved.backend == Backend::cuda ? HostMemory::pinned : HostMemory::pageable);
    transform(src.view(), dst.view(), o, resolved);
    return dst;
}

Image transform(const Image& src, Orientation o, Backend backend, CudaKernel kernel) {
    return transform(src, o, TransformOptions{backend, kernel, 0});
}

void transform_device(ConstImageView src, ImageView dst, Orientation o, CUstream_st* stream, CudaKernel kernel) {
    validate_pair(src, dst, o);
    detail::transform_device_cuda(src, dst, axis_map(o), kernel, stream);
}

void transform_device_multi(ConstImageView src, const std::vector<TransformTarget>& targets, CUstream_st* stream) {
    detail::validate_multi_targets(src, targets);
    detail::transform_device_multi_cuda(src, targets.data(), targets.size(), stream);
}

void transform_multi(ConstImageView src, const std::vector<TransformTarget>& targets, Backend backend, unsigned cpu_threads) {
    detail::validate_multi_targets(src, targets);
    if (resolve_backend(backend) == Backend::cuda) {
        detail::transform_host_multi_cuda(*detail::open_device_session(0), src, targets.data(), targets.size());
        return;
    }
    for (const TransformTarget& t : targets) detail::transform_cpu(src, t.dst, axis_map(t.orientation), cpu_threads);
}

bool is_involution(Orientation o) { return then(o, o) == Orientation::identity; }

void transform_in_place_device(ImageView image, Orientation o, CUstream_st* stream) {
    check_element(o);
    validate_view(ConstImageView(image), "in-place");
    if (swaps_axes(o) && image.width > 65535LL * 32) throw Error(ErrorCode::usage, "in-place transpose is limited to sides of 2,097,120 pixels");
    if (!is_involution(o)) {
        throw Error(ErrorCode::usage, std::string(name(o)) + " cannot be done in place in one pass (it is not its own inverse); "
                                                             "use transform_device with a second buffer");
    }
    if (swaps_axes(o) && image.width != image.height) {
        throw Error(ErrorCode::usage, std::string(name(o)) + " in place needs a square image, not " + std::to_string(image.width) +
                                          "x" + std::to_string(image.height));
    }
    if (o != Orientation::identity) detail::transform_in_place_cuda(image, axis_map(o), stream);
}

namespace {

void validate_grouped(const std::vector<GroupedTransform>& images) {
    if (images.empty()) throw Error(ErrorCode::usage, "a grouped launch needs at least one image");
    for (const GroupedTransform& g : images) {
        validate_pair(g.src, g.dst, g.orientation);
        // Scratch padding may be written to the end of the last row's pitch, a little past the view's last pixel.
        if (g.scratch_padding) detail::check_disjoint(g.src, g.dst.data, g.dst.data + g.dst.pitch * static_cast<std::size_t>(g.dst.height));
        if (g.planes < 1) throw Error(ErrorCode::usage, "a grouped image of " + std::to_string(g.planes) + " planes (1 or more)");
        if (g.planes > 1 && (g.src_plane_stride < g.src.pitch * static_cast<std::size_t>(g.src.height) ||
                             g.dst_plane_stride < g.dst.pitch * static_cast<std::size_t>(g.dst.height))) {
            throw Error(ErrorCode::usage, "grouped plane strides are smaller than one plane: planes would overlap");
        }
        if (g.src.format.pixel_bytes() != images.front().src.format.pixel_bytes()) {
            throw Error(ErrorCode::usage, "a grouped launch takes one pixel width: " + to_string(images.front().src.format) + " and " +
                                              to_string(g.src.format) + " differ");
        }
    }
}

}  // namespace

void transform_device_grouped(const std::vector<GroupedTransform>& images, CUstream_st* stream) {
    validate_grouped(images);
    detail::transform_device_grouped_cuda(images.data(), images.size(), stream);
}

struct GroupedPlan::Impl {
    std::size_t size;
    detail::GroupedPlanHandle tables;
};

GroupedPlan::GroupedPlan(const std::vector<GroupedTransform>& images, CUstream_st* stream) {
    validate_grouped(images);
    impl_.reset(new Impl{images.size(), detail::build_grouped_plan_cuda(images.data(), images.size(), stream)});
}
GroupedPlan::~GroupedPlan() = default;
GroupedPlan::GroupedPlan(GroupedPlan&&) noexcept = default;
GroupedPlan& GroupedPlan::operator=(GroupedPlan&&) noexcept = default;

void GroupedPlan::run(CUstream_st* stream) const {
    if (!impl_) throw Error(ErrorCode::usage, "a grouped plan that was moved from has nothing to run");
    detail::run_grouped_plan_cuda(*impl_->tables, stream);
}

std::size_t GroupedPlan::size() const noexcept { return impl_ ? impl_->size : 0; }

namespace {

void validate_batch(ConstImageView src, ConstImageView dst, int count, std::size_t src_image_stride, std::size_t dst_image_stride) {
    if (count < 1 || count > 65535) throw Error(ErrorCode::usage, "batch of " + std::to_string(count) + " images (1 to 65535)");
    const std::size_t src_image = src.pitch * static_cast<std::size_t>(src.height);
    const std::size_t dst_image = dst.pitch * static_cast<std::size_t>(dst.height);
    if (count > 1 && (src_image_stride < src_image || dst_image_stride < dst_image)) {
        throw Error(ErrorCode::usage, "batch image strides are smaller than one image: images would overlap");
    }
}

}  // namespace

void transform_device_batch(ConstImageView src, ImageView dst, Orientation o, int count, std::size_t src_image_stride,
                            std::size_t dst_image_stride, CUstream_st* stream, CudaKernel kernel) {
    validate_pair(src, dst, o);
    validate_batch(src, dst, count, src_image_stride, dst_image_stride);
    detail::transform_device_cuda(src, dst, axis_map(o), kernel, stream, {count, src_image_stride, dst_image_stride});
}

void transform_device_batch_elements(ConstImageView src, ImageView dst, const Orientation* elements, int count, std::size_t src_image_stride,
                                     std::size_t dst_image_stride, CUstream_st* stream) {
    if (!elements) throw Error(ErrorCode::usage, "a batch with an element per image needs the elements");
    validate_batch(src, dst, count, src_image_stride, dst_image_stride);
    bool validated[8] = {};
    for (int i = 0; i < count; ++i) {
        check_element(elements[i]);
        const auto code = static_cast<unsigned>(elements[i]);
        if (!validated[code]) validate_pair(src, dst, elements[i]);  // its output size must be dst's
        validated[code] = true;
    }
    detail::transform_device_batch_elements_cuda(src, dst, elements, count, src_image_stride, dst_image_stride, stream);
}

}  // namespace gpurotate
