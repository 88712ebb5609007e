#pragma once
// `gpurotate bench --fused-sweep`: for each size and type, the library's fused multi-output choice against the
// fastest of the three ways it chooses among (issue 51). This half holds the sizes and the report, with no CUDA, so
// that the tests read it; cuda/bench/bench_runner.cu times the ways and fills the rows.

#include <gpurotate/image.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace gpurotate::bench {

/// The sweep's default sizes, 512x512 to 16384x16384: power-of-two sides, and odd sides beside them where the
/// vectorized fused kernel's alignment rules refuse the image (1921x1081, 2999x4001, 4095x4097, 8191x8193).
std::vector<Extent> fused_sweep_sizes();

/// One size and type: the median milliseconds of each way (0: does not apply, or its output was wrong).
struct FusedSweepRow {
    std::string type;
    Extent size;
    std::string chosen;        ///< the way the library's rule picks: "vectorized", "tiled" or "separate"
    double choice_ms = 0;      ///< the library's choice as the product calls it (`multi-output`)
    double vectorized_ms = 0;  ///< the vectorized fused kernel (`multi-out-vector`); 0 where it does not fit
    double tiled_ms = 0;       ///< the shared-memory fused kernel (`multi-out-tile32`)
    double separate_ms = 0;    ///< one automatic launch per element (`auto-x7`)
    bool verified = true;      ///< every way's every output matched the CPU backend's
};

/// The fastest way of the row that was timed: "vectorized", "tiled" or "separate" ("" where none was).
std::string fastest_way(const FusedSweepRow& row);

/// The chosen way's median (its separate timing where that way did not run) over the fastest way's (0 where
/// either is missing).
double choice_over_fastest(const FusedSweepRow& row);

/// What the run was made on, for the report and its JSON.
struct FusedSweepContext {
    std::string device;
    int driver = 0, runtime = 0, reps = 0;
    double tolerance = 0;  ///< rows whose choice_over_fastest exceeds it are flagged
};

/// The table's heading, then one line a row as each is measured (flagged "SLOW" over the tolerance, "WRONG OUTPUT"
/// unverified), then the summary: how many rows are over the tolerance, the worst, and how many were wrong.
void print_fused_sweep_heading(std::ostream& out);
void print_fused_sweep_row(std::ostream& out, const FusedSweepRow& row, double tolerance);
void print_fused_sweep_summary(std::ostream& out, const std::vector<FusedSweepRow>& rows, double tolerance);

/// The rows as JSON: {"device", "driver", "runtime", "reps", "tolerance", "rows": [{type, width, height, chosen,
/// fastest, choice_ms, vectorized_ms, tiled_ms, separate_ms, choice_over_fastest, over_tolerance, verified}]}.
void write_fused_sweep_json(std::ostream& out, const FusedSweepContext& context, const std::vector<FusedSweepRow>& rows);

}  // namespace gpurotate::bench
