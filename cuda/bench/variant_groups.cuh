#pragma once
// The groups of the bench's tuning layouts of the vectorized transpose (vectorized_variants.cuh), each
// instantiated in a translation unit of its own per pixel width.

#include "kernels/vectorized.cuh"
#include "launch.cuh"

#include <optional>

namespace gpurotate::detail {

enum class VariantGroup { lanes, loads, blocks };

/// The group of `v`'s layout; none for the tuned layout (with any cap of blocks per SM or a resident grid).
inline std::optional<VariantGroup> variant_group(const VectorizedTransposeVariant& v) {
    if (v.lanes_x == 16 || v.lanes_x == 32) return VariantGroup::lanes;
    if (!v.l2_prefetch || v.split_rows) return VariantGroup::loads;
    if (v.unrolled || v.blocks_scale == 2) return VariantGroup::blocks;
    return std::nullopt;
}

/// Whether layout `v` runs on these images: the tuned layout always, the study's other layouts where no
/// mirrored source columns load shifted (vectorized_variants.cuh).
inline bool variant_applies(const VectorizedTransposeVariant& v, const Launch& l) {
    return !variant_group(v) || !loads_shifted_columns(l.map.mirror_x, l.src.width, static_cast<int>(l.src.format.pixel_bytes()));
}

/// The transpose of l.map in layout l.variant of group G, for S-byte pixels.
template <VariantGroup G, int S>
void launch_transpose_variant(const Launch& l);

}  // namespace gpurotate::detail
