#include "metadata/tiff_directory.hpp"

#include "metadata/byte_order.hpp"

#include <set>

namespace gpurotate::detail {

std::optional<std::vector<std::uint8_t>> TiffDirectory::value_bytes(const std::vector<std::uint8_t>& file, std::uint16_t tag) const {
    const auto it = entries.find(tag);
    if (it == entries.end() || tiff_type_bytes(it->second.type) == 0 || it->second.count > file.size()) return std::nullopt;
    const std::uint64_t size = it->second.count * static_cast<std::uint64_t>(tiff_type_bytes(it->second.type));
    if (it->second.at > file.size() || file.size() - it->second.at < size) return std::nullopt;
    const auto first = file.begin() + static_cast<std::ptrdiff_t>(it->second.at);
    return std::vector<std::uint8_t>(first, first + static_cast<std::ptrdiff_t>(size));
}

std::vector<std::pair<std::uint16_t, std::string>> TiffDirectory::text_tags(const std::vector<std::uint8_t>& file) const {
    static constexpr std::uint16_t text[] = {270, 271, 272, 305, 306, 315, 316, 33432};
    std::vector<std::pair<std::uint16_t, std::string>> out;
    for (const std::uint16_t tag : text) {  // `entries` has each tag once, its last in the file
        const auto bytes = entries.count(tag) != 0 ? bytes_of(file, tag, 2) : std::nullopt;
        if (!bytes) continue;
        std::string value(bytes->begin(), bytes->end());
        while (!value.empty() && value.back() == '\0') value.pop_back();
        if (!value.empty() && value.find('\0') == std::string::npos) out.emplace_back(tag, value);
    }
    return out;
}

std::optional<TiffDirectory> read_tiff_directory(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() < 8) return std::nullopt;
    const bool big_endian = bytes[0] == 'M' && bytes[1] == 'M';
    if (!big_endian && !(bytes[0] == 'I' && bytes[1] == 'I')) return std::nullopt;
    const auto version = read_unsigned(bytes, 2, 2, big_endian);
    if (version != 42u && version != 43u) return std::nullopt;
    const bool big_tiff = version == 43u;
    // Classic TIFF: 32-bit offsets, 2-byte entry counts, 12-byte entries; BigTIFF: 64, 8 and 20.
    const int offset_size = big_tiff ? 8 : 4, count_size = big_tiff ? 8 : 2, entry_size = big_tiff ? 20 : 12;
    const auto first = read_unsigned(bytes, big_tiff ? 8 : 4, offset_size, big_endian);
    const auto entries = first ? read_unsigned(bytes, *first, count_size, big_endian) : std::nullopt;
    if (!entries) return std::nullopt;
    TiffDirectory directory;
    directory.big_endian = big_endian;
    for (std::uint64_t i = 0; i < *entries && i < 4096; ++i) {
        const std::uint64_t entry = *first + static_cast<std::uint64_t>(count_size) + i * entry_size;
        const auto tag = read_unsigned(bytes, entry, 2, big_endian);
        const auto type = read_unsigned(bytes, entry + 2, 2, big_endian);
        const auto count = read_unsigned(bytes, entry + 4, offset_size, big_endian);
        if (!tag || !type || !count) return std::nullopt;
        directory.tags.push_back(static_cast<std::uint16_t>(*tag));
        // The values lie in the entry's value field (left-justified) where they all fit there, else at the
        // offset it holds; a type TIFF does not define is taken as 8 bytes a value.
        const int value_size = tiff_type_bytes(*type) != 0 ? tiff_type_bytes(*type) : 8;
        std::uint64_t at = entry + 4 + static_cast<std::uint64_t>(offset_size);
        if (*count > static_cast<std::uint64_t>(offset_size / value_size)) {
            const auto offset = read_unsigned(bytes, at, offset_size, big_endian);
            if (!offset) continue;
            at = *offset;
        }
        directory.entries[static_cast<std::uint16_t>(*tag)] = {static_cast<std::uint16_t>(*type), *count, at};
        // The first value of an integer tag: BYTE (1), SHORT (3), LONG (4), LONG8 (16), and the signed ones
        // libtiff also takes for sizes (SBYTE 6, SSHORT 8, SLONG 9, SLONG8 17), a negative one as the largest
        // (so that the pixel limit refuses it).
        const bool is_signed = *type == 6 || *type == 8 || *type == 9 || *type == 17;
        if (*type != 1 && *type != 3 && *type != 4 && *type != 16 && !is_signed) continue;
        const int size = *type == 16 || *type == 17 ? 8 : value_size;
        auto value = read_unsigned(bytes, at, size, big_endian);
        if (!value) continue;
        if (is_signed && size < 8 && (*value >> (8 * size - 1)) != 0) value = ~std::uint64_t{0} >> 1;
        if (is_signed && size == 8 && (*value >> 63) != 0) value = ~std::uint64_t{0} >> 1;
        directory.values.emplace(static_cast<std::uint16_t>(*tag), *value);
    }
    // The chain of directories: each ends with the offset of the next (0 ends it); a loop ends the count.
    std::set<std::uint64_t> seen{*first};
    std::uint64_t ifd = *first;
    for (;;) {
        const auto count = read_unsigned(bytes, ifd, count_size, big_endian);
        const auto next = count ? read_unsigned(bytes, ifd + static_cast<std::uint64_t>(count_size) + *count * static_cast<std::uint64_t>(entry_size),
                                                offset_size, big_endian)
                                : std::nullopt;
        if (!next || *next == 0 || !seen.insert(*next).second || directory.pages >= 1000) break;
        ++directory.pages;
        ifd = *next;
    }
    return directory;
}

}  // namespace gpurotate::detail
