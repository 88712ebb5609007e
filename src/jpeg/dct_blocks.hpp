#pragma once
// A D4 element applied to a JPEG component in the DCT domain: the 8x8 coefficient blocks move as pixels
// would (block for pixel), and each block's coefficients are transposed where the axes swap and negated at
// the odd frequencies of a mirrored axis (cos(k*pi*(2(7-x)+1)/16) = (-1)^k cos(k*pi*(2x+1)/16)).

#include <gpurotate/orientation.hpp>

#include <cstdint>

namespace gpurotate::detail {

/// One 8x8 block of quantized DCT coefficients in natural (row-major) order, as libjpeg's JBLOCK.
using DctBlock = std::int16_t[64];

/// A component's blocks: one pointer per block row (libjpeg's JBLOCKARRAY).
using DctBlockRows = DctBlock* const*;

/// Writes `map` applied to the `width` x `height` blocks of `source` to `destination`, whose rows hold
/// the output's blocks (height x width where the axes swap). A mirrored axis is mirrored over its first
/// `mirrored_width` (x) or `mirrored_height` (y) blocks, which must be whole MCUs; the blocks past them stay
/// in place along that axis, unmirrored (jpegtran's transform without -trim). The partial block at a side
/// that is not mirrored stays at its end.
void transform_dct_blocks(AxisMap map, DctBlockRows source, std::int64_t width, std::int64_t height, DctBlockRows destination,
                          std::int64_t mirrored_width, std::int64_t mirrored_height);

}  // namespace gpurotate::detail
