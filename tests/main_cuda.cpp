// The GPU tests' main: without a usable GPU every case exits with 77, which ctest reports as skipped
// (SKIP_RETURN_CODE), never as passed. Listing the cases (test discovery at build time) needs no GPU.

#define DOCTEST_CONFIG_IMPLEMENT
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    bool listing = false;
    for (int i = 1; i < argc; ++i) listing = listing || std::strncmp(argv[i], "--list", 6) == 0 || std::strstr(argv[i], "-ltc");
    if (!listing && !gpurotate::cuda_available()) {
        std::string problem;
        gpurotate::cuda_devices(&problem);
        std::cout << "SKIPPED: no usable CUDA device (" << problem << ")\n";
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
