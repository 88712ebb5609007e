#include "labels/canvas_clip.hpp"

#include <algorithm>
#include <cmath>

namespace gpurotate::labels {
namespace {

// One side of the canvas as a half-plane: the inside is where `distance` is >= 0.
struct Side {
    int axis;      // 0: x, 1: y
    double limit;  // the side's coordinate
    bool low;      // inside is coordinate >= limit (else <= limit)
    double distance(Point p) const {
        const double c = axis == 0 ? p.x : p.y;
        return low ? c - limit : limit - c;
    }
    // Where the segment a-b crosses the side; the side's coordinate set exactly (no rounding past it).
    Point crossing(Point a, Point b) const {
        const double da = distance(a), db = distance(b);
        const double t = da / (da - db);
        Point p{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
        (axis == 0 ? p.x : p.y) = limit;
        return p;
    }
};

Polygon clip_to_side(const Polygon& in, const Side& side) {
    Polygon out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const Point a = in[i], b = in[(i + 1) % in.size()];
        const bool a_in = side.distance(a) >= 0, b_in = side.distance(b) >= 0;
        if (a_in) out.push_back(a);
        if (a_in != b_in) out.push_back(side.crossing(a, b));
    }
    return out;
}

}  // namespace

Polygon clip_to_canvas(const Polygon& polygon, ImageSize canvas) {
    const double w = static_cast<double>(canvas.width), h = static_cast<double>(canvas.height);
    Polygon out = polygon;
    for (const Side& side : {Side{0, 0, true}, Side{0, w, false}, Side{1, 0, true}, Side{1, h, false}}) {
        if (out.empty()) break;
        out = clip_to_side(out, side);
    }
    return out;
}

double polygon_area(const Polygon& polygon) {
    double twice = 0;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        const Point a = polygon[i], b = polygon[(i + 1) % polygon.size()];
        twice += a.x * b.y - b.x * a.y;
    }
    return std::fabs(twice) / 2;
}

Bounds bounds_of(const Polygon& points) {
    if (points.empty()) return {};
    Bounds b{points[0].x, points[0].y, points[0].x, points[0].y};
    for (const Point& p : points) {
        b.x0 = std::min(b.x0, p.x);
        b.y0 = std::min(b.y0, p.y);
        b.x1 = std::max(b.x1, p.x);
        b.y1 = std::max(b.y1, p.y);
    }
    return b;
}

Bounds clip_to_canvas(const Bounds& box, ImageSize canvas) {
    return {std::max(box.x0, 0.0), std::max(box.y0, 0.0), std::min(box.x1, static_cast<double>(canvas.width)),
            std::min(box.y1, static_cast<double>(canvas.height))};
}

bool on_canvas(Point p, ImageSize canvas) {
    return p.x >= 0 && p.y >= 0 && p.x <= static_cast<double>(canvas.width) && p.y <= static_cast<double>(canvas.height);
}

Polygon corners_of(const Bounds& box) { return {{box.x0, box.y0}, {box.x1, box.y0}, {box.x1, box.y1}, {box.x0, box.y1}}; }

bool stays(double before, double after, bool nonempty, double min_visibility) {
    if (before <= 0) return nonempty;
    // A millionth given: the expanded canvas is rounded up less 1e-6 pixel, so an instance the rotation keeps
    // whole can lose a sliver of that size at the canvas's side.
    return after > 0 && after >= min_visibility * before * (1 - 1e-6);
}

}  // namespace gpurotate::labels
