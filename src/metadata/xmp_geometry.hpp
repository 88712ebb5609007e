#pragma once
// The geometry an XMP packet states, kept true after a rotation as the EXIF beside it is: the orientation
// (tiff:Orientation), the pixel dimensions (exif:PixelXDimension/PixelYDimension, tiff:ImageWidth/ImageLength)
// and the resolution (tiff:XResolution/YResolution); ImageMagick 7 rewrites the orientation and resolution
// elements of the packet it writes. A property is found under its usual prefix, as an attribute (`tiff:Orientation="6"`) or as a simple
// element (`<tiff:Orientation>6</tiff:Orientation>`); a packet that binds the namespaces to other prefixes,
// or gives a property in another form, keeps it as it is. Everything else in the packet is left byte for byte.

#include <cstdint>
#include <string>

namespace gpurotate::detail {

/// Swaps the values of the X and Y properties (dimensions and resolution), for an output whose axes are swapped.
/// Swapping never changes the packet's size.
void swap_xmp_axes(std::string& xmp);

/// Sets tiff:Orientation to `value` (1-8) where the packet has it.
void set_xmp_orientation(std::string& xmp, int value);

/// Sets the pixel dimensions where the packet has them (a trimmed JPEG's own size).
void set_xmp_dimensions(std::string& xmp, std::int64_t width, std::int64_t height);

}  // namespace gpurotate::detail
