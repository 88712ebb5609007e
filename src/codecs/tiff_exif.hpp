#pragma once
// A TIFF's EXIF and GPS directories as the EXIF block that JPEG (APP1), PNG (eXIf) and WebP (EXIF chunk) carry.
// In a TIFF they are directories of the file itself, pointed to from its first directory; the block is a TIFF
// structure of its own. Its first directory holds only the two pointers, and each directory's entries and values
// are copied in the file's byte order with their offsets rewritten. That includes the Interoperability directory
// inside EXIF. A MakerNote is copied as its bytes, so a maker's offsets inside it that count from the file's start
// point elsewhere afterwards, as with other tools that move it.

#include "codecs/tiff_directory.hpp"

#include <cstdint>
#include <vector>

namespace gpurotate::detail {

/// The EXIF block of `file`, whose first directory is `first`, or empty where the file is not a classic TIFF
/// (BigTIFF's 8-byte offsets are not copied), has neither directory, a directory is damaged, or the block would
/// not fit one JPEG APP1 segment even without its MakerNote.
std::vector<std::uint8_t> exif_of_tiff(const std::vector<std::uint8_t>& file, const TiffDirectory& first);

}  // namespace gpurotate::detail
