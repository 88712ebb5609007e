#include "core/validate.hpp"

#include "core/pixel_word.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <string>

namespace gpurotate::detail {

void validate_view(const BasicImageView<const std::byte>& v, const char* role) {
    const std::string what = std::string(role) + " image";
    if (!v.data) throw Error(ErrorCode::usage, what + " has no pixel memory");
    checked_image_bytes(v.width, v.height, v.format);
    // Kernels index pixels with int: both sides stay below 2^31 pixels (a 2-gigapixel-wide image), less a
    // tile's margin.
    constexpr std::int64_t max_side = std::numeric_limits<std::int32_t>::max() - 64;
    if (v.width > max_side || v.height > max_side) {
        throw Error(ErrorCode::usage, what + " is " + std::to_string(v.width) + "x" + std::to_string(v.height) + ": a side may be at most " +
                                          std::to_string(max_side) + " pixels (2^31 - 65)");
    }
    const std::size_t pixel = v.format.pixel_bytes();
    if (!is_pixel_word_width(pixel)) {
        throw Error(ErrorCode::usage, what + ": unsupported pixel format " + to_string(v.format));
    }
    if (v.pitch < v.row_bytes()) {
        throw Error(ErrorCode::usage, what + ": pitch " + std::to_string(v.pitch) + " is smaller than a row (" +
                                          std::to_string(v.row_bytes()) + " bytes)");
    }
}

void check_element(Orientation o) {
    if (static_cast<unsigned>(o) >= 8) throw Error(ErrorCode::usage, "element code " + std::to_string(static_cast<unsigned>(o)) + " is not one of D4's 8");
}

void validate_pair(ConstImageView src, ConstImageView dst, Orientation o) {
    check_element(o);
    validate_view(src, "source");
    validate_view(dst, "destination");
    if (src.format != dst.format) {
        throw Error(ErrorCode::usage, "source is " + to_string(src.format) + " but destination is " + to_string(dst.format));
    }
    const Extent expected = output_extent(o, src.extent());
    if (!(dst.extent() == expected)) {
        throw Error(ErrorCode::usage, std::string(name(o)) + " of a " + std::to_string(src.width) + "x" +
                                          std::to_string(src.height) + " image is " + std::to_string(expected.width) + "x" +
                                          std::to_string(expected.height) + ", destination is " + std::to_string(dst.width) +
                                          "x" + std::to_string(dst.height));
    }
    check_disjoint(src, dst);
}

namespace {
const std::byte* span_end(ConstImageView v) { return v.data + (static_cast<std::size_t>(v.height) - 1) * v.pitch + v.row_bytes(); }
}  // namespace

void check_disjoint(ConstImageView src, ConstImageView dst) { check_disjoint(src, dst.data, span_end(dst)); }

void check_disjoint(ConstImageView src, const std::byte* dst_begin, const std::byte* dst_end) {
    // Kernels read the source while writing the destination: the two must not share bytes.
    if (std::less<const std::byte*>()(src.data, dst_end) && std::less<const std::byte*>()(dst_begin, span_end(src))) {
        throw Error(ErrorCode::usage, "source and destination overlap");
    }
}

void validate_multi_targets(ConstImageView src, const std::vector<TransformTarget>& targets) {
    if (targets.empty() || targets.size() > 8) {
        throw Error(ErrorCode::usage, std::to_string(targets.size()) + " targets for a multi-output transform (1 to 8)");
    }
    for (const TransformTarget& t : targets) validate_pair(src, t.dst, t.orientation);
}

}  // namespace gpurotate::detail
