#pragma once
// One COCO annotation turned with its image: bbox, segmentation (polygons or RLE) and keypoints; every
// other member ("area", "iscrowd", "category_id", ...) kept as written, in its place.

#include "labels/label_geometry.hpp"

#include <gpurotate/orientation.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gpurotate::labels {

/// `annotation` (one annotation_problem passed) of an image of `size`, turned by `element`. Its id and
/// image_id are the caller's to replace. `keypoint_names`: its category's "keypoints" (empty: none), whose
/// left_X and right_X trade places under a reflection.
nlohmann::ordered_json turn_annotation(const nlohmann::ordered_json& annotation, ImageSize size, Orientation element,
                                       const std::vector<std::string>& keypoint_names);

}  // namespace gpurotate::labels
