#pragma once
// The bench's tuning study of the vectorized transpose: the layouts other than the tuned one (16 and 32
// lanes per source row, plain loads, split register blocks, unrolled register blocks, twice the register
// blocks). Only the bench and its tests run them, so they are compiled into the bench: three groups, one
// generated translation unit each per pixel width (together about two minutes of one compile for 3-byte
// pixels). The tuned layout (with any cap of blocks per SM or a resident grid) and the mirrors run the
// library's own instantiations.

#include "bench/variant_groups.cuh"
#include "launch_vectorized.cuh"

namespace gpurotate::detail {

template <VariantGroup G>
struct TransposeVariants {
    template <int S, bool MirrorX, bool MirrorY>
    struct Launcher {
        static void run(const Launch& l) {
            constexpr int lanes = vectorized_lanes_x;
            if constexpr (G == VariantGroup::lanes) {
                l.variant.lanes_x == 16 ? launch_transpose_layout<S, MirrorX, MirrorY, 16>(l) : launch_transpose_layout<S, MirrorX, MirrorY, 32>(l);
            } else if constexpr (G == VariantGroup::loads) {
                !l.variant.l2_prefetch ? launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, false>(l)
                                       : launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, true, false, true>(l);
            } else {
                l.variant.unrolled ? launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, true, true>(l)
                                   : launch_transpose_layout<S, MirrorX, MirrorY, lanes, 2>(l);
            }
        }
    };
};

template <VariantGroup G, int S>
void launch_transpose_variant(const Launch& l) {
    launch_mirrored<TransposeVariants<G>::template Launcher, S>(l);
}

}  // namespace gpurotate::detail
