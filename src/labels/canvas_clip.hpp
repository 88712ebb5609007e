#pragma once
// What is left of a rotated label on its canvas: polygons clipped to it (Sutherland-Hodgman against the four
// sides), boxes clipped to it, and the rule that decides whether an instance stays (augment --min-visibility).

#include "labels/angle_map.hpp"

#include <vector>

namespace gpurotate::labels {

using Polygon = std::vector<Point>;

/// An axis-aligned box in pixel edges; empty where x1 < x0 or y1 < y0.
struct Bounds {
    double x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    bool empty() const { return x1 < x0 || y1 < y0; }
    double area() const { return empty() ? 0 : (x1 - x0) * (y1 - y0); }
};

/// The part of `polygon` inside [0, W] x [0, H] (vertices on the sides included); empty where none is.
Polygon clip_to_canvas(const Polygon& polygon, ImageSize canvas);

/// The polygon's area (shoelace; either winding).
double polygon_area(const Polygon& polygon);

/// The smallest box holding every point (empty for no points).
Bounds bounds_of(const Polygon& points);

/// The box cut to [0, W] x [0, H].
Bounds clip_to_canvas(const Bounds& box, ImageSize canvas);

/// Whether a point lies on the canvas, its sides included.
bool on_canvas(Point p, ImageSize canvas);

/// The four corners of a box, clockwise on screen from its top-left.
Polygon corners_of(const Bounds& box);

/// Whether an instance whose outline had area `before` on the rotated, unclipped plane and has `after` on
/// the canvas stays: something is left and at least `min_visibility` of it (0 <= F <= 1). An outline of no
/// area (a zero-width box, a polygon on a line) stays while `nonempty`: some of it is on the canvas.
bool stays(double before, double after, bool nonempty, double min_visibility);

}  // namespace gpurotate::labels
