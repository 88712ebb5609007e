#pragma once
// A YOLO label file (already turned by its D4 element) rotated by the angle drawn after it (augment
// --degrees), with the instances the canvas cuts off clipped or dropped (labels/canvas_clip.hpp).
// Rows as in yolo_labels.hpp: detect, oriented box, segment, pose.

#include "labels/angle_map.hpp"
#include "labels/yolo_labels.hpp"

#include <string>
#include <string_view>

namespace gpurotate::labels {

/// `text` (the labels of the image `angle.source()` describes) on the rotated image. Per row:
///   detect: the box's four corners rotated, re-boxed, clipped to the canvas;
///   pose: its box so, each keypoint rotated exactly; one off the canvas becomes "0 0 0" ("0 0" with 2 values);
///   segment: the polygon rotated and clipped to the canvas;
///   oriented box: its four corners rotated; where the canvas cuts it, each corner is moved onto the canvas.
/// A row whose instance keeps less than `min_visibility` of its area (the polygon's for segments and oriented
/// boxes, the re-boxed box's otherwise), or nothing, is left out. Numbers: rotated_number_text of the
/// normalised value. Line ends are kept; a row's spacing becomes one space. Throws Error (input) as
/// turn_yolo_labels does, naming `path` and the line.
std::string rotate_yolo_labels(std::string_view text, const AngleMap& angle, const YoloSchema& schema, double min_visibility, const std::string& path);

}  // namespace gpurotate::labels
