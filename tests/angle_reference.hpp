#pragma once
// The label tests' reference for a rotation by any angle, written from docs/cli.md "Any angle" and not from
// the code under test: the pixel-edge point map about the image's centre (W/2, H/2) -> (W'/2, H'/2), the
// expanded canvas's size, the box clip, a point-in-polygon area estimate, and OpenCV 4.6's INTER_NEAREST
// warpAffine as a plain loop (fixed-point source coordinates, 10 fractional bits, half a pixel added).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace angle_reference {

/// The numbers of each non-empty line of a YOLO label text, read as the rows a trainer reads.
inline std::vector<std::vector<double>> rows_of(const std::string& text) {
    std::vector<std::vector<double>> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::vector<double> row;
        for (double v; words >> v;) row.push_back(v);
        if (!row.empty()) rows.push_back(row);
    }
    return rows;
}

struct P {
    double x, y;
};

struct Canvas {
    double degrees;
    std::int64_t w, h;   // the source's
    std::int64_t ow, oh; // the rotated image's
};

inline Canvas canvas(std::int64_t w, std::int64_t h, double degrees, bool keep_size) {
    const double t = degrees * 3.14159265358979323846 / 180;
    const double c = std::fabs(std::cos(t)), s = std::fabs(std::sin(t));
    if (keep_size) return {degrees, w, h, w, h};
    return {degrees, w, h, static_cast<std::int64_t>(std::ceil(w * c + h * s - 1e-6)), static_cast<std::int64_t>(std::ceil(w * s + h * c - 1e-6))};
}

/// Clockwise on screen (y down) about the centre, in pixel edges.
inline P rotate(const Canvas& k, P p) {
    const double t = k.degrees * 3.14159265358979323846 / 180;
    const double u = p.x - k.w / 2.0, v = p.y - k.h / 2.0;
    return {k.ow / 2.0 + u * std::cos(t) - v * std::sin(t), k.oh / 2.0 + u * std::sin(t) + v * std::cos(t)};
}

struct Box {
    double x0, y0, x1, y1;
};

inline Box rotated_box(const Canvas& k, Box b) {
    Box r{1e300, 1e300, -1e300, -1e300};
    for (const P c : {P{b.x0, b.y0}, P{b.x1, b.y0}, P{b.x1, b.y1}, P{b.x0, b.y1}}) {
        const P q = rotate(k, c);
        r = {std::min(r.x0, q.x), std::min(r.y0, q.y), std::max(r.x1, q.x), std::max(r.y1, q.y)};
    }
    return r;
}

inline Box clipped(const Canvas& k, Box b) {
    return {std::max(b.x0, 0.0), std::max(b.y0, 0.0), std::min(b.x1, static_cast<double>(k.ow)), std::min(b.y1, static_cast<double>(k.oh))};
}

inline bool inside_polygon(const std::vector<P>& poly, P p) {  // even-odd rule
    bool in = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        if ((poly[i].y > p.y) != (poly[j].y > p.y) && p.x < (poly[j].x - poly[i].x) * (p.y - poly[i].y) / (poly[j].y - poly[i].y) + poly[i].x) in = !in;
    }
    return in;
}

/// The area of `poly` on the canvas, sampled at `n` x `n` points per pixel.
inline double area_on_canvas(const Canvas& k, const std::vector<P>& poly, int n = 4) {
    double count = 0;
    for (std::int64_t y = 0; y < k.oh * n; ++y) {
        for (std::int64_t x = 0; x < k.ow * n; ++x) count += inside_polygon(poly, {(x + 0.5) / n, (y + 0.5) / n}) ? 1 : 0;
    }
    return count / (n * n);
}

/// warpAffine(src, getRotationMatrix2D(((W-1)/2, (H-1)/2), -degrees, 1) + the canvas's shift, INTER_NEAREST,
/// BORDER_CONSTANT 0) on a one-byte-per-pixel, row-major image.
inline std::vector<std::uint8_t> nearest(const Canvas& k, const std::vector<std::uint8_t>& src) {
    const double a = -k.degrees * 3.1415926535897932384626433832795 / 180;
    const double alpha = std::cos(a), beta = std::sin(a);
    const double cx = static_cast<float>(k.w - 1) * 0.5f, cy = static_cast<float>(k.h - 1) * 0.5f;
    double m[6] = {alpha, beta, (1 - alpha) * cx - beta * cy + (k.ow - k.w) / 2.0, -beta, alpha, beta * cx + (1 - alpha) * cy + (k.oh - k.h) / 2.0};
    // warpAffine's inverse.
    double d = m[0] * m[4] - m[1] * m[3];
    d = d != 0 ? 1. / d : 0;
    const double i0 = m[4] * d, i1 = -m[1] * d, i3 = -m[3] * d, i4 = m[0] * d;
    const double i2 = -i0 * m[2] - i1 * m[5], i5 = -i3 * m[2] - i4 * m[5];
    std::vector<std::uint8_t> out(static_cast<std::size_t>(k.ow * k.oh), 0);
    for (std::int64_t y = 0; y < k.oh; ++y) {
        const long x0 = std::lrint((i1 * y + i2) * 1024) + 512, y0 = std::lrint((i4 * y + i5) * 1024) + 512;
        for (std::int64_t x = 0; x < k.ow; ++x) {
            const long sx = (x0 + std::lrint(i0 * x * 1024)) >> 10, sy = (y0 + std::lrint(i3 * x * 1024)) >> 10;
            if (sx >= 0 && sy >= 0 && sx < k.w && sy < k.h) out[static_cast<std::size_t>(y * k.ow + x)] = src[static_cast<std::size_t>(sy * k.w + sx)];
        }
    }
    return out;
}

}  // namespace angle_reference
