#pragma once
// Ultralytics YOLO label files (labels/…/STEM.txt beside images/…/STEM.jpg): one object per line, a class
// then normalised coordinates, turned with the image by a D4 element. Rows are detect (c cx cy w h),
// oriented boxes (c x1 y1 … x4 y4: exactly 4 corners), segments (c x1 y1 … xn yn, n >= 3) or, where
// data.yaml has kpt_shape, pose (c cx cy w h, then kx ky [v] per keypoint).

#include "labels/label_geometry.hpp"

#include <gpurotate/orientation.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gpurotate::labels {

/// What data.yaml says about the rows: kpt_shape [K, D] (D 2 or 3) and flip_idx (a permutation of K).
struct YoloSchema {
    int keypoints = 0;       ///< K; 0: not a pose dataset
    int keypoint_values = 0; ///< D: 2 (x y) or 3 (x y visibility)
    std::vector<int> flip_idx;  ///< keypoint i of a reflected image is keypoint flip_idx[i] of the source; empty: none given
};

/// Reads kpt_shape and flip_idx from a data.yaml. Throws Error (input) naming the file for one that does
/// not parse, a kpt_shape that is not [K, 2] or [K, 3], or a flip_idx that is not a permutation of 0..K-1.
YoloSchema read_yolo_schema(const std::string& yaml_path);

/// The label file `text` of an image turned by `element`. Each number is rewritten on its own decimal
/// digits (labels/decimal_text.hpp), and everything between numbers (spaces, tabs, line ends, blank lines)
/// is kept, so four rot90s give back the file byte for byte. Throws Error (input) "'path' line N: why" for
/// a row that does not parse, a value outside [0, 1] by more than 1e-6, a keypoint count that does not
/// match kpt_shape, or a reflection of a pose row without flip_idx.
std::string turn_yolo_labels(std::string_view text, Orientation element, const YoloSchema& schema, const std::string& path);

/// The data.yaml for the output folder: `yaml_text` with its top-level `path:` set to `new_root` (added
/// first if it had none); every other line kept as written (train/val stay relative to it).
std::string yolo_yaml_for_root(std::string_view yaml_text, const std::string& new_root);

}  // namespace gpurotate::labels
