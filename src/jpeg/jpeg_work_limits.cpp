#include "jpeg/jpeg_work_limits.hpp"

#include "jpeg/jpeg_signature.hpp"

#include <gpurotate/error.hpp>

#include <cstring>

namespace gpurotate::detail {

void check_jpeg_work(const std::vector<std::uint8_t>& bytes, const std::string& path, int max_scans) {
    if (!is_jpeg(bytes)) return;
    const std::uint8_t* const begin = bytes.data();
    const std::size_t size = bytes.size();
    int scans = 0, segments = 0;
    std::size_t pos = 2;
    // In entropy-coded data a 0xFF byte is followed by 0x00 (a stuffed byte) or a restart marker, so every
    // other 0xFF xx pair is a marker: counting them needs no decoding.
    while (pos + 1 < size) {
        const void* ff = std::memchr(begin + pos, 0xff, size - pos);
        if (!ff) break;
        pos = static_cast<std::size_t>(static_cast<const std::uint8_t*>(ff) - begin);
        while (pos + 1 < size && begin[pos + 1] == 0xff) ++pos;  // fill bytes
        if (pos + 1 >= size) break;
        const std::uint8_t marker = begin[pos + 1];
        if (marker == 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01) {
            pos += 2;
            continue;
        }
        if (marker == 0xd9) break;  // EOI
        if (marker == 0xda && max_scans > 0 && ++scans > max_scans) {
            throw Error(ErrorCode::input, "cannot decode '" + path + "': it has more than " + std::to_string(max_scans) +
                                              " scans, each a pass over the whole image (--max-scans raises the limit)");
        }
        if (marker != 0xda && ++segments > max_jpeg_marker_segments) {
            throw Error(ErrorCode::input, "cannot decode '" + path + "': it has more than " + std::to_string(max_jpeg_marker_segments) +
                                              " marker segments (a camera's JPEG has a few dozen)");
        }
        if (pos + 3 >= size) break;
        pos += 2 + (std::size_t{begin[pos + 2]} << 8 | begin[pos + 3]);  // the segment; a scan's data follows it
    }
}

}  // namespace gpurotate::detail
