#include "core/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gpurotate::detail {

void ask_for_huge_pages(const void* begin, const void* end) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
    const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + huge - 1) / huge * huge;
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) / huge * huge;
    if (first < last) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)begin;
    (void)end;
#endif
}

}  // namespace gpurotate::detail
