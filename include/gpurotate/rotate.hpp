#pragma once
/// \file rotate.hpp
/// Rotation by any angle, bit for bit as OpenCV 4.6's warpAffine computes it (docs/cli.md, "Any angle"):
/// pixel-centre coordinates, the rotation about ((W-1)/2, (H-1)/2), positive degrees clockwise; OpenCV's
/// fixed-point coordinates (1/32 pixel) and interpolation tables, so that the CPU and the GPU give the
/// same bytes for every sample type. A multiple of 90 degrees is a D4 element (transform.hpp), exact.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

struct CUstream_st;

namespace gpurotate {

enum class Interpolation : std::uint8_t {
    nearest,   ///< cv::INTER_NEAREST
    bilinear,  ///< cv::INTER_LINEAR
    bicubic,   ///< cv::INTER_CUBIC
};

/// All interpolations, in declaration order.
inline constexpr Interpolation all_interpolations[] = {Interpolation::nearest, Interpolation::bilinear, Interpolation::bicubic};

/// "nearest", "bilinear" or "bicubic": the one spelling of the CLI, the manifest, the bench and Python.
constexpr std::string_view name(Interpolation interpolation) {
    switch (interpolation) {
        case Interpolation::nearest: return "nearest";
        case Interpolation::bilinear: return "bilinear";
        case Interpolation::bicubic: return "bicubic";
    }
    return "?";
}

/// The interpolation `name` gives, if any.
constexpr std::optional<Interpolation> parse_interpolation(std::string_view text) {
    for (Interpolation i : all_interpolations) {
        if (name(i) == text) return i;
    }
    return std::nullopt;
}

struct RotateOptions {
    double degrees = 0;  ///< clockwise; any finite number
    Interpolation interpolation = Interpolation::bilinear;
    bool keep_size = false;  ///< the input's size, corners cut; else the canvas grows to hold the whole image
    /// The uncovered corners, one value per channel in the sample's own units (255 is white in 8 bits, 1.0 in
    /// float): cv::BORDER_CONSTANT's borderValue. Default 0: black, and transparent where there is alpha.
    std::array<double, 4> background{0, 0, 0, 0};
};

/// The longest side rotate() takes, exclusive: OpenCV's warpAffine holds source coordinates in 16 bits.
inline constexpr std::int64_t max_rotation_side = 32767;

/// The output's size: `source` with keep_size; else W' = ceil(W|cos| + H|sin| - 1e-6) and
/// H' = ceil(W|sin| + H|cos| - 1e-6). Throws Error (usage) for an angle that is not finite.
Extent rotated_extent(Extent source, const RotateOptions& options);

/// Rotates `src` into `dst` (of rotated_extent's size and src's format). Throws Error (usage) for mismatched
/// views or an angle that is not finite, (device) where the GPU fails.
void rotate(ConstImageView src, ImageView dst, const RotateOptions& options, Backend backend = Backend::automatic);
Image rotate(const Image& src, const RotateOptions& options, Backend backend = Backend::automatic);

/// The same on device buffers, enqueued on `stream`.
void rotate_device(ConstImageView src, ImageView dst, const RotateOptions& options, CUstream_st* stream);

/// One image of a grouped rotation: its source and destination in device memory (the destination of
/// rotated_extent's size for its options) and its own angle, interpolation, canvas and background.
struct GroupedRotation {
    ConstImageView src;
    ImageView dst;
    RotateOptions options;
};

/// Rotates every image of `images` (device memory; any sizes, one pixel format; each with its own options,
/// so a training batch can get a random angle per image) in one kernel launch per interpolation present,
/// enqueued on `stream`: a table of the images goes to the GPU and each block finds its image there. No
/// image's destination may overlap any image's source. Returns without synchronising. Throws Error (usage)
/// for bad arguments, as rotate_device does for each image.
void rotate_device_grouped(const std::vector<GroupedRotation>& images, CUstream_st* stream);

}  // namespace gpurotate
