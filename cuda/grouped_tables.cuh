#pragma once
// A grouped plan's tables kept in device memory (the tables' types are the kernels', kernels/grouped_tables.cuh).

#include "check.cuh"
#include "kernels/grouped_tables.cuh"

namespace gpurotate::detail {

/// A GroupedPlan's tables, built once and kept in device memory on the GPU that was current then.
struct GroupedPlanTables {
    int device = 0;
    int pixel_bytes = 0;
    DeviceBuffer memory;
    GroupedTables tables;
};

}  // namespace gpurotate::detail
