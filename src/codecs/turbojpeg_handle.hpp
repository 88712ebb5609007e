#pragma once
// TurboJPEG's handles (compressor, decompressor, transformer) owned.

#include <turbojpeg.h>

#include <memory>

namespace gpurotate::detail {

struct TurboJpegHandleDeleter {
    void operator()(void* handle) const noexcept { tjDestroy(handle); }
};
using TurboJpegHandle = std::unique_ptr<void, TurboJpegHandleDeleter>;

}  // namespace gpurotate::detail
