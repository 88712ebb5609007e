#pragma once
// One input file, read once: its bytes, what they are, the metadata that travels to its outputs, and the
// ways its pixels come out of it (decoded, in the stored format where a PNG output keeps it, or moved in the
// compressed domain where the format allows). The single-image command and `augment` both read as
// source -> transform -> sink (image_sink.hpp), as libvips's loaders and savers or OpenImageIO's
// ImageInput and ImageOutput do.

#include "jpeg/jpeg_character.hpp"
#include "jpeg/jpeg_lossless.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>
#include <gpurotate/orientation.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

class ImageSource {
public:
    /// Reads the file at `path` and its metadata (EXIF, ICC, a PNG's stored format and chunks). Throws Error
    /// (input) naming the file when it cannot be read; damaged metadata is dropped, never an error.
    /// Reads the file; a JPEG with more than `max_jpeg_scans` scans (0: no limit) or too many marker segments
    /// is refused here, before anything parses it (jpeg_work_limits.hpp). Throws Error (input).
    /// A file larger than `max_input_bytes` is refused unread.
    explicit ImageSource(std::string path, int max_jpeg_scans = default_max_jpeg_scans,
                         std::size_t max_input_bytes = std::numeric_limits<std::size_t>::max());
    /// The image in `bytes` (standard input's), named `name` in messages; the same checks.
    ImageSource(std::string name, std::vector<std::uint8_t> bytes, int max_jpeg_scans);

    const std::string& path() const { return path_; }
    const std::vector<std::uint8_t>& bytes() const { return bytes_; }
    bool is_jpeg() const;
    bool is_png() const { return metadata_.png_storage.has_value(); }
    /// Whether the file is a WebP coded losslessly (VP8L), which a WebP output keeps unless --quality is given.
    bool is_lossless_webp() const;
    const ImageMetadata& metadata() const { return metadata_; }
    /// How many bytes follow the end of a PNG's or JPEG's image in the file (a trailer no output carries); 0
    /// for other formats and where the end is not found (a truncated file, which its decoder reports).
    std::size_t bytes_after_image() const { return bytes_after_image_; }
    /// The EXIF Orientation tag (1-8), or 0 where there is none.
    int orientation_tag() const { return orientation_tag_; }

    /// The pixels, decoded by whichever codec takes the file. `stored_format`: a PNG's stored samples (palette
    /// indices, 1/2/4-bit values), for a PNG output that keeps them; otherwise samples every format holds.
    /// Throws Error (input) naming the file, for a damaged file or one over `max_pixels`.
    Image decode(std::int64_t max_pixels, bool stored_format) const;

    /// The metadata as it belongs on the output of `element`: all of it (EXIF dimensions and PNG pHYs
    /// swapped with the axes, the orientation tag 1 where `oriented` made the pixels upright), or with
    /// `strip` only what the pixels need (a PNG's palette and transparency). The EXIF thumbnail turns with the
    /// image; where it cannot, it is left out, and `thumbnail_left_out` (where not null) says why.
    ImageMetadata metadata_for(Orientation element, bool strip, bool oriented, std::string* thumbnail_left_out = nullptr) const;

    /// A JPEG's transforms in the compressed domain, all from one decode of its entropy-coded data
    /// (transform_jpeg_lossless_variants, its scans coded by `coder` where it takes them); empty where the
    /// format has none (not a JPEG, no libjpeg-turbo). Without a `coder`, a large image's scans are coded on
    /// `cpu_threads` threads (0: every core, 1: by libjpeg alone).
    std::vector<std::optional<std::vector<std::uint8_t>>> transform_losslessly(const std::vector<LosslessJpegVariant>& variants, JpegEdge edge,
                                                                               bool strip, std::int64_t max_pixels,
                                                                               std::vector<LosslessJpegReport>& reports,
                                                                               JpegScanCoder* coder = nullptr, unsigned cpu_threads = 1) const;

    /// A JPEG's quality and chroma subsampling, which its re-encodes keep; nothing for other formats.
    std::optional<JpegCharacter> jpeg_character() const;

    /// How many images the file holds: an animated GIF's frames, of which the first is decoded; 1 otherwise.
    int frame_count() const;

    /// The warning of what the decoder leaves behind of this file, given the format its pixels decoded to
    /// ("not kept: pages 2-3, its alpha channel, ICC profile"; metadata left out with `strip`); empty for
    /// PNG and JPEG, whose codecs keep their metadata, and where nothing is left behind.
    std::string decoder_losses(PixelFormat decoded, bool strip) const;

    /// A JPEG's marker segments that `metadata()` does not hold, which only the lossless path copies, in
    /// words ("extended XMP, APP13"); empty where there are none or for other formats. (Comments travel as
    /// ImageMetadata::jpeg_comments.)
    std::string other_jpeg_markers() const;

private:
    std::string path_;
    int max_jpeg_scans_;
    std::vector<std::uint8_t> bytes_;
    ImageMetadata metadata_;
    int orientation_tag_ = 0;
    std::size_t bytes_after_image_ = 0;
};

}  // namespace gpurotate::detail
