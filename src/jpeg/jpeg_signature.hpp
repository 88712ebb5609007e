#pragma once
// How a JPEG file begins, for the paths that pick a JPEG codec from a file's bytes.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpurotate::detail {

/// Whether the `size` bytes at `bytes` begin with a JPEG start-of-image marker followed by a marker (FF D8 FF).
inline bool is_jpeg(const std::uint8_t* bytes, std::size_t size) { return size >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff; }

inline bool is_jpeg(const std::vector<std::uint8_t>& bytes) { return is_jpeg(bytes.data(), bytes.size()); }

}  // namespace gpurotate::detail
