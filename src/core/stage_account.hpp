#pragma once
// Where a worker's time goes, by stage (augment -v's account): each thread that wants an account installs one
// (ThreadStageAccount); the code marks its stage boundaries with StageScope, which costs two clock reads on a
// thread with an account and a pointer test on one without (the single-image command, a library caller).
// Time is exclusive: a scope inside another (a rename inside a write) takes its time from the outer one, so
// the stages of one thread add up to the time its account was installed. No lock on the way: each thread
// has its own account, added to the caller's total once, when it is uninstalled.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpurotate::detail {

/// A stage of an input's trip through a worker, in the order the trip takes them.
enum class WorkStage {
    read,                   ///< the file's bytes, its marker walk and its metadata parse
    entropy_decode,         ///< a JPEG's coefficients read by libjpeg (the lossless transform)
    coefficient_transform,  ///< its DCT blocks moved for a variant
    scan_coding_cpu,        ///< a variant's scan entropy-coded by libjpeg (with its headers), or every variant's in segments on the cores
    scan_coding_gpu,        ///< every variant's scan coded by the GPU's scan coder, the wait for it included
    pixel_decode,           ///< an input decoded to pixels, and fitted to the output (--depth, --flatten)
    kernels,                ///< the transform of the pixels: GPU upload, kernels and downloads, or the CPU's loops
    nvjpeg,                 ///< nvJPEG's decode, transform and encodes: one call, not separable
    encode,                 ///< an output encoded into memory, or into its file as it is coded (a TIFF's strips,
                            ///< with their writes); a lossless variant's markers and precoded scan
    write,                  ///< its temporary file made, written and closed
    rename,                 ///< the temporary linked or renamed to the output's name
    manifest,               ///< the output's record appended to the manifest
    other,                  ///< the rest: planning, labels, masks, bookkeeping (not separated)
    count
};

inline constexpr std::size_t work_stage_count = static_cast<std::size_t>(WorkStage::count);

/// The stage's name in augment -v's account.
std::string_view stage_name(WorkStage stage);

/// Seconds by stage, summed over threads.
struct StageSeconds {
    std::array<double, work_stage_count> seconds{};
    double& operator[](WorkStage stage) { return seconds[static_cast<std::size_t>(stage)]; }
    double operator[](WorkStage stage) const { return seconds[static_cast<std::size_t>(stage)]; }
    double total() const;
    StageSeconds& operator+=(const StageSeconds& other);
};

/// Installs an account on this thread for its lifetime, starting in WorkStage::other; on destruction its
/// seconds are added to `into` (the caller keeps threads from adding at once).
class ThreadStageAccount {
public:
    explicit ThreadStageAccount(StageSeconds& into);
    ~ThreadStageAccount();
    ThreadStageAccount(const ThreadStageAccount&) = delete;
    ThreadStageAccount& operator=(const ThreadStageAccount&) = delete;

    /// Charges the time since the last switch to the current stage, and makes `stage` current; returns the
    /// stage it replaced.
    WorkStage switch_to(WorkStage stage);

private:
    using Clock = std::chrono::steady_clock;
    StageSeconds& into_;
    ThreadStageAccount* outer_;  // an account installed before this one on the same thread
    std::array<std::int64_t, work_stage_count> nanoseconds_{};
    WorkStage current_ = WorkStage::other;
    Clock::time_point since_ = Clock::now();
};

/// This thread's time goes to `stage` until the scope ends, then back to the stage before it.
class StageScope {
public:
    explicit StageScope(WorkStage stage) noexcept;
    ~StageScope();
    StageScope(const StageScope&) = delete;
    StageScope& operator=(const StageScope&) = delete;

private:
    ThreadStageAccount* account_;
    WorkStage previous_ = WorkStage::other;
};

}  // namespace gpurotate::detail
