#include "formats/content_signature.hpp"

#include "jpeg/jpeg_signature.hpp"
#include "metadata/png_chunks.hpp"

#include <cstring>

namespace gpurotate::detail {
namespace {

bool begins_with(const std::uint8_t* bytes, std::size_t size, const char* magic, std::size_t length, std::size_t at = 0) {
    return size >= at + length && std::memcmp(bytes + at, magic, length) == 0;
}

}  // namespace

bool starts_as_png(const std::uint8_t* b, std::size_t n) { return is_png(b, n); }

bool starts_as_jpeg(const std::uint8_t* b, std::size_t n) { return is_jpeg(b, n); }

bool starts_as_pnm(const std::uint8_t* b, std::size_t n) {
    return n >= 3 && b[0] == 'P' && b[1] >= '1' && b[1] <= '7' && (b[2] == ' ' || b[2] == '\t' || b[2] == '\n' || b[2] == '\r' || b[2] == '#');
}

bool starts_as_bmp(const std::uint8_t* b, std::size_t n) { return begins_with(b, n, "BM", 2); }

bool starts_as_tga(const std::uint8_t* b, std::size_t n) {
    if (n < 18) return false;
    const int colour_map = b[1], type = b[2], bits = b[16];
    const int width = b[12] | b[13] << 8, height = b[14] | b[15] << 8;
    const bool mapped_type = type == 1 || type == 9;
    const bool known_type = mapped_type || type == 2 || type == 3 || type == 10 || type == 11;
    return (colour_map == 0 || colour_map == 1) && known_type && (colour_map == 1) == mapped_type && width > 0 && height > 0 &&
           (bits == 8 || bits == 15 || bits == 16 || bits == 24 || bits == 32);
}

bool starts_as_hdr(const std::uint8_t* b, std::size_t n) { return begins_with(b, n, "#?RADIANCE\n", 11) || begins_with(b, n, "#?RGBE\n", 7); }

bool starts_as_tiff(const std::uint8_t* b, std::size_t n) {
    return begins_with(b, n, "II*\0", 4) || begins_with(b, n, "MM\0*", 4) || begins_with(b, n, "II+\0", 4) || begins_with(b, n, "MM\0+", 4);
}

bool starts_as_webp(const std::uint8_t* b, std::size_t n) { return begins_with(b, n, "RIFF", 4) && begins_with(b, n, "WEBP", 4, 8); }

bool starts_as_exr(const std::uint8_t* b, std::size_t n) { return begins_with(b, n, "\x76\x2f\x31\x01", 4); }

bool starts_as_gif(const std::uint8_t* b, std::size_t n) { return begins_with(b, n, "GIF87a", 6) || begins_with(b, n, "GIF89a", 6); }

bool starts_as_psd(const std::uint8_t* b, std::size_t n) { return begins_with(b, n, "8BPS", 4); }

}  // namespace gpurotate::detail
