#include "convert/rotation_step.hpp"
#include "convert/output_fit.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>

#include <cmath>

namespace gpurotate::convert {

std::optional<Orientation> quarter_turn(double degrees) {
    const double turns = degrees / 90.0;
    if (turns != std::floor(turns) || std::fabs(turns) > 1e15) return std::nullopt;
    const long long quarters = static_cast<long long>(std::fmod(turns, 4.0) + 4.0) % 4;
    constexpr Orientation by_quarters[] = {Orientation::identity, Orientation::rot90, Orientation::rot180, Orientation::rot270};
    return by_quarters[quarters];
}

void rotate_after(Orientation& element, ConversionOptions& options, double degrees, Interpolation interpolation, bool keep_size,
                  const std::string& what) {
    if (!std::isfinite(degrees)) {
        throw Error(ErrorCode::usage, what + " " + detail::number_text(degrees) + ": expected a finite number of degrees (clockwise), such as 90 or -7.5");
    }
    if (const auto quarter = quarter_turn(degrees)) {
        element = then(element, *quarter);
        options.rotation.reset();
        return;
    }
    options.rotation = AnyAngle{degrees, interpolation, keep_size, Orientation::identity};
}

std::array<double, 4> corner_fill(PixelFormat format, const std::string& background) {
    std::array<double, 4> fill{0, 0, 0, 0};
    if (background.empty()) return fill;
    const std::array<std::uint8_t, 3> rgb = parse_background(background);
    const double scale = format.sample == SampleType::u8 ? 1.0 : format.sample == SampleType::u16 ? 257.0 : 1.0 / 255.0;
    const bool grey = format.channels <= 2;
    const double luma = std::round(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]);
    const int colours = grey ? 1 : 3;
    for (int c = 0; c < colours; ++c) fill[static_cast<std::size_t>(c)] = (grey ? luma : rgb[static_cast<std::size_t>(c)]) * scale;
    if (format.channels == 2 || format.channels == 4) fill[static_cast<std::size_t>(format.channels - 1)] = 255.0 * scale;  // opaque
    return fill;
}

RotateOptions rotate_options_of(const AnyAngle& angle) {
    RotateOptions options;
    options.degrees = angle.degrees;
    options.interpolation = angle.interpolation;
    options.keep_size = angle.keep_size;
    return options;
}

Extent rotated_output_extent(Extent turned, const AnyAngle& angle) {
    return output_extent(angle.after, rotated_extent(turned, rotate_options_of(angle)));
}

Extent checked_rotated_extent(Extent turned, const AnyAngle& angle, std::int64_t max_pixels, const std::string& path) {
    if (turned.width >= max_rotation_side || turned.height >= max_rotation_side) {
        throw Error(ErrorCode::input, "'" + path + "' is " + std::to_string(turned.width) + "x" + std::to_string(turned.height) +
                                          ": --rotate by an angle that is not a multiple of 90 takes sides under " + std::to_string(max_rotation_side) +
                                          " pixels (OpenCV's limit, whose bytes it gives)");
    }
    const Extent extent = rotated_extent(turned, rotate_options_of(angle));
    if (max_pixels > 0 && extent.width > max_pixels / extent.height) {
        throw Error(ErrorCode::input, "'" + path + "' rotated would be " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
                                          ", over --max-pixels " + std::to_string(max_pixels) + " (--keep-size keeps its size)");
    }
    return extent;
}

Image rotate_pixels(ConstImageView turned, const AnyAngle& angle, const std::string& background, Backend backend, std::int64_t max_pixels,
                    const std::string& path, std::size_t gpu_memory) {
    RotateOptions options = rotate_options_of(angle);
    options.background = corner_fill(turned.format, background);
    const Extent extent = checked_rotated_extent(turned.extent(), angle, max_pixels, path);
    Image rotated(extent.width, extent.height, turned.format);
    rotate(turned, rotated.view(), options, backend);
    if (angle.after == Orientation::identity) return rotated;
    return transform(rotated, angle.after, TransformOptions{backend, CudaKernel::automatic, gpu_memory});
}

}  // namespace gpurotate::convert
