#include "metadata/png_chunks.hpp"

#include "metadata/byte_order.hpp"

#include <algorithm>
#include <cstring>

namespace gpurotate::detail {
namespace {

constexpr std::uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

// The ancillary chunks whose meaning a rotation leaves alone (pHYs once swapped), copied whatever the PNG
// rule's safe-to-copy bit says: gAMA, cHRM, sRGB, iCCP and sBIT are marked unsafe because they describe
// sample values, which a rotation does not change.
constexpr const char* copied_types[] = {"gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD", "hIST", "sPLT",
                                        "tEXt", "zTXt", "iTXt", "tIME", "eXIf", "pHYs"};
// Their data are written in terms of the colour type and bit depth (or the palette): only valid in an
// output stored as the input was.
constexpr const char* storage_dependent_types[] = {"sBIT", "bKGD", "hIST"};

template <std::size_t N>
bool listed(const char* const (&types)[N], const std::string& type) {
    return std::any_of(std::begin(types), std::end(types), [&](const char* t) { return type == t; });
}

// The colour type and bit depth pairs PNG allows.
bool valid_storage(const PngStorage& s) {
    const int d = s.bit_depth;
    const bool low = d == 1 || d == 2 || d == 4 || d == 8, wide = d == 8 || d == 16;
    switch (s.color_type) {
        case 0: return low || d == 16;
        case 3: return low;
        case 2:
        case 4:
        case 6: return wide;
        default: return false;
    }
}

}  // namespace

bool is_png(const std::uint8_t* bytes, std::size_t size) { return size >= 8 && std::memcmp(bytes, png_signature, 8) == 0; }

bool is_png(const std::vector<std::uint8_t>& bytes) { return is_png(bytes.data(), bytes.size()); }

void read_png_layout(const std::vector<std::uint8_t>& png, ImageMetadata& meta) {
    if (!is_png(png)) return;
    PngStorage storage;
    // libspng writes tRNS right after PLTE, before the chunks given for "after PLTE": a chunk that followed
    // tRNS (bKGD in an RGB file) goes there, one that preceded it before.
    bool seen_ihdr = false, seen_plte_or_trns = false, seen_idat = false;
    for (std::size_t pos = 8; png.size() - pos >= 12;) {
        const auto length = static_cast<std::size_t>(*read_unsigned(png, pos, 4, true));
        if (length > png.size() - pos - 12) break;
        const std::string type(reinterpret_cast<const char*>(&png[pos + 4]), 4);
        const auto data_begin = png.begin() + static_cast<std::ptrdiff_t>(pos + 8);
        const std::vector<std::uint8_t> data(data_begin, data_begin + static_cast<std::ptrdiff_t>(length));
        pos += 12 + length;
        if (!seen_ihdr) {
            if (type != "IHDR" || length != 13) return;
            storage.bit_depth = data[8];
            storage.color_type = data[9];
            storage.interlaced = data[12] != 0;
            seen_ihdr = true;
        } else if (type == "IEND") {
            break;
        } else if (type == "IDAT") {
            seen_idat = true;
        } else if (type == "PLTE") {
            storage.palette = data;
            seen_plte_or_trns = true;
        } else if (type == "tRNS") {
            storage.transparency = data;
            seen_plte_or_trns = true;
        } else if (!(type[0] & 0x20)) {
            continue;  // another critical chunk: libspng refuses the file
        } else {
            if (type == "eXIf") meta.exif = data;
            const PngChunkPlace place = seen_idat ? PngChunkPlace::after_idat : seen_plte_or_trns ? PngChunkPlace::before_idat : PngChunkPlace::before_plte;
            meta.png_chunks.push_back({type, data, place});
        }
    }
    if (seen_ihdr && valid_storage(storage)) meta.png_storage = std::move(storage);
}

bool png_chunk_safe_to_copy(const std::string& type) { return type.size() == 4 && (type[3] & 0x20) != 0; }

bool png_chunk_copied(const PngChunk& chunk, bool stored) {
    if (listed(storage_dependent_types, chunk.type)) return stored;
    return listed(copied_types, chunk.type) || png_chunk_safe_to_copy(chunk.type);
}

PixelFormat png_stored_pixel_format(const PngStorage& storage) {
    static constexpr int channels_of_color[] = {1, 0, 3, 1, 2, 0, 4};
    const int channels = storage.color_type >= 0 && storage.color_type <= 6 ? channels_of_color[storage.color_type] : 0;
    return {storage.bit_depth == 16 ? SampleType::u16 : SampleType::u8, channels};
}

void swap_phys_axes(PngChunk& phys) {
    if (phys.data.size() != 9) return;
    std::swap_ranges(phys.data.begin(), phys.data.begin() + 4, phys.data.begin() + 4);
}

}  // namespace gpurotate::detail
