#pragma once
// What a JPEG was encoded with, so that a re-encode keeps it: the quality its quantization tables were
// scaled for, and its chroma subsampling.

#include <gpurotate/io.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace gpurotate::detail {

struct JpegCharacter {
    int quality = 0;                   ///< 1..100, the IJG quality whose tables are nearest the file's
    ChromaSubsampling chroma = ChromaSubsampling::automatic;  ///< automatic where the file's is none of ours
};

/// The quality is estimated as ImageMagick's %Q and libjpeg-turbo's own encoder see it: the IJG quality
/// (libjpeg's scaling of the standard tables of Annex K) whose luminance and chrominance tables are nearest
/// the file's, by the sum of absolute differences; exact for files written by libjpeg at any quality.
/// Nothing where the bytes hold no 8x8 quantization table (not a JPEG, or a damaged one).
std::optional<JpegCharacter> jpeg_character(const std::vector<std::uint8_t>& jpeg);

/// The subsampling of the output of an element that swaps the axes or not: 4:2:2 and 4:4:0 trade places.
ChromaSubsampling chroma_after(ChromaSubsampling chroma, bool swaps_axes);

}  // namespace gpurotate::detail
