#pragma once
// Where a label's coordinates go when its image is turned by a D4 element. Every label format comes down
// to points, each written against an extent: x' is x or E - x, and the axes may swap.
//   normalised (YOLO):            E = 1,     the image spans [0, 1]
//   pixel edges (COCO, torchvision): E = W or H, the image spans [0, W] x [0, H]
//   1-based pixels (Pascal VOC):  E = W + 1, pixel i (1..W) goes to W + 1 - i
// One map for all of them, derived from orientation.hpp's axis map (which maps output to source).

#include "labels/decimal_text.hpp"

#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <utility>

namespace gpurotate::labels {

struct ImageSize {
    std::int64_t width = 0;
    std::int64_t height = 0;
};

/// The size of the turned image: width and height swapped by the elements that swap axes.
ImageSize turned_size(ImageSize size, Orientation element);

/// Whether the element reflects (determinant -1: flip-h, flip-v, transpose, transverse): left and right
/// keypoints trade places, and a polygon's winding reverses.
bool reflects(Orientation element);

/// The extents of one coordinate system along x and y (the source image's).
struct Extent {
    Decimal x;
    Decimal y;
};
inline Extent normalised_extent() { return {Decimal::integer(1), Decimal::integer(1)}; }
inline Extent pixel_edge_extent(ImageSize s) { return {Decimal::integer(s.width), Decimal::integer(s.height)}; }
inline Extent one_based_extent(ImageSize s) { return {Decimal::integer(s.width + 1), Decimal::integer(s.height + 1)}; }

/// The point (x, y) of the source image, where it lies in the turned image.
std::pair<Decimal, Decimal> turn_point(const Decimal& x, const Decimal& y, const Extent& extent, Orientation element);

/// An axis-aligned box given by two opposite corners, turned: its new corners, (min x, min y) and
/// (max x, max y). Its width and height stay (swapped with the axes).
struct Box {
    Decimal x0, y0, x1, y1;
};
Box turn_box(const Box& box, const Extent& extent, Orientation element);

/// The same for sizes: (w, h) swapped by the elements that swap axes.
std::pair<Decimal, Decimal> turn_size(const Decimal& w, const Decimal& h, Orientation element);

}  // namespace gpurotate::labels
