#pragma once
// --rotate by an angle that is not a multiple of 90, as a step of the pixel route: the element's result
// rotated (OpenCV 4.6 warpAffine's bytes, gpurotate/rotate.hpp) and turned by the flags given after it.

#include "convert/conversion_options.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/rotate.hpp>
#include <gpurotate/transform.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace gpurotate::convert {

/// The D4 element of an angle that is a whole number of quarter turns (450 is rot90, -90 rot270): --rotate's
/// lossless case; none for another angle.
std::optional<Orientation> quarter_turn(double degrees);

/// `--rotate degrees [--interpolate I] [--keep-size]` given after the flags of `element`, as the CLI reads it:
/// a whole number of quarter turns joins `element` (lossless), another angle becomes `options.rotation`.
/// Throws Error (usage) naming `what` for an angle that is not finite, as the CLI refuses `--rotate nan`.
void rotate_after(Orientation& element, ConversionOptions& options, double degrees, Interpolation interpolation, bool keep_size,
                  const std::string& what);

/// The colour of the uncovered corners for pixels of `format`: 0 in every channel (black; transparent
/// where there is alpha), or --background's colour (`background`, as parse_background reads it) in the
/// sample's units, opaque; a grey image takes the colour's luma (Rec. 601, as ImageMagick's -colorspace gray).
std::array<double, 4> corner_fill(PixelFormat format, const std::string& background);

/// The library's options for `angle`: its degrees, interpolation and canvas (the corners black).
RotateOptions rotate_options_of(const AnyAngle& angle);

/// The output's size: rotated_extent of `turned`'s size, the axes swapped by `angle.after`.
Extent rotated_output_extent(Extent turned, const AnyAngle& angle);

/// The size `turned` (the element's result) takes when rotated by `angle` (before `angle.after`). Throws Error
/// (input) naming `path` where a side of `turned` is at OpenCV's limit or the output would be over `max_pixels`
/// (0: no limit): run_conversion asks it of the size a header declares, before decoding; rotate_pixels again.
Extent checked_rotated_extent(Extent turned, const AnyAngle& angle, std::int64_t max_pixels, const std::string& path);

/// `turned` rotated by `angle` on `backend`, then turned by `angle.after` (on the GPU within `gpu_memory`
/// bytes, 0: no limit, in bands where it needs more). Throws Error (input) naming `path` where the output would
/// be over `max_pixels` (0: no limit), before anything is allocated.
Image rotate_pixels(ConstImageView turned, const AnyAngle& angle, const std::string& background, Backend backend, std::int64_t max_pixels,
                    const std::string& path, std::size_t gpu_memory = 0);

}  // namespace gpurotate::convert
