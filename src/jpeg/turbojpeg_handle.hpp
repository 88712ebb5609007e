#pragma once
// TurboJPEG's handles (compressor, decompressor, transformer) and the buffers it allocates, owned.

#include <turbojpeg.h>

#include <memory>

namespace gpurotate::detail {

struct TurboJpegHandleDeleter {
    void operator()(void* handle) const noexcept { tjDestroy(handle); }
};
using TurboJpegHandle = std::unique_ptr<void, TurboJpegHandleDeleter>;

struct TurboJpegBufferDeleter {
    void operator()(unsigned char* buffer) const noexcept { tjFree(buffer); }
};
using TurboJpegBuffer = std::unique_ptr<unsigned char, TurboJpegBufferDeleter>;

}  // namespace gpurotate::detail
