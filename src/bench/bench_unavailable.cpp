// `gpurotate bench` in a build without CUDA.

#include "bench/bench.hpp"

#include <gpurotate/error.hpp>

namespace gpurotate::bench {

int run_bench(const BenchOptions&, std::ostream&) {
    throw Error(ErrorCode::device, "gpurotate bench needs the CUDA backend; this build has none");
}

}  // namespace gpurotate::bench
