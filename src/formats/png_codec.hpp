#pragma once
// PNG decoding and encoding with libspng: the stored format kept where asked (palettes, 1-, 2- and 4-bit
// samples, tRNS) and the ancillary chunks written where they stood.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The decoded PNG, in its stored format with `options.png_storage` (see `PngStorage`), else expanded:
/// palettes to RGB (RGBA where tRNS gives alpha), 1-, 2- and 4-bit grey to 8-bit, every other kind as
/// stored. Nothing when `bytes` is not a PNG. Throws Error (input) naming `path` for a damaged PNG (every
/// chunk's CRC and the zlib stream's Adler-32 are checked, up to IEND) or one over `options.max_pixels`,
/// refused from its header before any pixel memory is allocated.
std::optional<Image> decode_png(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// The width and height a PNG's IHDR declares (up to 2^32 - 1 a side, unchecked), read from its bytes without
/// libspng; nothing where `bytes` are not a PNG beginning with IHDR.
std::optional<Extent> png_declared_extent(const std::vector<std::uint8_t>& bytes);

/// Encodes `image` (u8 or u16, 1 to 4 channels) as a PNG at deflate `level` (0-9). With `metadata`, in its
/// `png_storage`'s format where `image` has that format's samples (its pixel format, and 1-, 2- and 4-bit
/// values below 2^depth: checked), with PLTE and tRNS; and with its ICC profile, EXIF and the PNG chunks
/// a PNG output keeps (`ImageMetadata::png_chunks`).
std::vector<std::uint8_t> encode_png(ConstImageView image, int level, const ImageMetadata* metadata);

/// What `encode_png` of pixels in `format` with `metadata` leaves out of the input's PNG, in words for -v:
/// interlacing, and the chunks it drops; empty when nothing.
std::string png_output_notes(const ImageMetadata& metadata, PixelFormat format);

}  // namespace gpurotate::detail
