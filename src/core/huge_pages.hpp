#pragma once
// Huge pages for large buffers about to be written. A 12-megapixel image's pixels, a file's bytes or a coded
// output take tens of MiB, which the kernel hands out one 4 KiB page fault at a time, each page zeroed: where
// it gives huge pages on request (transparent huge pages in "madvise" mode, Debian's default), asking before
// the first touch makes that one fault per 2 MiB. On a 16-bit 12 MP TIFF's turn the faults were a third of the
// process's time (perf, 2-core VM, 2026-12-06).

#include <cstddef>

namespace gpurotate::detail {

/// Below this many bytes a buffer is not worth the system call: it holds at most one whole huge page.
inline constexpr std::size_t huge_page_worthy_bytes = std::size_t{4} << 20;

/// Asks for huge pages for the whole 2 MiB pages within [begin, end); advice, whose failure costs nothing.
void ask_for_huge_pages(const void* begin, const void* end);

}  // namespace gpurotate::detail
