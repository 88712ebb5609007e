#pragma once
// Argument checks of the front end that more than one front-end file needs.

#include <gpurotate/transform.hpp>

#include <vector>

namespace gpurotate::detail {

/// Throws Error (usage) unless there are 1 to 8 targets, each the right size and format for its element
/// applied to `src`, none overlapping `src`.
void validate_multi_targets(ConstImageView src, const std::vector<TransformTarget>& targets);

}  // namespace gpurotate::detail
