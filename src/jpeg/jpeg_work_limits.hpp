#pragma once
// The work a JPEG may ask for, bounded before any decoder sees it: a progressive file of a few hundred
// kilobytes can hold hundreds of scans, each a pass over every coefficient (a 879 kB file of 694 scans took
// 84 s to rotate), and a file of a few megabytes hundreds of thousands of marker segments. One walk over the
// bytes counts both, for every JPEG path (TurboJPEG's decode, the lossless transform, nvJPEG's).

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Marker segments (APPn, COM, tables, ...) a JPEG may carry; a camera's file has a few dozen.
inline constexpr int max_jpeg_marker_segments = 10000;

/// Throws Error (input) naming `path` where the JPEG `bytes` has more than `max_scans` scans (0: no limit)
/// or more than max_jpeg_marker_segments marker segments. Bytes that are not a JPEG pass.
void check_jpeg_work(const std::vector<std::uint8_t>& bytes, const std::string& path, int max_scans);

}  // namespace gpurotate::detail
