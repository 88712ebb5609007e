#pragma once
// Whether one COCO annotation can be turned with its image: the checks load() makes, so that turning never
// meets a value it cannot write back.

#include "labels/label_geometry.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpurotate::labels {

/// Why `annotation` of an image of `size` cannot be turned (empty: it can): a bbox that is not 4 numbers
/// with w, h >= 0; a segmentation that is neither polygons (even counts >= 6 of numbers) nor an RLE object
/// whose "size" is [H, W] of the image and whose runs total H * W; keypoints not 3 numbers each, or not 3
/// per name where `keypoint_names` (its category's "keypoints") is not empty.
std::string annotation_problem(const nlohmann::ordered_json& annotation, ImageSize size,
                               const std::vector<std::string>& keypoint_names);

}  // namespace gpurotate::labels
