#pragma once
// The values of a COCO annotation as read from and written to JSON. A coordinate keeps the kind of number
// the file wrote: an integer stays an integer (turned with integer arithmetic), and a float is turned on
// the decimal digits of its shortest round-trip text, then stored as the double those digits name, so the
// writer gives the same short text (1000 - 0.01 is written 999.99, not 999.99000000000001).

#include "labels/coco_rle.hpp"
#include "labels/label_geometry.hpp"

#include <gpurotate/orientation.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <utility>

namespace gpurotate::labels {

/// A coordinate: its decimal value and whether the file wrote it as a JSON integer.
struct Coordinate {
    Decimal value;
    bool integer = false;
};

/// The coordinate a JSON number holds; none for anything else, or for a value no label has: a magnitude of
/// 1e9 or more, or more than 24 places (so E - x and x + w always fit a Decimal's 36 digits).
std::optional<Coordinate> read_coordinate(const nlohmann::ordered_json& number);

/// The JSON number of a coordinate: an integer where it is one, else the double of its digits.
nlohmann::ordered_json write_coordinate(const Coordinate& c);

/// a + b, an integer where both are.
Coordinate add(const Coordinate& a, const Coordinate& b);

/// The point (x, y) of an image of `size` (pixel edges: it spans [0, W] x [0, H]) turned by `element`.
std::pair<Coordinate, Coordinate> turn_coordinates(const Coordinate& x, const Coordinate& y, ImageSize size, Orientation element);

/// The runs of an RLE object's "counts": pycocotools' string or a list of non-negative integers; none for
/// anything else.
std::optional<RunCounts> read_run_counts(const nlohmann::ordered_json& counts);

}  // namespace gpurotate::labels
