#include "metadata/metadata.hpp"

#include "metadata/byte_order.hpp"
#include "metadata/container_walks.hpp"
#include "metadata/jpeg_segments.hpp"
#include "metadata/photoshop_resources.hpp"
#include "metadata/png_chunks.hpp"
#include "metadata/tiff_directory.hpp"
#include "metadata/tiff_exif.hpp"
#include "metadata/xmp_geometry.hpp"

#include <gpurotate/error.hpp>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>

namespace gpurotate::detail {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr char exif_header[] = "Exif\0\0";                 // 6 bytes before the TIFF structure in APP1
constexpr char icc_header[] = "ICC_PROFILE";              // 12 bytes with its NUL, then sequence and count
constexpr char xmp_header[] = "http://ns.adobe.com/xap/1.0/";  // 29 bytes with its NUL, then the packet
constexpr char xmp_keyword[] = "XML:com.adobe.xmp";       // a PNG's iTXt keyword for XMP
constexpr std::size_t icc_chunk_max = 65535 - 2 - 14;     // a JPEG segment's payload less the ICC header

bool has_at(const Bytes& b, std::size_t pos, const void* what, std::size_t size) {
    return pos <= b.size() && b.size() - pos >= size && std::memcmp(b.data() + pos, what, size) == 0;
}

// ---------------------------------------------------------------- TIFF (the structure inside EXIF)

// One TIFF structure's byte order, and bounds-checked reads and writes in it.
struct Tiff {
    Bytes& bytes;
    bool big_endian = false;

    std::optional<std::uint32_t> get(std::size_t pos, int size) const {  // size at most 4
        const auto v = read_unsigned(bytes, pos, size, big_endian);
        return v ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*v)) : std::nullopt;
    }
    void put(std::size_t pos, int size, std::uint32_t v) {
        for (int i = 0; i < size; ++i) bytes[pos + (big_endian ? size - 1 - i : i)] = static_cast<std::uint8_t>(v >> (8 * i));
    }
    // The byte offset of entry `tag` in the IFD at `ifd`, or nothing.
    std::optional<std::size_t> entry(std::size_t ifd, std::uint16_t tag) const {
        const auto count = get(ifd, 2);
        if (!count) return std::nullopt;
        for (std::size_t i = 0; i < *count && i < 1024; ++i) {
            const std::size_t at = ifd + 2 + 12 * i;
            const auto t = get(at, 2);
            if (!t || !get(at + 8, 4)) return std::nullopt;
            if (*t == tag) return at;
        }
        return std::nullopt;
    }
};

std::optional<Tiff> open_tiff(Bytes& exif) {
    if (exif.size() < 8) return std::nullopt;
    Tiff tiff{exif, exif[0] == 'M'};
    if (!(exif[0] == 'I' && exif[1] == 'I') && !(exif[0] == 'M' && exif[1] == 'M')) return std::nullopt;
    if (tiff.get(2, 2) != 42u) return std::nullopt;
    return tiff;
}

std::optional<std::size_t> first_ifd(const Tiff& tiff) {
    const auto offset = tiff.get(4, 4);
    return offset ? std::optional<std::size_t>(*offset) : std::nullopt;
}

// IFD0's link to the next directory (IFD1, the thumbnail's): where its offset is, and the offset (0: none).
struct Link {
    std::size_t field;
    std::uint32_t ifd;
};

std::optional<Link> second_ifd(const Tiff& tiff) {
    const auto ifd = first_ifd(tiff);
    const auto count = ifd ? tiff.get(*ifd, 2) : std::nullopt;
    if (!count) return std::nullopt;
    const std::size_t field = *ifd + 2 + 12 * std::size_t{*count};
    const auto next = tiff.get(field, 4);
    return next ? std::optional<Link>(Link{field, *next}) : std::nullopt;
}

constexpr std::uint16_t tag_orientation = 0x0112, tag_exif_ifd = 0x8769, tag_pixel_x = 0xa002, tag_pixel_y = 0xa003, tag_x_resolution = 0x011a,
                        tag_y_resolution = 0x011b, tag_strip_offsets = 0x0111, tag_thumbnail_at = 0x0201, tag_thumbnail_length = 0x0202;
constexpr std::size_t app1_exif_max = 65535 - 2 - 6;  // a JPEG segment's payload less "Exif\0\0"
constexpr std::int64_t thumbnail_max_pixels = std::int64_t{1} << 22;  // EXIF's are 160x120; a larger one is damage, or a bomb

// ---------------------------------------------------------------- JPEG

// A JFIF APP0's density: "JFIF\0", version (2 bytes), units (0 none, 1 inch, 2 cm), X and Y density.
constexpr char jfif_header[] = "JFIF";  // and its NUL: 5 bytes

std::optional<Resolution> resolution_of_jfif(const Bytes& b, const JpegSegment& s) {
    if (s.marker != 0xe0 || s.size < 12 || !has_at(b, s.payload, jfif_header, 5)) return std::nullopt;
    const std::size_t at = s.payload + 7;
    const unsigned units = b[at], x = b[at + 1] << 8 | b[at + 2], y = b[at + 3] << 8 | b[at + 4];
    if (units > 2 || x == 0 || y == 0 || (units == 0 && x == y)) return std::nullopt;  // 1:1 without a unit says nothing
    return Resolution{static_cast<double>(x), static_cast<double>(y), units == 1 ? Resolution::Unit::inch : units == 2 ? Resolution::Unit::centimetre : Resolution::Unit::none};
}

// Replaces what follows the first `header` bytes of segment `s`'s payload with `data`, and its length field: the
// rest of the file moves once, or not at all where the sizes are the same. The caller has checked that it fits.
void replace_segment_data(Bytes& jpeg, const JpegSegment& s, std::size_t header, const std::uint8_t* data, std::size_t size) {
    const std::size_t length = 2 + header + size;
    jpeg[s.payload - 2] = static_cast<std::uint8_t>(length >> 8);
    jpeg[s.payload - 1] = static_cast<std::uint8_t>(length & 0xff);
    const auto begin = jpeg.begin() + static_cast<std::ptrdiff_t>(s.payload + header);
    const std::size_t old_size = s.size - header, common = std::min(old_size, size);
    std::copy(data, data + common, begin);
    if (size > old_size) {
        jpeg.insert(begin + static_cast<std::ptrdiff_t>(old_size), data + common, data + size);
    } else {
        jpeg.erase(begin + static_cast<std::ptrdiff_t>(common), begin + static_cast<std::ptrdiff_t>(old_size));
    }
}

// The main XMP packet's segment: APP1 with the XMP namespace and a packet (an empty one is passed over, by the
// reader and by replace_jpeg_xmp alike).
bool is_xmp_segment(const Bytes& b, const JpegSegment& s) { return s.marker == 0xe1 && s.size > 29 && has_at(b, s.payload, xmp_header, 29); }

void read_jpeg(const Bytes& b, ImageMetadata& meta) {
    std::map<int, Bytes> icc_chunks;  // by sequence number, 1-based
    for (const JpegSegment& s : jpeg_segments(b)) {
        if (!meta.resolution) meta.resolution = resolution_of_jfif(b, s);
        if (meta.xmp.empty() && is_xmp_segment(b, s)) {
            meta.xmp.assign(b.begin() + static_cast<std::ptrdiff_t>(s.payload + 29), b.begin() + static_cast<std::ptrdiff_t>(s.payload + s.size));
        }
        if (s.marker == 0xe1 && meta.exif.empty() && s.size > 6 && has_at(b, s.payload, exif_header, 6)) {
            meta.exif.assign(b.begin() + static_cast<std::ptrdiff_t>(s.payload + 6), b.begin() + static_cast<std::ptrdiff_t>(s.payload + s.size));
        }
        if (s.marker == 0xfe) {  // COM
            meta.jpeg_comments.emplace_back(b.begin() + static_cast<std::ptrdiff_t>(s.payload), b.begin() + static_cast<std::ptrdiff_t>(s.payload + s.size));
        }
        if (s.marker == 0xed && meta.iptc.empty()) {  // APP13: Photoshop's resources, IPTC among them
            if (auto resources = photoshop_resources(b, s.payload, s.size); resources && resources->iptc) meta.iptc = std::move(*resources->iptc);
        }
        if (s.marker == 0xe2 && s.size > 14 && has_at(b, s.payload, icc_header, 12)) {
            icc_chunks[b[s.payload + 12]].assign(b.begin() + static_cast<std::ptrdiff_t>(s.payload + 14),
                                                 b.begin() + static_cast<std::ptrdiff_t>(s.payload + s.size));
        }
    }
    // Chunks 1..n, all present, or no profile at all.
    for (int i = 1; i <= static_cast<int>(icc_chunks.size()); ++i) {
        if (!icc_chunks.count(i)) return;
    }
    for (auto& [sequence, chunk] : icc_chunks) meta.icc.insert(meta.icc.end(), chunk.begin(), chunk.end());
}

Bytes jpeg_with(const Bytes& encoded, const ImageMetadata& meta) {
    // After SOI and the JFIF APP0 segment that TurboJPEG writes first, whose density is the resolution's.
    Bytes jpeg = encoded;
    std::size_t insert = 2;
    const auto segments = jpeg_segments(jpeg);
    if (!segments.empty() && segments.front().marker == 0xe0) {
        const JpegSegment& app0 = segments.front();
        insert = app0.payload + app0.size;
        if (meta.resolution && app0.size >= 12 && has_at(jpeg, app0.payload, jfif_header, 5)) {
            const Resolution& r = *meta.resolution;
            const auto density = [](double v) { return static_cast<unsigned>(std::clamp(std::lround(v), 1l, 65535l)); };
            const unsigned x = density(r.x), y = density(r.y);
            const std::size_t at = app0.payload + 7;
            jpeg[at] = r.unit == Resolution::Unit::inch ? 1 : r.unit == Resolution::Unit::centimetre ? 2 : 0;
            jpeg[at + 1] = static_cast<std::uint8_t>(x >> 8), jpeg[at + 2] = static_cast<std::uint8_t>(x);
            jpeg[at + 3] = static_cast<std::uint8_t>(y >> 8), jpeg[at + 4] = static_cast<std::uint8_t>(y);
        }
    }
    Bytes added;
    const auto segment = [&](std::uint8_t marker, const std::uint8_t* header, std::size_t header_size, const std::uint8_t* data, std::size_t size) {
        const std::size_t length = 2 + header_size + size;
        added.insert(added.end(), {0xff, marker, static_cast<std::uint8_t>(length >> 8), static_cast<std::uint8_t>(length)});
        added.insert(added.end(), header, header + header_size);
        added.insert(added.end(), data, data + size);
    };
    if (!meta.exif.empty() && meta.exif.size() <= app1_exif_max) {
        segment(0xe1, reinterpret_cast<const std::uint8_t*>(exif_header), 6, meta.exif.data(), meta.exif.size());
    }
    if (!meta.xmp.empty() && meta.xmp.size() <= 65535 - 2 - 29) {  // a larger packet needs Extended XMP's split
        segment(0xe1, reinterpret_cast<const std::uint8_t*>(xmp_header), 29, reinterpret_cast<const std::uint8_t*>(meta.xmp.data()), meta.xmp.size());
    }
    if (!meta.iptc.empty()) {
        if (const auto payload = photoshop_payload_for_iptc(meta.iptc)) segment(0xed, payload->data(), 0, payload->data(), payload->size());
    }
    for (const std::string& comment : meta.jpeg_comments) {
        if (comment.size() > 65535 - 2) continue;  // a COM segment read from a JPEG always fits one
        const auto* text = reinterpret_cast<const std::uint8_t*>(comment.data());
        segment(0xfe, text, 0, text, comment.size());
    }
    const std::size_t chunks = (meta.icc.size() + icc_chunk_max - 1) / icc_chunk_max;
    for (std::size_t i = 0; i < chunks && chunks < 256; ++i) {
        std::uint8_t header[14];
        std::memcpy(header, icc_header, 12);
        header[12] = static_cast<std::uint8_t>(i + 1);
        header[13] = static_cast<std::uint8_t>(chunks);
        const std::size_t begin = i * icc_chunk_max;
        segment(0xe2, header, 14, meta.icc.data() + begin, std::min(icc_chunk_max, meta.icc.size() - begin));
    }
    Bytes out(jpeg.begin(), jpeg.begin() + static_cast<std::ptrdiff_t>(insert));
    out.insert(out.end(), added.begin(), added.end());
    out.insert(out.end(), jpeg.begin() + static_cast<std::ptrdiff_t>(insert), jpeg.end());
    return out;
}

// ---------------------------------------------------------------- PNG

// The chunk list, and the ICC profile inflated from iCCP: a profile name of 1-79 bytes, NUL, compression
// method 0, then a zlib stream.
void read_png(const Bytes& b, ImageMetadata& meta) {
    read_png_layout(b, meta);
    // XMP: the first iTXt "XML:com.adobe.xmp" chunk, where it is uncompressed.
    for (const PngChunk& c : meta.png_chunks) {
        if (!is_png_xmp(c)) continue;
        if (const auto at = png_xmp_packet(c)) meta.xmp.assign(c.data.begin() + static_cast<std::ptrdiff_t>(*at), c.data.end());
        break;
    }
    // pHYs: pixels per unit along x and y (big-endian), then the unit: 1 the metre, 0 none (the ratio).
    const auto phys = std::find_if(meta.png_chunks.begin(), meta.png_chunks.end(), [](const PngChunk& c) { return c.type == "pHYs"; });
    if (phys != meta.png_chunks.end() && phys->data.size() == 9 && phys->data[8] <= 1) {
        const auto be32 = [&](std::size_t at) { return double(std::uint32_t{phys->data[at]} << 24 | phys->data[at + 1] << 16 | phys->data[at + 2] << 8 | phys->data[at + 3]); };
        const bool metre = phys->data[8] == 1;
        if (be32(0) > 0 && be32(4) > 0) {
            meta.resolution = Resolution{metre ? be32(0) / 100 : be32(0), metre ? be32(4) / 100 : be32(4), metre ? Resolution::Unit::centimetre : Resolution::Unit::none};
        }
    }
    const auto iccp = std::find_if(meta.png_chunks.begin(), meta.png_chunks.end(), [](const PngChunk& c) { return c.type == "iCCP"; });
    if (iccp == meta.png_chunks.end()) return;
    const Bytes& data = iccp->data;
    const auto name_end = static_cast<std::size_t>(std::find(data.begin(), data.end(), 0) - data.begin());
    if (data.size() - name_end < 2 || data[name_end + 1] != 0) return;
    Bytes profile(1 << 16);
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return;
    z.next_in = const_cast<Bytef*>(data.data() + name_end + 2);
    z.avail_in = static_cast<uInt>(data.size() - name_end - 2);
    int status = Z_OK;
    std::size_t produced = 0;
    while (status == Z_OK && profile.size() <= (64u << 20)) {  // profiles are kilobytes; 64 MiB is damage
        if (produced == profile.size()) profile.resize(profile.size() * 2);
        z.next_out = profile.data() + produced;
        z.avail_out = static_cast<uInt>(profile.size() - produced);
        status = inflate(&z, Z_NO_FLUSH);
        produced = profile.size() - z.avail_out;
        if (status == Z_BUF_ERROR && z.avail_in == 0) break;
    }
    inflateEnd(&z);
    if (status == Z_STREAM_END) {
        profile.resize(produced);
        meta.icc = std::move(profile);
    }
}

// A WebP's ICCP and EXIF chunks (RIFF: a fourcc, a little-endian size, the data padded to even). The EXIF
// chunk holds the TIFF structure; some writers put JPEG's "Exif\0\0" before it, which is dropped.
void read_webp(const Bytes& file, const std::vector<RiffChunk>& chunks, ImageMetadata& meta) {
    for (const RiffChunk& chunk : chunks) {
        if (!chunk.complete) return;  // cut short: what was read so far stands
        const auto data = file.begin() + static_cast<std::ptrdiff_t>(chunk.data);
        const auto end = data + static_cast<std::ptrdiff_t>(chunk.size);
        if (chunk.fourcc == "ICCP") meta.icc.assign(data, end);
        if (chunk.fourcc == "XMP ") meta.xmp.assign(data, end);
        if (chunk.fourcc == "EXIF") {
            const bool prefixed = chunk.size >= 6 && std::equal(data, data + 6, exif_header);
            meta.exif.assign(data + (prefixed ? 6 : 0), end);
        }
    }
}

}  // namespace

bool is_png_xmp(const PngChunk& c) {
    return c.type == "iTXt" && c.data.size() >= sizeof xmp_keyword && std::equal(xmp_keyword, xmp_keyword + sizeof xmp_keyword, c.data.begin());
}

std::optional<std::size_t> png_xmp_packet(const PngChunk& c) {
    // The keyword and its NUL, the compression flag and method, a language tag and a translated keyword (each
    // NUL-ended), the text: uncompressed, as the XMP specification asks.
    if (!is_png_xmp(c) || c.data.size() < sizeof xmp_keyword + 2 || c.data[sizeof xmp_keyword] != 0) return std::nullopt;
    auto at = c.data.begin() + static_cast<std::ptrdiff_t>(sizeof xmp_keyword + 2);
    for (int field = 0; field < 2; ++field) {  // the language tag, the translated keyword
        const auto nul = std::find(at, c.data.end(), 0);
        if (nul == c.data.end()) return std::nullopt;
        at = nul + 1;
    }
    return static_cast<std::size_t>(at - c.data.begin());
}

std::uint32_t pixels_per_metre(double value, Resolution::Unit unit) {
    const double per_metre = unit == Resolution::Unit::inch ? 100 / 2.54 : unit == Resolution::Unit::centimetre ? 100 : 1;
    return static_cast<std::uint32_t>(std::clamp(std::llround(value * per_metre), 1ll, 0x7fffffffll));
}

ImageMetadata metadata_of(const std::vector<std::uint8_t>& file) {
    ImageMetadata meta;
    if (is_png(file)) {
        read_png(file, meta);
    } else if (const auto tiff = read_tiff_directory(file)) {
        // A TIFF's ICC profile (tag 34675, UNDEFINED bytes), and whether its alpha is premultiplied. Not a CMYK
        // file's (PhotometricInterpretation 5): its pixels are read as RGB, which a profile of inks would misdescribe
        // (decoder_losses says it is left out).
        if (auto icc = tiff->bytes_of(file, 34675, 7); icc && tiff->value(262) != 5u) meta.icc = std::move(*icc);
        meta.associated_alpha = tiff->value(338) == 1u;
        meta.unspecified_extra_sample = tiff->value(338) == 0u;
        meta.tiff_text = tiff->text_tags(file);
        // IPTC (RichTIFFIPTC): the records' bytes, declared UNDEFINED, BYTE or, as Photoshop writes them, LONG (whose
        // padding to whole LONGs goes).
        if (const auto it = tiff->entries.find(33723); it != tiff->entries.end() && (it->second.type == 1 || it->second.type == 4 || it->second.type == 7)) {
            if (auto iptc = tiff->value_bytes(file, 33723)) meta.iptc = iptc_without_padding(std::move(*iptc));
        }
        // XMLPacket: BYTE or UNDEFINED.
        auto xmp = tiff->bytes_of(file, 700, 1);
        if (!xmp) xmp = tiff->bytes_of(file, 700, 7);
        if (xmp) meta.xmp.assign(xmp->begin(), xmp->end());
        // Its EXIF and GPS directories, as the block other formats carry.
        meta.exif = exif_of_tiff(file, *tiff).block;
        // XResolution and YResolution (RATIONALs), ResolutionUnit (1 none, 2 inch, 3 cm; 2 where absent).
        const auto rational = [&](std::uint16_t tag) -> double {
            const auto e = tiff->entries.find(tag);
            if (e == tiff->entries.end() || e->second.type != 5) return 0;
            const auto n = read_unsigned(file, e->second.at, 4, tiff->big_endian), d = read_unsigned(file, e->second.at + 4, 4, tiff->big_endian);
            return n && d && *d ? static_cast<double>(*n) / static_cast<double>(*d) : 0;
        };
        const double x = rational(282), y = rational(283);
        const std::uint64_t unit = tiff->value(296).value_or(2);
        if (x > 0 && y > 0 && unit >= 1 && unit <= 3) {
            meta.resolution = Resolution{x, y, unit == 2 ? Resolution::Unit::inch : unit == 3 ? Resolution::Unit::centimetre : Resolution::Unit::none};
        }
    } else if (const auto chunks = webp_chunks(file); !chunks.empty()) {
        read_webp(file, chunks, meta);
    } else if (file.size() >= 46 && file[0] == 'B' && file[1] == 'M' && read_unsigned(file, 14, 4, false) >= 40u) {
        // A BMP's pixels per metre along x and y (BITMAPINFOHEADER and later).
        const auto x = read_unsigned(file, 38, 4, false), y = read_unsigned(file, 42, 4, false);
        if (x && y && *x > 0 && *y > 0 && *x < 0x80000000u && *y < 0x80000000u) {
            meta.resolution = Resolution{static_cast<double>(*x) / 100, static_cast<double>(*y) / 100, Resolution::Unit::centimetre};
        }
    } else {
        read_jpeg(file, meta);
    }
    Bytes exif = meta.exif;
    if (!exif.empty() && !open_tiff(exif)) meta.exif.clear();  // not TIFF-structured: not EXIF we can keep
    return meta;
}

std::optional<int> exif_orientation(const std::vector<std::uint8_t>& exif) {
    Bytes copy = exif;
    const auto tiff = open_tiff(copy);
    if (!tiff) return std::nullopt;
    const auto ifd = first_ifd(*tiff);
    const auto at = ifd ? tiff->entry(*ifd, tag_orientation) : std::nullopt;
    const auto value = at ? tiff->get(*at + 8, 2) : std::nullopt;
    if (!value || *value < 1 || *value > 8) return std::nullopt;
    return static_cast<int>(*value);
}

void set_exif_orientation(std::vector<std::uint8_t>& exif, int value) {
    auto tiff = open_tiff(exif);
    if (!tiff) return;
    // IFD0's, and the thumbnail's in IFD1 where it has one (as exiftran sets both): the thumbnail turns with the image.
    const auto ifd = first_ifd(*tiff);
    const auto link = second_ifd(*tiff);
    for (const auto& directory : {ifd, link && link->ifd != 0 ? std::optional<std::size_t>(link->ifd) : std::nullopt}) {
        if (const auto at = directory ? tiff->entry(*directory, tag_orientation) : std::nullopt) tiff->put(*at + 8, 2, static_cast<std::uint32_t>(value));
    }
}

void swap_exif_dimensions(std::vector<std::uint8_t>& exif) {
    auto tiff = open_tiff(exif);
    if (!tiff) return;
    const auto ifd = first_ifd(*tiff);
    // IFD0's XResolution and YResolution: RATIONALs (type 5, 8 bytes) at the offsets their entries hold.
    const auto xr = ifd ? tiff->entry(*ifd, tag_x_resolution) : std::nullopt, yr = ifd ? tiff->entry(*ifd, tag_y_resolution) : std::nullopt;
    if (xr && yr && tiff->get(*xr + 2, 2) == 5u && tiff->get(*yr + 2, 2) == 5u) {
        const auto xo = tiff->get(*xr + 8, 4), yo = tiff->get(*yr + 8, 4);
        if (xo && yo && tiff->get(*xo + 4, 4) && tiff->get(*yo + 4, 4)) {
            for (std::size_t i = 0; i < 8; ++i) std::swap(exif[*xo + i], exif[*yo + i]);
        }
    }
    const auto pointer = ifd ? tiff->entry(*ifd, tag_exif_ifd) : std::nullopt;
    const auto sub = pointer ? tiff->get(*pointer + 8, 4) : std::nullopt;
    if (!sub) return;
    const auto x = tiff->entry(*sub, tag_pixel_x), y = tiff->entry(*sub, tag_pixel_y);
    if (!x || !y || tiff->get(*x + 2, 2) != tiff->get(*y + 2, 2)) return;  // both SHORT or both LONG
    for (int i = 0; i < 4; ++i) std::swap(exif[*x + 8 + i], exif[*y + 8 + i]);
}

void set_exif_dimensions(std::vector<std::uint8_t>& exif, std::int64_t width, std::int64_t height) {
    auto tiff = open_tiff(exif);
    if (!tiff) return;
    const auto ifd = first_ifd(*tiff);
    const auto pointer = ifd ? tiff->entry(*ifd, tag_exif_ifd) : std::nullopt;
    const auto sub = pointer ? tiff->get(*pointer + 8, 4) : std::nullopt;
    if (!sub) return;
    for (const auto& [tag, value] : {std::pair{tag_pixel_x, width}, std::pair{tag_pixel_y, height}}) {
        const auto at = tiff->entry(*sub, tag);
        const auto type = at ? tiff->get(*at + 2, 2) : std::nullopt;
        if (type == 3u && value <= 0xffff) tiff->put(*at + 8, 2, static_cast<std::uint32_t>(value));  // SHORT
        if (type == 4u && value <= 0xffffffff) tiff->put(*at + 8, 4, static_cast<std::uint32_t>(value));  // LONG
    }
}

void replace_jpeg_exif(std::vector<std::uint8_t>& jpeg, const std::vector<std::uint8_t>& exif) {
    if (exif.size() > app1_exif_max) return;
    for (const JpegSegment& s : jpeg_segments(jpeg)) {
        if (s.marker == 0xe1 && s.size > 6 && has_at(jpeg, s.payload, exif_header, 6)) {
            replace_segment_data(jpeg, s, 6, exif.data(), exif.size());
            return;
        }
    }
}

std::string turn_exif_thumbnail(std::vector<std::uint8_t>& exif, Orientation element, JpegTurner turn) {
    auto tiff = open_tiff(exif);
    const auto link = tiff ? second_ifd(*tiff) : std::nullopt;
    if (element == Orientation::identity || !link || link->ifd == 0) return {};
    const std::size_t ifd1 = link->ifd;
    const auto at_entry = tiff->entry(ifd1, tag_thumbnail_at), length_entry = tiff->entry(ifd1, tag_thumbnail_length);
    // The thumbnail goes (IFD0 no longer links to IFD1, and its bytes are zeroed where they are in the block), and why.
    std::size_t at = 0, length = 0;
    const auto left_out = [&](const std::string& why) {
        tiff->put(link->field, 4, 0);
        if (at <= exif.size() && exif.size() - at >= length) std::fill_n(exif.begin() + static_cast<std::ptrdiff_t>(at), length, 0);
        return why;
    };
    if (!at_entry && !length_entry) {
        return tiff->entry(ifd1, tag_strip_offsets) ? left_out("it is uncompressed, and only a JPEG thumbnail is turned") : std::string();
    }
    const auto one_long = [&](const std::optional<std::size_t>& e) { return e && tiff->get(*e + 2, 2) == 4u && tiff->get(*e + 4, 4) == 1u; };
    if (!one_long(at_entry) || !one_long(length_entry)) return left_out("its directory is damaged");
    at = *tiff->get(*at_entry + 8, 4), length = *tiff->get(*length_entry + 8, 4);
    if (length == 0) return {};  // a directory without its image: nothing to turn
    const std::size_t end = at + length;  // both at most 2^32 - 1: no overflow
    // Its bytes, which must not hold the fields written below (a damaged block could make them overlap).
    const auto outside = [&](std::size_t field) { return field + 4 <= at || field >= end; };
    if (end > exif.size() || exif[at] != 0xff || length < 2 || exif[at + 1] != 0xd8 || !outside(link->field) || !outside(*at_entry + 8) ||
        !outside(*length_entry + 8)) {
        at = length = 0;
        return left_out("it is damaged, or not a JPEG");
    }
    const Bytes thumbnail(exif.begin() + static_cast<std::ptrdiff_t>(at), exif.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<std::optional<Bytes>> turned;
    try {
        // jpegtran's transform with -trim, as exiftran turns it; its own markers kept.
        turned = turn(thumbnail, element, thumbnail_max_pixels);
    } catch (const Error&) {
        return left_out("it does not decode, or is over " + std::to_string(thumbnail_max_pixels) + " pixels");
    }
    if (turned.empty()) return left_out("this build has no libjpeg-turbo to turn it with");
    if (!turned.front()) return left_out("it is under one block across the side it mirrors");
    const Bytes& bytes = *turned.front();
    // In its place where it fits there or ends the block (the rest of the old one zeroed); else after everything,
    // the old one zeroed: nothing else in the block moves.
    Bytes out = exif;
    std::size_t new_at = at;
    if (bytes.size() <= length || end == exif.size()) {
        if (end == exif.size()) {
            out.resize(at + bytes.size());
        } else {
            std::fill(out.begin() + static_cast<std::ptrdiff_t>(at + bytes.size()), out.begin() + static_cast<std::ptrdiff_t>(end), 0);
        }
    } else {
        std::fill(out.begin() + static_cast<std::ptrdiff_t>(at), out.begin() + static_cast<std::ptrdiff_t>(end), 0);
        if (out.size() % 2) out.push_back(0);
        new_at = out.size();
        out.resize(out.size() + bytes.size());
    }
    if (out.size() > app1_exif_max && out.size() > exif.size()) return left_out("turned, it would make the EXIF block pass 64 KiB");
    std::copy(bytes.begin(), bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(new_at));
    exif = std::move(out);
    tiff->put(*at_entry + 8, 4, static_cast<std::uint32_t>(new_at));
    tiff->put(*length_entry + 8, 4, static_cast<std::uint32_t>(bytes.size()));
    return {};
}

void replace_jpeg_xmp(std::vector<std::uint8_t>& jpeg, const std::string& xmp) {
    constexpr std::size_t header = sizeof xmp_header;  // with its NUL
    if (xmp.size() > 65535 - 2 - header) return;
    for (const JpegSegment& s : jpeg_segments(jpeg)) {
        if (!is_xmp_segment(jpeg, s)) continue;
        const auto packet = jpeg.begin() + static_cast<std::ptrdiff_t>(s.payload + header);
        if (std::equal(packet, packet + static_cast<std::ptrdiff_t>(s.size - header), xmp.begin(), xmp.end())) return;
        replace_segment_data(jpeg, s, header, reinterpret_cast<const std::uint8_t*>(xmp.data()), xmp.size());  // a swap of the axes keeps its size
        return;
    }
}

std::string leave_out_exif_thumbnail(std::vector<std::uint8_t>& exif, const std::string& why) {
    // turn_exif_thumbnail leaves a thumbnail out wherever its turner cannot turn it: this turner never can.
    const JpegTurner never = [](const std::vector<std::uint8_t>&, Orientation, std::int64_t) {
        return std::vector<std::optional<std::vector<std::uint8_t>>>{std::nullopt};
    };
    return turn_exif_thumbnail(exif, Orientation::rot90, never).empty() ? std::string() : why;
}

ImageMetadata metadata_after(const ImageMetadata& metadata, Orientation element, int orientation_tag, std::string* thumbnail_left_out,
                             JpegTurner turn) {
    ImageMetadata out = metadata;
    if (swaps_axes(element)) {
        swap_exif_dimensions(out.exif);
        swap_xmp_axes(out.xmp);
        if (out.resolution) std::swap(out.resolution->x, out.resolution->y);
        for (PngChunk& chunk : out.png_chunks) {
            if (chunk.type == "pHYs") swap_phys_axes(chunk);
        }
    }
    if (orientation_tag != 0) {
        set_exif_orientation(out.exif, orientation_tag);
        set_xmp_orientation(out.xmp, orientation_tag);
    }
    const std::string why = turn_exif_thumbnail(out.exif, element, turn);
    if (thumbnail_left_out) *thumbnail_left_out = why;
    // A PNG's eXIf chunk is left as read: the PNG writer puts `exif` in its place.
    return out;
}

std::vector<std::uint8_t> with_metadata(std::vector<std::uint8_t> encoded, const ImageMetadata& metadata) {
    if (metadata.exif.empty() && metadata.icc.empty() && metadata.xmp.empty() && metadata.iptc.empty() && metadata.jpeg_comments.empty() &&
        !metadata.resolution) {
        return encoded;
    }
    if (encoded.size() >= 2 && encoded[0] == 0xff && encoded[1] == 0xd8) return jpeg_with(encoded, metadata);
    return encoded;
}

ImageMetadata stripped_metadata(const ImageMetadata& metadata) {
    ImageMetadata out;
    out.png_storage = metadata.png_storage;
    out.associated_alpha = metadata.associated_alpha;  // what the pixels are, as png_storage
    out.unspecified_extra_sample = metadata.unspecified_extra_sample;
    return out;
}

}  // namespace gpurotate::detail
