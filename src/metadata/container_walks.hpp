#pragma once
// The top-level layout of two containers whose pieces more than one reader looks into: a WebP's RIFF chunks
// (the image chunk's kind; ICC, EXIF and XMP) and a Photoshop file's sections (whether the merged image is
// all there; what stb leaves behind).

#include "metadata/byte_order.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace gpurotate::detail {

/// One chunk of a WebP file: its fourcc, and where its data begin and how many bytes it declares.
struct RiffChunk {
    std::string_view fourcc;  ///< points into the file's bytes
    std::size_t data = 0;
    std::size_t size = 0;
    bool complete = false;  ///< whether all `size` bytes are in the file
};

/// The chunks after "RIFF", the size and "WEBP" (each a fourcc, a little-endian size, the data padded to even),
/// in file order, up to and including the first one cut short; empty for bytes that are not a WebP.
inline std::vector<RiffChunk> webp_chunks(const std::vector<std::uint8_t>& file) {
    std::vector<RiffChunk> chunks;
    if (file.size() < 12 || std::memcmp(file.data(), "RIFF", 4) != 0 || std::memcmp(file.data() + 8, "WEBP", 4) != 0) return chunks;
    for (std::size_t at = 12; at + 8 <= file.size();) {
        const std::size_t size = le32(file, at + 4);
        const bool complete = size <= file.size() - at - 8;
        chunks.push_back({std::string_view(reinterpret_cast<const char*>(file.data() + at), 4), at + 8, size, complete});
        if (!complete) break;
        at += 8 + size + (size & 1);
    }
    return chunks;
}

/// A Photoshop file's header and its three sections before the merged image: the colour mode data, the image
/// resources (ICC profile, resolution, ...) and the layers, each a big-endian length and that many bytes.
struct PsdLayout {
    std::uint32_t channels = 0, height = 0, width = 0, depth = 0;
    std::array<std::uint64_t, 3> section_sizes{};  ///< 0 for a section whose length is past the end
    bool sections_complete = false;                ///< whether all three lengths are in the file
    std::uint64_t image_data = 0;                  ///< where the merged image begins (if sections_complete)
};

/// The layout of "8BPS" bytes; nothing for others or a header cut short.
inline std::optional<PsdLayout> psd_layout(const std::vector<std::uint8_t>& b) {
    if (b.size() < 26 || std::memcmp(b.data(), "8BPS", 4) != 0) return std::nullopt;
    const auto be = [&](std::uint64_t at, int size) { return read_unsigned(b, at, size, true); };
    PsdLayout layout;
    layout.channels = static_cast<std::uint32_t>(*be(12, 2));
    layout.height = static_cast<std::uint32_t>(*be(14, 4));
    layout.width = static_cast<std::uint32_t>(*be(18, 4));
    layout.depth = static_cast<std::uint32_t>(*be(22, 2));
    std::uint64_t at = 26;
    for (std::uint64_t& size : layout.section_sizes) {
        const auto length = be(at, 4);
        if (!length) return layout;
        size = *length;
        at += 4 + size;
    }
    layout.sections_complete = true;
    layout.image_data = at;
    return layout;
}

}  // namespace gpurotate::detail
