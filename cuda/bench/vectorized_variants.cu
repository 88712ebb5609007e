// transform_device_vectorized_variant (bench/study_launch.hpp): the bench's layouts of the vectorized kernels
// (vectorized_variants.cuh, instantiated per group and pixel width in generated units).

#include "bench/study_launch.hpp"
#include "bench/variant_groups.cuh"
#include "check.cuh"
#include "pixel_width_dispatch.cuh"

#include <gpurotate/error.hpp>

namespace gpurotate::bench {
namespace {

using detail::StudyLaunch;
using detail::VariantGroup;

// GPUROTATE_BENCH_STUDY_LAYOUTS in CMake: whether the generated units of the study's layouts are linked in.
#ifdef GPUROTATE_HAVE_STUDY_LAYOUTS
constexpr bool study_layouts_built = true;
#else
constexpr bool study_layouts_built = false;
#endif

/// The study's launch of `variant`: the policy's cap of blocks per SM unless the variant names one.
StudyLaunch study_launch(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant, cudaStream_t stream,
                         const detail::BatchLayout& batch) {
    const int bytes = static_cast<int>(src.format.pixel_bytes());
    const int policy_cap = map.swap_axes ? detail::tuning::transpose_blocks_per_sm(bytes, detail::current_device_class())
                                         : detail::tuning::mirror_blocks_per_sm(bytes, detail::current_device_class());
    StudyLaunch l{};
    static_cast<detail::Launch&>(l) = detail::Launch{src, dst, map, batch, stream, variant.blocks_per_sm < 0 ? policy_cap : variant.blocks_per_sm};
    l.variant = variant;
    return l;
}

}  // namespace

void transform_device_vectorized_variant(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant,
                                         CUstream_st* stream, const detail::BatchLayout& batch) {
    if (!detail::vectorized_applies(src, dst, map) || !detail::strides_allow_vectors(batch)) {
        throw Error(ErrorCode::usage, "vectorized variants need 16-byte aligned rows and image strides");
    }
    const StudyLaunch l = study_launch(src, dst, map, variant, stream, batch);
    if (!detail::variant_applies(variant, l)) {
        throw Error(ErrorCode::usage, "the study's vectorized layouts need rows of whole 16-byte vectors for mirrored columns");
    }
    const std::optional<VariantGroup> group = detail::variant_group(variant);
    detail::with_pixel_width(src.format.pixel_bytes(), [&](auto width) {
        constexpr int S = decltype(width)::value;
        if (!map.swap_axes) {
            detail::launch_vectorized_mirror<S>(l);
        } else if (!group) {
            detail::launch_vectorized_transpose<S>(l);
        } else if constexpr (!study_layouts_built) {
            throw Error(ErrorCode::usage, "this build has no tuning-study layouts (configure with -DGPUROTATE_BENCH_STUDY_LAYOUTS=ON)");
        } else if (*group == VariantGroup::lanes) {
            detail::launch_transpose_variant<VariantGroup::lanes, S>(l);
        } else if (*group == VariantGroup::loads) {
            detail::launch_transpose_variant<VariantGroup::loads, S>(l);
        } else if (*group == VariantGroup::blocks) {
            detail::launch_transpose_variant<VariantGroup::blocks, S>(l);
        } else {
            detail::launch_transpose_variant<VariantGroup::resident, S>(l);
        }
    });
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

bool vectorized_variant_applies(ConstImageView src, ImageView dst, AxisMap map, const VectorizedTransposeVariant& variant) {
    return detail::vectorized_applies(src, dst, map) && (study_layouts_built || !detail::variant_group(variant)) &&
           detail::variant_applies(variant, detail::Launch{src, dst, map, {}, nullptr});
}

}  // namespace gpurotate::bench
