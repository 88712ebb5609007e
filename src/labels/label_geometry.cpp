#include "labels/label_geometry.hpp"

#include <algorithm>

namespace gpurotate::labels {

ImageSize turned_size(ImageSize size, Orientation element) {
    return axis_map(element).swap_axes ? ImageSize{size.height, size.width} : size;
}

bool reflects(Orientation element) {
    switch (element) {
        case Orientation::flip_h:
        case Orientation::flip_v:
        case Orientation::transpose:
        case Orientation::transverse: return true;
        default: return false;
    }
}

std::pair<Decimal, Decimal> turn_point(const Decimal& x, const Decimal& y, const Extent& extent, Orientation element) {
    // axis_map gives, for an output point, the source point: u, v = swap ? (y', x') : (x', y'), then
    // x = mirror_x ? E - u : u. Run backwards: u from x, v from y, then the swap.
    const AxisMap m = axis_map(element);
    Decimal u = m.mirror_x ? extent.x - x : x;
    Decimal v = m.mirror_y ? extent.y - y : y;
    if (m.swap_axes) return {v, u};
    return {u, v};
}

Box turn_box(const Box& box, const Extent& extent, Orientation element) {
    const auto [ax, ay] = turn_point(box.x0, box.y0, extent, element);
    const auto [bx, by] = turn_point(box.x1, box.y1, extent, element);
    return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

std::pair<Decimal, Decimal> turn_size(const Decimal& w, const Decimal& h, Orientation element) {
    if (axis_map(element).swap_axes) return {h, w};
    return {w, h};
}

}  // namespace gpurotate::labels
