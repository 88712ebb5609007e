#include "codecs/png.hpp"

#include "codecs/decode_limits.hpp"

#include <gpurotate/error.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace gpurotate::detail {
namespace {

constexpr std::uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

// PNG's chunk CRC is zlib's CRC-32.
std::uint32_t chunk_crc(const std::uint8_t* data, std::size_t size) {
    uLong crc = ::crc32(0L, Z_NULL, 0);
    while (size > 0) {
        const uInt n = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
        crc = ::crc32(crc, data, n);
        data += n;
        size -= n;
    }
    return static_cast<std::uint32_t>(crc);
}

// One zlib stream of `data` at `level`, ending with zlib's Adler-32 as PNG requires. Level 1 matches runs
// only (Z_RLE): on filtered photographs that is both the fastest and the smallest (bench/RESULTS.md);
// levels 2-9 search for repeated strings, which pays on drawings and screenshots.
std::vector<std::uint8_t> deflate_all(const std::vector<std::uint8_t>& data, int level) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, 15, 8, level == 1 ? Z_RLE : Z_DEFAULT_STRATEGY) != Z_OK) throw Error(ErrorCode::internal, "PNG: zlib initialisation failed");
    std::vector<std::uint8_t> out(deflateBound(&z, static_cast<uLong>(data.size())));
    z.next_in = const_cast<Bytef*>(data.data());
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&z, Z_FINISH);
    const std::size_t size = z.total_out;
    deflateEnd(&z);
    if (status != Z_STREAM_END) throw Error(ErrorCode::internal, "PNG: zlib compression failed");
    out.resize(size);
    return out;
}

void append_be32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

std::uint8_t paeth(int a, int b, int c) {
    const int p = a + b - c;
    const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return static_cast<std::uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Filters one row with filter `Type` (0..4) into `out` and returns the heuristic's cost: the sum of the
// filtered bytes read as signed values. `prior` is the previous raw row (zeros for the first). One tight
// loop per filter type, so that the compiler vectorises the simple ones.
template <int Type>
long filter_row(const std::uint8_t* row, const std::uint8_t* prior, std::size_t size, std::size_t bpp, std::uint8_t* out) {
    long cost = 0;
    for (std::size_t i = 0; i < size; ++i) {
        const int a = i >= bpp ? row[i - bpp] : 0;
        const int b = prior[i];
        int predicted = 0;
        if constexpr (Type == 1) predicted = a;
        if constexpr (Type == 2) predicted = b;
        if constexpr (Type == 3) predicted = (a + b) >> 1;
        if constexpr (Type == 4) predicted = paeth(a, b, i >= bpp ? prior[i - bpp] : 0);
        const auto v = static_cast<std::uint8_t>(row[i] - predicted);
        out[i] = v;
        cost += std::abs(static_cast<int>(static_cast<std::int8_t>(v)));
    }
    return cost;
}

using FilterFunction = long (*)(const std::uint8_t*, const std::uint8_t*, std::size_t, std::size_t, std::uint8_t*);
constexpr FilterFunction filters[5] = {filter_row<0>, filter_row<1>, filter_row<2>, filter_row<3>, filter_row<4>};

std::uint8_t paeth_byte(int a, int b, int c) { return paeth(a, b, c); }

// Undoes the filter of one row in place; `prior` is the previous unfiltered row (zeros for the first).
void unfilter_row(int type, std::uint8_t* row, const std::uint8_t* prior, std::size_t size, std::size_t bpp) {
    switch (type) {
        case 0: return;
        case 1:
            for (std::size_t i = bpp; i < size; ++i) row[i] = static_cast<std::uint8_t>(row[i] + row[i - bpp]);
            return;
        case 2:
            for (std::size_t i = 0; i < size; ++i) row[i] = static_cast<std::uint8_t>(row[i] + prior[i]);
            return;
        case 3:
            for (std::size_t i = 0; i < size; ++i) row[i] = static_cast<std::uint8_t>(row[i] + (((i >= bpp ? row[i - bpp] : 0) + prior[i]) >> 1));
            return;
        case 4:
            for (std::size_t i = 0; i < size; ++i) {
                row[i] = static_cast<std::uint8_t>(row[i] + paeth_byte(i >= bpp ? row[i - bpp] : 0, prior[i], i >= bpp ? prior[i - bpp] : 0));
            }
            return;
        default: break;
    }
}

}  // namespace

std::uint32_t read_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

void append_png_chunk(std::vector<std::uint8_t>& out, const char type[4], const std::uint8_t* data, std::size_t size) {
    append_be32(out, static_cast<std::uint32_t>(size));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data, data + size);
    append_be32(out, chunk_crc(out.data() + start, size + 4));
}

std::optional<Image> decode_png(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!is_png(bytes)) return std::nullopt;
    verify_png_chunks(bytes, path);
    const auto fail = [&](const std::string& why) { return Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNG: " + why); };
    if (bytes.size() < 33 || std::memcmp(&bytes[12], "IHDR", 4) != 0 || read_be32(&bytes[8]) != 13) throw fail("no IHDR chunk first");
    const std::uint8_t* ihdr = &bytes[16];
    const std::uint32_t width = read_be32(ihdr), height = read_be32(ihdr + 4);
    const int depth = ihdr[8], color = ihdr[9], interlace = ihdr[12];
    static constexpr int channels_of_color[] = {1, 0, 3, 0, 2, 0, 4};
    // Palettes, depths below 8 and interlacing are rare in datasets: stb decodes those.
    if ((depth != 8 && depth != 16) || color > 6 || channels_of_color[color] == 0 || interlace != 0) return std::nullopt;
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) throw fail("image size " + std::to_string(width) + "x" + std::to_string(height));
    check_declared_size(path, width, height, options);
    const PixelFormat format{depth == 16 ? SampleType::u16 : SampleType::u8, channels_of_color[color]};
    std::size_t image_bytes = 0;
    try {
        image_bytes = checked_image_bytes(width, height, format);
    } catch (const Error&) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': " + std::to_string(width) + "x" + std::to_string(height) + " is too large");
    }
    const std::size_t row_bytes = image_bytes / height;
    const std::size_t filtered_bytes = (row_bytes + 1) * height;

    // The IDAT chunks form one zlib stream; zlib checks its Adler-32, so damaged data never decodes.
    std::vector<std::uint8_t> filtered(filtered_bytes);
    z_stream z{};
    if (inflateInit(&z) != Z_OK) throw Error(ErrorCode::internal, "PNG: zlib initialisation failed");
    int status = Z_OK;
    std::size_t produced = 0;
    // The chunks up to IEND are verified complete; bytes after IEND are ignored, as libpng does (a length
    // read there once wrapped `pos` round to itself: found by fuzz_png).
    for (std::size_t pos = 8; pos + 12 <= bytes.size() && status == Z_OK;) {
        const std::size_t length = read_be32(&bytes[pos]);
        if (std::memcmp(&bytes[pos + 4], "IEND", 4) == 0 || length > bytes.size() - pos - 12) break;
        if (std::memcmp(&bytes[pos + 4], "IDAT", 4) == 0) {
            z.next_in = const_cast<Bytef*>(&bytes[pos + 8]);
            z.avail_in = static_cast<uInt>(length);
            while (z.avail_in > 0 && status == Z_OK) {
                // Once the image is full, a spare byte lets zlib read on to the stream's end and checksum;
                // any byte it writes there is data the image has no room for.
                std::uint8_t spare = 0;
                const bool full = produced == filtered_bytes;
                const std::size_t room = full ? 1 : std::min<std::size_t>(filtered_bytes - produced, 1u << 30);
                z.next_out = full ? &spare : filtered.data() + produced;
                z.avail_out = static_cast<uInt>(room);
                status = inflate(&z, Z_NO_FLUSH);
                const std::size_t wrote = room - z.avail_out;
                if ((full && wrote > 0) || status == Z_BUF_ERROR) status = Z_DATA_ERROR;
                if (!full) produced += wrote;
            }
        }
        pos += 12 + length;
    }
    inflateEnd(&z);
    if (status != Z_STREAM_END) throw fail(status == Z_DATA_ERROR ? "damaged image data (zlib)" : "image data end early");
    if (produced != filtered_bytes) throw fail("image data are " + std::to_string(produced) + " bytes, not " + std::to_string(filtered_bytes));

    Image image(width, height, format, options.memory);
    std::vector<std::uint8_t> zero_row(row_bytes, 0);
    const std::size_t bpp = format.pixel_bytes();
    for (std::uint32_t y = 0; y < height; ++y) {
        std::uint8_t* line = &filtered[static_cast<std::size_t>(y) * (row_bytes + 1)];
        if (line[0] > 4) throw fail("unknown filter type " + std::to_string(line[0]) + " in row " + std::to_string(y));
        const std::uint8_t* prior = y == 0 ? zero_row.data() : line - row_bytes;
        unfilter_row(line[0], line + 1, prior, row_bytes, bpp);
        auto* out = reinterpret_cast<std::uint8_t*>(image.view().row(y));
        if (depth == 16) {  // big-endian in the file, native in memory
            for (std::size_t i = 0; i + 1 < row_bytes; i += 2) {
                const auto v = static_cast<std::uint16_t>(line[1 + i] << 8 | line[2 + i]);
                std::memcpy(out + i, &v, 2);
            }
        } else {
            std::memcpy(out, line + 1, row_bytes);
        }
    }
    return image;
}

bool is_png(const std::vector<std::uint8_t>& bytes) {
    return bytes.size() >= 8 && std::memcmp(bytes.data(), png_signature, 8) == 0;
}

void verify_png_chunks(const std::vector<std::uint8_t>& bytes, const std::string& path) {
    const auto fail = [&](const std::string& why) { throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNG: " + why); };
    std::size_t pos = 8;
    while (true) {
        if (bytes.size() - pos < 12) fail("file is truncated (no IEND chunk)");
        const std::uint32_t length = read_be32(&bytes[pos]);
        if (length > bytes.size() - pos - 12) fail("file is truncated inside a chunk");
        const char* type = reinterpret_cast<const char*>(&bytes[pos + 4]);
        const std::uint32_t stored = read_be32(&bytes[pos + 8 + length]);
        if (chunk_crc(&bytes[pos + 4], length + 4) != stored) fail("checksum mismatch in the " + std::string(type, 4) + " chunk");
        if (std::memcmp(type, "IEND", 4) == 0) return;
        pos += 12 + std::size_t{length};
    }
}

std::vector<std::uint8_t> encode_png(ConstImageView image, int level) {
    if (level < 0 || level > 9) throw Error(ErrorCode::usage, "PNG compression level " + std::to_string(level) + " is outside 0..9");
    const int bit_depth = image.format.sample == SampleType::u16 ? 16 : 8;
    static constexpr std::uint8_t color_type_of_channels[] = {0, 0, 4, 2, 6};  // grey, grey+alpha, RGB, RGBA
    const std::size_t bpp = image.format.pixel_bytes();
    const std::size_t row_bytes = image.row_bytes();
    if (row_bytes * static_cast<std::size_t>(image.height) > 0x7fff0000u) {
        throw Error(ErrorCode::output, "image too large for the built-in PNG encoder (over 2 GiB of pixels)");
    }

    // Raw rows in PNG byte order (16-bit samples big-endian), each filtered. Levels 2-9 try all five filters
    // per row and keep the one whose output has the smallest sum of absolute values (libpng's heuristic);
    // level 1 always takes Paeth, the usual winner on photographs: 40% less encoding time for 1-3% more
    // bytes (bench/RESULTS.md); level 0 stores rows unfiltered.
    const int first_filter = level == 0 ? 0 : level == 1 ? 4 : 0;
    const int last_filter = level == 0 ? 0 : 4;
    std::vector<std::uint8_t> raw(row_bytes), prior(row_bytes, 0), candidate(row_bytes);
    std::vector<std::uint8_t> filtered((row_bytes + 1) * static_cast<std::size_t>(image.height));
    for (std::int64_t y = 0; y < image.height; ++y) {
        const auto* src = reinterpret_cast<const std::uint8_t*>(image.row(y));
        if (bit_depth == 16) {
            for (std::size_t i = 0; i + 1 < row_bytes; i += 2) {
                std::uint16_t v;
                std::memcpy(&v, src + i, 2);
                raw[i] = static_cast<std::uint8_t>(v >> 8);
                raw[i + 1] = static_cast<std::uint8_t>(v & 0xff);
            }
        } else {
            std::memcpy(raw.data(), src, row_bytes);
        }
        std::uint8_t* out = &filtered[static_cast<std::size_t>(y) * (row_bytes + 1)];
        long best_cost = -1;
        for (int type = first_filter; type <= last_filter; ++type) {
            const long cost = filters[type](raw.data(), prior.data(), row_bytes, bpp, candidate.data());
            if (best_cost < 0 || cost < best_cost) {
                best_cost = cost;
                out[0] = static_cast<std::uint8_t>(type);
                std::memcpy(out + 1, candidate.data(), row_bytes);
            }
        }
        std::swap(raw, prior);
    }

    const std::vector<std::uint8_t> compressed = deflate_all(filtered, level);

    std::vector<std::uint8_t> png(png_signature, png_signature + 8);
    std::uint8_t header[13];
    const std::uint32_t w = static_cast<std::uint32_t>(image.width), h = static_cast<std::uint32_t>(image.height);
    for (int i = 0; i < 4; ++i) {
        header[i] = static_cast<std::uint8_t>(w >> (24 - 8 * i));
        header[4 + i] = static_cast<std::uint8_t>(h >> (24 - 8 * i));
    }
    header[8] = static_cast<std::uint8_t>(bit_depth);
    header[9] = color_type_of_channels[image.format.channels];
    header[10] = header[11] = header[12] = 0;  // deflate, adaptive filtering, no interlace
    append_png_chunk(png, "IHDR", header, sizeof header);
    append_png_chunk(png, "IDAT", compressed.data(), compressed.size());
    append_png_chunk(png, "IEND", nullptr, 0);
    return png;
}

}  // namespace gpurotate::detail
