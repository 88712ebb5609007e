// A GPU, a stream and device buffers that outlive one image: uploads, the fused launch and the downloads of
// one host image, with no allocation once the buffers have grown to the largest image.

#include "check.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/nvtx.hpp"

#include <gpurotate/error.hpp>

#include <string>

#include <vector>

namespace gpurotate::detail {
namespace {

// Device images start on 256-byte boundaries, as cudaMalloc's own do.
constexpr std::size_t round_up_256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

void copy_2d(std::byte* dst, std::size_t dst_pitch, const std::byte* src, std::size_t src_pitch, std::size_t row_bytes,
             std::int64_t rows, cudaMemcpyKind kind, cudaStream_t stream) {
    if (dst_pitch == row_bytes && src_pitch == row_bytes) {  // one flat copy: faster than the 2D engine path
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(dst, src, row_bytes * static_cast<std::size_t>(rows), kind, stream));
    } else {
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, row_bytes, static_cast<std::size_t>(rows), kind, stream));
    }
}

}  // namespace

class DeviceSession {
public:
    DeviceSession(int device, std::size_t budget) : device_(device), budget_(budget), select_(device) {}

    void run(ConstImageView src, const TransformTarget* targets, std::size_t count) {
        GPUROTATE_CUDA_CHECK(cudaSetDevice(device_));  // the calling thread may have used another GPU last
        const std::size_t src_pitch = device_pitch(src.row_bytes());
        std::vector<std::size_t> offsets(count);
        std::size_t dst_total = 0;
        for (std::size_t i = 0; i < count; ++i) {
            offsets[i] = dst_total;
            dst_total += round_up_256(device_pitch(targets[i].dst.row_bytes()) * static_cast<std::size_t>(targets[i].dst.height));
        }
        const std::size_t src_total = src_pitch * static_cast<std::size_t>(src.height);
        if (budget_ && src_total + dst_total > budget_) {
            throw Error(ErrorCode::device, "a " + std::to_string(src.width) + "x" + std::to_string(src.height) + " image and its " +
                                               std::to_string(count) + " variant(s) need " + std::to_string(src_total + dst_total) +
                                               " bytes of device memory, over the session's budget of " + std::to_string(budget_));
        }
        grow(source_, src_total);
        grow(outputs_, dst_total);

        const ConstImageView d_src(source_.get(), src.width, src.height, src_pitch, src.format);
        std::vector<TransformTarget> d_targets(count);
        for (std::size_t i = 0; i < count; ++i) {
            const ImageView& h = targets[i].dst;
            d_targets[i] = {targets[i].orientation, ImageView{outputs_.get() + offsets[i], h.width, h.height, device_pitch(h.row_bytes()), h.format}};
        }
        {
            NvtxRange range("upload");
            copy_2d(source_.get(), src_pitch, src.data, src.pitch, src.row_bytes(), src.height, cudaMemcpyHostToDevice, stream_.get());
        }
        {
            NvtxRange range("kernel");
            transform_device_multi_cuda(d_src, d_targets.data(), count, stream_.get());
        }
        {
            NvtxRange range("download");
            for (std::size_t i = 0; i < count; ++i) {
                const ImageView& h = targets[i].dst;
                const ImageView& d = d_targets[i].dst;
                copy_2d(h.data, h.pitch, d.data, d.pitch, h.row_bytes(), h.height, cudaMemcpyDeviceToHost, stream_.get());
            }
            stream_.synchronize();
        }
    }

    std::size_t bytes() const noexcept { return source_.size() + outputs_.size(); }

private:
    int device_;
    std::size_t budget_;  // 0: whatever the GPU has
    SelectDevice select_;  // before the stream: the stream belongs to the selected GPU
    Stream stream_;
    DeviceBuffer source_;
    DeviceBuffer outputs_;
};

void DeviceSessionDeleter::operator()(DeviceSession* session) const noexcept { delete session; }

DeviceSessionHandle open_device_session(int device, std::size_t budget) { return DeviceSessionHandle(new DeviceSession(device, budget)); }

void transform_host_multi_cuda(DeviceSession& session, ConstImageView src, const TransformTarget* targets, std::size_t count) {
    session.run(src, targets, count);
}

std::size_t device_session_bytes(const DeviceSession& session) noexcept { return session.bytes(); }

}  // namespace gpurotate::detail
