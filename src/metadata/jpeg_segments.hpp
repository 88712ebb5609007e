#pragma once
// A JPEG's marker segments before the scan: where the metadata, the quantization tables and the frame are.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpurotate::detail {

/// One segment: its marker (the byte after 0xFF), and its payload's offset and size in the file.
struct JpegSegment {
    std::uint8_t marker;
    std::size_t payload, size;
};

/// The segments from SOI to the first scan (or the end, or the first damaged length); none when the bytes
/// do not begin with SOI.
inline std::vector<JpegSegment> jpeg_segments(const std::vector<std::uint8_t>& b) {
    std::vector<JpegSegment> segments;
    if (b.size() < 4 || b[0] != 0xff || b[1] != 0xd8) return segments;
    for (std::size_t pos = 2; pos + 4 <= b.size() && b[pos] == 0xff;) {
        const std::uint8_t marker = b[pos + 1];
        if (marker == 0xda || marker == 0xd9) break;  // the scan: no metadata or table after it matters here
        const std::size_t length = std::size_t{b[pos + 2]} << 8 | b[pos + 3];
        if (length < 2 || pos + 2 + length > b.size()) break;
        segments.push_back({marker, pos + 4, length - 2});
        pos += 2 + length;
    }
    return segments;
}

}  // namespace gpurotate::detail
