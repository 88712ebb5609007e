// Turns the command line into a job and every failure into its documented exit status; nothing else.

#include "cli/options.hpp"
#include "cli/run.hpp"

#include <gpurotate/error.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    try {
        int exit_status = 0;
        const auto options = gpurotate::cli::parse_options(argc, argv, exit_status);
        if (!options) return exit_status;
        if (options->show_version) {
            gpurotate::cli::print_version(std::cout);
            return 0;
        }
        if (options->bench) return gpurotate::bench::run_bench(*options->bench, std::cout);
        if (options->augment) return gpurotate::augment::run_augment(*options->augment);
        gpurotate::cli::run_single_image(*options, std::cerr);
        return 0;
    } catch (const gpurotate::Error& e) {
        std::cerr << "gpurotate: error: " << e.what() << "\n";
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::cerr << "gpurotate: internal error: " << e.what() << "\n";
        return static_cast<int>(gpurotate::ErrorCode::internal);
    }
}
