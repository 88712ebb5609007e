// The front end of GpuSession: argument checks here, the CUDA work behind the backend seam.

#include <gpurotate/gpu_session.hpp>

#include "frontend/cuda_backend.hpp"
#include "core/validate.hpp"

namespace gpurotate {

struct GpuSession::Impl {
    int device;
    detail::DeviceSessionHandle session;
};

GpuSession::GpuSession(int device, std::size_t gpu_memory) : impl_(new Impl{device, detail::open_device_session(device, gpu_memory)}) {}
GpuSession::~GpuSession() = default;
GpuSession::GpuSession(GpuSession&&) noexcept = default;
GpuSession& GpuSession::operator=(GpuSession&&) noexcept = default;

void GpuSession::transform(ConstImageView src, const std::vector<TransformTarget>& targets) {
    detail::validate_multi_targets(src, targets);
    detail::transform_host_multi_cuda(*impl_->session, src, targets.data(), targets.size());
}

int GpuSession::device() const noexcept { return impl_->device; }

std::size_t GpuSession::device_bytes() const noexcept { return detail::device_session_bytes(*impl_->session); }

}  // namespace gpurotate
