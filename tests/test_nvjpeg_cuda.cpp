// JPEG to JPEG on the GPU (nvJPEG), built only where the toolkit has nvJPEG and skipped without a GPU:
// every element on RGB and grey, the output decoded by libjpeg-turbo within 40 dB PSNR of the same
// transform of libjpeg-turbo's decode of the input, the input's chroma subsampling kept, metadata kept,
// and damaged files refused as cleanly as on the CPU path; `augment --nvjpeg` likewise for every variant.

#include "reference.hpp"
#include "test_support.hpp"

#include "jpeg/nvjpeg_codec.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

using gpurotate::Orientation;
using gpurotate::SampleType;
using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;

// Whether GPU 0 has NVJPG engines (A100, H100 and later), and so what --nvjpeg-decode gpu must report.
bool gpu_has_hardware_decoder() {
    static const bool has = gpurotate::detail::NvjpegCoder::has_hardware_decoder(*gpurotate::detail::NvjpegCoder::open_handle(0, true));
    return has;
}

// Gradients and waves: what JPEG is for, so that quality 95 gives a PSNR well above 40 dB.
gpurotate::Image smooth(std::int64_t w, std::int64_t h, int channels) {
    gpurotate::Image image(w, h, {SampleType::u8, channels});
    for (std::int64_t y = 0; y < h; ++y) {
        for (std::int64_t x = 0; x < w; ++x) {
            for (int c = 0; c < channels; ++c) {
                const double v = 128 + 90 * std::sin(0.03 * static_cast<double>(x + 11 * c)) * std::cos(0.025 * static_cast<double>(y - 7 * c));
                reinterpret_cast<std::uint8_t*>(image.view().row(y))[x * channels + c] = static_cast<std::uint8_t>(v);
            }
        }
    }
    return image;
}

double psnr(gpurotate::ConstImageView a, gpurotate::ConstImageView b) {
    double sum = 0;
    for (std::int64_t y = 0; y < a.height; ++y) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(a.row(y));
        const auto* q = reinterpret_cast<const std::uint8_t*>(b.row(y));
        for (std::size_t i = 0; i < a.row_bytes(); ++i) sum += (p[i] - q[i]) * (p[i] - q[i]);
    }
    const double mse = sum / static_cast<double>(a.row_bytes() * static_cast<std::size_t>(a.height));
    return mse == 0 ? 99 : 10 * std::log10(255.0 * 255.0 / mse);
}

}  // namespace

// Every case here starts the CLI: bench/sanitize_tests.sh puts those processes under the tool, not the test.
TEST_SUITE_BEGIN("cli");

TEST_CASE("nvJPEG: every element on RGB and grey, within 40 dB of libjpeg-turbo's decode, subsampling kept") {
    test_support::TempDir dir;
    const std::pair<const char*, Orientation> ops[] = {{"", Orientation::identity},          {"--rot90", Orientation::rot90},
                                                       {"--rot180", Orientation::rot180},    {"--rot270", Orientation::rot270},
                                                       {"--flip-h", Orientation::flip_h},    {"--flip-v", Orientation::flip_v},
                                                       {"--transpose", Orientation::transpose}, {"--transverse", Orientation::transverse}};
    struct Input {
        int channels, quality;
        const char* subsampling;  // what the CPU encoder wrote, and the GPU must keep
    };
    for (const Input& input : {Input{3, 95, "4:4:4"}, Input{3, 85, "4:2:0"}, Input{1, 95, "grey"}}) {
        const std::string in = dir.file("in" + std::to_string(input.channels) + "-" + std::to_string(input.quality) + ".jpg");
        gpurotate::WriteOptions options;
        options.quality = input.quality;
        gpurotate::write_image(in, smooth(301, 203, input.channels).view(), options);
        const gpurotate::Image decoded = gpurotate::read_image(in);  // libjpeg-turbo
        for (const auto& [flag, o] : ops) {
            CAPTURE(input.channels);
            CAPTURE(input.quality);
            CAPTURE(flag);
            // Decoded by libjpeg-turbo and by nvJPEG, in turn.
            const char* decoder = o == Orientation::identity || o == Orientation::rot90 || o == Orientation::transpose ? "gpu" : "cpu";
            CAPTURE(decoder);
            const std::string out = dir.file("out.jpg");
            const auto r = run(quote(exe) + " " + quote(in) + " " + flag + " --nvjpeg --nvjpeg-decode " + decoder + " --quality 95 --overwrite -v -o " +
                               quote(out));
            CAPTURE(r.output);
            REQUIRE(r.status == 0);
            CHECK(r.output.find("encoded on the GPU by nvJPEG") != std::string::npos);
            const char* decoded_by = decoder == std::string("cpu") ? "libjpeg-turbo"
                                     : input.channels == 3 && gpu_has_hardware_decoder() ? "nvJPEG hardware"
                                                                                         : "nvJPEG hybrid";
            CHECK(r.output.find(std::string("decoded by ") + decoded_by + ",") != std::string::npos);
            CHECK(r.output.find("ms of it hidden behind reading and decoding") != std::string::npos);
            CHECK(r.output.find(std::string(", ") + input.subsampling + ")") != std::string::npos);
            const gpurotate::Image got = gpurotate::read_image(out);
            const gpurotate::Image expected = reference::transform(decoded, o);
            REQUIRE(got.width() == expected.width());
            REQUIRE(got.height() == expected.height());
            REQUIRE(got.format() == expected.format());
            CHECK(psnr(got.view(), expected.view()) >= 40.0);
        }
    }
}

TEST_CASE("nvJPEG: damaged files are refused as on the CPU, metadata is kept, other outputs take the usual path") {
    test_support::TempDir dir;
    gpurotate::ImageMetadata meta;
    meta.icc.assign(5000, 7);
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::write_image(dir.file("in.jpg"), smooth(64, 48, 3).view(), options);
    const std::string good = test_support::file_bytes(dir.file("in.jpg"));
    test_support::write_bytes(dir.file("cut.jpg"), good.substr(0, good.size() / 2));
    test_support::write_bytes(dir.file("junk.jpg"), good.substr(0, 3) + std::string(200, '\x42'));
    for (const char* bad : {"cut.jpg", "junk.jpg"}) {
        for (const char* decoder : {"cpu", "gpu"}) {
            CAPTURE(bad);
            CAPTURE(decoder);
            const auto r = run(quote(exe) + " " + quote(dir.file(bad)) + " --rot90 --nvjpeg --nvjpeg-decode " + decoder + " -o " + quote(dir.file("x.jpg")));
            CHECK(r.status == 3);
            CHECK(r.output.rfind("gpurotate: error: cannot decode '" + dir.file(bad) + "'", 0) == 0);
            CHECK_FALSE(test_support::file_exists(dir.file("x.jpg")));
        }
    }
    REQUIRE(run(quote(exe) + " " + quote(dir.file("in.jpg")) + " --rot90 --nvjpeg -o " + quote(dir.file("k.jpg"))).status == 0);
    CHECK(gpurotate::read_metadata(dir.file("k.jpg")).icc == meta.icc);
    // A PNG output goes through the usual decode, kernel and encode.
    const auto png = run(quote(exe) + " " + quote(dir.file("in.jpg")) + " --rot90 --nvjpeg -v -o " + quote(dir.file("k.png")));
    CHECK(png.status == 0);
    CHECK(png.output.find("nvJPEG") == std::string::npos);
}

TEST_CASE("augment --nvjpeg: every variant of RGB and grey JPEGs encoded on the GPU (CPU or GPU decode), damaged files and PNGs on the CPU path") {
    test_support::TempDir dir;
    std::filesystem::create_directories(dir.file("in"));
    gpurotate::WriteOptions q85;
    q85.quality = 85;  // 4:2:0 from the CPU encoder: the GPU keeps it
    gpurotate::write_image(dir.file("in/rgb420.jpg"), smooth(301, 203, 3).view(), q85);
    gpurotate::write_image(dir.file("in/rgb444.jpg"), smooth(160, 97, 3).view());
    gpurotate::write_image(dir.file("in/grey.jpg"), smooth(77, 130, 1).view());
    gpurotate::write_image(dir.file("in/drawing.png"), smooth(40, 30, 3).view());
    const std::string good = test_support::file_bytes(dir.file("in/rgb444.jpg"));
    test_support::write_bytes(dir.file("in/cut.jpg"), good.substr(0, good.size() / 2));
    for (const char* decoder : {"cpu", "gpu"}) {
        CAPTURE(decoder);
        std::filesystem::remove_all(dir.file("out"));
        const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops all --nvjpeg -j 3 --nvjpeg-decode " +
                           decoder);
        CAPTURE(r.output);
        CHECK(r.status == 3);  // the damaged file fails alone, named as the CPU path names it
        CHECK(r.output.find("cannot decode '" + dir.file("in/cut.jpg") + "'") != std::string::npos);
        CHECK(r.output.find("nvJPEG encoded the variants of 3 of the 5 inputs") != std::string::npos);
        if (decoder == std::string("gpu")) {  // the two RGB files, not the grey one, where the GPU has NVJPG engines
            CHECK(r.output.find(std::string("hardware decoder decoded ") + (gpu_has_hardware_decoder() ? "2" : "0") + " of them") != std::string::npos);
        } else {
            CHECK(r.output.find("hardware decoder") == std::string::npos);
        }
        for (const char* stem : {"rgb420", "rgb444", "grey"}) {
            const gpurotate::Image decoded = gpurotate::read_image(dir.file(std::string("in/") + stem + ".jpg"));
            for (Orientation o : gpurotate::all_orientations) {
                if (o == Orientation::identity) continue;
                CAPTURE(stem);
                CAPTURE(gpurotate::name(o));
                const gpurotate::Image got = gpurotate::read_image(dir.file("out/" + std::string(stem) + "_" + std::string(gpurotate::name(o)) + ".jpg"));
                const gpurotate::Image expected = reference::transform(decoded, o);
                REQUIRE(got.width() == expected.width());
                REQUIRE(got.height() == expected.height());
                REQUIRE(got.format() == expected.format());
                CHECK(psnr(got.view(), expected.view()) >= 40.0);
            }
        }
        // The PNG took the usual path: exact.
        const gpurotate::Image png = gpurotate::read_image(dir.file("in/drawing.png"));
        CHECK(test_support::first_difference(gpurotate::read_image(dir.file("out/drawing_rot90.png")).view(),
                                             reference::transform(png, Orientation::rot90).view()) == -1);
        // The manifest records the GPU's outputs with their sizes.
        const std::string manifest = test_support::file_bytes(dir.file("out/manifest.jsonl"));
        CHECK(manifest.find("\"width\":203,\"height\":301") != std::string::npos);
    }
}

TEST_SUITE_END();
