// The GPU tests' main: without a usable GPU every case exits with 77, which ctest reports as skipped
// (SKIP_RETURN_CODE), never as passed. Listing the cases (test discovery at build time) needs no GPU.

#define DOCTEST_CONFIG_IMPLEMENT
#include "run_doctest.hpp"

#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include <iostream>

int main(int argc, char** argv) {
    const bool listing = test_support::is_listing(argc, argv);
    if (!listing && !gpurotate::cuda_available()) {
        std::string problem;
        gpurotate::cuda_devices(&problem);
        std::cout << "SKIPPED: no usable CUDA device (" << problem << ")\n";
        return 77;
    }
    return test_support::run_doctest(argc, argv, listing);
}
