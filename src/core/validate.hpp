#pragma once
// Argument checks of the front end that more than one front-end file needs.

#include <gpurotate/transform.hpp>

#include <vector>

namespace gpurotate::detail {

/// Throws Error (usage) naming `role` ("source", "destination", "output": "... image") unless `v` has pixel
/// memory, a pixel format the library moves, sides below 2^31 and a pitch of at least a row.
void validate_view(const BasicImageView<const std::byte>& v, const char* role);

/// Throws Error (usage) unless there are 1 to 8 targets, each the right size and format for its element
/// applied to `src`, none overlapping `src`.
void validate_multi_targets(ConstImageView src, const std::vector<TransformTarget>& targets);

}  // namespace gpurotate::detail
