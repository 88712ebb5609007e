#pragma once
// Bounds-checked reads of unsigned integers in a file's byte order (TIFF and EXIF say theirs in the header).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpurotate::detail {

/// The unsigned integer of `size` bytes (1 to 8) at `pos` in `bytes`, big- or little-endian; nothing where
/// it would run past the end.
inline std::optional<std::uint64_t> read_unsigned(const std::vector<std::uint8_t>& bytes, std::uint64_t pos, int size, bool big_endian) {
    if (pos > bytes.size() || bytes.size() - pos < static_cast<std::uint64_t>(size)) return std::nullopt;
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) v = v << 8 | bytes[pos + static_cast<std::uint64_t>(big_endian ? i : size - 1 - i)];
    return v;
}

/// Little-endian 16- and 32-bit values at `at` (BMP headers, RIFF chunks, OpenEXR attributes); the caller
/// has checked that the bytes are there.
inline std::uint32_t le16(const std::vector<std::uint8_t>& b, std::size_t at) { return b[at] | std::uint32_t{b[at + 1]} << 8; }
inline std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) { return le16(b, at) | le16(b, at + 2) << 16; }

}  // namespace gpurotate::detail
