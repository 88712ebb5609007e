#pragma once
// A TIFF's EXIF and GPS directories as the EXIF block that JPEG (APP1), PNG (eXIf) and WebP (EXIF chunk) carry,
// and an EXIF block's directories into a TIFF output.
// In a TIFF they are directories of the file itself, pointed to from its first directory; the block is a TIFF
// structure of its own. Its first directory holds the TIFF's text tags and the two pointers, and each directory's entries and values
// are copied in the file's byte order with their offsets rewritten. That includes the Interoperability directory
// inside EXIF. A MakerNote is copied as its bytes, so a maker's offsets inside it that count from the file's start
// point elsewhere afterwards, as with other tools that move it.

#include "metadata/tiff_directory.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// A TIFF's EXIF block, and what of its EXIF and GPS directories it leaves out, a phrase each ("GPS", "EXIF's
/// MakerNote (over 64 KiB)"), for the decoder's warning.
struct TiffExif {
    std::vector<std::uint8_t> block;  ///< empty where neither directory could be copied and there is no text tag
    std::vector<std::string> left_out;
};

/// The EXIF block of `file`, whose first directory is `first`: its EXIF and GPS directories, and in IFD0 its text
/// tags (ImageDescription, Make, Model, ...: where they take at most a quarter of the block) and its Orientation
/// (2-8), as a camera's EXIF has them; nothing where it has none of these. A directory (a classic TIFF's or a BigTIFF's) is left out
/// whole where its pointer is malformed or points at another directory, its entries run past the file, or its values
/// pass what one JPEG APP1 segment holds (64 KiB); an entry, where its values lie outside the file, it is of a type
/// EXIF does not have (a BigTIFF's 8-byte integers), it is a pointer to a directory this does not copy, or the
/// MakerNote must go for the block to fit that segment.
TiffExif exif_of_tiff(const std::vector<std::uint8_t>& file, const TiffDirectory& first);

/// The pointers a TIFF output's first directory needs for the directories of `block` (an EXIF block) that a
/// TIFF holds: EXIF (with its Interoperability directory) and GPS. IFD0's own tags describe the image, and a TIFF
/// has its own for them (the text tags travel as such); IFD1, the thumbnail, has no place in a TIFF.
struct ExifPointers {
    bool exif = false;
    bool gps = false;
};
ExifPointers exif_pointers_for_tiff(const std::vector<std::uint8_t>& block);

/// Appends `block`'s EXIF, Interoperability and GPS directories to `tiff`, a classic TIFF whose first directory
/// holds a pointer of value 0 for each of exif_pointers_for_tiff(block), and points those at them; the values are
/// written in the TIFF's byte order. False, `tiff` untouched, where a pointer is not there, or the directories would
/// lie past a classic TIFF's 4 GiB of offsets.
bool place_exif_in_tiff(std::vector<std::uint8_t>& tiff, const std::vector<std::uint8_t>& block);

/// What of `block` (an EXIF block) a TIFF output cannot take, a phrase each (`1 EXIF entry (damaged, ...)`, `EXIF (not a
/// TIFF structure)`), for its "not written".
std::vector<std::string> exif_left_out_of_tiff(const std::vector<std::uint8_t>& block);

/// Whether `block` (an EXIF block) holds nothing but text tags in its IFD0 (and perhaps the Orientation): a TIFF's text
/// tags alone, which a format without EXIF loses as text tags, not as EXIF.
bool exif_holds_only_text_tags(const std::vector<std::uint8_t>& block);

/// Whether `block` (an EXIF block) holds text tags in its IFD0 (Make, Model, Artist, ...).
bool exif_has_text_tags(const std::vector<std::uint8_t>& block);

/// Whether `block` (an EXIF block) has a thumbnail: a second directory, IFD1.
bool exif_has_thumbnail(const std::vector<std::uint8_t>& block);

}  // namespace gpurotate::detail
