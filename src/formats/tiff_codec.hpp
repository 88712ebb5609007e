#pragma once
// TIFF through libtiff, linked in: no plugin to load. Pixels are read as stored: 1-4 channels of 8/16-bit
// integers or 32-bit floats (grey, grey+alpha, RGB, RGBA; strips or tiles; either planar configuration; any
// compression libtiff decodes); CMYK is made RGB by libtiff's formula at its own depth; palette, YCbCr and
// grey of 1, 2 or 4 bits go through libtiff's RGBA reading (8-bit RGB, or grey). The first page is read.
// Written with the coding WriteOptions::tiff asks for, the strips coded on the available cores
// (tiff_strip_coder.hpp), and the metadata a TIFF holds (ICC, XMP, IPTC, text tags, resolution, EXIF's
// directories, Orientation, what the alpha is).

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The image of a TIFF's first page; nothing where `bytes` are not a TIFF. Throws Error (input) naming `path` for
/// a damaged TIFF, one of a kind not read (32-bit integers, 16-bit floats, ...), or one over `options.max_pixels`
/// (from its header, before any pixel memory).
std::optional<Image> decode_tiff(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// `image` as a TIFF, coded as `options.tiff` says, with what of `options.metadata` a TIFF holds. Throws Error
/// (output) where the coding cannot hold the pixels (JPEG of samples other than 8-bit) or libtiff fails.
std::vector<std::uint8_t> encode_tiff(ConstImageView image, const WriteOptions& options);

/// The same TIFF written into `fd` (a new, empty regular file) as it is coded: the strips go out as they are
/// coded, and the file is never whole in memory, except where the EXIF and GPS directories must be placed in it.
/// Throws Error (output) as encode_tiff does, and where a write fails (the system's reason).
void encode_tiff_into(ConstImageView image, const WriteOptions& options, int fd);

/// "libtiff 4.5.0", for --version.
std::string tiff_library();

}  // namespace gpurotate::detail
