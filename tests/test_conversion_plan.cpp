// The routing rules, asked of the planner directly (convert/conversion_plan.hpp): the single-image command
// and augment only run what it returns, so these cases hold for both.

#include "convert/conversion_plan.hpp"

#include "jpeg/turbojpeg_codec.hpp"
#include "exif_support.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

namespace {

using gpurotate::Orientation;
using gpurotate::convert::ConversionOptions;
using gpurotate::convert::ConversionPlan;
using gpurotate::convert::Executor;
using gpurotate::convert::PlanWarning;
using gpurotate::convert::Route;

// A file made for the case: `name`'s extension picks the format; `tag` > 0 writes an EXIF orientation.
std::string make_file(const test_support::TempDir& dir, const std::string& name, int tag = 0, int quality = 95,
                      gpurotate::PixelFormat format = {gpurotate::SampleType::u8, 3}) {
    const auto image = test_support::random_image(40, 24, format, 7);
    gpurotate::ImageMetadata meta;
    if (tag > 0) meta.exif = test_support::exif_with(tag, 40, 24);
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    options.quality = quality;
    const std::string path = dir.file(name);
    gpurotate::write_image(path, image.view(), options);
    return path;
}

ConversionPlan plan(const std::string& in, const std::string& out, Orientation element, const ConversionOptions& options = {},
                    Executor executor = {}) {
    const gpurotate::detail::ImageSource source(in);
    const gpurotate::detail::ImageSink sink(out, true, false);
    return gpurotate::convert::plan_conversion(source, sink, element, options, executor);
}

bool has_warning(const ConversionPlan& p, PlanWarning::Kind kind) {
    for (const auto& w : p.warnings) {
        if (w.kind == kind) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("plan: a JPEG to a JPEG keeps its coefficients unless something asks for new pixels") {
    if (!gpurotate::detail::turbojpeg_available()) {
        MESSAGE("SKIPPED: this build has no libjpeg-turbo");
        return;
    }
    test_support::TempDir dir;
    const std::string jpg = make_file(dir, "in.jpg", 0, 80);
    const std::string out = dir.file("out.jpg");

    const ConversionPlan lossless = plan(jpg, out, Orientation::rot90);
    CHECK(lossless.route == Route::lossless_jpeg);
    CHECK(lossless.why_reencoded.empty());
    CHECK(lossless.element == Orientation::rot90);

    ConversionOptions quality;
    quality.quality = 70;
    quality.quality_given = true;
    const ConversionPlan requality = plan(jpg, out, Orientation::rot90, quality);
    CHECK(requality.route == Route::pixels);
    CHECK(requality.why_reencoded == "--quality was given");
    CHECK(requality.encoding.quality == 70);
    CHECK_FALSE(requality.quality_from_input);

    ConversionOptions nvjpeg;
    nvjpeg.nvjpeg = true;
    const ConversionPlan gpu = plan(jpg, out, Orientation::rot90, nvjpeg, Executor{gpurotate::Backend::cuda, false});
    CHECK(gpu.route == Route::gpu_jpeg);
    CHECK(gpu.why_reencoded == gpurotate::convert::nvjpeg_reencodes);
    // nvJPEG encodes at --quality where both are given.
    ConversionOptions nvjpeg_quality = nvjpeg;
    nvjpeg_quality.quality = 70;
    nvjpeg_quality.quality_given = true;
    const ConversionPlan gpu_quality = plan(jpg, out, Orientation::rot90, nvjpeg_quality, Executor{gpurotate::Backend::cuda, false});
    CHECK(gpu_quality.route == Route::gpu_jpeg);
    CHECK(gpu_quality.encoding.quality == 70);

    // The single-image command's GPU moves pixels; augment's codes the lossless scans on the GPU.
    const ConversionPlan cli_cuda = plan(jpg, out, Orientation::rot90, {}, Executor{gpurotate::Backend::cuda, false});
    CHECK(cli_cuda.route == Route::pixels);
    CHECK(cli_cuda.why_reencoded.find("--device cuda") != std::string::npos);
    CHECK(plan(jpg, out, Orientation::rot90, {}, Executor{gpurotate::Backend::cuda, true}).route == Route::lossless_jpeg);
}

TEST_CASE("plan: a JPEG re-encoded from a JPEG keeps its quality and its subsampling, turned with the axes") {
    test_support::TempDir dir;
    const std::string jpg = make_file(dir, "in.jpg", 0, 80);
    ConversionOptions options;
    options.jpeg_edge = gpurotate::detail::JpegEdge::reencode;
    const ConversionPlan p = plan(jpg, dir.file("out.jpg"), Orientation::transpose, options, Executor{gpurotate::Backend::cuda, false});
    REQUIRE(p.route == Route::pixels);
    CHECK(p.quality_from_input);
    CHECK(p.encoding.quality == 80);
    // The write options carry the plan's metadata for the encode.
    CHECK(p.write_options().metadata == &p.metadata);
    // Another format from a JPEG: the pixels' route, quality as asked, no JPEG reasons.
    const ConversionPlan png = plan(jpg, dir.file("out.png"), Orientation::transpose);
    CHECK(png.route == Route::pixels);
    CHECK(png.why_reencoded.empty());
    CHECK_FALSE(png.quality_from_input);
    CHECK(png.encoding.quality == 95);
}

TEST_CASE("plan: --auto-orient composes the EXIF orientation's element first, and the warnings say what stays") {
    test_support::TempDir dir;
    const std::string png = make_file(dir, "in.png", 6);
    ConversionOptions upright;
    upright.auto_orient = true;
    const ConversionPlan oriented = plan(png, dir.file("out.png"), Orientation::flip_h, upright);
    CHECK(oriented.element == gpurotate::then(Orientation::rot90, Orientation::flip_h));
    CHECK(oriented.warnings.empty());

    // Without it, an output that holds the tag keeps it (viewers turn the rotated pixels again) ...
    const ConversionPlan kept = plan(png, dir.file("out2.png"), Orientation::rot90);
    CHECK(kept.element == Orientation::rot90);
    CHECK(has_warning(kept, PlanWarning::Kind::orientation_kept));
    // ... identity turns nothing, so nothing is said ...
    CHECK(plan(png, dir.file("out3.png"), Orientation::identity).warnings.empty());
    // ... a format without EXIF cannot hold it ...
    const ConversionPlan bmp = plan(png, dir.file("out.bmp"), Orientation::identity);
    REQUIRE(has_warning(bmp, PlanWarning::Kind::orientation_not_holdable));
    CHECK(bmp.warnings.front().text.find("which BMP cannot hold") != std::string::npos);
    // ... and --strip writes no tag at all.
    ConversionOptions strip;
    strip.strip = true;
    CHECK(plan(png, dir.file("out4.bmp"), Orientation::rot90, strip).warnings.empty());
}

TEST_CASE("plan: a PNG to a PNG keeps its stored format, other pairs decode to what every format takes") {
    test_support::TempDir dir;
    const std::string png = make_file(dir, "in.png");
    CHECK(plan(png, dir.file("out.png"), Orientation::rot180).keep_stored_png);
    CHECK_FALSE(plan(png, dir.file("out.bmp"), Orientation::rot180).keep_stored_png);
    const std::string bmp = make_file(dir, "in.bmp");
    CHECK_FALSE(plan(bmp, dir.file("out2.png"), Orientation::rot180).keep_stored_png);
    CHECK(plan(bmp, dir.file("out3.png"), Orientation::rot180).route == Route::pixels);
}

TEST_CASE("plan: why an imperfect lossless transform is re-encoded names the element, the sides and the MCU") {
    gpurotate::detail::LosslessJpegReport report;
    report.width = 69, report.height = 51, report.mcu_width = 16, report.mcu_height = 16;
    CHECK(gpurotate::convert::why_not_lossless(report, Orientation::rot90, gpurotate::detail::JpegEdge::reencode) ==
          "rot90 of 69x51 with 16x16 MCUs would move a partial edge block (--jpeg-edge trim keeps it lossless by dropping it, keep by leaving it in place)");
    CHECK(gpurotate::convert::why_not_lossless(report, Orientation::rot90, gpurotate::detail::JpegEdge::trim).find("trimming would leave nothing") !=
          std::string::npos);
}
