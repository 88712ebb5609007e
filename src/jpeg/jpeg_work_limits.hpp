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
/// or more than max_jpeg_marker_segments marker segments. Bytes that are not a JPEG pass. Returns the offset
/// just past the JPEG's EOI marker, which the same walk finds (0: not a JPEG, or no EOI before the bytes end).
std::size_t check_jpeg_work(const std::vector<std::uint8_t>& bytes, const std::string& path, int max_scans);

/// A walk over a JPEG's markers that can be taken up again as more bytes arrive (a stream read in chunks).
struct JpegMarkerWalk {
    std::size_t position = 2;  ///< where the walk goes on: past the SOI marker at the start
    int scans = 0, segments = 0;
    bool ended = false;        ///< the EOI marker was reached
    std::size_t end = 0;       ///< with `ended`, the offset just past it
};

/// Walks the markers of the JPEG `bytes[0, size)` from `walk.position` as far as the bytes go, counting its
/// scans and marker segments, and stops at EOI (`walk.ended`).
void continue_jpeg_walk(const std::uint8_t* bytes, std::size_t size, JpegMarkerWalk& walk);

}  // namespace gpurotate::detail
