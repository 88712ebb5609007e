#pragma once
// Pascal VOC annotations (Annotations/STEM.xml beside JPEGImages/STEM.jpg): 1-based inclusive pixel boxes,
// turned with the image by a D4 element.

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
std::string turn_voc_annotation(std::string_view xml, Orientation element, ImageSize image, const std::string& output_file_name,
                                const std::string& output_path, const std::string& path);

/// Parses `xml` and checks its boxes as turn_voc_annotation would, without an image size: so that a
/// damaged annotation fails its sample before the image is touched. Throws Error (input) as it does.
void check_voc_annotation(std::string_view xml, const std::string& path);

}  // namespace gpurotate::labels
