#pragma once
// WebP through libwebp, linked in: no plugin to load. Read: a still image, as RGB or RGBA (as the file has
// alpha or not). Written: lossy at WriteOptions::quality, or lossless in libwebp's exact mode (the colour under
// full transparency kept too); the ICC profile, EXIF and XMP as chunks by libwebpmux.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The image of a still WebP; nothing where `bytes` are not a WebP. Throws Error (input) naming `path` for a
/// damaged or animated WebP, or one over `options.max_pixels` (from its header, before any pixel memory).
std::optional<Image> decode_webp(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// The width and height of a WebP (its canvas), as libwebp reads them for decode_webp; nothing where `bytes` are
/// not a WebP or libwebp cannot read the header.
std::optional<Extent> webp_declared_extent(const std::vector<std::uint8_t>& bytes);

/// `image` (8-bit RGB or RGBA) as a WebP: lossless where `options.lossless`, else lossy at `options.quality`;
/// with `options.metadata`'s ICC profile, EXIF and XMP. Throws Error (output).
std::vector<std::uint8_t> encode_webp(ConstImageView image, const WriteOptions& options);

/// "libwebp 1.2.4", for --version.
std::string webp_library();

}  // namespace gpurotate::detail
