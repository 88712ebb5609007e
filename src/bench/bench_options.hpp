#pragma once
// The command line of gpurotate-bench.

#include "bench/bench.hpp"

#include <optional>

namespace gpurotate::bench {

/// Parses argv (after `bench`). Returns nothing when the parser already handled the request (--help) and
/// the program should exit with `exit_status`; throws Error (usage) for a bad command line.
std::optional<BenchOptions> parse_bench_options(int argc, char** argv, int& exit_status);

}  // namespace gpurotate::bench
