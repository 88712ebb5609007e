#pragma once
// The one place that decides how an input becomes an output: which route (the JPEG's coefficients moved
// losslessly, nvJPEG on the GPU, or pixels decoded, transformed and encoded), which element (with
// --auto-orient's upright step composed in), what metadata is written, how it is encoded, and what the user
// is warned of. The single-image command and augment both ask it and neither decides a route itself; they
// only run the route and fall back where a codec declines at run time, with the reasons given here.

#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"
#include "convert/conversion_options.hpp"
#include "convert/notice.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpurotate::convert {

enum class Route {
    lossless_jpeg,  ///< JPEG to JPEG in the compressed domain (jpeg_lossless.hpp); pixels where it is not perfect
    gpu_jpeg,       ///< JPEG to JPEG decoded (or uploaded) and encoded by nvJPEG; pixels where nvJPEG declines
    pixels,         ///< decode, transform on the backend, encode
};

const char* to_string(Route route);

/// What runs the plan, as far as the route depends on it.
struct Executor {
    Backend backend = Backend::cpu;     ///< resolved: cpu or cuda
    bool gpu_codes_jpeg_scans = false;  ///< a lossless JPEG's scans can be entropy-coded on the GPU (augment's coders)
};

/// Something the user is told before the work: once per file by the single-image command, once per run
/// by augment (which names the first file "and perhaps others").
struct PlanWarning {
    /// One of the planner's kinds of the run's one set (notice.hpp): animation, orientation_kept,
    /// orientation_not_holdable, option_unused, trailing_bytes, thumbnail_left_out.
    using Kind = Notice;
    Kind kind;
    std::string text;  ///< follows the quoted file name: "has EXIF orientation 6, which BMP cannot hold: ..."
};

struct ConversionPlan {
    Route route = Route::pixels;
    Orientation element = Orientation::identity;  ///< the requested element after the upright step
    /// Why a JPEG from a JPEG gets new pixels, said once it is written; empty where it keeps its coefficients
    /// or either side is not a JPEG. A lossless route that falls back gets its reason from why_not_lossless.
    std::string why_reencoded;
    ImageMetadata metadata;         ///< what the output carries
    bool keep_stored_png = false;   ///< a PNG decodes to its stored samples (palette, bit depth) for a PNG output
    bool quality_from_input = false;  ///< a JPEG's quality read from its quantization tables (not --quality)
    std::vector<PlanWarning> warnings;
    /// --rotate by an angle that is not a multiple of 90: the pixels of `element`'s result rotated (and then
    /// turned by its `after`); the output's size is rotated_extent's.
    std::optional<AnyAngle> rotation;

    /// Quality, chroma subsampling, WebP lossless and PNG level for an encode from pixels (its metadata
    /// pointer unset: write_options() points it at `metadata`).
    WriteOptions encoding;

    /// `encoding` with `metadata`, for an encode from pixels; valid while the plan lives.
    WriteOptions write_options() const {
        WriteOptions options = encoding;
        options.metadata = &metadata;
        return options;
    }
};

/// Plans `source` to `sink` under the requested `element` (the operations composed). Reads only what the
/// source's header and metadata hold: nothing is decoded.
ConversionPlan plan_conversion(const detail::ImageSource& source, const detail::ImageSink& sink, Orientation element,
                               const ConversionOptions& options, const Executor& executor);

/// Why a lossless JPEG transform that came back imperfect (`report`) is re-encoded instead, under `edge`
/// (reencode, or trim of an image under one MCU across its mirrored side).
std::string why_not_lossless(const detail::LosslessJpegReport& report, Orientation element, detail::JpegEdge edge);

/// Why nvJPEG's route re-encodes.
inline constexpr const char* nvjpeg_reencodes = "--nvjpeg was given (nvJPEG decodes and encodes)";

}  // namespace gpurotate::convert
