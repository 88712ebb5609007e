#include "formats/declared_extent.hpp"

#include "metadata/tiff_directory.hpp"

#include <cstring>

namespace gpurotate::detail {
namespace {

std::optional<Extent> tiff_extent(const std::vector<std::uint8_t>& bytes) {
    const auto directory = read_tiff_directory(bytes);
    const auto width = directory ? directory->value(256) : std::nullopt;
    const auto height = directory ? directory->value(257) : std::nullopt;
    if (!width || !height) return std::nullopt;
    // A side beyond 2^31 is as refusable as any huge size: saturate rather than wrap.
    constexpr std::uint64_t cap = std::uint64_t{1} << 31;
    return Extent{static_cast<std::int64_t>(*width < cap ? *width : cap), static_cast<std::int64_t>(*height < cap ? *height : cap)};
}

std::optional<Extent> webp_extent(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() < 30 || std::memcmp(bytes.data(), "RIFF", 4) != 0 || std::memcmp(bytes.data() + 8, "WEBP", 4) != 0) {
        return std::nullopt;
    }
    const std::uint8_t* chunk = bytes.data() + 12;
    const std::uint8_t* data = chunk + 8;
    const auto le24 = [](const std::uint8_t* p) { return std::int64_t{p[0]} | std::int64_t{p[1]} << 8 | std::int64_t{p[2]} << 16; };
    if (std::memcmp(chunk, "VP8X", 4) == 0) return Extent{le24(data + 4) + 1, le24(data + 7) + 1};
    if (std::memcmp(chunk, "VP8 ", 4) == 0) {
        if (data[3] != 0x9d || data[4] != 0x01 || data[5] != 0x2a) return std::nullopt;
        return Extent{(data[6] | data[7] << 8) & 0x3fff, (data[8] | data[9] << 8) & 0x3fff};
    }
    if (std::memcmp(chunk, "VP8L", 4) == 0) {
        if (data[0] != 0x2f) return std::nullopt;
        const std::uint32_t bits = data[1] | data[2] << 8 | data[3] << 16 | static_cast<std::uint32_t>(data[4]) << 24;
        return Extent{static_cast<std::int64_t>(bits & 0x3fff) + 1, static_cast<std::int64_t>(bits >> 14 & 0x3fff) + 1};
    }
    return std::nullopt;
}

}  // namespace

std::optional<Extent> declared_extent(const std::vector<std::uint8_t>& bytes) {
    if (auto e = tiff_extent(bytes)) return e;
    return webp_extent(bytes);
}

}  // namespace gpurotate::detail
