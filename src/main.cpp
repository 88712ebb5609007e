// Turns the command line into a job and every failure into its documented exit status; nothing else.

#include "cli/escaping_stderr.hpp"
#include "cli/exit_status.hpp"
#include "cli/file_jobs.hpp"
#include "cli/forward_to_bench.hpp"
#include "cli/options.hpp"
#include "cli/run.hpp"

#include <csignal>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    // Past a file-size limit (ulimit -f) the kernel's SIGXFSZ would kill the process mid-write and leave the
    // temporary file behind; ignored, the write fails with EFBIG and takes the documented output-error path,
    // which removes it.
    std::signal(SIGXFSZ, SIG_IGN);
    const gpurotate::cli::EscapedStderr escaped;  // every message names files, whose names may hold escape sequences
    return gpurotate::cli::exit_status_of("gpurotate", [&] {
        if (argc >= 2 && std::strcmp(argv[1], "bench") == 0) gpurotate::cli::forward_to_bench(argc, argv);
        int exit_status = 0;
        const auto options = gpurotate::cli::parse_options(argc, argv, exit_status);
        if (!options) return exit_status;
        if (options->show_version) {
            gpurotate::cli::print_version(std::cout, options->verbose);
            return 0;
        }
        if (options->augment) return gpurotate::augment::run_augment(*options->augment);
        return gpurotate::cli::run_file_jobs(*options, std::cerr);
    });
}
