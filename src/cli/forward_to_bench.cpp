#include "cli/forward_to_bench.hpp"

#include "core/executable_folder.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

namespace gpurotate::cli {

void forward_to_bench(int argc, char** argv) {
    const std::string bench = detail::executable_folder() + "/gpurotate-bench";
    std::vector<char*> args{const_cast<char*>(bench.c_str())};
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(bench.c_str(), args.data());
    const int error = errno;
    throw Error(ErrorCode::usage, "bench: cannot run " + bench + ": " + std::strerror(error) +
                                      " (the benchmark is the executable gpurotate-bench, beside gpurotate where it was built: "
                                      "cmake --build build --target gpurotate-bench, then cmake --install again)");
}

}  // namespace gpurotate::cli
