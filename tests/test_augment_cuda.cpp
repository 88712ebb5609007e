// `gpurotate augment` on the GPU end to end: the fused kernel behind GpuSession, several streams, pinned
// staging, against the reference; and --devices. Skipped without a GPU.

#include "augment_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/version.hpp>

#include <doctest/doctest.h>

using namespace augment_support;

namespace {
const std::string exe = GPUROTATE_EXE;
}

// Every case here starts the CLI: bench/sanitize_tests.sh puts those processes under the tool, not the test.
TEST_SUITE_BEGIN("cli");

TEST_CASE("augment on the GPU writes every variant of a nested dataset exactly") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 40, 61, 1100);
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops all -r --device cuda -j 8");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("backend cuda") != std::string::npos);
    CHECK(r.output.find("40 inputs (0 failed), 280 outputs written") != std::string::npos);
    check_complete(dir.file("out"), images, seven, dir.file("out/manifest.jsonl"));
}

TEST_CASE("augment --devices spreads the work over every listed GPU") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 10, 33, 1200);
    const std::size_t gpus = gpurotate::cuda_devices().size();
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) +
                       " --ops rot90,flip-v -r --device cuda --devices all");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("on " + std::to_string(gpus) + " GPU(s)") != std::string::npos);
    check_complete(dir.file("out"), images, {Orientation::rot90, Orientation::flip_v}, dir.file("out/manifest.jsonl"));
    const auto bad = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("bad")) + " --device cuda --devices " +
                         std::to_string(gpus));
    CHECK(bad.status == 5);
    CHECK(bad.output.find("does not exist") != std::string::npos);
}

TEST_CASE("augment: an image over the GPU budget fails alone with --device cuda and goes to the CPU with --device auto") {
    test_support::TempDir dir;
    auto images = make_dataset(dir.file("in"), 8, 16, 1300);  // a few KiB each with its variants
    for (int i = 0; i < 2; ++i) {  // 200x150 RGB: 90 KB, 270 KB with two variants, over 1 MiB / 4 streams
        auto pixels = test_support::random_image(200, 150, {gpurotate::SampleType::u8, 3}, 1350 + static_cast<std::uint32_t>(i));
        const std::string relative = "dogs/big" + std::to_string(i) + ".png";
        gpurotate::write_image(dir.file("in/" + relative), pixels.view());
        images.push_back({relative, std::move(pixels)});
    }
    const std::string args = " augment " + quote(dir.file("in")) + " -r --ops rot90,flip-h --gpu-memory 1M -j 4";
    const auto strict = run(quote(exe) + args + " --device cuda -o " + quote(dir.file("cuda")));
    CAPTURE(strict.output);
    CHECK(strict.status == 3);
    CHECK(strict.output.find("over the session's budget") != std::string::npos);
    int failed = 0;
    for (const auto& record : records_of(dir.file("cuda/manifest.jsonl"))) {
        CAPTURE(record.input);
        CHECK(record.ok == (record.input.find("/big") == std::string::npos));
        failed += record.ok ? 0 : 1;
    }
    CHECK(failed == 4);

    const auto fallback = run(quote(exe) + args + " --device auto -o " + quote(dir.file("auto")));
    CAPTURE(fallback.output);
    CHECK(fallback.status == 0);
    CHECK(fallback.output.find("done on the CPU") != std::string::npos);
    check_complete(dir.file("auto"), images, {Orientation::rot90, Orientation::flip_h}, dir.file("auto/manifest.jsonl"));
}

TEST_CASE("augment: with --gpu-memory, rotations by an angle are made on the CPU, said once, with the CPU's bytes") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 6, 16, 1400);
    for (int i = 0; i < 2; ++i) {  // 300x200 RGB: 180 KB, over 1 MiB / 4 streams with its rotated copy
        const auto pixels = test_support::random_image(300, 200, {gpurotate::SampleType::u8, 3}, 1450 + static_cast<std::uint32_t>(i));
        gpurotate::write_image(dir.file("in/big" + std::to_string(i) + ".png"), pixels.view());
    }
    const std::string args = " augment " + quote(dir.file("in")) + " -r --random 2 --degrees 30 --seed 3 -j 4";
    const auto gpu = run(quote(exe) + args + " --gpu-memory 1M --device auto -o " + quote(dir.file("auto")));
    const auto cpu = run(quote(exe) + args + " --device cpu -o " + quote(dir.file("cpu")));
    CAPTURE(gpu.output);
    CHECK(gpu.status == 0);
    CHECK(cpu.status == 0);
    const std::string said = "rotations by an angle are made on the CPU";
    const std::size_t first = gpu.output.find(said);
    CHECK(first != std::string::npos);
    CHECK(gpu.output.find(said, first + 1) == std::string::npos);
    int compared = 0;
    for (const auto& record : records_of(dir.file("cpu/manifest.jsonl"))) {
        CAPTURE(record.output);
        CHECK(record.ok);
        REQUIRE(record.output.rfind(dir.file("cpu") + "/", 0) == 0);  // the manifest names outputs by their paths
        const std::string relative = record.output.substr(dir.file("cpu").size() + 1);
        CHECK(test_support::file_bytes(dir.file("auto/" + relative)) == test_support::file_bytes(record.output));
        ++compared;
    }
    CHECK(compared > 0);
}

TEST_SUITE_END();
