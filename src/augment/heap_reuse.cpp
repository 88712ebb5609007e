#include "augment/heap_reuse.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gpurotate::detail {

void keep_large_blocks_for_reuse() {
#if defined(__GLIBC__)
    // Blocks up to 32 MiB (the most glibc accepts: half a thread arena's heap) come from the arenas, and an
    // arena keeps up to 1 GiB free at its top rather than trimming it: the workers' peak, at most, stays mapped.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace gpurotate::detail
