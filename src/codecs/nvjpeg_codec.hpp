#pragma once
// JPEG to JPEG on the GPU with nvJPEG (part of the CUDA Toolkit; optional, found at configure time): the
// file is decoded into device memory, transformed there and encoded there, so its pixels never visit the
// host. Implemented in cuda/nvjpeg_transcode.cu, or by nvjpeg_unavailable.cpp without nvJPEG.

#include <gpurotate/io.hpp>
#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Whether this build has nvJPEG.
bool nvjpeg_available();

/// What the GPU path did, for -v.
struct GpuJpegReport {
    std::int64_t width = 0, height = 0;
    int channels = 0;
    const char* subsampling = "";  ///< of the output: "4:4:4", "4:2:0", ...
};

/// `jpeg` (a JPEG file's bytes) decoded, transformed by `element` and encoded at `quality` on the GPU.
/// Chroma subsampling is the input's, with 4:2:2 and 4:4:0 exchanged when the axes swap. Nothing when
/// nvJPEG cannot take the file (damaged, truncated, CMYK, unusual subsampling), so that the CPU codecs
/// decide, and name the damage; also nothing when source and result would need more than `gpu_memory`
/// bytes (not 0). Throws Error (input) over the pixel limit, (device) when the GPU fails.
std::optional<std::vector<std::uint8_t>> nvjpeg_transcode(const std::vector<std::uint8_t>& jpeg, const std::string& path, Orientation element,
                                                          int quality, const ReadOptions& limits, std::size_t gpu_memory,
                                                          GpuJpegReport& report);

}  // namespace gpurotate::detail
