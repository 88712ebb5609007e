#pragma once
// TIFF through libtiff, inside the codec plugin: pixels read as stored (1-4 channels of 8/16-bit integers or
// 32-bit floats, grey, grey+alpha, RGB, RGBA; strips or tiles; either planar configuration; any compression
// libtiff decodes) and written so (LZW with a predictor, ExtraSamples saying what the alpha is, an ICC
// profile). OpenCV read 8-bit TIFFs through libtiff's RGBA interface: unassociated alpha came back
// premultiplied (colours lost under transparency), grey+alpha as grey and 16-bit grey+alpha as 8-bit.

#include "formats/opencv_plugin_abi.hpp"

#include <cstddef>

namespace gpurotate_plugin {

enum class TiffRead { not_handled, decoded, damaged };

/// Reads a TIFF of the kinds above into `out` (owner: a cv::Mat, as the plugin's other decodes); other
/// TIFFs (palette, CMYK, YCbCr, bilevel...) and other files are not_handled, left to OpenCV. `error`
/// says why a damaged one failed.
TiffRead tiff_decode(const unsigned char* bytes, std::size_t size, GpurotateCvImage* out, char* error, std::size_t error_size);

/// Writes `image` as a TIFF into `out` (owner: a std::vector<unsigned char>, as the plugin's other encodes).
int tiff_encode(const GpurotateCvImage* image, GpurotateCvBytes* out, char* error, std::size_t error_size);

}  // namespace gpurotate_plugin
