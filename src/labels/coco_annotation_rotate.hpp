#pragma once
// One COCO annotation (already turned by its D4 element) rotated by the angle drawn after it (augment
// --degrees): keypoints and polygons exactly (in double), an RLE mask through the product's own nearest
// rotation, the box re-boxed from the instance's outline, everything clipped to the canvas.

#include "labels/angle_map.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace gpurotate::labels {

/// `annotation` of an image `angle.source()` in size, on the rotated image; none where its instance keeps
/// less than `min_visibility` of its area, or nothing (labels/canvas_clip.hpp's rule). The outline it is
/// measured on, and its box re-boxed from: the polygons (clipped to the canvas; a part with nothing left is
/// left out), else the RLE mask (nearest, background 0, re-encoded in the form it came in), else the box's
/// four corners. "area" becomes the outline's: the clipped polygons' area, the mask's pixel count, or the
/// box's. Keypoints off the canvas become 0, 0, 0, and "num_keypoints" (where present) counts those left.
/// Every other member is kept as written.
std::optional<nlohmann::ordered_json> rotate_annotation(const nlohmann::ordered_json& annotation, const AngleMap& angle, double min_visibility);

}  // namespace gpurotate::labels
