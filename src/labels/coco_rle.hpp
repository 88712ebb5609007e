#pragma once
// COCO's run-length masks (pycocotools' maskApi): the pixels of an H x W mask taken column by column (down
// each column, left to right), as alternating runs of 0s and 1s that start with a run of 0s (which may be
// empty). A file writes the runs either as a list of numbers ("uncompressed") or as pycocotools' string
// ("compressed"). Turning a mask goes through its pixels: a run of one column is a run of a row after a
// swap of the axes, so there is no cheaper exact way for every element.

#include "labels/label_geometry.hpp"

#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpurotate::labels {

/// The runs of a mask: counts[0] zeros, counts[1] ones, counts[2] zeros, ...
using RunCounts = std::vector<std::uint64_t>;

/// The runs written in pycocotools' compressed string (rleFrString); none for a character outside '0'..'o',
/// a string that ends inside a number, or a run that comes out negative or too long.
std::optional<RunCounts> decode_rle_string(std::string_view text);

/// The runs as pycocotools writes them (rleToString): each count from the third on as the difference
/// against the count two before it, then 5 bits a character, least significant first, sign-extended.
std::string encode_rle_string(const RunCounts& counts);

/// The total of the runs: the pixel count of the mask they describe.
std::uint64_t run_total(const RunCounts& counts);

/// The mask of `size`, one byte per pixel (0 or 1), column-major: pixel (x, y) at x * height + y. The
/// runs must total width * height.
std::vector<std::uint8_t> mask_from_runs(const RunCounts& counts, ImageSize size);

/// The runs of a column-major mask of 0s and 1s.
RunCounts runs_from_mask(const std::vector<std::uint8_t>& mask);

/// The runs of the mask of `size` turned by `element` (the output is turned_size(size, element)): output
/// pixel (x', y') copies the source pixel orientation.hpp's axis map names.
RunCounts turn_runs(const RunCounts& counts, ImageSize size, Orientation element);

}  // namespace gpurotate::labels
