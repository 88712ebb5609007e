// gpurotate-bench (also run as `gpurotate bench`): the kernel study, the ceilings and the peers.

#include "bench/bench_options.hpp"
#include "cli/exit_status.hpp"

#include <iostream>

int main(int argc, char** argv) {
    return gpurotate::cli::exit_status_of("gpurotate-bench", [&] {
        int exit_status = 0;
        const auto options = gpurotate::bench::parse_bench_options(argc, argv, exit_status);
        if (!options) return exit_status;
        return options->cpu ? gpurotate::bench::run_cpu_bench(*options, std::cout) : gpurotate::bench::run_bench(*options, std::cout);
    });
}
