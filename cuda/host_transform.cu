// The CUDA backend for host images: upload, one kernel, download, on a stream of its own.

#include "check.cuh"

#include "core/cuda_backend.hpp"

namespace gpurotate::detail {

void transform_host_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel) {
    Stream stream;
    // Tightly packed device copies: a pitch of width * pixel bytes keeps every word naturally aligned.
    DeviceBuffer device_src(src.row_bytes() * static_cast<std::size_t>(src.height));
    DeviceBuffer device_dst(dst.row_bytes() * static_cast<std::size_t>(dst.height));
    ImageView d_src{device_src.get(), src.width, src.height, src.row_bytes(), src.format};
    ImageView d_dst{device_dst.get(), dst.width, dst.height, dst.row_bytes(), dst.format};
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(d_src.data, d_src.pitch, src.data, src.pitch, src.row_bytes(),
                                           static_cast<std::size_t>(src.height), cudaMemcpyHostToDevice, stream.get()));
    transform_device_cuda(d_src, d_dst, map, kernel, stream.get());
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, d_dst.data, d_dst.pitch, dst.row_bytes(),
                                           static_cast<std::size_t>(dst.height), cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
}

}  // namespace gpurotate::detail
