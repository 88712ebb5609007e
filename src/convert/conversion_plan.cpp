#include "convert/conversion_plan.hpp"

#include "jpeg/jpeg_character.hpp"
#include "jpeg/turbojpeg_codec.hpp"
#include "formats/tiff_coding.hpp"
#include "metadata/metadata.hpp"

#include "core/text.hpp"

namespace gpurotate::convert {
namespace {

// A TIFF written from a TIFF keeps its coding: compression, predictor, planes and rows per strip
// (tiff_coding.hpp); --tiff-compression replaces the compression. From another format: LZW, as TiffCoding's
// default.
TiffCoding tiff_coding_for(const detail::ImageSource& source, const ConversionOptions& options) {
    TiffCoding coding = detail::tiff_coding_of(source.bytes()).value_or(TiffCoding{});
    if (options.tiff_compression) coding.compression = *options.tiff_compression;
    return coding;
}

std::vector<PlanWarning> warnings_for(const detail::ImageSource& source, const detail::ImageSink& sink, Orientation requested,
                                      const ConversionOptions& options) {
    std::vector<PlanWarning> warnings;
    if (const int frames = source.frame_count(); frames > 1) {
        warnings.push_back({PlanWarning::Kind::animation, "is an animation of " + std::to_string(frames) + " frames: only the first is written"});
    }
    if (const std::size_t after = source.bytes_after_image(); after > 0) {
        warnings.push_back({PlanWarning::Kind::trailing_bytes, "has " + std::to_string(after) +
                                                                   " bytes after the end of its image, which no output carries (a trailer, such as a "
                                                                   "motion photo's video)"});
    }
    const bool tiff = sink.row().format == detail::FileFormat::tiff;
    const bool takes_quality = sink.row().takes_quality || (tiff && tiff_coding_for(source, options).compression == TiffCompression::jpeg);
    if (options.quality_given && !takes_quality) {
        warnings.push_back({PlanWarning::Kind::option_unused, "goes to " + std::string(sink.format_name()) +
                                                                  ", which has no quality setting: --quality does nothing here (it is for JPEG, WebP "
                                                                  "and JPEG-compressed TIFF)"});
    }
    if (options.tiff_compression && !tiff) {
        warnings.push_back({PlanWarning::Kind::option_unused, "goes to " + std::string(sink.format_name()) +
                                                                  ": --tiff-compression does nothing here (it is for TIFF outputs)"});
    }
    // With --auto-orient the tag is applied and written as 1; with --strip it is not written at all.
    const int tag = source.orientation_tag();
    if (options.auto_orient || options.strip || tag <= 1) return warnings;
    const std::string has = "has EXIF orientation " + std::to_string(tag);
    if (!sink.holds_orientation()) {
        warnings.push_back({PlanWarning::Kind::orientation_not_holdable,
                            has + ", which " + sink.format_name() +
                                " cannot hold: the output shows the stored pixels, not the input as displayed (--auto-orient makes it upright first)"});
    } else if (requested != Orientation::identity) {
        warnings.push_back({PlanWarning::Kind::orientation_kept,
                            has + ", kept in the output: viewers will turn the rotated pixels again (--auto-orient makes it upright first)"});
    }
    return warnings;
}

/// Whether a JPEG from a JPEG keeps its coefficients (true) or why it gets new pixels, with the route.
Route jpeg_route(const ConversionOptions& options, const Executor& executor, std::string& why_reencoded) {
    // --nvjpeg asks for nvJPEG's encoding (at --quality where given), --quality for an encoding; the others
    // are what cannot run the lossless route.
    if (options.nvjpeg) {
        why_reencoded = options.quality_given ? "--quality was given" : nvjpeg_reencodes;
        return Route::gpu_jpeg;
    }
    if (options.quality_given) {
        why_reencoded = "--quality was given";
        return Route::pixels;
    }
    if (executor.backend == Backend::cuda && !executor.gpu_codes_jpeg_scans) {
        why_reencoded = "--device cuda was given (the GPU moves pixels; --device auto keeps the JPEG lossless)";
        return Route::pixels;
    }
    if (!detail::turbojpeg_available()) {
        why_reencoded = "this build has no libjpeg-turbo, whose transcoding API the lossless transform needs";
        return Route::pixels;
    }
    return Route::lossless_jpeg;
}

}  // namespace

const char* to_string(Route route) {
    switch (route) {
        case Route::lossless_jpeg: return "lossless JPEG";
        case Route::gpu_jpeg: return "nvJPEG";
        case Route::pixels: return "pixels";
    }
    return "?";
}

ConversionPlan plan_conversion(const detail::ImageSource& source, const detail::ImageSink& sink, Orientation requested,
                               const ConversionOptions& options, const Executor& executor) {
    ConversionPlan plan;
    plan.element = options.auto_orient ? then(orientation_from_exif(source.orientation_tag()), requested) : requested;
    // A rotation by any angle turns the pixels as an element does: a kept orientation tag turns them again.
    plan.warnings = warnings_for(source, sink, options.rotation ? then(requested, Orientation::rot90) : requested, options);
    std::string thumbnail_left_out;
    plan.metadata = source.metadata_for(plan.element, options.strip, options.auto_orient, &thumbnail_left_out);
    if (!thumbnail_left_out.empty() && sink.holds_exif()) {
        plan.warnings.push_back({PlanWarning::Kind::thumbnail_left_out, "has an EXIF thumbnail that cannot be turned with the image (" + thumbnail_left_out +
                                                                            "): not written, so that viewers make one from the image"});
    }
    const bool jpeg_to_jpeg = sink.is_jpeg() && source.is_jpeg();
    if (jpeg_to_jpeg) plan.route = jpeg_route(options, executor, plan.why_reencoded);
    if (options.rotation) {
        // An angle that is not a multiple of 90 makes new pixels, interpolated: no route keeps a JPEG's coefficients.
        plan.route = Route::pixels;
        plan.rotation = options.rotation;
        if (jpeg_to_jpeg) {
            plan.why_reencoded = "it is rotated by " + detail::number_text(options.rotation->degrees) +
                                 " degrees, not a multiple of 90 (its pixels are interpolated)";
        }
        if (options.rotation->after != Orientation::identity) {
            plan.metadata = source.metadata_for(then(plan.element, options.rotation->after), options.strip, options.auto_orient, &thumbnail_left_out);
        }
        // A thumbnail cannot follow an interpolated angle: left out, so that viewers make one from the image.
        const std::string dropped = detail::leave_out_exif_thumbnail(plan.metadata.exif, "it cannot be turned by an angle that is not a multiple of 90");
        if (!dropped.empty() && sink.holds_exif()) {
            plan.warnings.push_back({PlanWarning::Kind::thumbnail_left_out, "has an EXIF thumbnail that cannot be turned with the image (" + dropped +
                                                                                "): not written, so that viewers make one from the image"});
        }
    }
    // A PNG written from a PNG keeps the input's stored format: palette indices, 1/2/4-bit and 16-bit samples.
    // (Not where the pixels are to be flattened or cut to 8 bits: output_fit.hpp works on decoded samples.)
    plan.keep_stored_png = sink.is_png() && source.is_png() && !options.flatten && options.background.empty() && options.depth == 0 &&
                           (!options.rotation ||  // interpolated samples are colours, not palette indices
                            (options.samples_are_labels && options.rotation->interpolation == Interpolation::nearest));

    plan.encoding.quality = options.quality;
    plan.encoding.png_level = options.png_level;
    plan.encoding.tiff = tiff_coding_for(source, options);
    // A lossless WebP stays lossless unless a quality is asked for.
    plan.encoding.lossless = sink.row().keeps_lossless_coding && source.is_lossless_webp() && !options.quality_given;
    // A JPEG re-encoded from a JPEG keeps the input's character: its quality (unless --quality is given) and
    // its chroma subsampling (4:2:2 and 4:4:0 trading places where the axes swap).
    if (jpeg_to_jpeg) {
        if (const auto character = source.jpeg_character()) {
            if (!options.quality_given) plan.encoding.quality = character->quality;
            plan.quality_from_input = !options.quality_given;
            const Orientation turned = options.rotation ? then(plan.element, options.rotation->after) : plan.element;
            plan.encoding.chroma = detail::chroma_after(character->chroma, swaps_axes(turned));
        }
    }
    return plan;
}

std::string why_not_lossless(const detail::LosslessJpegReport& report, Orientation element, detail::JpegEdge edge) {
    // With trim, only an image under one MCU across its mirrored side gets here: trimming would leave nothing.
    return std::string(name(element)) + " of " + std::to_string(report.width) + "x" + std::to_string(report.height) + " with " +
           std::to_string(report.mcu_width) + "x" + std::to_string(report.mcu_height) + " MCUs would move a partial edge block" +
           (edge == detail::JpegEdge::trim ? " (and is under one MCU across, so trimming would leave nothing)"
                                           : " (--jpeg-edge trim keeps it lossless by dropping it, keep by leaving it in place)");
}

}  // namespace gpurotate::convert
