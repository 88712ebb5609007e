#include "codecs/declared_extent.hpp"

#include "codecs/byte_order.hpp"

#include <cstring>

namespace gpurotate::detail {
namespace {

std::optional<Extent> tiff_extent(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() < 8) return std::nullopt;
    const bool big_endian = bytes[0] == 'M' && bytes[1] == 'M';
    if (!big_endian && !(bytes[0] == 'I' && bytes[1] == 'I')) return std::nullopt;
    const auto version = read_unsigned(bytes, 2, 2, big_endian);
    if (version != 42u && version != 43u) return std::nullopt;
    const bool big_tiff = version == 43u;
    // Classic TIFF: 32-bit offsets, 2-byte entry counts, 12-byte entries; BigTIFF: 64, 8 and 20.
    const int offset_size = big_tiff ? 8 : 4, count_size = big_tiff ? 8 : 2, entry_size = big_tiff ? 20 : 12;
    const auto ifd = read_unsigned(bytes, big_tiff ? 8 : 4, offset_size, big_endian);
    const auto entries = ifd ? read_unsigned(bytes, *ifd, count_size, big_endian) : std::nullopt;
    if (!entries) return std::nullopt;
    std::optional<std::uint64_t> width, height;
    for (std::uint64_t i = 0; i < *entries && i < 4096; ++i) {
        const std::uint64_t entry = *ifd + static_cast<std::uint64_t>(count_size) + i * entry_size;
        const auto tag = read_unsigned(bytes, entry, 2, big_endian);
        const auto type = read_unsigned(bytes, entry + 2, 2, big_endian);
        if (!tag || !type) return std::nullopt;
        if (*tag != 256 && *tag != 257) continue;
        // SHORT (3) or LONG (4) or LONG8 (16), left-justified in the value field.
        const int value_size = *type == 3 ? 2 : *type == 4 ? 4 : *type == 16 ? 8 : 0;
        if (value_size == 0) return std::nullopt;
        const auto value = read_unsigned(bytes, entry + 4 + static_cast<std::uint64_t>(offset_size), value_size, big_endian);
        (*tag == 256 ? width : height) = value;
    }
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
