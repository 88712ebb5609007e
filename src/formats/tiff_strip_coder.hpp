#pragma once
// A TIFF's strips coded on the available cores, and written in strip order (TIFFWriteRawStrip) as if one thread had
// coded them. LZW (without a predictor or with the horizontal one, 8 to 32 bits) goes through gpurotate's own coder
// (tiff_lzw.hpp), each thread coding the next run of strips into a buffer of a small pool, the runs written in order as
// they are done (into the output file itself where the TIFF is written into one); the rest through libtiff's codecs,
// each thread coding a run of strips in a scratch TIFF of the same fields. Deflate, Zstandard, LZMA and PackBits
// code each strip alone (the predictor works row by row), so the bytes are those one thread writes.

#include "formats/tiff_file.hpp"

#include <gpurotate/image.hpp>

#include <tiffio.h>

#include <functional>

namespace gpurotate::detail {

/// Writes every strip of `image` into `t`, which writes to `file`, and whose fields (size, samples, compression, predictor, planar
/// configuration, rows per strip) are set. `set_fields` sets the same fields on another handle: the scratch
/// TIFFs of the threads. `parallel`: whether the compression codes each strip alone (not JPEG, whose tables
/// are the directory's). False where libtiff fails (its message is the handle's).
bool write_strips(TIFF* t, TiffFile& file, ConstImageView image, bool parallel, const std::function<void(TIFF*)>& set_fields);

}  // namespace gpurotate::detail
