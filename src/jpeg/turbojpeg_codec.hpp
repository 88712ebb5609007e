#pragma once
// JPEG through libjpeg-turbo's TurboJPEG API (libturbojpeg0-dev): SIMD decoding and encoding, several
// times faster than stb's. Optional: without it JPEG goes through OpenCV or stb.

#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Whether this build has TurboJPEG.
bool turbojpeg_available();

/// The libjpeg this build's lossless transforms code with, as its headers name it: "libjpeg-turbo 2.1.5
/// (libjpeg ABI 80)"; "none" without libjpeg-turbo.
std::string libjpeg_description();

/// The decoded JPEG (8-bit grey or RGB), or nothing without TurboJPEG or when `bytes` is not a JPEG.
/// Throws Error (input) naming `path` for a corrupt or truncated JPEG, warnings included: a damaged file
/// is refused, never half-decoded into grey.
std::optional<Image> turbojpeg_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// The width and height a JPEG's frame header declares, as TurboJPEG reads it before decoding; nothing without
/// TurboJPEG, for bytes that are not a JPEG, or where the header does not read.
std::optional<Extent> turbojpeg_declared_extent(const std::vector<std::uint8_t>& bytes);

/// Encodes an 8-bit grey or RGB image at `quality` with `chroma` subsampling (automatic: 4:4:4 from quality
/// 90 up, 4:2:0 below, as libvips does). Throws Error (output) on failure or without TurboJPEG.
std::vector<std::uint8_t> turbojpeg_encode(ConstImageView image, int quality, ChromaSubsampling chroma = ChromaSubsampling::automatic);

}  // namespace gpurotate::detail
