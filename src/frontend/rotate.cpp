// The front end of rotation by any angle: checks the arguments once, builds the plan (core/rotation_tables.hpp)
// and hands it to exactly one backend.

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>

#include "core/rotation_tables.hpp"
#include "core/validate.hpp"
#include "cpu/rotate_cpu.hpp"
#include "frontend/cuda_backend.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace gpurotate {
namespace {

void check_options(const RotateOptions& options) {
    if (!std::isfinite(options.degrees)) throw Error(ErrorCode::usage, "rotation by " + std::to_string(options.degrees) + " degrees: the angle must be finite");
    switch (options.interpolation) {
        case Interpolation::nearest:
        case Interpolation::bilinear:
        case Interpolation::bicubic: return;
    }
    throw Error(ErrorCode::usage, "interpolation code " + std::to_string(static_cast<unsigned>(options.interpolation)) + " is not one of the 3");
}

detail::RotationPlan validated_plan(ConstImageView src, ConstImageView dst, const RotateOptions& options) {
    check_options(options);
    detail::validate_view(src, "source");
    detail::validate_view(dst, "destination");
    if (src.format != dst.format) {
        throw Error(ErrorCode::usage, "source is " + to_string(src.format) + " but destination is " + to_string(dst.format));
    }
    // OpenCV's remap holds source coordinates in 16 bits and refuses a side of 32767 or more; so does this,
    // rather than give every column past it the last one's pixels.
    if (src.width >= max_rotation_side || src.height >= max_rotation_side) {
        throw Error(ErrorCode::usage, "rotating a " + std::to_string(src.width) + "x" + std::to_string(src.height) +
                                          " image by an angle that is not a multiple of 90: each side must be under " +
                                          std::to_string(max_rotation_side) + " pixels (OpenCV's limit, whose bytes this gives)");
    }
    const Extent expected = rotated_extent(src.extent(), options);
    if (!(dst.extent() == expected)) {
        throw Error(ErrorCode::usage, "rotating a " + std::to_string(src.width) + "x" + std::to_string(src.height) + " image by " +
                                          std::to_string(options.degrees) + " degrees gives " + std::to_string(expected.width) + "x" +
                                          std::to_string(expected.height) + ", destination is " + std::to_string(dst.width) + "x" +
                                          std::to_string(dst.height));
    }
    detail::check_disjoint(src, dst);
    return detail::make_rotation_plan(src.extent(), dst.extent(), src.format.sample, options);
}

}  // namespace

Extent rotated_extent(Extent source, const RotateOptions& options) {
    check_options(options);
    if (options.keep_size) return source;
    return detail::expanded_extent(source, options.degrees);
}

void rotate(ConstImageView src, ImageView dst, const RotateOptions& options, Backend backend) {
    const detail::RotationPlan plan = validated_plan(src, dst, options);
    if (resolve_backend(backend) == Backend::cuda) {
        detail::rotate_host_cuda(src, dst, plan);
    } else {
        detail::rotate_cpu(src, dst, plan);
    }
}

Image rotate(const Image& src, const RotateOptions& options, Backend backend) {
    const Backend resolved = resolve_backend(backend);
    const Extent out = rotated_extent({src.width(), src.height()}, options);
    Image dst(out.width, out.height, src.format(), resolved == Backend::cuda ? HostMemory::pinned : HostMemory::pageable);
    rotate(src.view(), dst.view(), options, resolved);
    return dst;
}

void rotate_device(ConstImageView src, ImageView dst, const RotateOptions& options, CUstream_st* stream) {
    const detail::RotationPlan plan = validated_plan(src, dst, options);
    detail::rotate_device_cuda(src, dst, plan, stream);
}

void rotate_device_grouped(const std::vector<GroupedRotation>& images, CUstream_st* stream) {
    if (images.empty()) throw Error(ErrorCode::usage, "a grouped rotation needs at least one image");
    std::vector<detail::RotationJob> jobs;
    jobs.reserve(images.size());
    for (const GroupedRotation& g : images) {
        if (g.src.format != images.front().src.format) {
            throw Error(ErrorCode::usage, "a grouped rotation takes one pixel format: " + to_string(images.front().src.format) + " and " +
                                              to_string(g.src.format) + " differ");
        }
        jobs.push_back({g.src, g.dst, validated_plan(g.src, g.dst, g.options)});
    }
    detail::rotate_device_grouped_cuda(jobs.data(), jobs.size(), stream);
}

}  // namespace gpurotate
