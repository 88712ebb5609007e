#pragma once
// The label tests' one reference: where each D4 element sends a point of an image spanning [0, W] x [0, H],
// written out per element (not derived from orientation.hpp, which the code under test uses). YOLO's
// normalised values use W = H = 1, VOC's 1-based pixels W + 1 and H + 1, 0-based pixel indices W - 1, H - 1.

#include <gpurotate/orientation.hpp>

#include <utility>

namespace label_reference {

inline std::pair<double, double> point(gpurotate::Orientation o, double x, double y, double W, double H) {
    using gpurotate::Orientation;
    switch (o) {
        case Orientation::identity: return {x, y};
        case Orientation::rot90: return {H - y, x};
        case Orientation::rot180: return {W - x, H - y};
        case Orientation::rot270: return {y, W - x};
        case Orientation::flip_h: return {W - x, y};
        case Orientation::flip_v: return {x, H - y};
        case Orientation::transpose: return {y, x};
        case Orientation::transverse: return {H - y, W - x};
    }
    return {0, 0};
}

/// The elements that swap width and height, and those that reflect (left and right trade places).
inline bool swaps(gpurotate::Orientation o) {
    using gpurotate::Orientation;
    return o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse;
}
inline bool reflects(gpurotate::Orientation o) {
    using gpurotate::Orientation;
    return o == Orientation::flip_h || o == Orientation::flip_v || o == Orientation::transpose || o == Orientation::transverse;
}

}  // namespace label_reference
