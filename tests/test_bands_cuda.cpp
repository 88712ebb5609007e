// Images larger than the device memory budget: forced through the GPU in bands by a tiny --gpu-memory
// budget, every element and pixel width bit-exact against the reference; a budget too small for one row
// is a device error that fails cleanly. (augment's --device auto answers GPU failures with the CPU:
// test_augment_cuda.cpp.) Skipped without a GPU.

#include "reference.hpp"
#include "test_support.hpp"

#include "frontend/cuda_backend.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using gpurotate::Orientation;
using test_support::quote;

TEST_CASE("a budget smaller than the image streams it through the GPU in bands with identical output") {
    std::uint32_t seed = 700;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : {test_support::Size{1031, 1009}, test_support::Size{257, 129}, test_support::Size{7, 1}, test_support::Size{1, 300}}) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            const std::size_t whole = src.size_bytes() * 2;
            // About 8 bands with two buffer sets; about 40 rows' worth; one row at a time.
            const std::size_t row = static_cast<std::size_t>(size.width) * format.pixel_bytes();
            // Enough for one row of either kind of band in one buffer set, the smallest budget that works.
            const std::size_t floor = 2 * gpurotate::detail::device_pitch(row) +
                                      gpurotate::detail::device_pitch(format.pixel_bytes()) * static_cast<std::size_t>(size.width);
            std::vector<std::size_t> budgets = {std::max(whole / 4, floor), std::max(40 * 2 * (row + 64), floor)};
            // One row at a time only where that is a few hundred bands: on 1031x1009 it is 64,000 over the widths and
            // elements, minutes under compute-sanitizer, and the smaller sizes take the same one-row path.
            if (std::max(size.width, size.height) <= 300) budgets.push_back(floor);
            for (std::size_t budget : budgets) {
                for (Orientation o : gpurotate::all_orientations) {
                    const gpurotate::Image expected = reference::transform(src, o);
                    gpurotate::Image out(expected.width(), expected.height(), format);
                    std::memset(out.data(), 0xa5, out.size_bytes());
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(size.width);
                    CAPTURE(size.height);
                    CAPTURE(budget);
                    CAPTURE(gpurotate::name(o));
                    gpurotate::transform(src.view(), out.view(), o, gpurotate::TransformOptions{gpurotate::Backend::cuda, gpurotate::CudaKernel::automatic, budget});
                    CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
                }
            }
        }
    }
}

TEST_CASE("a budget too small for one row: a device error from the library") {
    const gpurotate::Image src = test_support::random_image(300, 20, {gpurotate::SampleType::u8, 3}, 9);
    gpurotate::Image out(20, 300, src.format());
    std::string message;
    CHECK(test_support::code_of([&] {
              gpurotate::transform(src.view(), out.view(), Orientation::rot90, gpurotate::TransformOptions{gpurotate::Backend::cuda, gpurotate::CudaKernel::automatic, 1000});
          }, &message) == gpurotate::ErrorCode::device);
    CHECK(message.find("does not fit the device memory budget") != std::string::npos);
}

// A case of its own: bench/sanitize_tests.sh runs the cases that start the CLI outside the tool (the CLI inside it).
TEST_CASE("a budget too small for one row fails the CLI with no output and a budget under the image runs it in bands" * doctest::test_suite("cli")) {
    test_support::TempDir dir;
    const std::string exe = GPUROTATE_EXE;
    const std::string in = std::string(GPUROTATE_SAMPLES) + "/astronaut.png";
    const gpurotate::Image original = gpurotate::read_image(in);
    const auto strict = test_support::run(quote(exe) + " " + quote(in) + " --rot90 --gpu-memory 1K --device cuda -o " + quote(dir.file("cuda.png")));
    CAPTURE(strict.output);
    CHECK(strict.status == 5);
    CHECK(strict.output.rfind("gpurotate: error: ", 0) == 0);
    CHECK(strict.output.find("does not fit the device memory budget") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("cuda.png")));

    // 256 KiB for a 768 KiB image (and its result): bands on the GPU, the same pixels.
    const auto banded = test_support::run(quote(exe) + " " + quote(in) + " --transverse --gpu-memory 256K --device cuda -v -o " + quote(dir.file("banded.png")));
    CAPTURE(banded.output);
    CHECK(banded.status == 0);
    CHECK(banded.output.find("backend cuda") != std::string::npos);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("banded.png")).view(),
                                         reference::transform(original, Orientation::transverse).view()) == -1);
}

// A rotation by an angle does not stream in bands: over --gpu-memory it is a device error, which says so; within
// it, the CPU's bytes. (--device auto rotates one image on the CPU anyway.)
TEST_CASE("a rotation by an angle over --gpu-memory fails the CLI with --device cuda and runs within it" * doctest::test_suite("cli")) {
    test_support::TempDir dir;
    const std::string exe = GPUROTATE_EXE;
    const std::string in = std::string(GPUROTATE_SAMPLES) + "/astronaut.png";  // 512x512 RGB: 768 KiB, 1.4 MiB rotated by 30
    const auto strict = test_support::run(quote(exe) + " " + quote(in) + " --rotate 30 --gpu-memory 1M --device cuda -o " + quote(dir.file("cuda.png")));
    CAPTURE(strict.output);
    CHECK(strict.status == 5);
    CHECK(strict.output.find("of device memory at once, over the 1.0 MiB of --gpu-memory (a rotation by an angle does not stream in bands") !=
          std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("cuda.png")));

    const auto fits = test_support::run(quote(exe) + " " + quote(in) + " --rotate 30 --rot90 --gpu-memory 3M --device cuda -o " + quote(dir.file("fits.png")));
    const auto cpu = test_support::run(quote(exe) + " " + quote(in) + " --rotate 30 --rot90 --device cpu -o " + quote(dir.file("cpu.png")));
    CAPTURE(fits.output);
    CHECK(fits.status == 0);
    CHECK(cpu.status == 0);
    CHECK(fits.output.find("warning") == std::string::npos);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("fits.png")).view(), gpurotate::read_image(dir.file("cpu.png")).view()) == -1);
}
