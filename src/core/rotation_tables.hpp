#pragma once
// The host side of a rotation: OpenCV's interpolation weight tables (initInterTab2D), built once, and the plan
// of one call (getRotationMatrix2D, the expanded canvas's shift and warpAffine's inversion, all in double with
// the host's libm, so that the GPU never evaluates a sine of its own).

#include "core/rotation_sampling.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/rotate.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace gpurotate::detail {

/// OpenCV 4.6's BilinearTab_i/_f and BicubicTab_i/_f: for each of the 32x32 sub-pixel positions (row-major,
/// y then x) the 2x2 or 4x4 weights, float and as int16 summing to 2^15.
struct RotationTables {
    std::array<std::int16_t, rotation_tab_entries * 4> bilinear_fixed{};
    std::array<float, rotation_tab_entries * 4> bilinear_float{};
    std::array<std::int16_t, rotation_tab_entries * 16> bicubic_fixed{};
    std::array<float, rotation_tab_entries * 16> bicubic_float{};
};

/// The tables, built on first use (thread-safe).
const RotationTables& rotation_tables();

/// Where the table that `interpolation` on `sample` reads starts, in bytes from the start of RotationTables
/// (0 bytes for nearest, which reads none), and its size: a device copy of the whole struct serves all.
std::size_t rotation_weights_offset(Interpolation interpolation, SampleType sample);
std::size_t rotation_weights_bytes(Interpolation interpolation, SampleType sample);

/// The plan of rotating a `source`-sized image of `sample`s into `destination` (rotated_extent's answer) by
/// `options` (degrees already checked finite); its weights point into rotation_tables().
RotationPlan make_rotation_plan(Extent source, Extent destination, SampleType sample, const RotateOptions& options);

/// W|cos| + H|sin| and W|sin| + H|cos| rounded up, less 1e-6 (rotate.hpp's rotated_extent without the checks).
Extent expanded_extent(Extent source, double degrees);

}  // namespace gpurotate::detail
