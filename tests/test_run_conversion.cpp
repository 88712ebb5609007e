// The conversion both front ends run (convert/run_conversion.hpp), as tables: (source, options) -> route for
// the planner, and run_conversion with a codec made to decline, run once with each front end's parameters
// (the single-image command: one output, every core; augment: several outputs, one thread, variants a group
// at a time). The GPU's own parts report skipped without a device.

#include "convert/conversion_plan.hpp"
#include "convert/gpu_resources.hpp"
#include "convert/run_conversion.hpp"

#include "jpeg/turbojpeg_codec.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using gpurotate::Backend;
using gpurotate::Orientation;
using gpurotate::convert::ConversionOptions;
using gpurotate::convert::Executor;
using gpurotate::convert::Notice;
using gpurotate::convert::Route;

// A file of `width` x `height` random pixels in the format `name`'s extension names (JPEGs 4:2:0: 16x16 MCUs).
std::string make_file(const test_support::TempDir& dir, const std::string& name, std::int64_t width = 64, std::int64_t height = 48) {
    const auto image = test_support::random_image(width, height, {gpurotate::SampleType::u8, 3}, 11);
    gpurotate::WriteOptions options;
    options.quality = 90;
    options.chroma = gpurotate::ChromaSubsampling::s420;
    const std::string path = dir.file(name);
    gpurotate::write_image(path, image.view(), options);
    return path;
}

ConversionOptions with(void (*set)(ConversionOptions&)) {
    ConversionOptions options;
    if (set) set(options);
    return options;
}

// What a run told its observer.
struct Recorder final : gpurotate::convert::ConversionObserver {
    std::vector<std::pair<Notice, std::string>> notices;
    std::vector<std::size_t> made, failed;
    std::vector<gpurotate::convert::OutputReport> reports;
    std::vector<std::string> failures;
    int inputs_failed = 0, trips = 0;
    Route route = Route::pixels;

    void notice(const std::string&, Notice kind, const std::string& text) override { notices.push_back({kind, text}); }
    void written(std::size_t output, const gpurotate::convert::OutputReport& report) override {
        made.push_back(output);
        reports.push_back(report);
    }
    void output_failed(std::size_t output, const gpurotate::convert::OutputReport&, const gpurotate::Error& error) override {
        failed.push_back(output);
        failures.push_back(error.what());
    }
    void input_failed(const gpurotate::Error& error, gpurotate::convert::Step) override {
        ++inputs_failed;
        failures.push_back(error.what());
    }
    void finished(const gpurotate::convert::TripReport& trip) override {
        ++trips;
        route = trip.route;
    }
    std::string said(Notice kind) const {
        for (const auto& [k, text] : notices) {
            if (k == kind) return text;
        }
        return {};
    }
};

// A front end's parameters: how many outputs of the source it asks for, and how the trip runs.
struct FrontEnd {
    const char* name;
    std::vector<Orientation> elements;  ///< one per output
    unsigned cpu_threads;               ///< 0: every core (one image); 1: augment's workers fill the cores
    std::size_t host_memory;            ///< small for augment: the variants are made a group at a time
};

const FrontEnd front_ends[] = {
    {"single image", {Orientation::rot90}, 0, std::size_t(-1)},
    // Three outputs, two of one element (--random N with replacement draws an element again).
    {"augment", {Orientation::rot90, Orientation::flip_h, Orientation::rot90}, 1, 1},
};

struct Outcome {
    Recorder recorder;
    std::vector<std::string> paths;
};

Outcome run(const FrontEnd& front, const std::string& input, const std::string& ext, const ConversionOptions& options,
            const gpurotate::convert::GpuJpegCodec& codec, const test_support::TempDir& dir) {
    const gpurotate::detail::ImageSource source(input);
    std::vector<gpurotate::convert::ConversionOutput> outputs;
    Outcome outcome;
    for (std::size_t i = 0; i < front.elements.size(); ++i) {
        outcome.paths.push_back(dir.file(std::string(front.name[0] == 's' ? "one" : "many") + std::to_string(i) + ext));
        const gpurotate::detail::ImageSink sink(outcome.paths.back(), true, false);
        outputs.push_back({sink, gpurotate::convert::plan_conversion(source, sink, front.elements[i], options, Executor{Backend::cpu, false})});
    }
    gpurotate::convert::StagingBuffer staging(false);
    gpurotate::convert::ConversionRun conversion;
    conversion.cpu_threads = front.cpu_threads;
    conversion.host_memory = front.host_memory;
    conversion.staging = &staging;
    conversion.gpu_jpeg = codec;
    gpurotate::convert::run_conversion(source, outputs, options, conversion, outcome.recorder);
    return outcome;
}

}  // namespace

TEST_CASE("run_conversion table: (source, options) -> route, as the planner decides it for both front ends") {
    if (!gpurotate::detail::turbojpeg_available()) {
        MESSAGE("SKIPPED: this build has no libjpeg-turbo");
        return;
    }
    test_support::TempDir dir;
    const std::string jpg = make_file(dir, "in.jpg"), png = make_file(dir, "in.png");
    struct Case {
        const char* what;
        std::string input, output;
        void (*set)(ConversionOptions&);
        Executor executor;
        Route route;
        std::string why_reencoded;
    };
    const Case cases[] = {
        {"JPEG to JPEG", jpg, "o.jpg", nullptr, {}, Route::lossless_jpeg, ""},
        {"--quality", jpg, "o.jpg", [](ConversionOptions& o) { o.quality_given = true; }, {}, Route::pixels, "--quality was given"},
        {"--nvjpeg", jpg, "o.jpg", [](ConversionOptions& o) { o.nvjpeg = true; }, {Backend::cuda, false}, Route::gpu_jpeg,
         gpurotate::convert::nvjpeg_reencodes},
        {"--nvjpeg --quality", jpg, "o.jpg", [](ConversionOptions& o) { o.nvjpeg = o.quality_given = true; }, {Backend::cuda, false}, Route::gpu_jpeg,
         "--quality was given"},
        {"single image --device cuda", jpg, "o.jpg", nullptr, {Backend::cuda, false}, Route::pixels,
         "--device cuda was given (the GPU moves pixels; --device auto keeps the JPEG lossless)"},
        {"augment --device cuda (scans coded on the GPU)", jpg, "o.jpg", nullptr, {Backend::cuda, true}, Route::lossless_jpeg, ""},
        {"JPEG to PNG", jpg, "o.png", nullptr, {}, Route::pixels, ""},
        {"PNG to JPEG", png, "o.jpg", nullptr, {}, Route::pixels, ""},
        {"PNG to PNG", png, "o.png", nullptr, {}, Route::pixels, ""},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        const gpurotate::detail::ImageSource source(c.input);
        const gpurotate::detail::ImageSink sink(dir.file(c.output), true, false);
        const auto plan = gpurotate::convert::plan_conversion(source, sink, Orientation::rot90, with(c.set), c.executor);
        CHECK(plan.route == c.route);
        CHECK(plan.why_reencoded == c.why_reencoded);
    }
}

TEST_CASE("run_conversion table: a codec that declines falls back, with its reason, for both front ends") {
    if (!gpurotate::detail::turbojpeg_available()) {
        MESSAGE("SKIPPED: this build has no libjpeg-turbo");
        return;
    }
    test_support::TempDir dir;
    const std::string whole = make_file(dir, "whole.jpg", 64, 48);
    const std::string partial = make_file(dir, "partial.jpg", 69, 51);  // 69x51 in 16x16 MCUs: a rotation moves a partial edge
    int calls = 0;
    const gpurotate::convert::GpuJpegCodec declines = [&](const auto&, const auto&, int, const gpurotate::Image*, auto&) {
        ++calls;
        return std::optional<std::vector<std::vector<std::uint8_t>>>{};
    };
    // A codec that takes every file: the source's own bytes, once per element (no GPU needed to see the route run).
    const gpurotate::convert::GpuJpegCodec takes = [&](const gpurotate::detail::ImageSource& source, const std::vector<Orientation>& elements, int,
                                                       const gpurotate::Image*, gpurotate::detail::GpuJpegReport& report) {
        ++calls;
        report.width = 48;
        report.height = 64;
        return std::optional<std::vector<std::vector<std::uint8_t>>>(std::vector<std::vector<std::uint8_t>>(elements.size(), source.bytes()));
    };
    struct Case {
        const char* what;
        std::string input;
        void (*set)(ConversionOptions&);
        const gpurotate::convert::GpuJpegCodec* codec;
        int codec_calls;           ///< per input
        Route route;               ///< of the trip
        bool written;              ///< every output written (else every output failed)
        const char* reencoded_why; ///< in the re-encoded note; nullptr: none
    };
    const Case cases[] = {
        {"lossless, whole blocks", whole, nullptr, nullptr, 0, Route::lossless_jpeg, true, nullptr},
        {"nvJPEG declines its decode and libjpeg-turbo's pixels -> pixels", whole,
         [](ConversionOptions& o) { o.nvjpeg = true, o.nvjpeg_decode = gpurotate::detail::NvjpegDecode::gpu; }, &declines, 2, Route::pixels, true,
         gpurotate::convert::nvjpeg_reencodes},
        {"nvJPEG declines libjpeg-turbo's pixels -> pixels", whole, [](ConversionOptions& o) { o.nvjpeg = true; }, &declines, 1, Route::pixels, true,
         gpurotate::convert::nvjpeg_reencodes},
        {"nvJPEG takes it", whole, [](ConversionOptions& o) { o.nvjpeg = true, o.nvjpeg_decode = gpurotate::detail::NvjpegDecode::gpu; }, &takes, 1,
         Route::gpu_jpeg, true, gpurotate::convert::nvjpeg_reencodes},
        {"an edge forbids the lossless turn, --jpeg-edge reencode -> pixels", partial, nullptr, nullptr, 0, Route::pixels, true,
         "rot90 of 69x51 with 16x16 MCUs would move a partial edge block"},
        {"an edge forbids the lossless turn, --jpeg-edge error -> refused", partial, [](ConversionOptions& o) { o.jpeg_edge = gpurotate::detail::JpegEdge::error; },
         nullptr, 0, Route::lossless_jpeg, false, nullptr},
    };
    for (const FrontEnd& front : front_ends) {
        for (const Case& c : cases) {
            CAPTURE(front.name);
            CAPTURE(c.what);
            calls = 0;
            const ConversionOptions options = with(c.set);
            const Outcome out = run(front, c.input, ".jpg", options, c.codec ? *c.codec : gpurotate::convert::GpuJpegCodec{}, dir);
            const Recorder& r = out.recorder;
            CHECK(calls == c.codec_calls);
            CHECK(r.inputs_failed == 0);
            CHECK(r.trips == 1);
            CHECK(r.route == c.route);
            const std::size_t n = front.elements.size();
            CHECK(r.made.size() == (c.written ? n : 0));
            CHECK(r.failed.size() == (c.written ? 0 : n));
            for (const std::string& failure : r.failures) CHECK(failure.find("is not lossless") != std::string::npos);
            const std::string why = r.said(Notice::reencoded);
            if (c.reencoded_why) {
                CHECK(why.find(c.reencoded_why) != std::string::npos);
            } else {
                CHECK(why.empty());
            }
            // Every output written has the sides of its element (the rotations' transposed, the flip's not).
            for (std::size_t k = 0; k < r.made.size() && c.codec != &takes; ++k) {
                const std::size_t i = r.made[k];
                const gpurotate::Image written = gpurotate::read_image(out.paths[i]);
                const gpurotate::Image input = gpurotate::read_image(c.input);
                const auto expected = gpurotate::output_extent(front.elements[i], {input.width(), input.height()});
                CHECK(written.width() == expected.width);
                CHECK(written.height() == expected.height);
            }
        }
    }
}

TEST_CASE("run_conversion table: pixels from a PNG are the naive reference's, bit for bit, for both front ends, however many groups") {
    test_support::TempDir dir;
    const std::string png = make_file(dir, "odd.png", 37, 23);
    const gpurotate::Image input = gpurotate::read_image(png);
    for (const FrontEnd& front : front_ends) {
        CAPTURE(front.name);
        const Outcome out = run(front, png, ".png", {}, {}, dir);
        REQUIRE(out.recorder.made.size() == front.elements.size());
        CHECK(out.recorder.route == Route::pixels);
        for (std::size_t i = 0; i < front.elements.size(); ++i) {
            const gpurotate::Image expected = reference::transform(input, front.elements[i]);
            const gpurotate::Image written = gpurotate::read_image(out.paths[i]);
            CHECK(test_support::first_difference(written.view(), expected.view()) == -1);
        }
    }
}

TEST_CASE("run_conversion: the GPU's resources start on a thread and serve a dataset's pixels") {
    if (!gpurotate::cuda_available()) {
        MESSAGE("SKIPPED: no usable GPU");
        return;
    }
    test_support::TempDir dir;
    const std::string png = make_file(dir, "gpu.png", 37, 23);
    const gpurotate::Image input = gpurotate::read_image(png);
    Recorder recorder;
    gpurotate::convert::GpuResources gpu(gpurotate::convert::dataset_gpu_policy({}, {0}, 1, 0, false, false), recorder);
    const gpurotate::detail::ImageSource source(png);
    std::vector<gpurotate::convert::ConversionOutput> outputs;
    const std::vector<Orientation> elements{Orientation::rot90, Orientation::transpose};
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const gpurotate::detail::ImageSink sink(dir.file("g" + std::to_string(i) + ".png"), true, false);
        outputs.push_back({sink, gpurotate::convert::plan_conversion(source, sink, elements[i], {}, Executor{Backend::cuda, true})});
    }
    gpurotate::convert::StagingBuffer staging(true);
    gpurotate::convert::ConversionRun conversion;
    conversion.backend = Backend::cuda;
    conversion.gpu = &gpu;
    conversion.cpu_threads = 1;
    conversion.staging = &staging;
    gpurotate::convert::run_conversion(source, outputs, {}, conversion, recorder);
    REQUIRE(recorder.made.size() == elements.size());
    CHECK(gpu.session_count() == 1);
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const gpurotate::Image written = gpurotate::read_image(outputs[i].sink.path());
        CHECK(test_support::first_difference(written.view(), reference::transform(input, elements[i]).view()) == -1);
    }
}
