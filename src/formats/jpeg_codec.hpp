#pragma once
// JPEG as the format registry's row sees it: decoded by libjpeg-turbo where this build has it (stb reads it
// otherwise, at its own row), encoded by libjpeg-turbo, else OpenCV's libjpeg, else stb, with the metadata
// segments (EXIF, ICC profile, XMP, IPTC, comments, JFIF resolution) inserted.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// `image` (8-bit grey or RGB) as a JPEG at `options.quality` and `options.chroma`, with `options.metadata`'s
/// segments. Throws Error (output).
std::vector<std::uint8_t> encode_jpeg(ConstImageView image, const WriteOptions& options);

/// The library encode_jpeg codes with in this build: "libjpeg-turbo", "opencv" or "stb".
std::string jpeg_writer();

/// The library that decodes JPEGs in this build: libjpeg-turbo as its headers name it, or "stb".
std::string jpeg_reader();

}  // namespace gpurotate::detail
