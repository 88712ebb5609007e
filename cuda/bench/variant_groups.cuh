#pragma once
// The groups of the bench's tuning layouts of the vectorized transpose (vectorized_variants.cuh), each
// instantiated in a translation unit of its own per pixel width, and the launch they read.

#include "bench/study_launch.hpp"
#include "kernels/vectorized.cuh"
#include "launch.cuh"

#include <optional>

namespace gpurotate::detail {

/// A launch of the study: the product's Launch and the layout it runs.
struct StudyLaunch : Launch {
    bench::VectorizedTransposeVariant variant{};
};

/// lanes: 16 and 32 lanes; loads: plain loads, split rows; blocks: unrolled blocks, twice the blocks; resident: the
/// tuned layout on a grid of resident blocks.
enum class VariantGroup { lanes, loads, blocks, resident };

/// The group of `v`'s layout; none for the tuned layout on the product's grid (with any cap of blocks per SM).
inline std::optional<VariantGroup> variant_group(const bench::VectorizedTransposeVariant& v) {
    if (v.lanes_x == 16 || v.lanes_x == 32) return VariantGroup::lanes;
    if (!v.l2_prefetch || v.split_rows) return VariantGroup::loads;
    if (v.unrolled || v.blocks_scale == 2) return VariantGroup::blocks;
    if (v.resident_grid) return VariantGroup::resident;
    return std::nullopt;
}

/// Whether layout `v` runs on these images: the tuned layout always, the study's other layouts where no
/// mirrored source columns load shifted (vectorized_variants.cuh).
inline bool variant_applies(const bench::VectorizedTransposeVariant& v, const Launch& l) {
    return !variant_group(v) || !loads_shifted_columns(l.map.mirror_x, l.src.width, static_cast<int>(l.src.format.pixel_bytes()));
}

/// The transpose of l.map in layout l.variant of group G, for S-byte pixels.
template <VariantGroup G, int S>
void launch_transpose_variant(const StudyLaunch& l);

/// The tuned vectorized kernel of l.map (transpose or mirror) for S-byte pixels, its mirrored columns on vectors,
/// each block walking its tile rows `passes` times (repeated_passes.cuh).
template <int S>
void launch_vectorized_repeated(const Launch& l, int passes);

}  // namespace gpurotate::detail
