#pragma once
// Helpers shared by the CUDA test files: a CUDA call that must succeed, and uploads into pitched,
// optionally misaligned device buffers.

#include <gpurotate/image.hpp>

#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstddef>

#define REQUIRE_CUDA(call) REQUIRE_EQ(cudaSuccess, (call))

namespace test_support {

/// Copies a host image into a new device allocation with the given pitch, `offset` bytes into it; returns
/// the allocation (the image starts at its `offset`). The copy is enqueued on `stream`, where the kernel
/// under test runs too: the library's streams are non-blocking, so a copy on the legacy stream would not
/// be ordered before it.
inline std::byte* upload(const gpurotate::Image& img, std::size_t pitch, std::size_t offset, cudaStream_t stream) {
    void* base = nullptr;
    REQUIRE_CUDA(cudaMalloc(&base, offset + pitch * static_cast<std::size_t>(img.height())));
    REQUIRE_CUDA(cudaMemcpy2DAsync(static_cast<std::byte*>(base) + offset, pitch, img.data(), img.view().pitch, img.view().row_bytes(),
                                   static_cast<std::size_t>(img.height()), cudaMemcpyHostToDevice, stream));
    return static_cast<std::byte*>(base);
}

}  // namespace test_support
