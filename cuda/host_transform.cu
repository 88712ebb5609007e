// The CUDA backend for host images: upload, one kernel, download, on a stream of its own.

#include "check.cuh"

#include "core/cuda_backend.hpp"
#include "core/nvtx.hpp"

namespace gpurotate::detail {

void transform_host_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel) {
    Stream stream;
    const std::size_t src_pitch = vector_aligned_pitch(src.row_bytes());
    const std::size_t dst_pitch = vector_aligned_pitch(dst.row_bytes());
    DeviceBuffer device_src(src_pitch * static_cast<std::size_t>(src.height));
    DeviceBuffer device_dst(dst_pitch * static_cast<std::size_t>(dst.height));
    ImageView d_src{device_src.get(), src.width, src.height, src_pitch, src.format};
    ImageView d_dst{device_dst.get(), dst.width, dst.height, dst_pitch, dst.format};
    {
        NvtxRange range("upload");
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(d_src.data, d_src.pitch, src.data, src.pitch, src.row_bytes(),
                                               static_cast<std::size_t>(src.height), cudaMemcpyHostToDevice, stream.get()));
    }
    {
        NvtxRange range("kernel");
        transform_device_cuda(d_src, d_dst, map, kernel, stream.get());
    }
    NvtxRange range("download");
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, d_dst.data, d_dst.pitch, dst.row_bytes(),
                                           static_cast<std::size_t>(dst.height), cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
}

}  // namespace gpurotate::detail
