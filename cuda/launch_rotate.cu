// The launcher of rotation by any angle (kernels/rotate.cuh): the weight tables copied to each GPU once and
// kept for the process, the plan's weights pointed at that copy, one launch per call.

#include "check.cuh"
#include "kernels/rotate.cuh"

#include "core/rotation_tables.hpp"
#include "frontend/cuda_backend.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace gpurotate::detail {
namespace {

/// The current GPU's copy of rotation_tables(), uploaded on its first use (a synchronous copy, once per GPU
/// and process). The buffers are never freed: a kernel enqueued by any thread may still read them.
const std::byte* device_rotation_tables() {
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    static std::mutex mutex;
    static auto* copies = new std::map<int, DeviceBuffer>();  // leaked: no cudaFree after the runtime's teardown
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = copies->find(device);
    if (found == copies->end()) {
        DeviceBuffer buffer(sizeof(RotationTables));
        GPUROTATE_CUDA_CHECK(cudaMemcpy(buffer.get(), &rotation_tables(), sizeof(RotationTables), cudaMemcpyHostToDevice));
        found = copies->emplace(device, std::move(buffer)).first;
    }
    return found->second.get();
}

template <class Sample, int Channels>
void launch(ConstImageView src, ImageView dst, const RotationPlan& plan, cudaStream_t stream) {
    const dim3 block(rotate_block_x, rotate_block_y);
    const unsigned rows = static_cast<unsigned>((dst.height + rotate_block_y - 1) / rotate_block_y);
    const dim3 grid(static_cast<unsigned>((dst.width + rotate_block_x - 1) / rotate_block_x), std::min(rows, 65535u));
    rotate_kernel<Sample, Channels><<<grid, block, 0, stream>>>(plan, src.data, src.pitch, dst.data, dst.pitch);
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

template <class Sample>
void launch_channels(ConstImageView src, ImageView dst, const RotationPlan& plan, cudaStream_t stream) {
    switch (src.format.channels) {
        case 1: return launch<Sample, 1>(src, dst, plan, stream);
        case 2: return launch<Sample, 2>(src, dst, plan, stream);
        case 3: return launch<Sample, 3>(src, dst, plan, stream);
        case 4: return launch<Sample, 4>(src, dst, plan, stream);
        default: throw Error(ErrorCode::usage, "rotation: " + std::to_string(src.format.channels) + " channels (1 to 4)");
    }
}

bool aligned(const void* p, std::size_t pitch, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && pitch % bytes == 0;
}

}  // namespace

void rotate_device_cuda(ConstImageView src, ImageView dst, const RotationPlan& plan, CUstream_st* stream) {
    const std::size_t sample = sample_bytes(src.format.sample);
    if (!aligned(src.data, src.pitch, sample) || !aligned(dst.data, dst.pitch, sample)) {
        throw Error(ErrorCode::usage, "rotation on the GPU: device pointers and pitches must be multiples of the sample's " +
                                          std::to_string(sample) + " bytes");
    }
    RotationPlan device_plan = plan;
    if (plan.interpolation != Interpolation::nearest) {
        device_plan.weights = device_rotation_tables() + rotation_weights_offset(plan.interpolation, plan.sample);
    }
    switch (src.format.sample) {
        case SampleType::u8: return launch_channels<std::uint8_t>(src, dst, device_plan, stream);
        case SampleType::u16: return launch_channels<std::uint16_t>(src, dst, device_plan, stream);
        case SampleType::f32: return launch_channels<float>(src, dst, device_plan, stream);
    }
    throw Error(ErrorCode::usage, "rotation: unknown sample type");
}

void rotate_host_cuda(ConstImageView src, ImageView dst, const RotationPlan& plan) {
    Stream stream;
    const std::size_t src_pitch = device_pitch(src.row_bytes());
    const std::size_t dst_pitch = device_pitch(dst.row_bytes());
    DeviceBuffer device_src(src_pitch * static_cast<std::size_t>(src.height));
    DeviceBuffer device_dst(dst_pitch * static_cast<std::size_t>(dst.height));
    const ImageView d_src{device_src.get(), src.width, src.height, src_pitch, src.format};
    const ImageView d_dst{device_dst.get(), dst.width, dst.height, dst_pitch, dst.format};
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(d_src.data, d_src.pitch, src.data, src.pitch, src.row_bytes(), static_cast<std::size_t>(src.height),
                                           cudaMemcpyHostToDevice, stream.get()));
    rotate_device_cuda(d_src, d_dst, plan, stream.get());
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, d_dst.data, d_dst.pitch, dst.row_bytes(), static_cast<std::size_t>(dst.height),
                                           cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
}

}  // namespace gpurotate::detail
