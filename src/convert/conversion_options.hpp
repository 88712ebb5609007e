#pragma once
// How an image is converted, whoever asks: the single-image command, augment, or a library caller. One
// struct, so that a rule about quality, metadata or JPEG edges is read from one place (conversion_plan.hpp).

#include "jpeg/jpeg_lossless.hpp"
#include "jpeg/nvjpeg_codec.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/rotate.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gpurotate::convert {

/// `--rotate DEG` by an angle that is not a multiple of 90 (a multiple is a D4 element): after the element of
/// the flags given before it, then the element of those given after it (docs/cli.md, "Any angle").
struct AnyAngle {
    double degrees = 0;  ///< clockwise
    Interpolation interpolation = Interpolation::bilinear;
    bool keep_size = false;
    Orientation after = Orientation::identity;
};

struct ConversionOptions {
    int quality = 95;            ///< JPEG/WebP quality where an output is encoded from pixels
    bool quality_given = false;  ///< --quality: a JPEG from a JPEG is re-encoded at it, not transformed losslessly
    detail::JpegEdge jpeg_edge = detail::JpegEdge::reencode;  ///< a JPEG whose lossless transform is not perfect
    bool jpeg_edge_given = false;  ///< --jpeg-edge: -i's default (keep) does not apply
    int png_level = WriteOptions{}.png_level;
    /// --tiff-compression: a TIFF output's compression; nothing: a TIFF input's kept (LZW from other formats)
    std::optional<TiffCompression> tiff_compression;
    std::int64_t max_pixels = default_max_pixels;  ///< inputs declaring more are refused unread; 0: no limit
    int max_jpeg_scans = default_max_jpeg_scans;   ///< JPEGs with more scans are refused unread; 0: no limit
    bool auto_orient = false;  ///< the EXIF orientation's element first, the tag written as 1
    bool strip = false;        ///< no metadata in the output beyond what the pixels need
    bool nvjpeg = false;       ///< JPEG to JPEG decoded (or uploaded) and encoded on the GPU by nvJPEG
    detail::NvjpegDecode nvjpeg_decode = detail::NvjpegDecode::cpu;  ///< with nvjpeg: who decodes
    std::string background;    ///< --background: alpha composed over it where the output cannot hold alpha
    bool flatten = false;      ///< --flatten: alpha composed over the background (white unless given) always
    int depth = 0;             ///< --depth 8: samples written as 8 bits; 0: as the input has them
    std::optional<AnyAngle> rotation;  ///< --rotate by an angle that is not a multiple of 90
    /// The samples are labels, not colours (augment --masks): a PNG keeps its stored samples (palette indices)
    /// under a nearest rotation too, and the uncovered corners take sample 0.
    bool samples_are_labels = false;

    /// The limits a decode of the input is held to.
    ReadOptions read_options() const { return ReadOptions{HostMemory::pageable, max_pixels, false, max_jpeg_scans}; }
};

}  // namespace gpurotate::convert
