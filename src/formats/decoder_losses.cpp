#include "formats/decoder_losses.hpp"

#include "metadata/byte_order.hpp"
#include "metadata/container_walks.hpp"
#include "metadata/tiff_directory.hpp"
#include "metadata/tiff_exif.hpp"
#include "core/text.hpp"

#include <algorithm>

namespace gpurotate::detail {
namespace {

int bits_of(SampleType s) { return static_cast<int>(sample_bytes(s)) * 8; }

std::string samples_phrase(std::uint64_t bits, PixelFormat decoded) {
    return "its " + std::to_string(bits) + "-bit samples (read as " + std::to_string(bits_of(decoded.sample)) + "-bit)";
}

void tiff_losses(const std::vector<std::uint8_t>& file, const TiffDirectory& d, PixelFormat decoded, DecoderLosses& out) {
    if (d.pages > 1) out.image.push_back(d.pages == 2 ? "its page 2 (the first is read)" : "pages 2-" + std::to_string(d.pages) + " (the first is read)");
    const std::uint64_t channels = d.value(277).value_or(1), bits = d.value(258).value_or(1), photometric = d.value(262).value_or(1);
    if (photometric == 5) {
        out.image.emplace_back("its CMYK colours (read as RGB)");
        if (d.entries.count(34675)) out.metadata.emplace_back("its CMYK ICC profile (the pixels are RGB)");
    } else if (photometric == 3) {
        out.image.emplace_back("its palette (read as RGB)");
    } else if (static_cast<std::uint64_t>(decoded.channels) < channels) {
        out.image.push_back(channels == 2 || channels == 4 ? "its alpha channel"
                                                     : std::to_string(channels - static_cast<std::uint64_t>(decoded.channels)) + " of its " +
                                                           std::to_string(channels) + " channels");
    } else if (static_cast<std::uint64_t>(decoded.channels) > channels) {
        out.image.emplace_back("its channel count (read with an added opaque alpha channel)");
    }

    if (photometric != 3 && bits != static_cast<std::uint64_t>(bits_of(decoded.sample)) && decoded.sample != SampleType::f32) {
        out.image.push_back(samples_phrase(bits, decoded));
    }
    // EXIF and GPS travel as the EXIF block (metadata.cpp, tiff_exif.cpp) where they can be copied, and what of
    // them cannot is named; IPTC travels as itself (metadata.cpp), and an output without a place for either says so
    // (image_sink.cpp).
    for (std::string& left_out : exif_of_tiff(file, d).left_out) out.metadata.push_back(std::move(left_out));
}

void bmp_losses(const std::vector<std::uint8_t>& b, DecoderLosses& out) {
    if (b.size() < 54 || b[0] != 'B' || b[1] != 'M') return;
    const std::uint32_t header = le32(b, 14);
    if (header < 40) return;
    const std::uint32_t bits = le16(b, 28);
    if (bits <= 8) out.image.emplace_back("its palette (read as RGB)");
    if (header >= 108 && b.size() >= 74) {  // V4, V5: the colour space; 'MBED' (V5) is an embedded ICC profile
        const std::uint32_t space = le32(b, 70);
        if (space == 0x4d424544u || space == 0x4c494e4bu) out.metadata.emplace_back("ICC profile");
    }
}

void hdr_losses(const std::vector<std::uint8_t>& b, DecoderLosses& out) {
    if (b.size() < 2 || b[0] != '#' || b[1] != '?') return;
    // Header lines up to the empty one; stb's writer puts only FORMAT and EXPOSURE=1.0 back.
    std::size_t at = 0;
    std::string kept;
    while (at < b.size()) {
        std::size_t end = at;
        while (end < b.size() && b[end] != '\n') ++end;
        const std::string line(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(end));
        at = end + 1;
        if (line.empty()) break;
        const auto equals = line.find('=');
        if (line[0] == '#' || equals == std::string::npos) continue;
        const std::string key = line.substr(0, equals);
        if (key == "FORMAT") continue;
        if (key == "EXPOSURE") {
            out.image.push_back("its " + printable(line) + " (the values are kept as stored, unscaled)");
        } else {
            out.metadata.push_back("its " + printable(key) + " line");
        }
    }
}

void psd_losses(const std::vector<std::uint8_t>& b, PixelFormat decoded, DecoderLosses& out) {
    const auto layout = psd_layout(b);
    if (!layout) return;
    if (layout->depth != static_cast<std::uint32_t>(bits_of(decoded.sample))) out.image.push_back(samples_phrase(layout->depth, decoded));
    // stb reads the merged image after the sections: the image resources and the layers stay behind.
    if (layout->section_sizes[1] > 0) out.metadata.emplace_back("its image resources (ICC profile, resolution and the like)");
    if (layout->section_sizes[2] > 0) out.image.emplace_back("its layers (the merged image is read)");
}

// OpenCV reads an EXR's R, G, B and A, or Y (and A): the other channels (depth, normals, layers' "diffuse.R")
// are not read.
void exr_losses(const std::vector<std::uint8_t>& b, DecoderLosses& out) {
    const auto channels = exr_channels(b);
    if (!channels) return;
    std::string others;
    for (const std::string& name : *channels) {
        if (name != "R" && name != "G" && name != "B" && name != "A" && name != "Y") others += (others.empty() ? "" : ", ") + printable(name, 31);
    }
    if (!others.empty()) out.image.push_back("its channels " + printable(others, 200) + " (R, G, B, A and Y are read)");
}

}  // namespace

std::optional<std::vector<std::string>> exr_channels(const std::vector<std::uint8_t>& b) {
    // Magic, version (its flags: 0x1000 multi-part, whose headers differ), then attributes until an empty
    // name: name NUL, type NUL, a 4-byte little-endian size, the value. "channels" is a "chlist": entries of
    // name NUL, pixel type (4), linear (1), reserved (3), x and y sampling (4 + 4), then a NUL.
    if (b.size() < 8 || b[0] != 0x76 || b[1] != 0x2f || b[2] != 0x31 || b[3] != 0x01 || (b[5] & 0x10)) return std::nullopt;
    std::size_t at = 8;
    const auto text = [&](std::string& s) {
        const auto end = std::find(b.begin() + static_cast<std::ptrdiff_t>(std::min(at, b.size())), b.end(), 0);
        if (end == b.end()) return false;
        s.assign(b.begin() + static_cast<std::ptrdiff_t>(at), end);
        at = static_cast<std::size_t>(end - b.begin()) + 1;
        return true;
    };
    while (at < b.size()) {
        std::string name, type;
        if (!text(name)) return std::nullopt;
        if (name.empty()) return std::nullopt;  // the header ended without a channel list
        if (!text(type) || at + 4 > b.size()) return std::nullopt;
        const std::size_t size = le32(b, at);
        at += 4;
        if (size > b.size() - at) return std::nullopt;
        if (name == "channels" && type == "chlist") {
            std::vector<std::string> channels;
            const std::size_t end = at + size;
            while (at < end && b[at] != 0) {
                std::string channel;
                if (!text(channel) || at + 16 > end) return std::nullopt;
                channels.push_back(channel);
                at += 16;
            }
            return channels;
        }
        at += size;
    }
    return std::nullopt;
}

DecoderLosses decoder_losses(const std::vector<std::uint8_t>& bytes, PixelFormat decoded) {
    DecoderLosses out;
    if (const auto directory = read_tiff_directory(bytes)) tiff_losses(bytes, *directory, decoded, out);
    bmp_losses(bytes, out);
    hdr_losses(bytes, out);
    psd_losses(bytes, decoded, out);
    exr_losses(bytes, out);
    return out;
}

std::string losses_warning(const DecoderLosses& losses, bool strip) {
    std::string words;
    for (const auto* list : {&losses.image, strip ? nullptr : &losses.metadata}) {
        if (!list) continue;
        for (const std::string& phrase : *list) words += (words.empty() ? "" : ", ") + phrase;
    }
    return words.empty() ? words : "not kept: " + words;
}

}  // namespace gpurotate::detail
