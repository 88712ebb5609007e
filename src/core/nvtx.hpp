#pragma once
// NVTX ranges around every stage (decode, upload, kernel, download, encode), so that Nsight Systems and
// Nsight Compute (--nvtx --nvtx-include) show where time goes. NVTX v3 is header-only and ships with the
// CUDA Toolkit; without it the ranges compile to nothing.

#if GPUROTATE_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace gpurotate::detail {

/// Pushes a named range for the lifetime of the object.
class NvtxRange {
public:
#if GPUROTATE_HAVE_NVTX
    explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
    ~NvtxRange() { nvtxRangePop(); }
#else
    explicit NvtxRange(const char*) {}
#endif
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace gpurotate::detail
