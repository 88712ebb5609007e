#pragma once
// What every harness shares: a pixel limit that keeps a fuzzed header from asking for gigabytes (the
// limit is itself under test), and the name errors are reported under.

#include <gpurotate/io.hpp>

#include <cstdint>

namespace gpurotate::fuzz {

/// 256K pixels (512x512): far above the corpus images, and small enough that no input costs a harness more
/// than a few milliseconds. At 4 megapixels, fixed-seed CI runs that mutated their way to big headers ran at
/// a third of their speed or less (fuzz_stb 1,064 executions a second instead of 25,000, fuzz_jpeg_transform
/// 974 instead of 6,250; bench/RESULTS.md, 2026-11-24), which a change anywhere could set off.
inline constexpr std::int64_t max_pixels = std::int64_t{1} << 18;

inline ReadOptions read_options() { return ReadOptions{HostMemory::pageable, max_pixels}; }

}  // namespace gpurotate::fuzz
