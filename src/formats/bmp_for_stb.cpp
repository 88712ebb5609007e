#include "formats/bmp_for_stb.hpp"

#include "metadata/byte_order.hpp"
#include "core/decode_limits.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstring>

namespace gpurotate::detail {
namespace {

void put_le32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

// An uncompressed palette BMP whose palette has fewer than 2^bits entries, with the rest added (black).
std::optional<std::vector<std::uint8_t>> with_whole_palette(const std::vector<std::uint8_t>& bytes, std::uint32_t header, std::uint32_t bits) {
    const std::uint32_t used = le32(bytes, 46), whole = 1u << bits;
    const std::size_t palette_at = 14 + header, pixels_at = le32(bytes, 10);
    if (used == 0 || used >= whole || pixels_at < palette_at + 4u * used || pixels_at > bytes.size()) return std::nullopt;
    std::vector<std::uint8_t> out(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(palette_at + 4u * used));
    out.resize(palette_at + 4u * whole, 0);
    out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(pixels_at), bytes.end());
    put_le32(out, 46, whole);
    put_le32(out, 10, static_cast<std::uint32_t>(palette_at + 4u * whole));
    put_le32(out, 2, static_cast<std::uint32_t>(out.size()));
    return out;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> bmp_for_stb(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (bytes.size() < 54 || bytes[0] != 'B' || bytes[1] != 'M') return std::nullopt;
    const std::uint32_t header = le32(bytes, 14);
    if (header < 40 || header > 124 || bytes.size() < 14 + header) return std::nullopt;
    const std::uint32_t compression = le32(bytes, 30), bits = le16(bytes, 28);
    const bool rle8 = compression == 1 && bits == 8, rle4 = compression == 2 && bits == 4;
    if (compression == 0 && (bits == 1 || bits == 4 || bits == 8)) return with_whole_palette(bytes, header, bits);
    if (!rle8 && !rle4) return std::nullopt;
    const auto corrupt = [&](const std::string& why) { return Error(ErrorCode::input, "cannot decode '" + path + "': corrupt BMP: " + why); };
    const auto width = static_cast<std::int32_t>(le32(bytes, 18)), height = static_cast<std::int32_t>(le32(bytes, 22));
    if (height < 0) throw corrupt("a run-length coded image must be stored bottom-up (its height is negative)");
    check_declared_size(path, width, height, options);
    const std::uint32_t used = le32(bytes, 46);
    const std::uint32_t colours = used != 0 ? std::min<std::uint32_t>(used, 256) : 1u << bits;
    const std::size_t palette_at = 14 + header, pixels_at = le32(bytes, 10);
    if (palette_at + 4u * colours > bytes.size() || pixels_at > bytes.size()) throw corrupt("file is truncated before the pixel data");

    // The 8-bit BMP: the palette's entries, then black up to 256 of them (a run may name any index).
    const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
    const std::size_t stride = (w + 3) / 4 * 4, pixels = palette_at + 4u * 256;
    std::vector<std::uint8_t> out(pixels + stride * h, 0);
    std::copy_n(bytes.begin(), palette_at + 4u * colours, out.begin());
    out[28] = 8;
    out[29] = 0;
    put_le32(out, 30, 0);  // BI_RGB
    put_le32(out, 34, 0);  // image size: may be 0 for BI_RGB
    put_le32(out, 46, 256);
    put_le32(out, 10, static_cast<std::uint32_t>(pixels));
    put_le32(out, 2, static_cast<std::uint32_t>(out.size()));
    std::uint8_t* raster = out.data() + pixels;  // rows bottom-up, as the runs are

    std::size_t at = pixels_at, x = 0, y = 0;
    const auto put = [&](std::uint8_t index) {
        if (x < w && y < h) raster[y * stride + x] = index;
        ++x;
    };
    for (;;) {
        if (at + 2 > bytes.size()) throw corrupt("file is truncated inside the run-length data");
        const std::uint8_t count = bytes[at], value = bytes[at + 1];
        at += 2;
        if (count > 0) {  // a run: `count` pixels of one index (RLE4: two alternating)
            for (std::uint32_t i = 0; i < count; ++i) put(rle8 ? value : (i % 2 == 0 ? value >> 4 : value & 0x0f));
            continue;
        }
        if (value == 0) {  // end of line
            x = 0;
            ++y;
        } else if (value == 1) {  // end of bitmap
            break;
        } else if (value == 2) {  // delta: move right and up
            if (at + 2 > bytes.size()) throw corrupt("file is truncated inside the run-length data");
            x += bytes[at];
            y += bytes[at + 1];
            at += 2;
        } else {  // an absolute run of `value` pixels, padded to a 16-bit boundary
            const std::size_t data = rle8 ? value : (value + 1u) / 2;
            if (at + data > bytes.size()) throw corrupt("file is truncated inside the run-length data");
            for (std::uint32_t i = 0; i < value; ++i) {
                put(rle8 ? bytes[at + i] : (i % 2 == 0 ? bytes[at + i / 2] >> 4 : bytes[at + i / 2] & 0x0f));
            }
            at += (data + 1) / 2 * 2;
        }
        if (y >= h) break;  // past the top row: nothing more can land
    }
    return out;
}

}  // namespace gpurotate::detail
