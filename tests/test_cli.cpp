// The gpurotate executable end to end: every operation on the samples against the reference, composed
// sequences, --version, and every error case with its exit code, its message, no output file left
// behind and the input unchanged.

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <unistd.h>

using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;
const std::string samples = GPUROTATE_SAMPLES;

std::string command_line(const std::string& args) { return quote(exe) + " " + args; }

struct Flag {
    const char* flag;
    gpurotate::Orientation orientation;
};
constexpr Flag flags[] = {{"--rot90", gpurotate::Orientation::rot90},     {"--rot180", gpurotate::Orientation::rot180},
                          {"--rot270", gpurotate::Orientation::rot270},   {"--flip-h", gpurotate::Orientation::flip_h},
                          {"--flip-v", gpurotate::Orientation::flip_v},   {"--transpose", gpurotate::Orientation::transpose},
                          {"--transverse", gpurotate::Orientation::transverse}};

// Runs a command that must fail: checks the exit status, the one-line message, that `output` was not
// created (or kept its old bytes), and that `input` kept its bytes.
void expect_failure(const std::string& args, int status, const std::string& message_part, const std::string& input,
                    const std::string& output) {
    const std::string input_before = test_support::file_bytes(input);
    const bool output_existed = test_support::file_exists(output);
    const std::string output_before = output_existed ? test_support::file_bytes(output) : "";
    const auto result = run(command_line(args));
    CAPTURE(args);
    CAPTURE(result.output);
    CHECK(result.status == status);
    CHECK(result.output.rfind("gpurotate: error: ", 0) == 0);
    CHECK(result.output.find(message_part) != std::string::npos);
    CHECK(test_support::file_bytes(input) == input_before);
    if (output_existed) {
        CHECK(test_support::file_bytes(output) == output_before);
    } else {
        CHECK_FALSE(test_support::file_exists(output));
    }
}

}  // namespace

TEST_CASE("every operation on every sample matches the reference") {
    test_support::TempDir dir;
    for (const char* sample : {"astronaut.png", "coffee-16bit.png", "rocket.jpg"}) {
        const std::string in = samples + "/" + sample;
        const gpurotate::Image original = gpurotate::read_image(in);
        for (const auto& f : flags) {
            const std::string out = dir.file(std::string(sample) + f.flag + ".png");
            const auto result = run(command_line(quote(in) + " " + f.flag + " -o " + quote(out)));
            CAPTURE(sample);
            CAPTURE(f.flag);
            CAPTURE(result.output);
            REQUIRE(result.status == 0);
            const gpurotate::Image produced = gpurotate::read_image(out);
            CHECK(test_support::first_difference(produced.view(), reference::transform(original, f.orientation).view()) == -1);
        }
    }
}

TEST_CASE("a sequence of operations composes in the order given") {
    test_support::TempDir dir;
    const std::string in = samples + "/chelsea.png";
    const gpurotate::Image original = gpurotate::read_image(in);
    REQUIRE(run(command_line(quote(in) + " --rot90 --flip-h -o " + quote(dir.file("a.png")))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("a.png")).view(),
                                         reference::transform(original, gpurotate::Orientation::transpose).view()) == -1);
    REQUIRE(run(command_line(quote(in) + " --flip-h --rot90 -o " + quote(dir.file("b.png")))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("b.png")).view(),
                                         reference::transform(original, gpurotate::Orientation::transverse).view()) == -1);
    REQUIRE(run(command_line(quote(in) + " --rot90 --rot90 --rot90 --rot90 -o " + quote(dir.file("c.png")))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("c.png")).view(), original.view()) == -1);
    // No operation is a format conversion.
    REQUIRE(run(command_line(quote(in) + " -o " + quote(dir.file("d.tga")))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("d.tga")).view(), original.view()) == -1);
}

TEST_CASE("--version and -v say what runs") {
    const auto version = run(command_line("--version"));
    CHECK(version.status == 0);
    CHECK(version.output.find("gpurotate 0.1.0") != std::string::npos);
    CHECK(version.output.find("backends: cpu") != std::string::npos);
    CHECK(version.output.find("PNG") != std::string::npos);
    // --version lists GPUs as the driver does, without starting CUDA; -v asks CUDA for each one's details.
    CHECK(version.output.find("gpu") != std::string::npos);
    const auto cuda_version = run(command_line("--version -v"));
    CHECK(cuda_version.status == 0);
    if (gpurotate::cuda_available()) CHECK(cuda_version.output.find("compute capability") != std::string::npos);
    test_support::TempDir dir;
    const auto verbose = run(command_line(quote(samples + "/chelsea.png") + " --rot90 -v -o " + quote(dir.file("v.png"))));
    CHECK(verbose.status == 0);
    // One image: --device auto runs on the CPU, measured faster than CUDA start-up plus the transfers.
    CHECK(verbose.output.find("backend cpu") != std::string::npos);
}

TEST_CASE("input errors exit 3 and leave nothing behind") {
    test_support::TempDir dir;
    const std::string out = dir.file("out.png");
    const std::string good = samples + "/chelsea.png";
    const std::string png = test_support::file_bytes(good);
    test_support::write_bytes(dir.file("empty.png"), "");
    test_support::write_bytes(dir.file("corrupt.png"), png.substr(0, 100) + std::string(500, 'x') + png.substr(600));
    test_support::write_bytes(dir.file("truncated.png"), png.substr(0, png.size() / 3));
    test_support::write_bytes(dir.file("notes.txt"), "not an image\n");
    const std::string jpg = test_support::file_bytes(samples + "/rocket.jpg");
    test_support::write_bytes(dir.file("truncated.jpg"), jpg.substr(0, jpg.size() / 2));
    for (const char* name : {"empty.png", "corrupt.png", "truncated.png", "notes.txt", "truncated.jpg"}) {
        expect_failure(quote(dir.file(name)) + " --rot90 -o " + quote(out), 3, name, dir.file(name), out);
    }
    // JPEG to JPEG, lossless: a file cut short is refused too, not written with its missing blocks grey.
    for (const char* op : {"--transpose", "--flip-h", "--rot270"}) {
        expect_failure(quote(dir.file("truncated.jpg")) + " " + op + " -o " + quote(dir.file("out.jpg")), 3, "Premature end of JPEG file",
                       dir.file("truncated.jpg"), dir.file("out.jpg"));
    }
    // A device never ends: refused at once, not read until the memory runs out.
    const auto device = run(command_line("/dev/zero --rot90 -o " + quote(out)));
    CHECK(device.status == 3);
    CHECK(device.output == "gpurotate: error: cannot read '/dev/zero': is a device, not a file\n");
    CHECK_FALSE(test_support::file_exists(out));
    const auto missing = run(command_line(quote(dir.file("missing.png")) + " --rot90 -o " + quote(out)));
    CHECK(missing.status == 3);
    CHECK(missing.output.find("missing.png") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(out));
}

TEST_CASE("output errors exit 4 and leave nothing behind") {
    test_support::TempDir dir;
    const std::string in = dir.file("in.png");
    test_support::write_bytes(in, test_support::file_bytes(samples + "/chelsea.png"));
    expect_failure(quote(in) + " --rot90 -o " + quote(dir.file("nodir/out.png")), 4, "does not exist", in, dir.file("nodir/out.png"));
    expect_failure(quote(in) + " --rot90 -o " + quote(dir.file("out.xyz")), 4, "unknown output extension", in, dir.file("out.xyz"));
    expect_failure(quote(in) + " --rot90 -o " + quote(in + "/out.png"), 4, "not a directory", in, in + "/out.png");
    expect_failure(quote(in) + " --rot90 -o " + quote(in), 4, "same file", in, in);
    test_support::write_bytes(dir.file("exists.png"), "old contents");
    expect_failure(quote(in) + " --rot90 -o " + quote(dir.file("exists.png")), 4, "already exists", in, dir.file("exists.png"));
    const std::string deep = dir.file("deep.png");
    test_support::write_bytes(deep, test_support::file_bytes(samples + "/coffee-16bit.png"));
    expect_failure(quote(deep) + " -o " + quote(dir.file("deep.jpg")), 4, "cannot hold", deep, dir.file("deep.jpg"));
    if (geteuid() != 0) {  // root writes anywhere, so a read-only directory proves nothing there
        REQUIRE(run("mkdir " + quote(dir.file("ro")) + " && chmod 555 " + quote(dir.file("ro"))).status == 0);
        expect_failure(quote(in) + " --rot90 -o " + quote(dir.file("ro/out.png")), 4, "not writable", in, dir.file("ro/out.png"));
    }
    // --overwrite replaces an existing output and may replace the input itself.
    CHECK(run(command_line(quote(in) + " --rot90 -o " + quote(dir.file("exists.png")) + " --overwrite")).status == 0);
    const gpurotate::Image before = gpurotate::read_image(in);
    CHECK(run(command_line(quote(in) + " --rot180 --overwrite -o " + quote(in))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(in).view(),
                                         reference::transform(before, gpurotate::Orientation::rot180).view()) == -1);
    CHECK(run("ls -A " + quote(dir.path()) + " | grep -c gpurotate-").output == "0\n");  // no temporary files left
    // A replaced file keeps its permissions: a private one must not come back readable by everyone.
    for (const char* mode : {"600", "640", "755"}) {
        CAPTURE(mode);
        REQUIRE(run(std::string("chmod ") + mode + " " + quote(in)).status == 0);
        CHECK(run(command_line(quote(in) + " --flip-h --overwrite -o " + quote(in))).status == 0);
        CHECK(run("stat -c %a " + quote(in)).output == std::string(mode) + "\n");
        REQUIRE(run(std::string("chmod ") + mode + " " + quote(dir.file("exists.png"))).status == 0);
        CHECK(run(command_line(quote(in) + " --rot90 --overwrite -o " + quote(dir.file("exists.png")))).status == 0);
        CHECK(run("stat -c %a " + quote(dir.file("exists.png"))).output == std::string(mode) + "\n");
    }
}

TEST_CASE("an output that is a symbolic link is written through, and the longest file names are written") {
    test_support::TempDir dir;
    const std::string in = dir.file("in.png");
    test_support::write_bytes(in, test_support::file_bytes(samples + "/chelsea.png"));
    test_support::write_bytes(dir.file("other.png"), test_support::file_bytes(in));
    REQUIRE(run("ln -s other.png " + quote(dir.file("link.png"))).status == 0);
    expect_failure(quote(in) + " --rot90 -o " + quote(dir.file("link.png")), 4, "already exists", in, dir.file("other.png"));
    REQUIRE(run(command_line(quote(in) + " --rot90 --overwrite -o " + quote(dir.file("link.png")))).status == 0);
    CHECK(run("test -L " + quote(dir.file("link.png"))).status == 0);  // the link stays, as ImageMagick leaves it
    const gpurotate::Image source = gpurotate::read_image(in);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("other.png")).view(),
                                         reference::transform(source, gpurotate::Orientation::rot90).view()) == -1);
    // A name of 255 bytes (NAME_MAX): its temporary file's name is cut to fit, not refused as too long.
    const std::string longest = dir.file(std::string(251, 'a') + ".png");
    CHECK(run(command_line(quote(in) + " --flip-h -o " + quote(longest))).status == 0);
    CHECK(test_support::file_exists(longest));
    CHECK(run("ls -A " + quote(dir.path()) + " | grep -c gpurotate-").output == "0\n");
}

TEST_CASE("GIF: an opaque one is RGB, a transparent one RGBA, and an animation says that only its first frame is written") {
    test_support::TempDir dir;
    const auto expected = [](int width, int height, int frame, bool transparent_white) {
        gpurotate::Image image(width, height, {gpurotate::SampleType::u8, transparent_white ? 4 : 3});
        const unsigned char palette[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
        auto* p = reinterpret_cast<unsigned char*>(image.data());
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x, p += image.format().channels) {
                const int colour = (x + 2 * y + frame) % 4;
                std::copy_n(palette[colour], 3, p);
                if (transparent_white) p[3] = colour == 3 ? 0 : 255;
            }
        }
        return image;
    };
    test_support::write_bytes(dir.file("opaque.gif"), test_support::gif_bytes(5, 3, 1, false));
    test_support::write_bytes(dir.file("clear.gif"), test_support::gif_bytes(5, 3, 1, true));
    test_support::write_bytes(dir.file("anim.gif"), test_support::gif_bytes(5, 3, 3, false));
    REQUIRE(run(command_line(quote(dir.file("opaque.gif")) + " --rot90 -o " + quote(dir.file("opaque.png")))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("opaque.png")).view(),
                                         reference::transform(expected(5, 3, 0, false), gpurotate::Orientation::rot90).view()) == -1);
    CHECK(run(command_line(quote(dir.file("opaque.gif")) + " --rot90 -o " + quote(dir.file("opaque.jpg")))).status == 0);  // 3 channels fit
    // Transparent pixels of a GIF decode with alpha 0; their colour is whatever the decoder gives them.
    REQUIRE(run(command_line(quote(dir.file("clear.gif")) + " --transpose -o " + quote(dir.file("clear.png")))).status == 0);
    const gpurotate::Image clear = gpurotate::read_image(dir.file("clear.png"));
    const gpurotate::Image clear_expected = reference::transform(expected(5, 3, 0, true), gpurotate::Orientation::transpose);
    REQUIRE(clear.format().channels == 4);
    for (std::size_t i = 0; i < clear.size_bytes(); i += 4) {
        CHECK(clear.data()[i + 3] == clear_expected.data()[i + 3]);
        if (clear_expected.data()[i + 3] == std::byte{255}) CHECK(std::equal(clear.data() + i, clear.data() + i + 3, clear_expected.data() + i));
    }
    const auto animation = run(command_line(quote(dir.file("anim.gif")) + " --rot180 -o " + quote(dir.file("anim.png"))));
    CHECK(animation.status == 0);
    CHECK(animation.output.find("is an animation of 3 frames: only the first is written") != std::string::npos);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("anim.png")).view(),
                                         reference::transform(expected(5, 3, 0, false), gpurotate::Orientation::rot180).view()) == -1);
}

TEST_CASE("usage errors exit 2") {
    test_support::TempDir dir;
    const std::string in = samples + "/chelsea.png";
    for (const std::string& args : {quote(in) + " --rot90", quote(in) + " --rot45 -o " + quote(dir.file("o.png")),
                                    quote(in) + " --quality 0 -o " + quote(dir.file("o.jpg")),
                                    quote(in) + " --device tpu -o " + quote(dir.file("o.png")), std::string(""),
                                    std::string("bench --size 8192"), std::string("bench --grouped 8 --grouped-sizes 640x480,640"),
                                    std::string("bench --fused-sweep --grouped 8"), std::string("bench --fused-sweep --op rot90")}) {
        const auto result = run(command_line(args));
        CAPTURE(args);
        CAPTURE(result.output);
        CHECK(result.status == 2);
        // `gpurotate bench` is gpurotate-bench, which names itself.
        CHECK(result.output.rfind(args.rfind("bench", 0) == 0 ? "gpurotate-bench: error: " : "gpurotate: error: ", 0) == 0);
    }
    CHECK(run("ls -A " + quote(dir.path())).output.empty());
    // The value given, and what is accepted, in full.
    const auto device = run(command_line(quote(in) + " --device tpu -o " + quote(dir.file("o.png"))));
    CHECK(device.output.find("--device: 'tpu' is not one of auto, cpu, cuda") != std::string::npos);
    const auto pixels = run(command_line(quote(in) + " --max-pixels 10x -o " + quote(dir.file("o.png"))));
    CHECK(pixels.status == 2);
    CHECK(pixels.output.find("--max-pixels 10x: expected") != std::string::npos);
}

TEST_CASE("--device cuda exits 5 without a usable GPU and runs with one, its start-up beside the decode") {
    test_support::TempDir dir;
    const std::string in = samples + "/chelsea.png";
    const auto result = run(command_line(quote(in) + " --rot90 --device cuda -v -o " + quote(dir.file("o.png"))));
    CAPTURE(result.output);
    if (gpurotate::cuda_available()) {
        CHECK(result.status == 0);
        CHECK(result.output.find("ms of it hidden behind reading and decoding") != std::string::npos);
        CHECK(result.output.find("wait for the GPU ") != std::string::npos);
    } else {
        CHECK(result.status == 5);
        CHECK(result.output.find("no usable GPU") != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("o.png")));
    }
}

TEST_CASE("many files with --device cuda and no usable GPU: one error for the run, exit 5, nothing written") {
    test_support::TempDir dir;
    std::string inputs;
    for (int i = 0; i < 5; ++i) {
        const std::string in = dir.file("in" + std::to_string(i) + ".png");
        gpurotate::write_image(in, test_support::random_image(17 + i, 9, {gpurotate::SampleType::u8, 3}, 300 + i).view());
        inputs += " " + quote(in);
    }
    REQUIRE(run("mkdir -p " + quote(dir.file("out"))).status == 0);
    const auto result = run(command_line(inputs + " --rot90 --device cuda -j 3 -o " + quote(dir.file("out") + "/")));
    CAPTURE(result.output);
    if (gpurotate::cuda_available()) {
        CHECK(result.status == 0);
        for (int i = 0; i < 5; ++i) CHECK(test_support::file_exists(dir.file("out/in" + std::to_string(i) + ".png")));
    } else {
        CHECK(result.status == 5);
        // Said once, not once a file, and no count of files failed: none was tried on a GPU that is not there.
        const auto said = result.output.find("the CUDA backend has no usable GPU");
        REQUIRE(said != std::string::npos);
        CHECK(result.output.find("the CUDA backend has no usable GPU", said + 1) == std::string::npos);
        CHECK(result.output.find("(no file was converted)") != std::string::npos);
        CHECK(result.output.find("files failed") == std::string::npos);
        CHECK(run("ls -A " + quote(dir.file("out"))).output.empty());
    }
}

#if GPUROTATE_TEST_WITH_OPENCV
TEST_CASE("a lossless WebP stays lossless through a rotation, and --quality makes it lossy") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(23, 17, {gpurotate::SampleType::u8, 3}, 91);
    gpurotate::WriteOptions lossless;
    lossless.lossless = true;
    gpurotate::write_image(dir.file("in.webp"), image.view(), lossless);
    REQUIRE(test_support::file_bytes(dir.file("in.webp")).find("VP8L") != std::string::npos);
    const auto result = run(command_line(quote(dir.file("in.webp")) + " --rot90 -v -o " + quote(dir.file("out.webp"))));
    REQUIRE(result.status == 0);
    CHECK(result.output.find("WebP encoded losslessly") != std::string::npos);
    CHECK(test_support::file_bytes(dir.file("out.webp")).find("VP8L") != std::string::npos);
    const auto expected = gpurotate::transform(image, gpurotate::Orientation::rot90);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("out.webp")).view(), expected.view()) == -1);
    REQUIRE(run(command_line(quote(dir.file("in.webp")) + " --rot90 --quality 80 -o " + quote(dir.file("lossy.webp")))).status == 0);
    CHECK(test_support::file_bytes(dir.file("lossy.webp")).find("VP8L") == std::string::npos);
    // RGBA: every sample kept, the colour of fully transparent pixels too (libwebp's exact mode).
    auto rgba = test_support::random_image(23, 17, {gpurotate::SampleType::u8, 4}, 92);
    for (std::int64_t y = 0; y < rgba.height(); y += 2) reinterpret_cast<std::uint8_t*>(rgba.view().row(y))[3] = 0;  // pixel (0, y) clear
    gpurotate::write_image(dir.file("rgba.webp"), rgba.view(), lossless);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("rgba.webp")).view(), rgba.view()) == -1);
    REQUIRE(run(command_line(quote(dir.file("rgba.webp")) + " --transpose -o " + quote(dir.file("rgba-t.webp")))).status == 0);
    const auto turned = gpurotate::transform(rgba, gpurotate::Orientation::transpose);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("rgba-t.webp")).view(), turned.view()) == -1);
}

TEST_CASE("a TIFF's ICC profile reaches a PNG and a TIFF output, and premultiplied colours are made straight for PNG") {
    test_support::TempDir dir;
    gpurotate::ImageMetadata meta;
    meta.icc.assign(200, 0x5a);
    meta.associated_alpha = true;
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    gpurotate::Image image(3, 2, {gpurotate::SampleType::u8, 4});
    for (std::int64_t y = 0; y < 2; ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(image.view().row(y));
        for (int x = 0; x < 3; ++x) {
            const std::uint8_t pixel[4] = {100, 50, 25, 128};  // (199, 100, 50) at half coverage, premultiplied
            std::memcpy(row + 4 * x, pixel, 4);
        }
    }
    gpurotate::write_image(dir.file("in.tif"), image.view(), options);
    const auto to_png = run(command_line(quote(dir.file("in.tif")) + " --rot90 -v -o " + quote(dir.file("out.png"))));
    CAPTURE(to_png.output);
    REQUIRE(to_png.status == 0);
    CHECK(gpurotate::read_metadata(dir.file("out.png")).icc == meta.icc);
    const auto png = gpurotate::read_image(dir.file("out.png"));
    const auto* first = reinterpret_cast<const std::uint8_t*>(png.view().row(0));
    CHECK(int{first[0]} == 199);
    CHECK(int{first[1]} == 100);
    CHECK(int{first[2]} == 50);
    CHECK(int{first[3]} == 128);
    REQUIRE(run(command_line(quote(dir.file("in.tif")) + " --rot90 -o " + quote(dir.file("out.tif")))).status == 0);
    const auto kept = gpurotate::read_metadata(dir.file("out.tif"));
    CHECK(kept.icc == meta.icc);
    CHECK(kept.associated_alpha);
    CHECK(std::memcmp(gpurotate::read_image(dir.file("out.tif")).view().row(0), image.view().row(0), 4) == 0);  // as stored
}
#endif
