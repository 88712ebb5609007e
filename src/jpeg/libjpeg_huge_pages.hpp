#pragma once
// Huge pages for libjpeg's coefficient arrays. A 12-megapixel photograph's blocks take 24-72 MiB, which
// libjpeg zeroes (the source's, as jpeg_read_coefficients asks) or our transform writes (a scratch's) one
// 4 KiB page fault at a time: where the kernel gives huge pages on request (transparent huge pages in
// "madvise" mode, Debian's default), asking before the first touch makes that one fault per 2 MiB.

#include <cstdio>  // jpeglib.h uses FILE and size_t without including their headers
#include <jpeglib.h>

#include "core/huge_pages.hpp"

#include <vector>

namespace gpurotate::detail {

/// What ask_for_huge_pages_when_realized keeps for a decompressor: libjpeg's own memory functions, and the
/// arrays to be zeroed that were requested of it. Must outlive the decompressor's use of its arrays.
struct ZeroedArrayAdvice {
    struct Requested {
        jvirt_barray_ptr array;
        JDIMENSION columns, rows;
    };
    jvirt_barray_ptr (*request)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION) = nullptr;
    void (*realize)(j_common_ptr) = nullptr;
    std::vector<Requested> arrays;  // capacity reserved up front: nothing may throw inside libjpeg's calls
};

/// From now on, each block array that `info` allocates zeroed (jpeg_read_coefficients' source arrays) is
/// asked for huge pages once allocated, before libjpeg zeroes it. Takes `info`'s client_data for `advice`.
void ask_for_huge_pages_when_realized(jpeg_decompress_struct& info, ZeroedArrayAdvice& advice);

}  // namespace gpurotate::detail
