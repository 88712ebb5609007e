#pragma once
// What the decoders of formats other than PNG and JPEG (whose codecs carry their metadata) leave behind of a
// file: OpenCV reads a TIFF's or WebP's first image and none of its tags or chunks, stb a BMP's or HDR's
// pixels only. Said in a warning, since the promise is that nothing is dropped in silence.

#include <gpurotate/image.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// What of the file at `bytes` its pixels, decoded as `decoded`, do not carry, a phrase each: of the image
/// ("pages 2-3", "its alpha channel") and of its metadata ("ICC profile", which --strip drops anyway).
/// Empty where nothing is left behind, or the format is one whose codec keeps it all.
struct DecoderLosses {
    std::vector<std::string> image;
    std::vector<std::string> metadata;
};
DecoderLosses decoder_losses(const std::vector<std::uint8_t>& bytes, PixelFormat decoded);

/// The channel names of an OpenEXR file's (first part's) header; nothing for other bytes or a damaged header.
std::optional<std::vector<std::string>> exr_channels(const std::vector<std::uint8_t>& bytes);

/// The warning for `losses` ("not kept: pages 2-3, ICC profile"), metadata left out with `strip`; empty
/// where there is nothing to say.
std::string losses_warning(const DecoderLosses& losses, bool strip);

}  // namespace gpurotate::detail
