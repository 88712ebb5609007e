#pragma once
// The grouped launch's tables as the GPU reads them: the types the grouped kernel (kernels/grouped.cuh), its
// launcher (launch_grouped.cuh) and the plan's entry points (launch_grouped.cu) share. A plan's copy of them in
// device memory is the launchers' (grouped_tables.cuh, one floor up).

#include "kernels/pixel_access.cuh"

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace gpurotate::detail {

struct GroupedImage {
    TransformArgs args;  ///< the first plane's; src_image_stride and dst_image_stride step to the next
    int mirrors;  ///< 1: mirror x, 2: mirror y (the body within the family)
    int tiles_x;  ///< tile columns of its output, in its family's tile shape
    int plane_tiles;  ///< tiles of one plane (tiles_x * args.tiles_y); the image's tiles run plane after plane
    int tiles;  ///< all its tiles (plane_tiles * planes)
};

/// One work item's place, built on the host with the table: its image and the first of its tiles.
struct GroupedWork {
    std::uint32_t image;
    std::uint32_t first_tile;
};

/// One launch's table, in device memory: one GroupedImage per image and one GroupedWork per work item. A work item
/// is tiles_per_item consecutive tiles of one image (fewer at its end), run by one block one after another.
struct GroupedTable {
    const GroupedImage* images;
    /// One per item, so that a block's first load is its own work, not a search (CUTLASS's host-precomputed grouped
    /// schedule, DALI's per-block BlockSetup). Null in the bench's study of the search it replaced, which reads
    /// first_item instead.
    const GroupedWork* work;
    const long long* first_item;  ///< the search's: ascending; image i owns items [first_item[i], first_item[i + 1])
    int count;
    int tiles_per_item;
    long long total_items;
};

/// The most bytes of parameters one kernel takes: 32,764 since CUDA 12.1 (compute capability 7.0 and later), 4,096 before.
#if CUDART_VERSION >= 12010
inline constexpr std::size_t kernel_parameter_bytes = 32764;
#else
inline constexpr std::size_t kernel_parameter_bytes = 4096;
#endif

/// Images of one family's table that a single call carries in the kernel's parameters, beside its GroupedTable:
/// 292 with CUDA 12.1 and later (104-byte images).
inline constexpr int grouped_inline_images =
    static_cast<int>((kernel_parameter_bytes - sizeof(GroupedTable)) / (sizeof(GroupedImage) + sizeof(long long)));

/// A single call's table of one family in the kernel's parameters (a __grid_constant__ parameter, read where it
/// is): no staging copy, no allocation from the pool and no host-to-device copy before the launch. Only the
/// search's arrays: descriptors are one per work item, too many to fit.
struct GroupedInlineTable {
    GroupedImage images[grouped_inline_images];
    long long first_item[grouped_inline_images];  ///< as GroupedTable::first_item
};
// The kernel's parameters: the GroupedTable, then this table at its alignment.
static_assert((sizeof(GroupedTable) + alignof(GroupedInlineTable) - 1) / alignof(GroupedInlineTable) * alignof(GroupedInlineTable) +
                      sizeof(GroupedInlineTable) <=
                  kernel_parameter_bytes,
              "a grouped launch's inline table must fit the kernel's parameters");

// Images whose mirrored source columns are loaded shifted have families of their own (grouped.cuh).
enum GroupedFamily { family_transposes, family_shifted_transposes, family_mirrors, family_shifted_mirrors, family_tiles, grouped_families };

/// Every family's table of one grouped call (total_items 0 where the call has none of its images).
struct GroupedTables {
    GroupedTable family[grouped_families]{};
    bool tiles_aligned = true;  ///< whether every image on the padded tile allows the aligned word
};

}  // namespace gpurotate::detail
