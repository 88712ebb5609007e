// The grouped launch's entry points (one call, and a plan built once and run many times) and the memory pool
// of its tables; the launcher is launch_grouped.cuh.

#include "check.cuh"
#include "device_query.cuh"
#include "grouped_tables.cuh"
#include "launch.cuh"
#include "pixel_width_dispatch.cuh"

#include "frontend/cuda_backend.hpp"

#include <gpurotate/error.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace gpurotate::detail {

cudaMemPool_t table_pool() {
    return once_per_device([](int device) {
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        cudaMemPool_t pool = nullptr;
        GPUROTATE_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
        std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
        GPUROTATE_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
        // A table freed on the release stream (a kept call's, grouped_call_cache.cuh) is not handed to another
        // stream's allocation before its free has run: reusing it would make that stream wait for the old
        // table's readers, which the release stream is there to spare it.
        int internal_dependencies = 0;
        GPUROTATE_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &internal_dependencies));
        return pool;
    });
}

cudaStream_t table_release_stream() {
    return once_per_device([](int) {
        cudaStream_t stream = nullptr;  // lives as long as the process, as the pool does
        GPUROTATE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        return stream;
    });
}

void transform_device_grouped_cuda(const GroupedTransform* images, std::size_t count, cudaStream_t stream) {
    with_pixel_width(images[0].src.format.pixel_bytes(), [&](auto width) { launch_grouped<decltype(width)::value>(images, count, stream, {}); });
}

int grouped_inline_images_cuda() { return grouped_inline_images; }

void GroupedPlanTablesDeleter::operator()(GroupedPlanTables* plan) const noexcept {
    if (!plan) return;
    // Its memory belongs to the GPU it was built on; the caller's current GPU is put back after. Unchecked: a
    // failure to release cannot be thrown from here, and the next checked call reports a sticky error.
    int current = 0;
    const bool switched = cudaGetDevice(&current) == cudaSuccess && current != plan->device &&
                          cudaSetDevice(plan->device) == cudaSuccess;
    plan->memory = DeviceBuffer();
    if (switched) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaSetDevice(current));
    delete plan;
}

GroupedPlanHandle build_grouped_plan_cuda(const GroupedTransform* images, std::size_t count, cudaStream_t stream, GroupedSchedule schedule) {
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    GroupedPlanHandle plan(new GroupedPlanTables);
    plan->device = device;
    with_pixel_width(images[0].src.format.pixel_bytes(),
                     [&](auto width) { build_grouped_plan<decltype(width)::value>(images, count, *plan, stream, schedule); });
    return plan;
}

void run_grouped_plan_cuda(const GroupedPlanTables& plan, cudaStream_t stream) {
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    if (device != plan.device) {
        throw Error(ErrorCode::usage, "a grouped plan built on GPU " + std::to_string(plan.device) + " run with GPU " + std::to_string(device) +
                                          " current (make its GPU current first)");
    }
    with_pixel_width(plan.pixel_bytes, [&](auto width) { launch_grouped_tables<decltype(width)::value>(plan.tables, stream); });
}

void transform_device_batch_elements_cuda(ConstImageView src, ImageView dst, const Orientation* elements, int count, std::size_t src_image_stride,
                                          std::size_t dst_image_stride, cudaStream_t stream) {
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) {
        launch_batch_elements<decltype(width)::value>(src, dst, elements, count, src_image_stride, dst_image_stride, stream);
    });
}

}  // namespace gpurotate::detail
