#pragma once
// A JPEG's D4 transform in the compressed domain: libjpeg-turbo's tjTransform moves the DCT coefficient
// blocks (and transposes or negates them) without decoding, so the output holds exactly the input's
// pixels, rotated, at the input's quality and subsampling, with its markers (EXIF, ICC, XMP, comments).

#include <gpurotate/io.hpp>
#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// What to do where the transform is not perfect: an edge of partial MCUs (blocks of 8 or 16 pixels) would
/// have to move to the image's start, which the format cannot hold.
enum class JpegEdge {
    reencode,  ///< decode, transform the pixels, encode again (lossy, every pixel kept)
    trim,      ///< drop the partial edge blocks, as `jpegtran -trim` (lossless, up to 15 pixels fewer)
    error,     ///< refuse
};

/// How the lossless transform went.
struct LosslessJpegReport {
    std::int64_t width = 0, height = 0;          ///< the input's
    std::int64_t out_width = 0, out_height = 0;  ///< the output's (smaller than the input's sides where trimmed)
    int mcu_width = 0, mcu_height = 0;           ///< the input's MCU in pixels
    bool perfect = true;                         ///< no partial edge block had to move
    bool trimmed = false;
};

/// Whether `element` of a `width` x `height` JPEG with `mcu_width` x `mcu_height` MCUs is perfect: the
/// edges that move to the start are whole MCUs (libjpeg's transupp rules).
bool jpeg_transform_is_perfect(Orientation element, std::int64_t width, std::int64_t height, int mcu_width, int mcu_height);

/// The JPEG `jpeg` transformed by `element` in the compressed domain, its EXIF replaced by
/// `output_metadata.exif` where both have one (the orientation tag and pixel dimensions updated), every other
/// marker copied; no marker at all with `strip`. Nothing when the transform is not perfect and `edge` is
/// reencode, or without TurboJPEG. Throws Error (input) naming `path` for a damaged JPEG or one over
/// `options.max_pixels`, Error (output) when it is not perfect and `edge` is error.
std::optional<std::vector<std::uint8_t>> transform_jpeg_lossless(const std::vector<std::uint8_t>& jpeg, const std::string& path, Orientation element,
                                                                 JpegEdge edge, bool strip, const ImageMetadata& output_metadata,
                                                                 const ReadOptions& options, LosslessJpegReport& report);

}  // namespace gpurotate::detail
