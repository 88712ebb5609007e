// The report of `gpurotate bench --fused-sweep` (src/bench/fused_sweep.hpp): its sizes, the ratio and the flags,
// checked against numbers worked out by hand.

#include "bench/fused_sweep.hpp"

#include <doctest/doctest.h>

#include <sstream>

using gpurotate::Extent;
using gpurotate::bench::FusedSweepRow;

namespace {

// The choice took 1.5 ms where the tile took 1.0: 1.5 over the fastest, over a 3% tolerance.
FusedSweepRow slow_row() {
    FusedSweepRow r;
    r.type = "u16c3";
    r.size = {4096, 4096};
    r.chosen = "vectorized";
    r.choice_ms = 1.5;
    r.vectorized_ms = 1.5;
    r.tiled_ms = 1.0;
    r.separate_ms = 4.0;
    return r;
}

}  // namespace

TEST_CASE("fused sweep sizes span 512 to 16384 with odd and power-of-two sides and fit 80 GB") {
    const auto sizes = gpurotate::bench::fused_sweep_sizes();
    bool has_512 = false, has_16384 = false, has_odd = false, has_power_of_two = false;
    for (const Extent e : sizes) {
        CAPTURE(e.width);
        CAPTURE(e.height);
        has_512 = has_512 || (e.width == 512 && e.height == 512);
        has_16384 = has_16384 || (e.width == 16384 && e.height == 16384);
        has_odd = has_odd || (e.width % 2 == 1 && e.height % 2 == 1);
        has_power_of_two = has_power_of_two || (e.width == 4096 && e.height == 4096);
        // The source, 7 outputs and their 7 expected images of 16-byte pixels on one device of 80 GB.
        CHECK(15.0 * 16.0 * static_cast<double>(e.width) * static_cast<double>(e.height) < 78e9);
    }
    CHECK(has_512);
    CHECK(has_16384);
    CHECK(has_odd);
    CHECK(has_power_of_two);
}

TEST_CASE("fused sweep ratio is the choice over the fastest way that ran") {
    FusedSweepRow r = slow_row();
    CHECK(gpurotate::bench::choice_over_fastest(r) == doctest::Approx(1.5));
    // The chosen way's own median counts, not the choice's second timing of the same kernel.
    r.choice_ms = 1.6;
    CHECK(gpurotate::bench::choice_over_fastest(r) == doctest::Approx(1.5));
    r.choice_ms = 1.5;
    CHECK(gpurotate::bench::fastest_way(r) == "tiled");
    // A way that did not run (the vectorized kernel where it does not fit) is no candidate.
    r.vectorized_ms = 0;
    r.tiled_ms = 0;
    r.choice_ms = 4.4;
    CHECK(gpurotate::bench::fastest_way(r) == "separate");
    CHECK(gpurotate::bench::choice_over_fastest(r) == doctest::Approx(1.1));
    // Nothing timed (every output wrong): no ratio, no fastest.
    r.separate_ms = 0;
    CHECK(gpurotate::bench::choice_over_fastest(r) == 0);
    CHECK(gpurotate::bench::fastest_way(r).empty());
}

TEST_CASE("fused sweep flags rows over the tolerance and wrong outputs") {
    FusedSweepRow fine = slow_row();
    fine.choice_ms = 1.02;  // 2% over the tile: within 3%
    fine.vectorized_ms = 1.02;
    FusedSweepRow wrong = slow_row();
    wrong.verified = false;
    std::ostringstream out;
    gpurotate::bench::print_fused_sweep_row(out, slow_row(), 1.03);
    gpurotate::bench::print_fused_sweep_row(out, fine, 1.03);
    gpurotate::bench::print_fused_sweep_row(out, wrong, 1.03);
    std::istringstream lines(out.str());
    std::string slow_line, fine_line, wrong_line;
    std::getline(lines, slow_line);
    std::getline(lines, fine_line);
    std::getline(lines, wrong_line);
    CHECK(slow_line.find("u16c3  4096x4096    vectorized tiled") == 0);
    CHECK(slow_line.find("1.500  SLOW") != std::string::npos);
    CHECK(fine_line.find("1.020") != std::string::npos);
    CHECK(fine_line.find("SLOW") == std::string::npos);
    CHECK(wrong_line.find("WRONG OUTPUT") != std::string::npos);

    std::ostringstream summary;
    gpurotate::bench::print_fused_sweep_summary(summary, {slow_row(), fine, wrong}, 1.03);
    CHECK(summary.str().find("3 rows; 2 with the choice more than 3% slower") != std::string::npos);
    CHECK(summary.str().find("the worst u16c3 4096x4096 at 1.500 (vectorized chosen, tiled fastest); 1 with a wrong output") != std::string::npos);
}

TEST_CASE("fused sweep JSON holds each row with its ratio and flag") {
    gpurotate::bench::FusedSweepContext context{"NVIDIA H200", 13000, 13000, 20, 1.03};
    std::ostringstream json;
    gpurotate::bench::write_fused_sweep_json(json, context, {slow_row()});
    const std::string text = json.str();
    CHECK(text.find("\"device\": \"NVIDIA H200\", \"driver\": 13000, \"runtime\": 13000, \"reps\": 20, \"tolerance\": 1.03") != std::string::npos);
    CHECK(text.find("{\"type\": \"u16c3\", \"width\": 4096, \"height\": 4096, \"chosen\": \"vectorized\", \"fastest\": \"tiled\", "
                    "\"choice_ms\": 1.5, \"vectorized_ms\": 1.5, \"tiled_ms\": 1, \"separate_ms\": 4, \"choice_over_fastest\": 1.5, "
                    "\"over_tolerance\": true, \"verified\": true}") != std::string::npos);
    CHECK(text.back() == '\n');
}
