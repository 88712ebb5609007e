#pragma once
// A PNG's chunk list as the file has it: what a PNG output needs to store its pixels as the input did
// (IHDR's colour type and depth, PLTE, tRNS) and the ancillary chunks it copies. libspng decodes the pixels
// and checks every CRC; this only reads the chunks' bytes, which libspng hands out re-encoded or not at all.

#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Whether `bytes` start with the PNG signature.
bool is_png(const std::vector<std::uint8_t>& bytes);
/// The same for the `size` bytes at `bytes`.
bool is_png(const std::uint8_t* bytes, std::size_t size);

/// `png`'s stored format and ancillary chunks, read into `meta.png_storage` and `meta.png_chunks`, and its
/// eXIf chunk's data into `meta.exif` (the last one). Stops at IEND or where the file stops making sense;
/// nothing when IHDR is not first.
void read_png_layout(const std::vector<std::uint8_t>& png, ImageMetadata& meta);

/// Whether the PNG rules let an editor that changed the image copy an unknown chunk of this type: its
/// fourth letter is lowercase (bit 5 set).
bool png_chunk_safe_to_copy(const std::string& type);

/// Whether a PNG writer copies `chunk` to an output whose pixels are (`stored`) or are not stored in the
/// input's format (see `ImageMetadata::png_chunks`).
bool png_chunk_copied(const PngChunk& chunk, bool stored);

/// The pixel format a PNG stored as `storage` decodes to with `ReadOptions::png_storage`.
PixelFormat png_stored_pixel_format(const PngStorage& storage);

/// Swaps a pHYs chunk's pixels per unit along x and y, for an output whose axes are swapped.
void swap_phys_axes(PngChunk& phys);

}  // namespace gpurotate::detail
