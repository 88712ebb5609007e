#pragma once
// Pascal VOC annotations (Annotations/STEM.xml beside JPEGImages/STEM.jpg): 1-based inclusive pixel boxes,
// turned with the image by a D4 element.

#include "labels/angle_map.hpp"
#include "labels/label_geometry.hpp"

#include <gpurotate/orientation.hpp>

#include <string>
#include <string_view>

namespace gpurotate::labels {

/// The annotation `xml` of an image of `image` size turned by `element`: every <bndbox> (objects' and their
/// parts') mapped as 1-based pixels (x -> W + 1 - x), <size> swapped with the axes, <filename> set to
/// `output_file_name` and <path> (where present) to `output_path`; every other element kept. Throws Error
/// (input) "'path' line N: why" for XML that does not parse, a box value that is not a number or whose min
/// exceeds its max, or a <size> that is neither 0x0 nor the image's.
/// With `angle` (the rotation drawn after the element, of the turned image), each box is then rotated: the
/// pixels it covers (edges xmin-1 .. xmax) rotated as four corners, re-boxed, clipped to the canvas and
/// written as the 1-based pixels that cover it (integers); <size> becomes the rotated canvas's. An object
/// (or part) whose box keeps less than `min_visibility` of its area, or nothing, is left out. An object whose
/// box the canvas cuts gets <truncated>1</truncated> (its value replaced, or the element added after <pose>,
/// else <name>, as the VOC devkit orders them); other objects, and every box without `angle`, keep theirs.
std::string turn_voc_annotation(std::string_view xml, Orientation element, ImageSize image, const std::string& output_file_name,
                                const std::string& output_path, const std::string& path, const AngleMap* angle = nullptr,
                                double min_visibility = 0);

/// Parses `xml` and checks its boxes as turn_voc_annotation would, without an image size: so that a
/// damaged annotation fails its sample before the image is touched. Throws Error (input) as it does.
void check_voc_annotation(std::string_view xml, const std::string& path);

}  // namespace gpurotate::labels
