#include "metadata/tiff_exif.hpp"

#include "metadata/byte_order.hpp"

#include <algorithm>
#include <optional>

namespace gpurotate::detail {
namespace {

constexpr std::uint16_t tag_exif = 34665, tag_gps = 34853, tag_interoperability = 40965, tag_maker_note = 37500, tag_orientation = 274;
constexpr std::size_t app1_exif_max = 65535 - 2 - 6;  // a segment's length field, less itself and "Exif\0\0"

// Bytes of one value of a type EXIF uses: classic TIFF's 1-13 (tiff_type_bytes); 0 for any other.
std::uint64_t value_size(std::uint64_t type) { return type <= 13 ? static_cast<std::uint64_t>(tiff_type_bytes(type)) : 0; }

struct Entry {
    std::uint16_t tag;
    std::uint16_t type;
    std::uint32_t count;
    std::vector<std::uint8_t> value;  ///< count values, in the file's byte order
};

struct Directory {
    std::vector<Entry> entries;       ///< sorted by tag
    int skipped = 0;                  ///< entries left out: values outside the file, an unknown type, a pointer not copied
    bool maker_note_too_big = false;  ///< a MakerNote left out, larger by itself than the block may be
};

bool has_entry(const std::vector<Entry>& entries, std::uint16_t tag) {
    return std::any_of(entries.begin(), entries.end(), [&](const Entry& e) { return e.tag == tag; });
}

// The directory at `offset` of a classic TIFF or a BigTIFF, sorted by tag; nothing where its entries run past the file,
// none is left, or its entries but a MakerNote pass `budget` bytes (counted as they are read, so that a crafted file
// cannot make this hold more; an entry larger than that by itself is left out, a MakerNote too). `pointer_kept` is the
// tag whose pointer this copies (Interoperability in EXIF), as a LONG; any other pointer (the IFD types, or the EXIF
// and GPS tags) would hold an offset into the file, meaningless in the block, and is skipped. A BigTIFF's directories
// (`big_tiff`) have 8-byte counts, offsets and value fields; its 8-byte integer types, which the block's classic TIFF
// cannot hold, are skipped, and a pointer kept where its offset fits 32 bits.
std::optional<Directory> read_directory(const std::vector<std::uint8_t>& file, std::uint64_t offset, bool big_endian, bool big_tiff,
                                        std::uint64_t budget, std::uint16_t pointer_kept = 0) {
    const std::uint64_t field = big_tiff ? 8 : 4, entry_size = 4 + 2 * field;
    const auto count = read_unsigned(file, offset, big_tiff ? 8 : 2, big_endian);
    const std::uint64_t entries_at = offset + (big_tiff ? 8 : 2);
    if (!count || *count == 0 || entries_at > file.size() || *count > (file.size() - entries_at) / entry_size) return std::nullopt;
    Directory d;
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < *count; ++i) {
        const std::uint64_t at = entries_at + i * entry_size;
        const auto tag = *read_unsigned(file, at, 2, big_endian), type = *read_unsigned(file, at + 2, 2, big_endian);
        const auto n = *read_unsigned(file, at + 4, static_cast<int>(field), big_endian);
        const std::uint64_t value_at = at + 4 + field;
        const bool pointer = type == 13 || type == 18 || tag == tag_exif || tag == tag_gps || tag == tag_interoperability;
        if (pointer && tag == pointer_kept && n == 1 && (type == 4 || type == 13 || (big_tiff && (type == 16 || type == 18)))) {
            const auto target = read_unsigned(file, value_at, tiff_type_bytes(type), big_endian);
            if (!target || *target > 0xffffffffu) {
                ++d.skipped;
                continue;
            }
            std::vector<std::uint8_t> value(4);
            for (int b = 0; b < 4; ++b) value[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(*target >> (8 * (big_endian ? 3 - b : b)));
            d.entries.push_back({static_cast<std::uint16_t>(tag), 4, 1, std::move(value)});
            continue;
        }
        if (value_size(type) == 0 || n == 0 || n > 0xffffffffu || pointer) {
            ++d.skipped;
            continue;
        }
        const std::uint64_t bytes = value_size(type) * n;  // at most 8 x (2^32 - 1): no overflow
        const std::uint64_t where = bytes <= field ? value_at : *read_unsigned(file, value_at, static_cast<int>(field), big_endian);
        if (where > file.size() || file.size() - where < bytes) {
            ++d.skipped;
            continue;
        }
        if (12 + bytes > budget) {
            if (tag == tag_maker_note) {
                d.maker_note_too_big = true;
            } else {
                ++d.skipped;
            }
            continue;
        }
        if (tag != tag_maker_note) total += 12 + bytes;  // the MakerNote, at most `budget` itself, may go at the end
        if (total > budget) return std::nullopt;
        d.entries.push_back({static_cast<std::uint16_t>(tag), static_cast<std::uint16_t>(type), static_cast<std::uint32_t>(n),
                             std::vector<std::uint8_t>(file.begin() + static_cast<std::ptrdiff_t>(where),
                                                       file.begin() + static_cast<std::ptrdiff_t>(where + bytes))});
    }
    if (d.entries.empty()) return std::nullopt;
    std::stable_sort(d.entries.begin(), d.entries.end(), [](const Entry& a, const Entry& b) { return a.tag < b.tag; });
    return d;
}

// What a pointer entry (EXIF, GPS, Interoperability: one LONG or IFD) holds, where it is well formed.
struct Pointer {
    bool present = false;
    std::optional<std::uint64_t> offset;  ///< nothing where present but malformed
};

Pointer pointer_in(const std::vector<Entry>& entries, std::uint16_t tag, bool big_endian) {
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.tag == tag; });
    if (it == entries.end()) return {};
    if (it->count != 1 || (it->type != 4 && it->type != 13)) return {true, std::nullopt};
    return {true, read_unsigned(it->value, 0, 4, big_endian)};
}

// A TIFF structure being written in one byte order.
struct Block {
    std::vector<std::uint8_t> bytes;
    bool big_endian;

    void put(std::size_t at, std::uint32_t value, int size) {
        for (int i = 0; i < size; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(value >> (8 * (big_endian ? size - 1 - i : i)));
    }

    // Where the next directory goes: the next even offset.
    std::uint32_t next_directory() const { return static_cast<std::uint32_t>(bytes.size() + bytes.size() % 2); }

    // Appends `all` as a directory (at next_directory(), its out-of-line values after it), leaving the tags `skip` out,
    // and returns where the entry `pointer`'s value field lies (0 where it has none), to be set once its directory
    // is written.
    std::size_t append_directory(const std::vector<Entry>& all, const std::vector<std::uint16_t>& skip = {}, std::uint16_t pointer = 0) {
        std::vector<const Entry*> entries;
        for (const Entry& e : all) {
            if (std::find(skip.begin(), skip.end(), e.tag) == skip.end()) entries.push_back(&e);
        }
        if (bytes.size() % 2) bytes.push_back(0);
        const std::size_t start = bytes.size();
        bytes.resize(start + 2 + entries.size() * 12 + 4, 0);  // the next-directory offset stays 0
        put(start, static_cast<std::uint32_t>(entries.size()), 2);
        std::size_t pointer_field = 0;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const Entry& e = *entries[i];
            const std::size_t at = start + 2 + i * 12;
            put(at, e.tag, 2);
            put(at + 2, e.type == 13 ? 4 : e.type, 2);  // a pointer written as LONG, as EXIF 2.3 defines them
            put(at + 4, e.count, 4);
            if (e.tag == pointer && pointer != 0) pointer_field = at + 8;
            if (e.value.size() <= 4) {
                std::copy(e.value.begin(), e.value.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at + 8));
            } else {
                if (bytes.size() % 2) bytes.push_back(0);
                put(at + 8, static_cast<std::uint32_t>(bytes.size()), 4);
                bytes.insert(bytes.end(), e.value.begin(), e.value.end());
            }
        }
        return pointer_field;
    }
};

// The values of `e` turned to the other byte order, a value of its type at a time (a RATIONAL's two LONGs each).
void swap_byte_order(Entry& e) {
    const int unit = e.type == 5 || e.type == 10 ? 4 : tiff_type_bytes(e.type);
    if (unit <= 1) return;
    for (std::size_t at = 0; at + static_cast<std::size_t>(unit) <= e.value.size(); at += static_cast<std::size_t>(unit)) {
        std::reverse(e.value.begin() + static_cast<std::ptrdiff_t>(at), e.value.begin() + static_cast<std::ptrdiff_t>(at) + unit);
    }
}

// The EXIF, Interoperability and GPS directories of a TIFF structure (a classic TIFF or a BigTIFF file, or an EXIF
// block), as its first directory points at them; what of them cannot be read, a phrase each.
struct ExifDirectories {
    std::optional<Directory> exif, interoperability, gps;
    std::vector<std::string> left_out;
};

ExifDirectories read_exif_directories(const std::vector<std::uint8_t>& file, const TiffDirectory& first, std::uint64_t budget) {
    ExifDirectories d;
    const bool be = first.big_endian;
    const bool big_tiff = read_unsigned(file, 2, 2, be) == 43u;
    const auto first_at = read_unsigned(file, big_tiff ? 8 : 4, big_tiff ? 8 : 4, be);
    // A pointer of the first directory: one LONG or IFD value (a BigTIFF's LONG8 or IFD8 too), to a place that is
    // none of the other directories.
    const auto pointer = [&](std::uint16_t tag) -> Pointer {
        const auto it = first.entries.find(tag);
        if (it == first.entries.end()) return {};
        const std::uint16_t type = it->second.type;
        const bool offset_type = type == 4 || type == 13 || (big_tiff && (type == 16 || type == 18));
        if (it->second.count != 1 || !offset_type) return {true, std::nullopt};
        const auto at = read_unsigned(file, it->second.at, tiff_type_bytes(type), be);
        return {true, at && at != first_at ? at : std::nullopt};
    };
    const Pointer exif_at = pointer(tag_exif), gps_at = pointer(tag_gps);
    // Each directory within `budget` by itself; a block is checked as a whole by its builder.
    if (exif_at.offset) d.exif = read_directory(file, *exif_at.offset, be, big_tiff, budget, tag_interoperability);
    if (gps_at.offset && gps_at.offset != exif_at.offset) d.gps = read_directory(file, *gps_at.offset, be, big_tiff, budget);
    if (exif_at.present && !d.exif) d.left_out.emplace_back("EXIF");
    if (gps_at.present && !d.gps) d.left_out.emplace_back("GPS");
    if (d.exif) {
        const Pointer interoperability_at = pointer_in(d.exif->entries, tag_interoperability, be);
        const bool elsewhere = interoperability_at.offset && interoperability_at.offset != exif_at.offset && interoperability_at.offset != gps_at.offset &&
                               interoperability_at.offset != first_at;
        if (elsewhere) d.interoperability = read_directory(file, *interoperability_at.offset, be, big_tiff, budget);
        if (interoperability_at.present && !d.interoperability) d.left_out.emplace_back("EXIF's Interoperability directory");
        if (!d.interoperability) {  // a pointer with nothing to point at goes, and a directory left with no entry too
            auto& entries = d.exif->entries;
            entries.erase(std::remove_if(entries.begin(), entries.end(), [](const Entry& e) { return e.tag == tag_interoperability; }), entries.end());
            if (entries.empty()) {
                d.exif.reset();
                d.left_out.emplace_back("EXIF");
            }
        }
        if (d.exif && d.exif->skipped > 0) {
            d.left_out.push_back(std::to_string(d.exif->skipped) + (d.exif->skipped == 1 ? " EXIF entry" : " EXIF entries") +
                                 " (damaged, or pointers to directories not copied)");
        }
        if (d.interoperability && d.interoperability->skipped > 0) d.left_out.emplace_back("part of EXIF's Interoperability directory (damaged)");
    }
    if (d.gps && d.gps->skipped > 0) {
        d.left_out.push_back(std::to_string(d.gps->skipped) + (d.gps->skipped == 1 ? " GPS entry" : " GPS entries") + " (damaged, or pointers to directories not copied)");
    }
    if (d.exif && d.exif->maker_note_too_big) d.left_out.push_back("EXIF's MakerNote (over " + std::to_string(budget / 1024 + 1) + " KiB)");
    return d;
}

// Appends the EXIF directory (less its MakerNote, with `without_maker_note`), its Interoperability directory and the
// GPS directory to `to`, and sets the pointers to them at the value fields `exif_field` and `gps_field`.
void append_exif_directories(Block& to, const ExifDirectories& d, std::size_t exif_field, std::size_t gps_field, bool without_maker_note) {
    if (d.exif) {
        to.put(exif_field, to.next_directory(), 4);
        std::vector<std::uint16_t> skip;
        if (without_maker_note) skip.push_back(tag_maker_note);
        const std::size_t field = to.append_directory(d.exif->entries, skip, d.interoperability ? tag_interoperability : 0);
        if (d.interoperability && field != 0) {
            to.put(field, to.next_directory(), 4);
            to.append_directory(d.interoperability->entries);
        }
    }
    if (d.gps) {
        to.put(gps_field, to.next_directory(), 4);
        to.append_directory(d.gps->entries);
    }
}

// The block: IFD0 with `text` (a TIFF's text tags, which EXIF's IFD0 has too) and the pointers (IFD0's other tags
// describe the TIFF's image), then the directories.
std::vector<std::uint8_t> build(const std::vector<Entry>& text, const ExifDirectories& d, bool without_maker_note, bool big_endian) {
    Block block{big_endian ? std::vector<std::uint8_t>{'M', 'M', 0, 42, 0, 0, 0, 8} : std::vector<std::uint8_t>{'I', 'I', 42, 0, 8, 0, 0, 0},
                big_endian};
    const std::vector<std::uint8_t> zero(4, 0);
    std::vector<Entry> first = text;  // their tags (270-33432) come before the pointers'
    if (d.exif) first.push_back({tag_exif, 4, 1, zero});
    if (d.gps) first.push_back({tag_gps, 4, 1, zero});
    block.append_directory(first);
    // IFD0 sits at 8; its entries follow its count, and a pointer's value field is 8 bytes into its entry.
    const auto field = [&](std::size_t index) { return 8 + 2 + 12 * index + 8; };
    append_exif_directories(block, d, field(text.size()), field(text.size() + (d.exif ? 1 : 0)), without_maker_note);
    return block.bytes;
}

// The directories of an EXIF block that a TIFF output takes; none, and said, where the block is no classic TIFF
// structure. A TIFF holds what a JPEG segment cannot: each directory may take as much as the block (a PNG's eXIf or a
// WebP's EXIF chunk may pass 64 KiB), so that only values shared by several entries can make it larger.
ExifDirectories exif_directories_of_block(const std::vector<std::uint8_t>& block) {
    if (block.empty()) return {};
    const auto first = read_tiff_directory(block);
    if (!first || read_unsigned(block, 2, 2, first->big_endian) != 42u) return {{}, {}, {}, {"EXIF (not a TIFF structure)"}};
    return read_exif_directories(block, *first, std::max<std::uint64_t>(app1_exif_max, block.size()));
}

// The bytes append_exif_directories adds at the most: each directory, its values and a padding byte each.
std::uint64_t appended_bytes(const ExifDirectories& d) {
    std::uint64_t total = 0;
    for (const auto* directory : {&d.exif, &d.interoperability, &d.gps}) {
        if (!*directory) continue;
        total += 1 + 2 + 4;
        for (const Entry& e : (*directory)->entries) total += 12 + e.value.size() + 1;
    }
    return total;
}

}  // namespace

TiffExif exif_of_tiff(const std::vector<std::uint8_t>& file, const TiffDirectory& first) {
    TiffExif out;
    const bool be = first.big_endian;
    // The text tags go into IFD0 where they take at most a quarter of the block: they are the TIFF's own, and a TIFF
    // output writes them from there whatever the block holds.
    std::vector<Entry> text;
    std::size_t text_bytes = 0;
    for (const auto& [tag, value] : first.text_tags(file)) {
        std::vector<std::uint8_t> bytes(value.begin(), value.end());
        bytes.push_back(0);
        text_bytes += 12 + bytes.size();
        text.push_back({tag, 2, static_cast<std::uint32_t>(bytes.size()), std::move(bytes)});
    }
    if (text_bytes > app1_exif_max / 4) text.clear();
    // The TIFF's Orientation (2-8: 1 says nothing), which its pixels arrive without: an EXIF orientation, as a camera's
    // IFD0 has it, kept and applied by --auto-orient as in the other formats. Among the text tags by its number.
    if (const auto orientation = first.value(tag_orientation); orientation && *orientation >= 2 && *orientation <= 8 &&
                                                               first.entries.at(tag_orientation).type == 3) {
        std::vector<std::uint8_t> value(2);
        for (int b = 0; b < 2; ++b) value[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(*orientation >> (8 * (be ? 1 - b : b)));
        text.push_back({tag_orientation, 3, 1, std::move(value)});
        std::stable_sort(text.begin(), text.end(), [](const Entry& a, const Entry& b) { return a.tag < b.tag; });
    }
    const auto has = [&](std::uint16_t tag) { return first.entries.count(tag) != 0; };
    const auto lose_directories = [&]() {
        if (has(tag_exif)) out.left_out.emplace_back("EXIF");
        if (has(tag_gps)) out.left_out.emplace_back("GPS");
    };
    ExifDirectories d;
    if (has(tag_exif) || has(tag_gps)) {
        d = read_exif_directories(file, first, app1_exif_max);  // the block must fit one JPEG segment
        out.left_out = d.left_out;
    }
    if (!d.exif && !d.gps && text.empty()) return out;
    out.block = build(text, d, false, be);
    if (out.block.size() > app1_exif_max && d.exif && has_entry(d.exif->entries, tag_maker_note)) {
        out.block = build(text, d, true, be);
        out.left_out.emplace_back("EXIF's MakerNote (the EXIF block would pass 64 KiB)");
    }
    if (out.block.size() > app1_exif_max) {
        out.left_out.clear();
        lose_directories();
        out.block = text.empty() ? std::vector<std::uint8_t>{} : build(text, {}, false, be);
    }
    return out;
}

std::vector<std::string> exif_left_out_of_tiff(const std::vector<std::uint8_t>& block) { return exif_directories_of_block(block).left_out; }

bool exif_holds_only_text_tags(const std::vector<std::uint8_t>& block) {
    const auto first = read_tiff_directory(block);
    if (!first || first->pages > 1) return false;
    const auto text = first->text_tags(block);
    // A TIFF's Orientation goes with them (exif_of_tiff): an output that cannot hold it is warned of as an orientation.
    const std::size_t kept = text.size() + first->entries.count(tag_orientation);
    return kept > 0 && kept == first->tags.size();
}

bool exif_has_text_tags(const std::vector<std::uint8_t>& block) {
    const auto first = read_tiff_directory(block);
    return first && !first->text_tags(block).empty();
}

ExifPointers exif_pointers_for_tiff(const std::vector<std::uint8_t>& block) {
    const ExifDirectories d = exif_directories_of_block(block);
    return {d.exif.has_value(), d.gps.has_value()};
}

bool place_exif_in_tiff(std::vector<std::uint8_t>& tiff, const std::vector<std::uint8_t>& block) {
    ExifDirectories d = exif_directories_of_block(block);
    const auto first = read_tiff_directory(tiff);
    if (!first || read_unsigned(tiff, 2, 2, first->big_endian) != 42u) return false;
    if (tiff.size() + appended_bytes(d) > 0xffffffffu) return false;  // a classic TIFF's offsets would wrap
    // Each pointer's value field: the placeholder the plugin wrote, one LONG or IFD of 0.
    const auto field = [&](std::uint16_t tag) -> std::size_t {
        const auto it = first->entries.find(tag);
        if (it == first->entries.end() || it->second.count != 1 || (it->second.type != 4 && it->second.type != 13)) return 0;
        return read_unsigned(tiff, it->second.at, 4, first->big_endian) == 0u ? static_cast<std::size_t>(it->second.at) : 0;
    };
    const std::size_t exif_field = field(tag_exif), gps_field = field(tag_gps);
    if ((d.exif && exif_field == 0) || (d.gps && gps_field == 0)) return false;
    if (first->big_endian != (block.size() > 0 && block[0] == 'M')) {
        for (auto* directory : {&d.exif, &d.interoperability, &d.gps}) {
            if (!*directory) continue;
            for (Entry& e : (*directory)->entries) swap_byte_order(e);
        }
    }
    Block file{std::move(tiff), first->big_endian};
    append_exif_directories(file, d, exif_field, gps_field, false);
    tiff = std::move(file.bytes);
    return true;
}

bool exif_has_thumbnail(const std::vector<std::uint8_t>& block) {
    const auto first = read_tiff_directory(block);
    return first && first->pages > 1;
}

}  // namespace gpurotate::detail
