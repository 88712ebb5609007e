#pragma once
// A TIFF's first image file directory, read from the bytes: which tags it has and their first values, and
// how many directories (pages) follow. For the pixel limit's header probe and for saying what the OpenCV
// decoder, which reads the first page's pixels and no tags, leaves behind.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpurotate::detail {

struct TiffDirectory {
    struct Entry {
        std::uint16_t type = 0;
        std::uint64_t count = 0;
        std::uint64_t at = 0;  ///< where its values begin in the file (in the entry, or where it points)
    };
    std::map<std::uint16_t, Entry> entries;         ///< tag -> where its values are
    std::map<std::uint16_t, std::uint64_t> values;  ///< tag -> its first value, for SHORT, LONG and LONG8 tags
    std::vector<std::uint16_t> tags;                ///< every tag of the first directory, in file order
    int pages = 1;                                  ///< directories in the chain (at most 1000 are counted)
    bool big_endian = false;

    std::optional<std::uint64_t> value(std::uint16_t tag) const {
        const auto it = values.find(tag);
        return it == values.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
    }

    /// The values of `tag` in `file` (the bytes this directory was read from) where it is of `type`, one of
    /// the one-byte types (BYTE 1, ASCII 2, UNDEFINED 7), and they are all in the file; nothing otherwise.
    std::optional<std::vector<std::uint8_t>> bytes_of(const std::vector<std::uint8_t>& file, std::uint16_t tag, std::uint16_t type) const {
        const auto it = entries.find(tag);
        if (it == entries.end() || it->second.type != type) return std::nullopt;
        return value_bytes(file, tag);
    }

    /// The bytes of `tag`'s values in `file` as stored (count x the type's size), whatever the type; nothing where they
    /// are not all in the file or the type is not TIFF's.
    std::optional<std::vector<std::uint8_t>> value_bytes(const std::vector<std::uint8_t>& file, std::uint16_t tag) const;

    /// The text tags among this directory's (ImageDescription, Make, Model, Software, DateTime, Artist, HostComputer,
    /// Copyright), in ascending tag order, each once (a malformed file may repeat one): ASCII values in `file` without
    /// their NUL, leaving out empty ones and any with a NUL inside (several strings in one tag).
    std::vector<std::pair<std::uint16_t, std::string>> text_tags(const std::vector<std::uint8_t>& file) const;
};

/// Bytes of one value of a TIFF type: BYTE, ASCII, SBYTE, UNDEFINED 1; SHORT, SSHORT 2; LONG, SLONG, FLOAT, IFD 4;
/// RATIONAL, SRATIONAL, DOUBLE and BigTIFF's LONG8, SLONG8, IFD8 8; 0 for a type TIFF does not define.
constexpr int tiff_type_bytes(std::uint64_t type) {
    switch (type) {
        case 1: case 2: case 6: case 7: return 1;
        case 3: case 8: return 2;
        case 4: case 9: case 11: case 13: return 4;
        case 5: case 10: case 12: case 16: case 17: case 18: return 8;
        default: return 0;
    }
}

/// The first directory of a classic TIFF or a BigTIFF; nothing for other bytes or a damaged header.
std::optional<TiffDirectory> read_tiff_directory(const std::vector<std::uint8_t>& bytes);


}  // namespace gpurotate::detail
