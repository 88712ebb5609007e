#include "jpeg/jpeg_work_limits.hpp"

#include "jpeg/jpeg_signature.hpp"

#include <gpurotate/error.hpp>

#include <cstring>

namespace gpurotate::detail {

void continue_jpeg_walk(const std::uint8_t* begin, std::size_t size, JpegMarkerWalk& walk) {
    std::size_t& pos = walk.position;
    // In entropy-coded data a 0xFF byte is followed by 0x00 (a stuffed byte) or a restart marker, so every
    // other 0xFF xx pair is a marker: counting them needs no decoding. Where the bytes run out the walk
    // stops at the marker or search it was at, to be taken up there.
    while (!walk.ended && pos + 1 < size) {
        const void* ff = std::memchr(begin + pos, 0xff, size - pos);
        if (!ff) {
            pos = size;
            break;
        }
        pos = static_cast<std::size_t>(static_cast<const std::uint8_t*>(ff) - begin);
        while (pos + 1 < size && begin[pos + 1] == 0xff) ++pos;  // fill bytes
        if (pos + 1 >= size) break;
        const std::uint8_t marker = begin[pos + 1];
        if (marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) {
            pos += 2;
            continue;
        }
        if (marker == 0xd9) {
            walk.ended = true;
            walk.end = pos + 2;
            break;
        }
        if (pos + 3 >= size) break;
        if (marker == 0xda) {
            ++walk.scans;
        } else {
            ++walk.segments;
        }
        pos += 2 + (std::size_t{begin[pos + 2]} << 8 | begin[pos + 3]);  // the segment; a scan's data follows it
    }
}

std::size_t check_jpeg_work(const std::vector<std::uint8_t>& bytes, const std::string& path, int max_scans) {
    if (!is_jpeg(bytes)) return 0;
    JpegMarkerWalk walk;
    continue_jpeg_walk(bytes.data(), bytes.size(), walk);
    if (max_scans > 0 && walk.scans > max_scans) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': it has more than " + std::to_string(max_scans) +
                                          " scans, each a pass over the whole image (--max-scans raises the limit)");
    }
    if (walk.segments > max_jpeg_marker_segments) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': it has more than " + std::to_string(max_jpeg_marker_segments) +
                                          " marker segments (a camera's JPEG has a few dozen)");
    }
    return walk.ended ? walk.end : 0;
}

}  // namespace gpurotate::detail
