#pragma once
// The grouped launch's tables as the GPU reads them: the types the grouped kernel (kernels/grouped.cuh), its
// launcher (launch_grouped.cuh) and the plan's entry points (launch_grouped.cu) share. A plan's copy of them in
// device memory is the launchers' (grouped_tables.cuh, one floor up).

#include "kernels/pixel_access.cuh"

#include <cstddef>
#include <cstdint>

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

// Images whose mirrored source columns are loaded shifted have families of their own (grouped.cuh).
enum GroupedFamily { family_transposes, family_shifted_transposes, family_mirrors, family_shifted_mirrors, family_tiles, grouped_families };

/// Every family's table of one grouped call (total_items 0 where the call has none of its images).
struct GroupedTables {
    GroupedTable family[grouped_families]{};
    bool tiles_aligned = true;  ///< whether every image on the padded tile allows the aligned word
};

}  // namespace gpurotate::detail
