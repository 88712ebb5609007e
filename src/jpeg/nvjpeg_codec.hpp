#pragma once
// JPEG to JPEG on the GPU with nvJPEG (part of the CUDA Toolkit; optional, found at configure time): the
// file is decoded into device memory, transformed there and encoded there, so its pixels never visit the
// host. Implemented in cuda/nvjpeg_transcode.cu, or by nvjpeg_unavailable.cpp without nvJPEG (where
// NvjpegCoder cannot be made).

#include <gpurotate/io.hpp>
#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <memory>
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
    const char* decoder = "";      ///< who decoded: "libjpeg-turbo", "nvJPEG hardware", "nvJPEG hybrid"
    double decode_seconds = 0;     ///< decode on the GPU (upload of the bytes included)
    double encode_seconds = 0;     ///< kernels, encodes and bitstream downloads
};

/// Who decodes a JPEG whose outputs nvJPEG encodes (--nvjpeg-decode).
enum class NvjpegDecode {
    cpu,   ///< libjpeg-turbo on the calling thread, then one upload
    gpu,   ///< nvJPEG: the hardware decoder where it takes the file, else the hybrid one
};

/// nvJPEG's objects for one thread, kept for a run of many files (`augment --nvjpeg`): the handle, the
/// decoder and encoder states, a stream, and device buffers that grow to the largest image. Creating them
/// costs tens of milliseconds, which a coder made per file would pay every time.
class NvjpegCoder {
public:
    /// nvJPEG's library handle on one GPU, shared by the coders of many threads (the handle is thread-safe,
    /// the decoder and encoder states are not). Making one takes a good part of a second, and handles made
    /// on several threads at once were made one after another: a run makes one per GPU, at start-up.
    struct Handle;
    /// With `hardware_decoder`, also a handle on the GPU's hardware JPEG decoder (NVJPG engines, A100 and
    /// H100 on) where it has one. Throws Error (device).
    static std::shared_ptr<Handle> open_handle(int device, bool hardware_decoder);
    /// Whether `handle` drives a hardware JPEG decoder.
    static bool has_hardware_decoder(const Handle& handle);

    /// On `handle`'s GPU; source and results of one file may take at most `gpu_memory` device bytes (0: no
    /// limit of our own). `optimized_huffman`: Huffman tables fitted to each image (smaller files, a second
    /// pass) instead of the standard ones libjpeg-turbo also writes by default. Throws Error (device).
    NvjpegCoder(std::shared_ptr<Handle> handle, std::size_t gpu_memory, bool optimized_huffman);
    ~NvjpegCoder();
    NvjpegCoder(const NvjpegCoder&) = delete;
    NvjpegCoder& operator=(const NvjpegCoder&) = delete;

    /// `jpeg` (a JPEG file's bytes) decoded once, and encoded once for each of `elements` at `quality`, with
    /// the input's chroma subsampling (4:2:2 and 4:4:0 exchanged where the axes swap). Nothing when nvJPEG
    /// cannot take the file (damaged, truncated, CMYK, unusual subsampling), so that the CPU codecs decide
    /// and name the damage, or when source and results need more than the budget. Throws Error (input)
    /// over the pixel limit, (device) when the GPU fails.
    /// `decoded`, when given, is the file's pixels as libjpeg-turbo decoded them (by the caller, off the
    /// coder's time): they are uploaded instead of nvJPEG decoding the file. Without it, the GPU's hardware
    /// decoder decodes baseline RGB files (not 4:1:1, 4:1:0) where the handle has one, and nvJPEG's hybrid
    /// decoder the others (its Huffman stage on the CPU, holding the coder while it runs).
    std::optional<std::vector<std::vector<std::uint8_t>>> variants(const std::vector<std::uint8_t>& jpeg, const std::string& path,
                                                                  const std::vector<Orientation>& elements, int quality,
                                                                  const ReadOptions& limits, GpuJpegReport& report,
                                                                  const Image* decoded = nullptr);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace gpurotate::detail
