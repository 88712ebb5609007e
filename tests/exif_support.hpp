#pragma once
// A small EXIF block with an orientation tag and pixel dimensions, for tests that need a file with a
// given EXIF orientation.

#include <cstddef>
#include <cstdint>
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

}  // namespace test_support
