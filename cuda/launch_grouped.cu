// The grouped launch's entry point and the memory pool of its tables; the launcher is launch_grouped.cuh.

#include "check.cuh"
#include "device_query.cuh"
#include "launch.cuh"
#include "pixel_width_dispatch.cuh"

#include "core/cuda_backend.hpp"

#include <cstdint>
#include <limits>

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
        return pool;
    });
}

void transform_device_grouped_cuda(const GroupedTransform* images, std::size_t count, cudaStream_t stream) {
    with_pixel_width(images[0].src.format.pixel_bytes(), [&](auto width) { launch_grouped<decltype(width)::value>(images, count, stream); });
}

void transform_device_batch_elements_cuda(ConstImageView src, ImageView dst, const Orientation* elements, int count, std::size_t src_image_stride,
                                          std::size_t dst_image_stride, cudaStream_t stream) {
    with_pixel_width(src.format.pixel_bytes(), [&](auto width) {
        launch_batch_elements<decltype(width)::value>(src, dst, elements, count, src_image_stride, dst_image_stride, stream);
    });
}

}  // namespace gpurotate::detail
