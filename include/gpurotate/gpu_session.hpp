#pragma once
/// \file gpu_session.hpp
/// A GPU, a stream and device buffers kept between calls: the unit of work of a pipeline that transforms
/// many host images one after another (as `gpurotate augment` does, one session per stream).

#include <gpurotate/transform.hpp>

#include <cstddef>
#include <memory>
#include <vector>

namespace gpurotate {

class GpuSession {
public:
    /// Opens a stream on GPU `device`. Throws `Error` (device) when that GPU is not usable. With a
    /// `gpu_memory` budget in bytes (0: none), an image whose source and targets need more device memory
    /// is refused with `Error` (device) before anything is allocated, and the caller decides what next.
    explicit GpuSession(int device = 0, std::size_t gpu_memory = 0);
    ~GpuSession();
    GpuSession(GpuSession&&) noexcept;
    GpuSession& operator=(GpuSession&&) noexcept;
    GpuSession(const GpuSession&) = delete;
    GpuSession& operator=(const GpuSession&) = delete;

    /// Uploads host image `src`, writes every target in one fused launch (see `transform_device_multi`)
    /// and downloads them into the targets' host views; returns when they are there. Device buffers grow
    /// to the largest image seen and are reused. Targets in pinned memory download at full speed.
    /// Throws `Error` (usage) for bad arguments, (device) for CUDA failures, out of memory included.
    void transform(ConstImageView src, const std::vector<TransformTarget>& targets);

    /// The GPU this session runs on.
    int device() const noexcept;
    /// Device memory the session holds now, in bytes.
    std::size_t device_bytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gpurotate
