#pragma once
// The bench's tuning study of the vectorized transpose: the layouts other than the tuned one (16 and 32
// lanes per source row, plain loads, split register blocks, unrolled register blocks, twice the register
// blocks). Only the bench and its tests run them, so they are compiled into the bench: three groups, one
// generated translation unit each per pixel width. They are compiled for aligned mirrored columns only
// (rows of whole 16-byte vectors, as 8192x8192 has): with the shifted body too, each kernel held both,
// and the study took 10 minutes of one core to compile, twice what it takes now. The tuned layout (with
// any cap of blocks per SM or a resident grid) and the mirrors run the library's own instantiations, for
// every width.

#include "bench/variant_groups.cuh"
#include "launch_vectorized.cuh"

namespace gpurotate::detail {

template <VariantGroup G>
struct TransposeVariants {
    template <int S, bool MirrorX, bool MirrorY>
    struct Launcher {
        static void run(const Launch& l) {
            constexpr int lanes = vectorized_lanes_x;
            constexpr ColumnShift aligned = ColumnShift::aligned;  // the study's images have rows of whole vectors
            if constexpr (G == VariantGroup::lanes) {
                l.variant.lanes_x == 16 ? launch_transpose_layout<S, MirrorX, MirrorY, 16, 1, true, false, false, aligned>(l)
                                        : launch_transpose_layout<S, MirrorX, MirrorY, 32, 1, true, false, false, aligned>(l);
            } else if constexpr (G == VariantGroup::loads) {
                !l.variant.l2_prefetch ? launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, false, false, false, aligned>(l)
                                       : launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, true, false, true, aligned>(l);
            } else {
                l.variant.unrolled ? launch_transpose_layout<S, MirrorX, MirrorY, lanes, 1, true, true, false, aligned>(l)
                                   : launch_transpose_layout<S, MirrorX, MirrorY, lanes, 2, true, false, false, aligned>(l);
            }
        }
    };
};

template <VariantGroup G, int S>
void launch_transpose_variant(const Launch& l) {
    launch_mirrored<TransposeVariants<G>::template Launcher, S>(l);
}

}  // namespace gpurotate::detail
