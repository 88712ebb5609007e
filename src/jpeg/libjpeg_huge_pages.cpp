#include "jpeg/libjpeg_huge_pages.hpp"

#include "core/huge_pages.hpp"

#include <cstdint>

namespace gpurotate::detail {
namespace {

// libjpeg-turbo allocates an array's rows at once up to this many bytes (jmemmgr.c's MAX_ALLOC_CHUNK less its
// large-pool header, a few words: 64 covers it); a larger one in pieces, whose addresses the first row does not
// tell.
constexpr std::uint64_t one_allocation = 1000000000 - 64;

jvirt_barray_ptr request_recorded(j_common_ptr info, int pool, boolean pre_zero, JDIMENSION columns, JDIMENSION rows, JDIMENSION max_access) {
    auto& advice = *static_cast<ZeroedArrayAdvice*>(info->client_data);
    jvirt_barray_ptr array = advice.request(info, pool, pre_zero, columns, rows, max_access);
    if (pre_zero && advice.arrays.size() < advice.arrays.capacity()) advice.arrays.push_back({array, columns, rows});
    return array;
}

void realize_advised(j_common_ptr info) {
    auto& advice = *static_cast<ZeroedArrayAdvice*>(info->client_data);
    advice.realize(info);
    for (const ZeroedArrayAdvice::Requested& a : advice.arrays) {
        const std::uint64_t blocks = std::uint64_t{a.columns} * a.rows;
        if (blocks == 0 || blocks * sizeof(JBLOCK) > one_allocation) continue;
        // The first row's address, which zeroes that row alone: the rest stays untouched until the decoder's turn.
        JBLOCKROW first = info->mem->access_virt_barray(info, a.array, 0, 1, TRUE)[0];
        ask_for_huge_pages(first, first + blocks);
    }
}

}  // namespace

void ask_for_huge_pages_when_realized(jpeg_decompress_struct& info, ZeroedArrayAdvice& advice) {
    advice.arrays.reserve(2 * MAX_COMPONENTS);
    advice.request = info.mem->request_virt_barray;
    advice.realize = info.mem->realize_virt_arrays;
    info.client_data = &advice;
    info.mem->request_virt_barray = request_recorded;
    info.mem->realize_virt_arrays = realize_advised;
}

}  // namespace gpurotate::detail
