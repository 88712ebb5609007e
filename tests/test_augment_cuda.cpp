// `gpurotate augment` on the GPU end to end: the fused kernel behind GpuSession, several streams, pinned
// staging, against the reference; and --devices. Skipped without a GPU.

#include "augment_support.hpp"

#include <gpurotate/version.hpp>

#include <doctest/doctest.h>

using namespace augment_support;

namespace {
const std::string exe = GPUROTATE_EXE;
}

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
