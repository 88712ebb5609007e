#include "formats/stb_codec.hpp"

#include "formats/bmp_for_stb.hpp"
#include "metadata/byte_order.hpp"
#include "metadata/container_walks.hpp"
#include "core/decode_limits.hpp"
#include "metadata/metadata.hpp"
#include "formats/alpha_channel.hpp"
#include "jpeg/turbojpeg_codec.hpp"

#include <gpurotate/error.hpp>

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

namespace gpurotate::detail {
namespace {

using StbPixels = std::unique_ptr<void, decltype(&stbi_image_free)>;

// stb reads a truncated JPEG without complaint and fills the missing rows with grey, so a JPEG must
// contain an end-of-image marker to count as complete.
bool has_jpeg_end_marker(const std::vector<std::uint8_t>& bytes) {
    for (std::size_t i = bytes.size(); i-- > 1;) {
        if (bytes[i - 1] == 0xff && bytes[i] == 0xd9) return true;
    }
    return false;
}

// Whether stb reads `bytes` as a JPEG: it takes any number of FF fill bytes before the start-of-image
// marker (a third fuzz_stb finding began FF FF FF FF D8).
bool is_jpeg(const std::vector<std::uint8_t>& bytes) {
    std::size_t i = 0;
    while (i < bytes.size() && bytes[i] == 0xff) ++i;
    return i >= 1 && i < bytes.size() && bytes[i] == 0xd8;
}

// stb_image (Debian's 2022-09 snapshot) builds a Huffman table from a DHT segment's 16 code counts
// without checking that they sum to at most 256, and writes up to 4080 entries into a 257-entry array
// (found by fuzz_stb). JPEG's own limit is 256 codes per table. stb skips bytes it cannot parse until it
// finds a marker, so where it takes a segment for a DHT cannot be foreseen short of re-implementing it:
// every FF C4 in the file is read as one, and a table over the limit refuses the file. (A valid JPEG
// could only be refused if some other segment's payload held FF C4 and such counts, and JPEGs reach stb
// only in builds without libjpeg-turbo.)
bool jpeg_huffman_tables_fit(const std::vector<std::uint8_t>& bytes) {
    for (std::size_t pos = 2; pos + 4 <= bytes.size(); ++pos) {
        if (bytes[pos] != 0xff || bytes[pos + 1] != 0xc4) continue;
        const std::size_t length = std::size_t{bytes[pos + 2]} << 8 | bytes[pos + 3];
        const std::size_t end = std::min(bytes.size(), pos + 2 + length);
        // As stb does: tables while any of the segment's length is left, the last one read on past the
        // segment's end if the length says so (stb reads zeros past the end of the file).
        for (std::size_t table = pos + 4; table < end;) {
            std::size_t codes = 0;
            for (std::size_t i = table + 1; i <= table + 16 && i < bytes.size(); ++i) codes += bytes[i];
            if (codes > 256) return false;
            table += 17 + codes;
        }
    }
    return true;
}

// stb_image's Radiance HDR reader loops forever when run-length data end early: past the end it reads
// zeros, and a zero-length run never advances (found by fuzz_stb). This walks the scanlines as stb does
// and says whether the data are all there; stb still reports every other kind of damage itself.
bool hdr_scanlines_complete(const std::vector<std::uint8_t>& bytes) {
    // The header exactly as stb tokenises it (stbi__hdr_gettoken): lines up to '\n', at most 1023 bytes
    // kept; the magic line, then lines until one whose first byte is NUL or that is empty, then the
    // resolution line. (A first version looked for "\n\n" and missed a NUL line: the second finding.)
    std::size_t pos = 0;
    const auto token = [&] {
        std::string line;
        while (pos < bytes.size()) {
            const char c = static_cast<char>(bytes[pos++]);
            if (c == '\n') break;
            if (line.size() < 1023) line += c;
        }
        return line;
    };
    token();
    while (pos < bytes.size()) {
        const std::string line = token();
        if (line.empty() || line[0] == '\0') break;
    }
    const std::string resolution = token();
    long height = 0, width = 0;
    if (std::sscanf(resolution.c_str(), "-Y %ld +X %ld", &height, &width) != 2 || height <= 0 || width <= 0) return true;
    const auto flat_rest_present = [&](long rows_left) {  // 4 bytes a pixel, no run-length coding
        return bytes.size() - std::min(pos, bytes.size()) >= static_cast<std::size_t>(rows_left) * static_cast<std::size_t>(width) * 4;
    };
    for (long row = 0; row < height; ++row) {
        if (width < 8 || width >= 32768) return flat_rest_present(height - row);
        if (pos + 4 > bytes.size()) return false;
        if (bytes[pos] != 2 || bytes[pos + 1] != 2 || (bytes[pos + 2] & 0x80)) return flat_rest_present(height - row);
        if ((bytes[pos + 2] << 8 | bytes[pos + 3]) != width) return true;  // stb: "invalid decoded scanline length"
        pos += 4;
        for (int channel = 0; channel < 4; ++channel) {
            for (long x = 0; x < width;) {
                if (pos >= bytes.size()) return false;
                long count = bytes[pos++];
                const bool run = count > 128;
                if (run) count -= 128;
                if (count > width - x) return true;  // stb: "bad RLE data"
                const std::size_t data = run ? 1 : static_cast<std::size_t>(count);
                if (bytes.size() - pos < data) return false;
                pos += data;
                x += count;
            }
        }
    }
    return true;
}


// stb_image reads past the end of a BMP or TGA as zeros and returns a half-black image without complaint
// (bench/bad_inputs.sh found this). These say, from the header, whether the pixel data are all there:
// a file that cannot be judged (compressed BMP, a header stb will refuse anyway) passes.
bool bmp_pixels_complete(const std::vector<std::uint8_t>& b) {
    if (b.size() < 30 || b[0] != 'B' || b[1] != 'M') return true;
    const std::uint32_t header = le32(b, 14);
    const bool core = header == 12;  // BITMAPCOREHEADER: 16-bit sizes, no compression field
    if (!core && b.size() < 34) return true;
    const std::uint64_t width = core ? le16(b, 18) : le32(b, 18);
    const auto height_raw = static_cast<std::int32_t>(core ? le16(b, 20) : le32(b, 22));
    const std::uint32_t bits = core ? le16(b, 24) : le16(b, 28);
    const std::uint32_t compression = core ? 0 : le32(b, 30);
    if (compression != 0 && compression != 3 && compression != 6) return true;  // run-length coded
    const std::uint64_t height = height_raw < 0 ? 0ull - static_cast<std::int64_t>(height_raw) : static_cast<std::uint64_t>(height_raw);
    const std::uint64_t stride = (width * bits + 31) / 32 * 4;
    return b.size() >= le32(b, 10) + stride * height;
}

bool tga_pixels_complete(const std::vector<std::uint8_t>& b) {
    if (b.size() < 18) return true;
    const int type = b[2];
    const bool rle = type >= 9 && type <= 11;
    if (!(type >= 1 && type <= 3) && !rle) return true;
    const std::uint64_t width = le16(b, 12), height = le16(b, 14), depth = b[16];
    if (width == 0 || height == 0 || depth == 0 || depth > 32) return true;
    const std::uint64_t colormap = b[1] ? le16(b, 5) * ((b[7] + 7u) / 8) : 0;
    std::uint64_t pos = 18 + b[0] + colormap;
    const std::uint64_t pixel = (depth + 7) / 8, pixels = width * height;
    if (!rle) return b.size() >= pos + pixels * pixel;
    for (std::uint64_t done = 0; done < pixels;) {  // packets: a header byte, then one pixel (run) or n (raw)
        if (pos >= b.size()) return false;
        const std::uint8_t packet = b[pos++];
        const std::uint64_t n = (packet & 0x7fu) + 1;
        pos += (packet & 0x80u) ? pixel : n * pixel;
        done += n;
    }
    return pos <= b.size();
}

// Whether a PSD's merged image data are all there (stb reads past the end as zeros): after the header (26
// bytes) three sections, each a big-endian length and its bytes, then the compression (0 raw, 1 PackBits)
// and the channels' planes, raw or as a table of each row's byte count (2 bytes each) and the rows.
bool psd_pixels_complete(const std::vector<std::uint8_t>& b) {
    const auto layout = psd_layout(b);
    if (!layout) return true;
    if (!layout->sections_complete) return false;
    const auto be16 = [&](std::uint64_t at) { return read_unsigned(b, at, 2, true); };
    const auto compression = be16(layout->image_data);
    if (!compression) return false;
    const std::uint64_t at = layout->image_data + 2, left = b.size() - std::min<std::uint64_t>(at, b.size());
    const std::uint64_t rows = std::uint64_t{layout->channels} * layout->height;
    if (*compression == 0) return left >= rows * ((std::uint64_t{layout->width} * layout->depth + 7) / 8);
    if (*compression != 1) return true;  // stb refuses the others itself
    if (2 * rows > left) return false;
    std::uint64_t data = 0;
    for (std::uint64_t r = 0; r < rows; ++r) data += *be16(at + 2 * r);
    return left - 2 * rows >= data;
}

// Whether the header integers (width, height, maxval) of a binary PNM (P5, P6: the ones stb reads) each fit
// in an int: stb accumulates them in an int, digit by digit, and overflows on a longer one (found by
// fuzz_stb). Whitespace and '#' comments between them, as the format allows; anything else is stb's to judge.
bool pnm_header_fits(const std::vector<std::uint8_t>& b) {
    if (b.size() < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return true;
    std::size_t pos = 2;
    for (int field = 0; field < 3; ++field) {
        while (pos < b.size() && (std::isspace(b[pos]) || b[pos] == '#')) {
            if (b[pos] == '#') {
                while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
            } else {
                ++pos;
            }
        }
        std::int64_t value = 0;
        for (; pos < b.size() && b[pos] >= '0' && b[pos] <= '9'; ++pos) {
            value = value * 10 + (b[pos] - '0');
            if (value > std::numeric_limits<int>::max()) return false;
        }
    }
    return true;
}

// Whether stb would read `bytes` as a TGA: it has no signature, so: none of the others'.
bool may_be_tga(const std::vector<std::uint8_t>& b) {
    if (b.size() < 4) return false;
    const auto starts = [&](const char* magic) { return std::memcmp(b.data(), magic, std::strlen(magic)) == 0; };
    return !(starts("\x89PNG") || starts("BM") || starts("GIF8") || starts("8BPS") || starts("#?") || (b[0] == 'P' && b[1] >= '1' && b[1] <= '7') ||
             is_jpeg(b) || starts("\x53\x80\xf6\x34"));
}

// stb's writers hand out bytes through a callback; this one appends them to a vector.
void append_to_vector(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

// stb's writers take tightly packed rows.
std::vector<std::uint8_t> packed_copy(ConstImageView image) {
    std::vector<std::uint8_t> packed(image.row_bytes() * static_cast<std::size_t>(image.height));
    for (std::int64_t y = 0; y < image.height; ++y) {
        std::memcpy(packed.data() + static_cast<std::size_t>(y) * image.row_bytes(), image.row(y), image.row_bytes());
    }
    return packed;
}

int checked_int(std::int64_t v) {
    if (v > std::numeric_limits<int>::max()) throw Error(ErrorCode::output, "image too large for this encoder");
    return static_cast<int>(v);
}

template <class Write>
std::vector<std::uint8_t> encode_with(ConstImageView image, const char* format, Write&& write) {
    const std::vector<std::uint8_t> packed = packed_copy(image);
    std::vector<std::uint8_t> out;
    if (!write(&append_to_vector, &out, checked_int(image.width), checked_int(image.height), image.format.channels, packed.data())) {
        throw Error(ErrorCode::output, std::string(format) + " encoding failed");
    }
    return out;
}

// stbi_info, after the checks of what stb would read wrong in the header. Throws Error (input) naming `path`
// for those; false where stb does not take the bytes.
bool stb_header(const std::vector<std::uint8_t>& bytes, const std::string& path, int& width, int& height, int& channels) {
    // With libjpeg-turbo every JPEG is its: one that reaches stb here did not begin with the start-of-image
    // marker (stb takes fill bytes before it), which libjpeg refuses too. stb's JPEG decoder, whose
    // defects the fuzzers keep finding, then only ever runs in builds without libjpeg-turbo.
    if (is_jpeg(bytes) && turbojpeg_available()) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt JPEG: it does not begin with the start-of-image marker");
    }
    if (is_jpeg(bytes) && !jpeg_huffman_tables_fit(bytes)) {  // before stbi_info, which reads the tables too
        throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt JPEG: a Huffman table has more than 256 codes");
    }
    if (!pnm_header_fits(bytes)) {  // before stbi_info, which reads the header too
        throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNM: a header number is larger than 2147483647");
    }
    return stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &width, &height, &channels) != 0;
}

}  // namespace

std::optional<Extent> stb_declared_extent(const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) return std::nullopt;
    int width = 0, height = 0, channels = 0;
    try {
        // A run-length BMP, which stb_decode rewrites for stb first, says nothing here: its decode checks it.
        if (!stb_header(bytes, {}, width, height, channels)) return std::nullopt;
    } catch (const Error&) {
        return std::nullopt;  // damage that stb_decode names
    }
    return Extent{width, height};
}

std::optional<Image> stb_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options,
                                std::string& why) {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        why = "file too large for stb_image";
        return std::nullopt;
    }
    if (auto readable = bmp_for_stb(bytes, path, options)) return stb_decode(*readable, path, options, why);
    const auto* data = bytes.data();
    const int size = static_cast<int>(bytes.size());
    int width = 0, height = 0, channels = 0;
    if (!stb_header(bytes, path, width, height, channels)) {
        why = stbi_failure_reason() ? stbi_failure_reason() : "unknown format";
        // A Radiance file stb refuses (a +Y or +X scan order, XYZE): OpenCV's reader would print its own errors
        // before refusing it too.
        if (bytes.size() >= 2 && bytes[0] == '#' && bytes[1] == '?') throw Error(ErrorCode::input, "cannot decode '" + path + "': Radiance HDR: " + why);
        return std::nullopt;
    }
    const auto corrupt = [&](const std::string& reason) {
        return Error(ErrorCode::input, "cannot decode '" + path + "': " + reason);
    };
    check_declared_size(path, width, height, options);
    if (is_jpeg(bytes) && !has_jpeg_end_marker(bytes)) throw corrupt("corrupt JPEG: file is truncated (no end-of-image marker)");
    if (!bmp_pixels_complete(bytes)) throw corrupt("corrupt BMP: file is truncated inside the pixel data");
    if (may_be_tga(bytes) && !tga_pixels_complete(bytes)) throw corrupt("corrupt TGA: file is truncated inside the pixel data");
    if (!psd_pixels_complete(bytes)) throw corrupt("corrupt PSD: file is truncated inside the image data");
    // stb decodes a GIF whose first frame's data end early as far as they go, and returns the rest blank.
    const bool gif = bytes.size() >= 4 && std::memcmp(bytes.data(), "GIF8", 4) == 0;
    if (gif && !gif_layout(bytes).first_frame_complete) throw corrupt("corrupt GIF: file is truncated inside the first frame");

    PixelFormat format{SampleType::u8, channels};
    void* pixels = nullptr;
    if (stbi_is_hdr_from_memory(data, size)) {
        if (!hdr_scanlines_complete(bytes)) throw corrupt("corrupt HDR: file is truncated inside the pixel data");
        format.sample = SampleType::f32;
        pixels = stbi_loadf_from_memory(data, size, &width, &height, &channels, 0);
    } else if (stbi_is_16_bit_from_memory(data, size)) {
        format.sample = SampleType::u16;
        pixels = stbi_load_16_from_memory(data, size, &width, &height, &channels, 0);
    } else {
        pixels = stbi_load_from_memory(data, size, &width, &height, &channels, 0);
    }
    StbPixels owned(pixels, &stbi_image_free);
    if (!pixels) throw corrupt(stbi_failure_reason() ? stbi_failure_reason() : "decoder failed");
    format.channels = channels;
    Image image(width, height, format, options.memory);
    std::memcpy(image.data(), pixels, image.size_bytes());
    // stb decodes every GIF to RGBA, and an RGB PSD (3 channels in its header) to RGBA with alpha 255: a frame
    // with no transparent pixel is RGB, as ImageMagick reads it.
    const auto psd = psd_layout(bytes);
    const bool rgb_psd = psd && psd->channels == 3;
    if (gif || rgb_psd) {
        if (auto opaque = without_opaque_alpha(image.view(), options.memory)) return std::move(*opaque);
    }
    return image;
}

GifLayout gif_layout(const std::vector<std::uint8_t>& bytes) {
    // Header (6), logical screen descriptor (7) and its colour table, then blocks until the trailer: an image
    // (descriptor, colour table, LZW data) or an extension, each data part as sub-blocks of a length byte and
    // that many bytes, ended by a zero length. A file cut short counts the frames it began.
    const std::size_t size = bytes.size();
    GifLayout layout;
    if (size < 13 || std::memcmp(bytes.data(), "GIF8", 4) != 0) return layout;
    const auto colour_table = [&](std::uint8_t flags) { return (flags & 0x80) ? std::size_t{3} << ((flags & 7) + 1) : 0; };
    std::size_t at = 13 + colour_table(bytes[10]);
    const auto skip_sub_blocks = [&] {  // whether the zero length that ends them is in the file
        while (at < size && bytes[at] != 0) at += 1 + std::size_t{bytes[at]};
        return at++ < size;
    };
    while (at < size) {
        const std::uint8_t block = bytes[at];
        if (block == 0x2c) {  // image descriptor
            ++layout.frames;
            if (at + 10 > size) break;
            at += 10 + colour_table(bytes[at + 9]);
            ++at;  // LZW minimum code size
            const bool complete = skip_sub_blocks();
            if (layout.frames == 1) layout.first_frame_complete = complete;
        } else if (block == 0x21) {  // extension: label, then sub-blocks
            at += 2;
            skip_sub_blocks();
        } else {
            break;  // the trailer (0x3b), or damage
        }
    }
    return layout;
}

std::vector<std::uint8_t> stb_encode_jpeg(ConstImageView image, int quality) {
    return encode_with(image, "JPEG", [&](auto func, void* ctx, int w, int h, int c, const void* d) {
        return stbi_write_jpg_to_func(func, ctx, w, h, c, d, quality);
    });
}

std::vector<std::uint8_t> stb_encode_bmp(ConstImageView image, const std::optional<Resolution>& resolution) {
    std::vector<std::uint8_t> bytes = encode_with(image, "BMP", &stbi_write_bmp_to_func);
    // stb writes no resolution; a BMP's is pixels per metre at bytes 38 and 42 (little-endian).
    if (resolution && resolution->unit != Resolution::Unit::none && bytes.size() >= 46) {
        for (const auto& [at, value] : {std::pair{std::size_t{38}, resolution->x}, std::pair{std::size_t{42}, resolution->y}}) {
            const std::uint32_t ppm = pixels_per_metre(value, resolution->unit);
            for (int i = 0; i < 4; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(ppm >> (8 * i));
        }
    }
    return bytes;
}

std::vector<std::uint8_t> stb_encode_tga(ConstImageView image) {
    // TGA stores each side in 16 bits; stb would write the low 16 bits of a larger one (found by fuzz_roundtrip).
    if (image.width > 65535 || image.height > 65535) {
        throw Error(ErrorCode::output, "TGA holds at most 65535 pixels a side, not " + std::to_string(image.width) + "x" + std::to_string(image.height));
    }
    return encode_with(image, "TGA", &stbi_write_tga_to_func);
}

std::vector<std::uint8_t> stb_encode_hdr(ConstImageView image) {
    // RGBE stores a shared exponent and three unsigned mantissas: nothing negative, infinite or NaN. stb would
    // convert such a value to its mantissa byte out of range (undefined; found by clang's UBSan).
    const std::size_t samples = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.format.channels);
    for (std::int64_t y = 0; y < image.height; ++y) {
        const auto* row = reinterpret_cast<const float*>(image.row(y));
        for (std::size_t i = 0; i < samples; ++i) {
            if (!(row[i] >= 0.0f && row[i] <= std::numeric_limits<float>::max())) {
                throw Error(ErrorCode::output, "Radiance HDR holds finite values of 0 or more; pixel (" +
                                                   std::to_string(i / static_cast<std::size_t>(image.format.channels)) + ", " +
                                                   std::to_string(y) + ") has " + std::to_string(row[i]) + " (write EXR or TIFF instead)");
            }
        }
    }
    return encode_with(image, "HDR", [](auto func, void* ctx, int w, int h, int c, const void* d) {
        return stbi_write_hdr_to_func(func, ctx, w, h, c, static_cast<const float*>(d));
    });
}

}  // namespace gpurotate::detail
