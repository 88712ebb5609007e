#pragma once
// Argument checks of the library's entry points (the front end's transform() and GpuSession, and io.cpp's
// writers), defined in validate.cpp beside them.

#include <gpurotate/transform.hpp>

#include <vector>

namespace gpurotate::detail {

/// Throws Error (usage) naming `role` ("source", "destination", "output": "... image") unless `v` has pixel
/// memory, a pixel format the library moves, sides below 2^31 and a pitch of at least a row.
void validate_view(const BasicImageView<const std::byte>& v, const char* role);

/// Throws Error (usage) unless `o` is one of D4's 8 elements (an enum holds any value of its type: a code outside
/// them would index the element tables).
void check_element(Orientation o);

/// Throws Error (usage) unless `src` and `dst` are valid views (validate_view) of one pixel format, `dst` is the
/// size `o` makes of `src`, and the two share no bytes (kernels read the source while writing the destination).
void validate_pair(ConstImageView src, ConstImageView dst, Orientation o);

/// Throws Error (usage) where `src` and `dst` share bytes (kernels read the source while writing the destination).
void check_disjoint(ConstImageView src, ConstImageView dst);
/// The same for a destination that may write the bytes [dst_begin, dst_end) (its rows' padding, where that is scratch).
void check_disjoint(ConstImageView src, const std::byte* dst_begin, const std::byte* dst_end);

/// Throws Error (usage) unless there are 1 to 8 targets, each the right size and format for its element
/// applied to `src`, none overlapping `src`.
void validate_multi_targets(ConstImageView src, const std::vector<TransformTarget>& targets);

}  // namespace gpurotate::detail
