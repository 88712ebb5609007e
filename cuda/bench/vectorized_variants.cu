// transform_device_vectorized_variant (frontend/cuda_backend.hpp): the bench's layouts of the vectorized kernels
// (vectorized_variants.cuh, instantiated per group and pixel width in generated units).

#include "bench/variant_groups.cuh"
#include "check.cuh"
#include "pixel_width_dispatch.cuh"

#include <gpurotate/error.hpp>

namespace gpurotate::detail {
namespace {

// GPUROTATE_BENCH_STUDY_LAYOUTS in CMake: whether the generated units of the study's layouts are linked in.
#ifdef GPUROTATE_HAVE_STUDY_LAYOUTS
constexpr bool study_layouts_built = true;
#else
constexpr bool study_layouts_built = false;
#endif

}  // namespace

void transform_device_vectorized_variant(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant,
                                         CUstream_st* stream, const BatchLayout& batch) {
    if (!vectorized_applies(src, dst, map) || !strides_allow_vectors(batch)) {
        throw Error(ErrorCode::usage, "vectorized variants need 16-byte aligned rows and image strides");
    }
    const Launch l{src, dst, map, batch, stream, variant};
    if (!variant_applies(variant, l)) throw Error(ErrorCode::usage, "the study's vectorized layouts need rows of whole 16-byte vectors for mirrored columns");
    const std::optional<VariantGroup> group = variant_group(variant);
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) {
        constexpr int S = decltype(width)::value;
        if (!map.swap_axes) {
            launch_vectorized_mirror<S>(l);
        } else if (!group) {
            launch_vectorized_transpose<S>(l);
        } else if constexpr (!study_layouts_built) {
            throw Error(ErrorCode::usage, "this build has no tuning-study layouts (configure with -DGPUROTATE_BENCH_STUDY_LAYOUTS=ON)");
        } else if (*group == VariantGroup::lanes) {
            launch_transpose_variant<VariantGroup::lanes, S>(l);
        } else if (*group == VariantGroup::loads) {
            launch_transpose_variant<VariantGroup::loads, S>(l);
        } else {
            launch_transpose_variant<VariantGroup::blocks, S>(l);
        }
    });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

bool vectorized_variant_applies(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant) {
    return vectorized_applies(src, dst, map) && (study_layouts_built || !variant_group(variant)) &&
           variant_applies(variant, Launch{src, dst, map, {}, nullptr, variant});
}

}  // namespace gpurotate::detail
