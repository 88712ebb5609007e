#pragma once
// `gpurotate bench ...` is gpurotate-bench: the benchmark and its peers (NPP, cuBLAS, the study kernels)
// live in an executable of their own, so that gpurotate maps none of them.

namespace gpurotate::cli {

/// Replaces this process with the gpurotate-bench installed beside this executable, passing it
/// argv[2...] (everything after `bench`). Returns only by throwing Error (usage) when there is none.
[[noreturn]] void forward_to_bench(int argc, char** argv);

}  // namespace gpurotate::cli
