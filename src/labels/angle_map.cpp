#include "labels/angle_map.hpp"

#include "core/text.hpp"

#include <gpurotate/rotate.hpp>

#include <cmath>

namespace gpurotate::labels {

AngleMap::AngleMap(ImageSize source, double degrees, bool keep_size) : source_(source), degrees_(degrees), keep_size_(keep_size) {
    RotateOptions options;
    options.degrees = degrees;
    options.keep_size = keep_size;
    const gpurotate::Extent out = rotated_extent(gpurotate::Extent{source.width, source.height}, options);
    output_ = {out.width, out.height};
    // The sine and cosine the pixels' matrix takes (getRotationMatrix2D of -degrees), so that a label and
    // the pixels agree to the last bit of the angle.
    const double angle = -degrees * (M_PI / 180);
    cos_ = std::cos(angle);
    sin_ = -std::sin(angle);
}

Point AngleMap::map(Point p) const {
    const double u = p.x - static_cast<double>(source_.width) / 2;
    const double v = p.y - static_cast<double>(source_.height) / 2;
    return {cos_ * u - sin_ * v + static_cast<double>(output_.width) / 2, sin_ * u + cos_ * v + static_cast<double>(output_.height) / 2};
}

std::string rotated_number_text(double value) {
    const double rounded = std::round(value * 1e6) / 1e6;
    return detail::number_text(rounded == 0 ? 0.0 : rounded);
}

}  // namespace gpurotate::labels
