#pragma once
// A JPEG's D4 transform in the compressed domain: the DCT coefficient blocks move (transposed or negated,
// dct_blocks.hpp) without decoding, so the output holds exactly the input's
// pixels, rotated, at the input's quality and subsampling, with its markers (EXIF, ICC, XMP, comments).

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>
#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

class JpegScanCoder;

/// What to do where the transform is not perfect: an edge of partial MCUs (blocks of 8 or 16 pixels) would
/// have to move to the image's start, which the format cannot hold.
enum class JpegEdge {
    reencode,  ///< decode, transform the pixels, encode again (lossy, every pixel kept)
    trim,      ///< drop the partial edge blocks, as `jpegtran -trim` (lossless, up to 15 pixels fewer)
    error,     ///< refuse
    keep,      ///< turn the whole blocks and leave the partial edge blocks where they are, unturned, as jpegtran
               ///< without -trim and `exiftran -i` (lossless, every pixel kept; the edge strip is not turned)
};

/// How the lossless transform went.
struct LosslessJpegReport {
    std::int64_t width = 0, height = 0;          ///< the input's
    std::int64_t out_width = 0, out_height = 0;  ///< the output's (smaller than the input's sides where trimmed)
    int mcu_width = 0, mcu_height = 0;           ///< the input's MCU in pixels
    bool perfect = true;                         ///< no partial edge block had to move
    bool trimmed = false;
    bool edge_kept = false;                      ///< JpegEdge::keep left a partial edge strip in place, unturned
    bool coded_in_segments = false;              ///< its scan entropy-coded in segments on the cores, not by libjpeg
};

/// The error for `element` of the JPEG at `path` where it is not perfect and --jpeg-edge is error.
inline Error imperfect_transform_error(const std::string& path, Orientation element, const LosslessJpegReport& report) {
    return Error(ErrorCode::output, "'" + path + "' (" + std::to_string(report.width) + "x" + std::to_string(report.height) + ", " +
                                        std::to_string(report.mcu_width) + "x" + std::to_string(report.mcu_height) + " MCUs): " +
                                        std::string(name(element)) + " is not lossless, an edge of partial blocks would move (--jpeg-edge trim drops it, "
                                        "--jpeg-edge reencode re-encodes)");
}

/// Whether `element` of a `width` x `height` JPEG with `mcu_width` x `mcu_height` MCUs is perfect: the
/// edges that move to the start are whole MCUs (libjpeg's transupp rules).
bool jpeg_transform_is_perfect(Orientation element, std::int64_t width, std::int64_t height, int mcu_width, int mcu_height);

/// One output of a lossless transform: its element, and the metadata it carries (its EXIF with the
/// orientation tag and pixel dimensions as they belong on it).
struct LosslessJpegVariant {
    Orientation element = Orientation::identity;
    const ImageMetadata* metadata = nullptr;  ///< nullptr: the markers as they are
};

/// Transforms of one JPEG, all from one decode of its entropy-coded data (one jpeg_read_coefficients):
/// the single-image command's one, `augment`'s variants. One result per variant, in order: its bytes, or nothing where the transform is not
/// perfect and `edge` is not trim (reports[i].perfect says so; the caller re-encodes or refuses). Nothing
/// at all (an empty vector) without libjpeg-turbo or when `jpeg` is not a JPEG. Throws Error (input) naming
/// `path` for a damaged JPEG or one over `options.max_pixels`. With a `coder`, the scans it can code (baseline
/// Huffman coding) are coded by it, all variants at once, with the same bytes as libjpeg's. Without one, a
/// large image's scans are coded in segments on `cpu_threads` threads (0: every usable core; 1: libjpeg codes
/// them, as in augment, whose workers fill the cores), with the same bytes.
std::vector<std::optional<std::vector<std::uint8_t>>> transform_jpeg_lossless_variants(const std::vector<std::uint8_t>& jpeg, const std::string& path,
                                                                                       const std::vector<LosslessJpegVariant>& variants, JpegEdge edge,
                                                                                       bool strip, const ReadOptions& options,
                                                                                       std::vector<LosslessJpegReport>& reports,
                                                                                       JpegScanCoder* coder = nullptr, unsigned cpu_threads = 1);

/// `jpeg` (an EXIF thumbnail) turned by `element` as `jpegtran -trim` turns it, its markers kept, within
/// `max_pixels` and the default scan limit: metadata_after's JpegTurner (metadata/metadata.hpp). One result
/// (nothing where it is under one MCU across the side it mirrors); none without libjpeg-turbo. Throws Error
/// (input) where it does not decode or is over a limit.
std::vector<std::optional<std::vector<std::uint8_t>>> turn_jpeg_thumbnail(const std::vector<std::uint8_t>& jpeg, Orientation element,
                                                                          std::int64_t max_pixels);

}  // namespace gpurotate::detail
