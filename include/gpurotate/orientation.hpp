#pragma once
/// \file orientation.hpp
/// The dihedral group D4: the 8 ways to lay a rectangular image back onto a grid. This header is the one
/// place that knows how the elements compose and where an output pixel comes from; the CPU backend, the
/// CUDA kernels and the CLI all use it.
///
/// An element is stored as the map from an *output* coordinate to the *source* coordinate it copies:
/// first the axes are optionally swapped, then the source x and/or y is mirrored. Every kernel is a loop
/// over output pixels (or tiles of them) that evaluates this map.

#include <cstdint>
#include <optional>
#include <string_view>

#if defined(__CUDACC__)
#define GPUROTATE_HOST_DEVICE __host__ __device__
#else
#define GPUROTATE_HOST_DEVICE
#endif

namespace gpurotate {

/// The 8 elements of D4, named as ImageMagick names the operations.
enum class Orientation : std::uint8_t {
    identity,    ///< no change
    rot90,       ///< 90 degrees clockwise (`-rotate 90`)
    rot180,      ///< 180 degrees (`-rotate 180`)
    rot270,      ///< 90 degrees counter-clockwise (`-rotate 270`)
    flip_h,      ///< mirror left-right (`-flop`)
    flip_v,      ///< mirror top-bottom (`-flip`)
    transpose,   ///< mirror across the main diagonal: out(x, y) = in(y, x) (`-transpose`)
    transverse,  ///< mirror across the anti-diagonal (`-transverse`)
};

/// All elements, in declaration order.
inline constexpr Orientation all_orientations[] = {
    Orientation::identity, Orientation::rot90,  Orientation::rot180,    Orientation::rot270,
    Orientation::flip_h,   Orientation::flip_v, Orientation::transpose, Orientation::transverse,
};

/// How an output coordinate maps to a source coordinate:
/// (u, v) = swap_axes ? (y_out, x_out) : (x_out, y_out); x_src = mirror_x ? W-1-u : u; y_src = mirror_y ? H-1-v : v.
struct AxisMap {
    bool swap_axes;
    bool mirror_x;
    bool mirror_y;
};

/// The axis map of an element.
GPUROTATE_HOST_DEVICE constexpr AxisMap axis_map(Orientation o) {
    switch (o) {
        case Orientation::identity: return {false, false, false};
        case Orientation::rot90: return {true, false, true};
        case Orientation::rot180: return {false, true, true};
        case Orientation::rot270: return {true, true, false};
        case Orientation::flip_h: return {false, true, false};
        case Orientation::flip_v: return {false, false, true};
        case Orientation::transpose: return {true, false, false};
        case Orientation::transverse: return {true, true, true};
    }
    return {false, false, false};
}

/// The element with the given axis map (every one of the 8 maps is an element).
GPUROTATE_HOST_DEVICE constexpr Orientation from_axis_map(AxisMap m) {
    if (!m.swap_axes) {
        if (m.mirror_x) return m.mirror_y ? Orientation::rot180 : Orientation::flip_h;
        return m.mirror_y ? Orientation::flip_v : Orientation::identity;
    }
    if (m.mirror_x) return m.mirror_y ? Orientation::transverse : Orientation::rot270;
    return m.mirror_y ? Orientation::rot90 : Orientation::transpose;
}

namespace detail {
// An element as a signed permutation matrix acting on centred coordinates: source = M * output.
struct SignedPermutation {
    int m00, m01, m10, m11;
};

constexpr SignedPermutation to_matrix(AxisMap m) {
    const int sx = m.mirror_x ? -1 : 1;
    const int sy = m.mirror_y ? -1 : 1;
    return m.swap_axes ? SignedPermutation{0, sx, sy, 0} : SignedPermutation{sx, 0, 0, sy};
}

constexpr SignedPermutation multiply(SignedPermutation a, SignedPermutation b) {
    return {a.m00 * b.m00 + a.m01 * b.m10, a.m00 * b.m01 + a.m01 * b.m11,
            a.m10 * b.m00 + a.m11 * b.m10, a.m10 * b.m01 + a.m11 * b.m11};
}

constexpr AxisMap to_axis_map(SignedPermutation p) {
    const bool swap = p.m00 == 0;
    return {swap, (swap ? p.m01 : p.m00) < 0, (swap ? p.m10 : p.m11) < 0};
}
}  // namespace detail

/// The single element equal to applying `first`, then `second` to the image.
/// Source lookups nest the other way round: the source of the combined output pixel p is
/// first's source of (second's source of p), hence M_first * M_second.
GPUROTATE_HOST_DEVICE constexpr Orientation then(Orientation first, Orientation second) {
    return from_axis_map(detail::to_axis_map(
        detail::multiply(detail::to_matrix(axis_map(first)), detail::to_matrix(axis_map(second)))));
}

/// The element that undoes `o`.
GPUROTATE_HOST_DEVICE constexpr Orientation inverse(Orientation o) {
    for (int i = 0; i < 8; ++i) {  // not all_orientations: a host array, unusable in device code
        const auto candidate = static_cast<Orientation>(i);
        if (then(o, candidate) == Orientation::identity) return candidate;
    }
    return Orientation::identity;  // unreachable: every group element has an inverse
}

/// Whether the element exchanges width and height.
GPUROTATE_HOST_DEVICE constexpr bool swaps_axes(Orientation o) { return axis_map(o).swap_axes; }

/// Width and height of an image in pixels.
struct Extent {
    std::int64_t width;
    std::int64_t height;
    friend constexpr bool operator==(Extent a, Extent b) { return a.width == b.width && a.height == b.height; }
};

/// The size of the output of `o` applied to an image of size `input`.
GPUROTATE_HOST_DEVICE constexpr Extent output_extent(Orientation o, Extent input) {
    return swaps_axes(o) ? Extent{input.height, input.width} : input;
}

/// A source pixel coordinate.
struct SourcePoint {
    std::int64_t x;
    std::int64_t y;
};

/// Where output pixel (x_out, y_out) of `map` applied to a `source` image is copied from.
GPUROTATE_HOST_DEVICE constexpr SourcePoint source_of(AxisMap map, Extent source, std::int64_t x_out, std::int64_t y_out) {
    const std::int64_t u = map.swap_axes ? y_out : x_out;
    const std::int64_t v = map.swap_axes ? x_out : y_out;
    return {map.mirror_x ? source.width - 1 - u : u, map.mirror_y ? source.height - 1 - v : v};
}

/// The CLI / ImageMagick-style name of an element: "identity", "rot90", ..., "flip-h", "transverse".
std::string_view name(Orientation o);

/// The element named `text` (as `name` spells it), or nothing.
std::optional<Orientation> parse_orientation(std::string_view text);

}  // namespace gpurotate
