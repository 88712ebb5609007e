#include "core/stage_account.hpp"

namespace gpurotate::detail {
namespace {

thread_local ThreadStageAccount* installed = nullptr;

}  // namespace

std::string_view stage_name(WorkStage stage) {
    switch (stage) {
        case WorkStage::read: return "read";
        case WorkStage::entropy_decode: return "entropy decode";
        case WorkStage::coefficient_transform: return "coefficient transform";
        case WorkStage::scan_coding_cpu: return "scan coding (CPU)";
        case WorkStage::scan_coding_gpu: return "scan coding (GPU)";
        case WorkStage::pixel_decode: return "pixel decode";
        case WorkStage::kernels: return "kernels";
        case WorkStage::nvjpeg: return "nvJPEG";
        case WorkStage::encode: return "encode";
        case WorkStage::write: return "write";
        case WorkStage::rename: return "rename";
        case WorkStage::manifest: return "manifest";
        case WorkStage::other: return "other";
        case WorkStage::count: break;
    }
    return "?";
}

double StageSeconds::total() const {
    double sum = 0;
    for (const double s : seconds) sum += s;
    return sum;
}

StageSeconds& StageSeconds::operator+=(const StageSeconds& other) {
    for (std::size_t i = 0; i < work_stage_count; ++i) seconds[i] += other.seconds[i];
    return *this;
}

ThreadStageAccount::ThreadStageAccount(StageSeconds& into) : into_(into), outer_(installed) { installed = this; }

ThreadStageAccount::~ThreadStageAccount() {
    switch_to(WorkStage::other);
    for (std::size_t i = 0; i < work_stage_count; ++i) into_.seconds[i] += static_cast<double>(nanoseconds_[i]) * 1e-9;
    installed = outer_;
}

WorkStage ThreadStageAccount::switch_to(WorkStage stage) {
    const Clock::time_point now = Clock::now();
    nanoseconds_[static_cast<std::size_t>(current_)] += std::chrono::duration_cast<std::chrono::nanoseconds>(now - since_).count();
    since_ = now;
    const WorkStage previous = current_;
    current_ = stage;
    return previous;
}

StageScope::StageScope(WorkStage stage) noexcept : account_(installed) {
    if (account_) previous_ = account_->switch_to(stage);
}

StageScope::~StageScope() {
    if (account_) account_->switch_to(previous_);
}

}  // namespace gpurotate::detail
