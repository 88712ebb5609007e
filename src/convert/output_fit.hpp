#pragma once
// What --flatten, --background and --depth 8 do to decoded pixels before they are transformed: the
// conversions a user asks for where the output's format cannot keep what the input has (an RGBA PNG to a
// JPEG, 16-bit samples to a JPEG), as ImageMagick's -background C -flatten and -depth 8 do them.

#include "convert/conversion_options.hpp"
#include "formats/image_sink.hpp"

#include <gpurotate/image.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace gpurotate::convert {

/// "#rgb", "#rrggbb", "white" or "black" as 8-bit red, green and blue. Throws Error (usage) naming --background.
std::array<std::uint8_t, 3> parse_background(const std::string& text);

/// `decoded` fitted to `sink` under `options`: with --depth 8, 16-bit and float samples become 8-bit (as
/// ImageMagick 6's 16-bit build writes them); with --flatten, or with --background where the
/// format cannot hold the alpha channel, the alpha is composed over the background (white unless given) and
/// dropped. Throws Error (output) where the sink still cannot hold the pixels, naming the option that would
/// make them fit.
Image fit_to_output(Image decoded, const ConversionOptions& options, const detail::ImageSink& sink);

}  // namespace gpurotate::convert
