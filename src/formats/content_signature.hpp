#pragma once
// How each format's files begin: the bytes a reader can tell a format by before it reads the rest (a
// stream is judged on them, and -i keeps the format a file's content names, whatever the file is called).

#include <cstddef>
#include <cstdint>

namespace gpurotate::detail {

/// The most leading bytes any signature below looks at.
inline constexpr std::size_t content_signature_bytes = 18;

bool starts_as_png(const std::uint8_t* bytes, std::size_t size);
bool starts_as_jpeg(const std::uint8_t* bytes, std::size_t size);
/// Netpbm: P1-P7 and a space.
bool starts_as_pnm(const std::uint8_t* bytes, std::size_t size);
bool starts_as_bmp(const std::uint8_t* bytes, std::size_t size);
/// TGA has no magic number: an 18-byte header whose fields take values the format defines (a colour map
/// type of 0 or 1, an image type of 1-3 or 9-11, sides above 0, 8-32 bits a pixel), as stb's own test.
bool starts_as_tga(const std::uint8_t* bytes, std::size_t size);
bool starts_as_hdr(const std::uint8_t* bytes, std::size_t size);
/// Classic TIFF and BigTIFF, either byte order.
bool starts_as_tiff(const std::uint8_t* bytes, std::size_t size);
bool starts_as_webp(const std::uint8_t* bytes, std::size_t size);
bool starts_as_exr(const std::uint8_t* bytes, std::size_t size);
bool starts_as_gif(const std::uint8_t* bytes, std::size_t size);
bool starts_as_psd(const std::uint8_t* bytes, std::size_t size);

}  // namespace gpurotate::detail
