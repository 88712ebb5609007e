#pragma once
// EXIF and ICC metadata of JPEG and PNG files: read from a file's bytes, edited (the orientation tag, the
// EXIF pixel dimensions after a rotation), and written into an encoded JPEG or PNG.

#include <gpurotate/metadata.hpp>
#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// What `--strip` keeps of `metadata`: what the pixels are (a PNG's stored format: palette, transparency, bit
/// depth; premultiplied alpha); EXIF, ICC and the ancillary chunks go.
ImageMetadata stripped_metadata(const ImageMetadata& metadata);

/// A resolution's value in pixels per metre (PNG's pHYs, a BMP's header), rounded to 1..2^31-1; with no unit
/// (the ratio) the value itself.
std::uint32_t pixels_per_metre(double value, Resolution::Unit unit);

/// Whether a PNG chunk is an iTXt "XML:com.adobe.xmp" (an XMP packet), and where the packet begins in its
/// data where it is uncompressed and whole (nothing otherwise).
bool is_png_xmp(const PngChunk& chunk);
std::optional<std::size_t> png_xmp_packet(const PngChunk& chunk);

/// EXIF (JPEG APP1 "Exif", PNG eXIf) and the ICC profile (JPEG APP2 "ICC_PROFILE" chunks, PNG iCCP) of
/// a JPEG or PNG file, and a PNG's stored format and ancillary chunks; empty for other formats and for
/// files without them. Damaged metadata is dropped,
/// never an error: the pixels are what the user asked for.
ImageMetadata metadata_of(const std::vector<std::uint8_t>& file);

/// The EXIF Orientation tag (1-8) in TIFF-structured EXIF bytes; nothing if absent or not 1-8.
std::optional<int> exif_orientation(const std::vector<std::uint8_t>& exif);

/// Sets the Orientation tag to `value` where the EXIF has one, in IFD0 and in the thumbnail's IFD1 (its size never
/// changes).
void set_exif_orientation(std::vector<std::uint8_t>& exif, int value);

/// Swaps the EXIF PixelXDimension and PixelYDimension, and XResolution and YResolution, for an output whose
/// axes are swapped.
void swap_exif_dimensions(std::vector<std::uint8_t>& exif);

/// Sets the EXIF PixelXDimension and PixelYDimension to an output's size (a trimmed JPEG's), in place: left
/// as they are where absent or where the value does not fit the tag's type.
void set_exif_dimensions(std::vector<std::uint8_t>& exif, std::int64_t width, std::int64_t height);

/// A JPEG turned losslessly by `element` as `jpegtran -trim` turns it, its markers kept, within `max_pixels`:
/// one result (nothing where it is under one MCU across the side it mirrors), none where the build has no
/// libjpeg-turbo; Error where it does not decode or is over a limit. The JPEG floor's turn_jpeg_thumbnail
/// (jpeg/jpeg_lossless.hpp), handed in by the floor above both (formats/): metadata/ includes no codec.
using JpegTurner = std::vector<std::optional<std::vector<std::uint8_t>>> (*)(const std::vector<std::uint8_t>& jpeg, Orientation element,
                                                                           std::int64_t max_pixels);

/// Turns the JPEG thumbnail of `exif` (IFD1's JPEGInterchangeFormat) by `element`, as exiftran does: jpegtran's
/// lossless transform with -trim, its length and offset set (in its place where it fits there or ends the block, else
/// after everything else, so that nothing else moves). Where it cannot be turned (damaged, uncompressed, no
/// libjpeg-turbo, under one MCU across the side it mirrors, or the block would pass what a JPEG segment holds) it is
/// left out: IFD0 no longer links to IFD1, its bytes are zeroed, and the reason is returned. Empty where it was turned
/// or there was nothing to turn (no IFD1, or one without an image). `turn` turns the JPEG.
std::string turn_exif_thumbnail(std::vector<std::uint8_t>& exif, Orientation element, JpegTurner turn);

/// Leaves the EXIF thumbnail out (as turn_exif_thumbnail does where it cannot turn one): for an image turned by
/// an angle a thumbnail cannot follow. Returns `why` where there was a thumbnail, else empty.
std::string leave_out_exif_thumbnail(std::vector<std::uint8_t>& exif, const std::string& why);

/// Replaces the payload of `jpeg`'s EXIF segment with `exif`, resizing the segment (a turned thumbnail may change
/// the block's size); a JPEG without one, or a block too large for one segment, is left as it is.
void replace_jpeg_exif(std::vector<std::uint8_t>& jpeg, const std::vector<std::uint8_t>& exif);

/// Replaces the XMP packet of `jpeg`'s XMP segment (APP1 "http://ns.adobe.com/xap/1.0/") with `xmp`, resizing the
/// segment; a JPEG without one, or a packet too large for one segment, is left as it is.
void replace_jpeg_xmp(std::vector<std::uint8_t>& jpeg, const std::string& xmp);

/// gpurotate::metadata_after's edits (the geometry's fields, the thumbnail turned by `element` with `turn`), and in
/// `thumbnail_left_out`, where it is not null, why the EXIF thumbnail was left out (empty where it was not).
ImageMetadata metadata_after(const ImageMetadata& metadata, Orientation element, int orientation_tag, std::string* thumbnail_left_out,
                             JpegTurner turn);

/// `encoded` (a JPEG from gpurotate's encoders) with `metadata`'s EXIF and ICC profile inserted; other
/// formats unchanged (the PNG encoder writes its metadata itself).
std::vector<std::uint8_t> with_metadata(std::vector<std::uint8_t> encoded, const ImageMetadata& metadata);

}  // namespace gpurotate::detail
