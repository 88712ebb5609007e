#pragma once
// How a JPEG file begins, for the paths that pick a JPEG codec from a file's bytes.

#include <cstdint>
#include <vector>

namespace gpurotate::detail {

/// Whether `bytes` begin with a JPEG start-of-image marker followed by a marker (FF D8 FF).
inline bool is_jpeg(const std::vector<std::uint8_t>& bytes) {
    return bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff;
}

}  // namespace gpurotate::detail
