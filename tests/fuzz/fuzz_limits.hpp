#pragma once
// What every harness shares: a pixel limit that keeps a fuzzed header from asking for gigabytes (the
// limit is itself under test), and the name errors are reported under.

#include <gpurotate/io.hpp>

#include <cstdint>

namespace gpurotate::fuzz {

/// 4 megapixels: far above the corpus images, far below libFuzzer's 2 GiB memory limit at 16 bytes a pixel.
inline constexpr std::int64_t max_pixels = std::int64_t{1} << 22;

inline ReadOptions read_options() { return ReadOptions{HostMemory::pageable, max_pixels}; }

}  // namespace gpurotate::fuzz
