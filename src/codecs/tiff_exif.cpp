#include "codecs/tiff_exif.hpp"

#include "codecs/byte_order.hpp"

#include <algorithm>
#include <optional>

namespace gpurotate::detail {
namespace {

constexpr std::uint16_t tag_exif = 34665, tag_gps = 34853, tag_interoperability = 40965, tag_maker_note = 37500;
constexpr std::size_t app1_exif_max = 65535 - 2 - 6;  // a segment's length field, less itself and "Exif\0\0"

// Bytes of one value of a TIFF type: BYTE, ASCII, SBYTE, UNDEFINED 1; SHORT, SSHORT 2; LONG, SLONG, FLOAT, IFD 4;
// RATIONAL, SRATIONAL, DOUBLE 8; 0 for a type EXIF does not use.
int value_size(std::uint64_t type) {
    switch (type) {
        case 1: case 2: case 6: case 7: return 1;
        case 3: case 8: return 2;
        case 4: case 9: case 11: case 13: return 4;
        case 5: case 10: case 12: return 8;
        default: return 0;
    }
}

struct Entry {
    std::uint16_t tag;
    std::uint16_t type;
    std::uint32_t count;
    std::vector<std::uint8_t> value;  ///< count values, in the file's byte order
};

// The entries of the classic-TIFF directory at `offset`, sorted by tag; nothing where its count or an entry runs
// past the file. Entries of types EXIF does not use, or whose values lie outside the file, are left out.
std::optional<std::vector<Entry>> read_directory(const std::vector<std::uint8_t>& file, std::uint64_t offset, bool big_endian) {
    const auto count = read_unsigned(file, offset, 2, big_endian);
    if (!count || *count == 0 || offset + 2 + *count * 12 > file.size()) return std::nullopt;
    std::vector<Entry> entries;
    for (std::uint64_t i = 0; i < *count; ++i) {
        const std::uint64_t at = offset + 2 + i * 12;
        const auto tag = *read_unsigned(file, at, 2, big_endian), type = *read_unsigned(file, at + 2, 2, big_endian);
        const auto n = *read_unsigned(file, at + 4, 4, big_endian);
        const std::uint64_t bytes = static_cast<std::uint64_t>(value_size(type)) * n;
        if (bytes == 0 || bytes > app1_exif_max) continue;
        const std::uint64_t where = bytes <= 4 ? at + 8 : *read_unsigned(file, at + 8, 4, big_endian);
        if (where > file.size() || file.size() - where < bytes) continue;
        entries.push_back({static_cast<std::uint16_t>(tag), static_cast<std::uint16_t>(type), static_cast<std::uint32_t>(n),
                           std::vector<std::uint8_t>(file.begin() + static_cast<std::ptrdiff_t>(where),
                                                     file.begin() + static_cast<std::ptrdiff_t>(where + bytes))});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.tag < b.tag; });
    return entries;
}

// The offset a pointer entry (EXIF, GPS, Interoperability: one LONG or IFD) holds.
std::optional<std::uint64_t> pointer_of(const std::vector<Entry>& entries, std::uint16_t tag, bool big_endian) {
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.tag == tag; });
    if (it == entries.end() || it->count != 1 || (it->type != 4 && it->type != 13)) return std::nullopt;
    return read_unsigned(it->value, 0, 4, big_endian);
}

// A TIFF structure being written in one byte order.
struct Block {
    std::vector<std::uint8_t> bytes;
    bool big_endian;

    void put(std::size_t at, std::uint32_t value, int size) {
        for (int i = 0; i < size; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * (big_endian ? size - 1 - i : i)));
    }

    // Appends `entries` as a directory (at an even offset, its out-of-line values after it) and returns where
    // each entry's value field lies, so that pointers can be set once their directories are written.
    std::vector<std::size_t> append_directory(const std::vector<Entry>& entries) {
        if (bytes.size() % 2) bytes.push_back(0);
        const std::size_t start = bytes.size();
        bytes.resize(start + 2 + entries.size() * 12 + 4, 0);  // the next-directory offset stays 0
        put(start, static_cast<std::uint32_t>(entries.size()), 2);
        std::vector<std::size_t> value_fields;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const Entry& e = entries[i];
            const std::size_t at = start + 2 + i * 12;
            put(at, e.tag, 2);
            put(at + 2, e.type == 13 ? 4 : e.type, 2);  // a pointer written as LONG, as EXIF 2.3 defines them
            put(at + 4, e.count, 4);
            value_fields.push_back(at + 8);
            if (e.value.size() <= 4) {
                std::copy(e.value.begin(), e.value.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at + 8));
            } else {
                if (bytes.size() % 2) bytes.push_back(0);
                put(at + 8, static_cast<std::uint32_t>(bytes.size()), 4);
                bytes.insert(bytes.end(), e.value.begin(), e.value.end());
            }
        }
        return value_fields;
    }

    // Where the entry `tag` of a directory just written keeps its value.
    static std::optional<std::size_t> field_of(const std::vector<Entry>& entries, const std::vector<std::size_t>& fields, std::uint16_t tag) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].tag == tag) return fields[i];
        }
        return std::nullopt;
    }
};

std::vector<std::uint8_t> build(std::optional<std::vector<Entry>> exif, std::optional<std::vector<Entry>> interoperability,
                                std::optional<std::vector<Entry>> gps, bool big_endian) {
    Block block{{}, big_endian};
    block.bytes = big_endian ? std::vector<std::uint8_t>{'M', 'M', 0, 42, 0, 0, 0, 8} : std::vector<std::uint8_t>{'I', 'I', 42, 0, 8, 0, 0, 0};
    // IFD0: the pointers alone (a TIFF's own tags of its first directory are the image's, not EXIF's).
    std::vector<Entry> first;
    const std::vector<std::uint8_t> zero(4, 0);
    if (exif) first.push_back({tag_exif, 4, 1, zero});
    if (gps) first.push_back({tag_gps, 4, 1, zero});
    const auto first_fields = block.append_directory(first);
    if (exif) {
        if (!interoperability) {
            exif->erase(std::remove_if(exif->begin(), exif->end(), [](const Entry& e) { return e.tag == tag_interoperability; }), exif->end());
        }
        block.put(*Block::field_of(first, first_fields, tag_exif), static_cast<std::uint32_t>(block.bytes.size() + block.bytes.size() % 2), 4);
        const auto exif_fields = block.append_directory(*exif);
        if (interoperability) {
            const auto field = Block::field_of(*exif, exif_fields, tag_interoperability);
            block.put(*field, static_cast<std::uint32_t>(block.bytes.size() + block.bytes.size() % 2), 4);
            block.append_directory(*interoperability);
        }
    }
    if (gps) {
        block.put(*Block::field_of(first, first_fields, tag_gps), static_cast<std::uint32_t>(block.bytes.size() + block.bytes.size() % 2), 4);
        block.append_directory(*gps);
    }
    return block.bytes;
}

}  // namespace

std::vector<std::uint8_t> exif_of_tiff(const std::vector<std::uint8_t>& file, const TiffDirectory& first) {
    if (file.size() < 8 || read_unsigned(file, 2, 2, first.big_endian) != 42u) return {};
    const bool be = first.big_endian;
    // The pointers of the first directory, read as entries of it (a LONG, or the IFD type).
    const auto pointer = [&](std::uint16_t tag) -> std::optional<std::uint64_t> {
        const auto it = first.entries.find(tag);
        if (it == first.entries.end() || it->second.count != 1 || (it->second.type != 4 && it->second.type != 13)) return std::nullopt;
        return read_unsigned(file, it->second.at, 4, be);
    };
    const auto exif_at = pointer(tag_exif), gps_at = pointer(tag_gps);
    auto exif = exif_at ? read_directory(file, *exif_at, be) : std::nullopt;
    auto gps = gps_at ? read_directory(file, *gps_at, be) : std::nullopt;
    if ((!exif && !gps) || (exif_at && !exif) || (gps_at && !gps)) return {};  // both carried, or neither (and said)
    const auto interoperability_at = exif ? pointer_of(*exif, tag_interoperability, be) : std::nullopt;
    auto interoperability = interoperability_at ? read_directory(file, *interoperability_at, be) : std::nullopt;
    std::vector<std::uint8_t> block = build(exif, interoperability, gps, be);
    if (block.size() > app1_exif_max && exif) {
        exif->erase(std::remove_if(exif->begin(), exif->end(), [](const Entry& e) { return e.tag == tag_maker_note; }), exif->end());
        block = build(exif, interoperability, gps, be);
    }
    return block.size() <= app1_exif_max ? block : std::vector<std::uint8_t>{};
}

}  // namespace gpurotate::detail
