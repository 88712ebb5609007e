#pragma once
// Page-locked host memory, which the image vocabulary (Image with HostMemory::pinned) and augment's staging
// buffers ask for. Declared on the ground floor so that they need not see the CUDA seam above them;
// implemented by the CUDA backend (cuda/device_info.cu), and by cuda/cuda_unavailable.cpp without CUDA.

#include <cstddef>

namespace gpurotate::detail {

/// Page-locked host memory, or nullptr when CUDA is not usable.
void* allocate_pinned(std::size_t bytes) noexcept;
/// Frees what `allocate_pinned` returned.
void free_pinned(void* pointer) noexcept;

}  // namespace gpurotate::detail
