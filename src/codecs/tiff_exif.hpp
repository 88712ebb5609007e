#pragma once
// A TIFF's EXIF and GPS directories as the EXIF block that JPEG (APP1), PNG (eXIf) and WebP (EXIF chunk) carry.
// In a TIFF they are directories of the file itself, pointed to from its first directory; the block is a TIFF
// structure of its own. Its first directory holds only the two pointers, and each directory's entries and values
// are copied in the file's byte order with their offsets rewritten. That includes the Interoperability directory
// inside EXIF. A MakerNote is copied as its bytes, so a maker's offsets inside it that count from the file's start
// point elsewhere afterwards, as with other tools that move it.

#include "codecs/tiff_directory.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// A TIFF's EXIF block, and what of its EXIF and GPS directories it leaves out, a phrase each ("GPS", "EXIF's
/// MakerNote (over 64 KiB)"), for the decoder's warning.
struct TiffExif {
    std::vector<std::uint8_t> block;  ///< empty where neither directory could be copied
    std::vector<std::string> left_out;
};

/// The EXIF block of `file`, whose first directory is `first`. A directory is left out whole where the file is a
/// BigTIFF (8-byte offsets are not copied), its pointer is malformed or points at another directory, its entries
/// run past the file, or its values pass what one JPEG APP1 segment holds (64 KiB); an entry, where its values lie
/// outside the file, it is a pointer to a directory this does not copy, or the MakerNote must go for the block to
/// fit that segment.
TiffExif exif_of_tiff(const std::vector<std::uint8_t>& file, const TiffDirectory& first);

}  // namespace gpurotate::detail
