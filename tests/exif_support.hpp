#pragma once
// A small EXIF block with an orientation tag and pixel dimensions, for tests that need a file with a
// given EXIF orientation; one with a JPEG thumbnail in IFD1, and the thumbnail read back from a block, both
// written here from the EXIF specification's layout (not with gpurotate's reader).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace test_support {

// Little-endian EXIF: IFD0 with Orientation and a pointer to the Exif IFD, which holds PixelXDimension
// and PixelYDimension (SHORT), at the byte offsets below.
constexpr std::size_t pixel_x_at = 48, pixel_y_at = 60;
inline std::vector<std::uint8_t> exif_with(int orientation, std::uint16_t pixel_x, std::uint16_t pixel_y) {
    std::vector<std::uint8_t> e(68, 0);
    const auto put16 = [&](std::size_t at, unsigned v) { e[at] = static_cast<std::uint8_t>(v), e[at + 1] = static_cast<std::uint8_t>(v >> 8); };
    const auto put32 = [&](std::size_t at, unsigned v) { put16(at, v & 0xffff), put16(at + 2, v >> 16); };
    e[0] = 'I', e[1] = 'I', put16(2, 42), put32(4, 8);
    put16(8, 2);
    put16(10, 0x0112), put16(12, 3), put32(14, 1), put16(18, static_cast<unsigned>(orientation));
    put16(22, 0x8769), put16(24, 4), put32(26, 1), put32(30, 38);
    put32(34, 0);
    put16(38, 2);
    put16(40, 0xa002), put16(42, 3), put32(44, 1), put16(pixel_x_at, pixel_x);
    put16(52, 0xa003), put16(54, 3), put32(56, 1), put16(pixel_y_at, pixel_y);
    put32(64, 0);
    return e;
}

// exif_with's block, IFD0 linked to an IFD1 (Compression 6, JPEGInterchangeFormat and its length) at 68, and the
// JPEG `thumbnail` after it, at the block's end as cameras write it, or followed by `trailing` bytes.
constexpr std::size_t thumbnail_at = 68 + 2 + 3 * 12 + 4;
inline std::vector<std::uint8_t> exif_with_thumbnail(int orientation, std::uint16_t pixel_x, std::uint16_t pixel_y, const std::string& thumbnail,
                                                     std::size_t trailing = 0) {
    std::vector<std::uint8_t> e = exif_with(orientation, pixel_x, pixel_y);
    e.resize(thumbnail_at, 0);
    const auto put16 = [&](std::size_t at, unsigned v) { e[at] = static_cast<std::uint8_t>(v), e[at + 1] = static_cast<std::uint8_t>(v >> 8); };
    const auto put32 = [&](std::size_t at, unsigned v) { put16(at, v & 0xffff), put16(at + 2, v >> 16); };
    put32(34, 68);
    put16(68, 3);
    put16(70, 0x0103), put16(72, 3), put32(74, 1), put16(78, 6);
    put16(82, 0x0201), put16(84, 4), put32(86, 1), put32(90, static_cast<unsigned>(thumbnail_at));
    put16(94, 0x0202), put16(96, 4), put32(98, 1), put32(102, static_cast<unsigned>(thumbnail.size()));
    put32(106, 0);
    e.insert(e.end(), thumbnail.begin(), thumbnail.end());
    e.resize(e.size() + trailing, 0x5a);
    return e;
}

// The JPEG thumbnail of an EXIF block in either byte order (IFD1's JPEGInterchangeFormat and its length), or
// nothing where it has none or it lies outside the block.
inline std::optional<std::string> exif_thumbnail(const std::vector<std::uint8_t>& e) {
    if (e.size() < 8 || (e[0] != 'I' && e[0] != 'M')) return std::nullopt;
    const bool big = e[0] == 'M';
    const auto get = [&](std::size_t at, int size) -> std::optional<std::uint32_t> {
        if (at + static_cast<std::size_t>(size) > e.size()) return std::nullopt;
        std::uint32_t v = 0;
        for (int i = 0; i < size; ++i) v = v << 8 | e[at + static_cast<std::size_t>(big ? i : size - 1 - i)];
        return v;
    };
    const auto ifd0 = get(4, 4);
    const auto count0 = ifd0 ? get(*ifd0, 2) : std::nullopt;
    const auto ifd1 = count0 ? get(*ifd0 + 2 + 12 * *count0, 4) : std::nullopt;
    const auto count1 = ifd1 && *ifd1 ? get(*ifd1, 2) : std::nullopt;
    std::optional<std::uint32_t> at, length;
    for (std::uint32_t i = 0; count1 && i < *count1; ++i) {
        const std::size_t entry = *ifd1 + 2 + 12 * i;
        const auto tag = get(entry, 2);
        if (tag == 0x0201u) at = get(entry + 8, 4);
        if (tag == 0x0202u) length = get(entry + 8, 4);
    }
    if (!at || !length || *at + std::size_t{*length} > e.size()) return std::nullopt;
    return std::string(e.begin() + *at, e.begin() + *at + *length);
}

}  // namespace test_support
