// `augment -v`'s stage account, end to end through the binary on JPEGs (the lossless route, and a re-encode
// where the edge blocks are partial) and PNGs: every stage is listed once, none is negative, the stages the
// run went through show time and the ones it did not (the GPU's, on --device cpu) none, and the workers'
// seconds add up to no more than the workers could have had (jobs x the run's wall time). No speed is asserted.

#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>

using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;

struct StageLine {
    double seconds = -1;
    std::string unit;  // "worker-s" or "s wall"
    int count = 0;
};

// "gpurotate: stage NAME: 1.234 worker-s, ..." or "gpurotate: stage NAME: 0.012 s wall, ..." by NAME.
std::map<std::string, StageLine> stage_lines(const std::string& output) {
    std::map<std::string, StageLine> stages;
    std::istringstream in(output);
    const std::string prefix = "gpurotate: stage ";
    for (std::string line; std::getline(in, line);) {
        if (line.compare(0, prefix.size(), prefix) != 0 || line.compare(prefix.size(), 8, "account:") == 0) continue;
        const auto colon = line.find(": ", prefix.size());
        REQUIRE(colon != std::string::npos);
        StageLine& stage = stages[line.substr(prefix.size(), colon - prefix.size())];
        ++stage.count;
        std::istringstream numbers(line.substr(colon + 2));
        numbers >> stage.seconds >> stage.unit;
        if (!stage.unit.empty() && stage.unit.back() == ',') stage.unit.pop_back();
        if (stage.unit == "s") stage.unit = "s wall";
    }
    return stages;
}

// The head line's total: "gpurotate: stage account: 1.234 s wall = ..."
double run_wall(const std::string& output) {
    const std::string head = "gpurotate: stage account: ";
    const auto at = output.find(head);
    REQUIRE(at != std::string::npos);
    return std::stod(output.substr(at + head.size()));
}

void make_inputs(const test_support::TempDir& dir) {
    REQUIRE(test_support::run("mkdir -p " + quote(dir.file("in"))).status == 0);
    for (int i = 0; i < 3; ++i) {
        // 64x48: whole MCUs, every variant lossless; 61x45: partial edge blocks, some variants re-encoded.
        gpurotate::write_image(dir.file("in/whole" + std::to_string(i) + ".jpg"), test_support::random_image(64, 48, {gpurotate::SampleType::u8, 3}, 500 + i).view());
        gpurotate::write_image(dir.file("in/edge" + std::to_string(i) + ".jpg"), test_support::random_image(61, 45, {gpurotate::SampleType::u8, 3}, 510 + i).view());
        gpurotate::write_image(dir.file("in/pixels" + std::to_string(i) + ".png"), test_support::random_image(37, 29, {gpurotate::SampleType::u8, 4}, 520 + i).view());
    }
}

}  // namespace

TEST_CASE("augment -v lists every stage once, none negative, within jobs x the run's wall time") {
    test_support::TempDir dir;
    make_inputs(dir);
    constexpr int jobs = 2;
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops all --device cpu -v -j " +
                       std::to_string(jobs));
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    const auto stages = stage_lines(r.output);
    const char* worker_stages[] = {"read",   "entropy decode", "coefficient transform", "scan coding (CPU)", "scan coding (GPU)", "pixel decode", "kernels",
                                   "nvJPEG", "encode",         "write",                 "rename",            "manifest",          "other",        "idle"};
    double worker_sum = 0;
    for (const std::string name : worker_stages) {
        CAPTURE(name);
        REQUIRE(stages.count(name) == 1);
        CHECK(stages.at(name).count == 1);
        CHECK(stages.at(name).unit == "worker-s");
        CHECK(stages.at(name).seconds >= 0);
        if (name != "idle") worker_sum += stages.at(name).seconds;
    }
    for (const std::string name : {"listing", "final flush"}) {
        CAPTURE(name);
        REQUIRE(stages.count(name) == 1);
        CHECK(stages.at(name).unit == "s wall");
        CHECK(stages.at(name).seconds >= 0);
    }
    // Each worker's stages partition its time: together no more than every worker busy for the whole run
    // (the printed figures are rounded to a microsecond each, the wall time to a millisecond).
    const double wall = run_wall(r.output);
    CHECK(worker_sum <= jobs * (wall + 0.001) + 0.001);
    CHECK(stages.at("listing").seconds + stages.at("final flush").seconds <= wall + 0.001);
    // What this run did shows time; what only the GPU does shows none.
    for (const std::string name : {"read", "entropy decode", "coefficient transform", "scan coding (CPU)", "pixel decode", "kernels", "encode", "write", "rename",
                             "manifest"}) {
        CAPTURE(name);
        CHECK(stages.at(name).seconds > 0);
    }
    for (const std::string name : {"scan coding (GPU)", "nvJPEG"}) {
        CAPTURE(name);
        CHECK(stages.at(name).seconds == 0);
    }
    CHECK(r.output.find("not separable today") != std::string::npos);
}

TEST_CASE("augment without -v prints no stage account, and -v with --quiet is refused") {
    test_support::TempDir dir;
    make_inputs(dir);
    const auto plain = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90 --device cpu");
    CAPTURE(plain.output);
    CHECK(plain.status == 0);
    CHECK(plain.output.find("gpurotate: stage ") == std::string::npos);
    const auto both = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out2")) + " --ops rot90 -v -q");
    CAPTURE(both.output);
    CHECK(both.status == 2);  // usage
    CHECK_FALSE(test_support::file_exists(dir.file("out2/manifest.jsonl")));
}
