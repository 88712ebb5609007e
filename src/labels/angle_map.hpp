#pragma once
// Where a label's points go when its image is rotated by an angle that is not a multiple of 90 (augment
// --degrees): the geometry of docs/cli.md "Any angle", taken to pixel-edge coordinates. The pixels rotate
// about the pixel-centre point ((W-1)/2, (H-1)/2), which is the edge point (W/2, H/2); on the expanded canvas
// it lands on (W'/2, H'/2), with keep-size on (W/2, H/2). Positive degrees turn clockwise (y points down).
// Points are doubles: a rotation has no exact decimal answer, unlike a D4 element (label_geometry.hpp).

#include "labels/label_geometry.hpp"

#include <string>
#include <vector>

namespace gpurotate::labels {

struct Point {
    double x = 0;
    double y = 0;
};

class AngleMap {
public:
    /// The rotation of an image of `source` size by `degrees` (finite), on the expanded canvas or, with
    /// `keep_size`, on the source's.
    AngleMap(ImageSize source, double degrees, bool keep_size);

    ImageSize source() const { return source_; }
    double degrees() const { return degrees_; }
    bool keep_size() const { return keep_size_; }
    /// The rotated image's size: gpurotate::rotated_extent's, the size the pixels get.
    ImageSize output() const { return output_; }

    /// A point of the source in pixel edges ([0, W] x [0, H]), where it lies in the output (in its pixel
    /// edges; outside [0, W'] x [0, H'] where the canvas cuts it off).
    Point map(Point source_point) const;

private:
    ImageSize source_, output_;
    double degrees_ = 0;
    bool keep_size_ = false;
    double cos_ = 1, sin_ = 0;
};

/// The text a rotated coordinate is written as: rounded to 6 decimal places (of a pixel for pixel
/// coordinates, of the side for YOLO's normalised ones), then the shortest decimal that reads back as that
/// double ("12.5", not "12.500000000000002"; "0", never "-0").
std::string rotated_number_text(double value);

}  // namespace gpurotate::labels
