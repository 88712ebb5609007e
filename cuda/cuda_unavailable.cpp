// The CUDA backend's entry points in a build without CUDA: they report, they never pretend.

#include "frontend/cuda_backend.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/version.hpp>

namespace gpurotate {

namespace {
[[noreturn]] void no_cuda() {
    throw Error(ErrorCode::device, "this gpurotate was built without CUDA (rebuild with the CUDA Toolkit to use the GPU)");
}
}  // namespace

bool cuda_compiled_in() { return false; }

std::vector<GpuInfo> cuda_devices(std::string* problem) {
    if (problem) *problem = "built without CUDA";
    return {};
}

std::string cuda_runtime_version() { return ""; }

namespace detail {

void start_cuda(int) { no_cuda(); }
void transform_host_cuda(ConstImageView, ImageView, AxisMap, CudaKernel, std::size_t) { no_cuda(); }
void transform_device_cuda(ConstImageView, ImageView, AxisMap, CudaKernel, CUstream_st*, const BatchLayout&) { no_cuda(); }
bool vectorized_applies(ConstImageView, ConstImageView, AxisMap) { return false; }
void transform_in_place_cuda(ImageView, AxisMap, CUstream_st*) { no_cuda(); }
void transform_device_grouped_cuda(const GroupedTransform*, std::size_t, CUstream_st*) { no_cuda(); }
int grouped_inline_images_cuda() { no_cuda(); }
struct GroupedPlanTables {};
void GroupedPlanTablesDeleter::operator()(GroupedPlanTables* plan) const noexcept { delete plan; }
GroupedPlanHandle build_grouped_plan_cuda(const GroupedTransform*, std::size_t, CUstream_st*, GroupedSchedule) { no_cuda(); }
void run_grouped_plan_cuda(const GroupedPlanTables&, CUstream_st*) { no_cuda(); }
void transform_device_batch_elements_cuda(ConstImageView, ImageView, const Orientation*, int, std::size_t, std::size_t, CUstream_st*) { no_cuda(); }
void transform_device_multi_cuda(ConstImageView, const TransformTarget*, std::size_t, CUstream_st*) { no_cuda(); }
class DeviceSession {};
void DeviceSessionDeleter::operator()(DeviceSession* session) const noexcept { delete session; }
DeviceSessionHandle open_device_session(int, std::size_t) { no_cuda(); }
void transform_host_multi_cuda(DeviceSession&, ConstImageView, const TransformTarget*, std::size_t) { no_cuda(); }
std::size_t device_session_bytes(const DeviceSession&) noexcept { return 0; }
void rotate_device_cuda(ConstImageView, ImageView, const RotationPlan&, CUstream_st*) { no_cuda(); }
void rotate_host_cuda(ConstImageView, ImageView, const RotationPlan&) { no_cuda(); }
void rotate_device_grouped_cuda(const RotationJob*, std::size_t, CUstream_st*) { no_cuda(); }
void* allocate_pinned(std::size_t) noexcept { return nullptr; }
void free_pinned(void*) noexcept {}

}  // namespace detail
}  // namespace gpurotate
