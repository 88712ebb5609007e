// JPEG to JPEG on the GPU: nvJPEG decodes into device memory, the D4 kernel runs there, nvJPEG encodes
// from there; only the compressed bytes cross the bus.

#include "check.cuh"

#include "codecs/decode_limits.hpp"
#include "codecs/nvjpeg_codec.hpp"
#include "core/cuda_backend.hpp"
#include "core/nvtx.hpp"

#include <gpurotate/error.hpp>

#include <nvjpeg.h>

#include <string>

namespace gpurotate::detail {
namespace {

const char* status_text(nvjpegStatus_t s) {
    switch (s) {
        case NVJPEG_STATUS_SUCCESS: return "success";
        case NVJPEG_STATUS_NOT_INITIALIZED: return "not initialised";
        case NVJPEG_STATUS_INVALID_PARAMETER: return "invalid parameter";
        case NVJPEG_STATUS_BAD_JPEG: return "bad JPEG";
        case NVJPEG_STATUS_JPEG_NOT_SUPPORTED: return "JPEG not supported";
        case NVJPEG_STATUS_ALLOCATOR_FAILURE: return "allocation failed";
        case NVJPEG_STATUS_EXECUTION_FAILED: return "execution failed";
        case NVJPEG_STATUS_ARCH_MISMATCH: return "architecture mismatch";
        case NVJPEG_STATUS_INTERNAL_ERROR: return "internal error";
        case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED: return "implementation not supported";
        default: return "unknown status";
    }
}

void check(nvjpegStatus_t status, const char* what) {
    if (status != NVJPEG_STATUS_SUCCESS) throw Error(ErrorCode::device, std::string("nvJPEG: ") + what + " failed: " + status_text(status));
}

// Owners of nvJPEG's objects, destroyed in reverse order of creation.
struct Library {
    nvjpegHandle_t handle = nullptr;
    nvjpegJpegState_t decoder = nullptr;
    nvjpegEncoderState_t encoder = nullptr;
    nvjpegEncoderParams_t params = nullptr;
    ~Library() {
        if (params) nvjpegEncoderParamsDestroy(params);
        if (encoder) nvjpegEncoderStateDestroy(encoder);
        if (decoder) nvjpegJpegStateDestroy(decoder);
        if (handle) nvjpegDestroy(handle);
    }
};

// The input's chroma subsampling as the output keeps it: rows and columns of chroma exchange with the axes.
nvjpegChromaSubsampling_t kept_subsampling(nvjpegChromaSubsampling_t input, bool swaps) {
    switch (input) {
        case NVJPEG_CSS_444:
        case NVJPEG_CSS_420:
        case NVJPEG_CSS_GRAY: return input;
        case NVJPEG_CSS_422: return swaps ? NVJPEG_CSS_440 : NVJPEG_CSS_422;
        case NVJPEG_CSS_440: return swaps ? NVJPEG_CSS_422 : NVJPEG_CSS_440;
        default: return NVJPEG_CSS_420;  // 4:1:1 and 4:1:0 have no transposed form: the nearest common one
    }
}

const char* subsampling_name(nvjpegChromaSubsampling_t css) {
    switch (css) {
        case NVJPEG_CSS_444: return "4:4:4";
        case NVJPEG_CSS_422: return "4:2:2";
        case NVJPEG_CSS_420: return "4:2:0";
        case NVJPEG_CSS_440: return "4:4:0";
        case NVJPEG_CSS_GRAY: return "grey";
        default: return "?";
    }
}

bool ends_with_eoi(const std::vector<std::uint8_t>& b) {
    for (std::size_t i = b.size(); i-- > 1;) {  // trailing padding after EOI is common, so look back a little
        if (b[i - 1] == 0xff && b[i] == 0xd9) return true;
        if (b.size() - i > 4096) return false;
    }
    return false;
}

}  // namespace

bool nvjpeg_available() { return true; }

std::optional<std::vector<std::uint8_t>> nvjpeg_transcode(const std::vector<std::uint8_t>& jpeg, const std::string& path, Orientation element,
                                                          int quality, const ReadOptions& limits, std::size_t gpu_memory,
                                                          GpuJpegReport& report) {
    // nvJPEG decodes a truncated file into grey rows without an error; TurboJPEG refuses it (STOPONWARNING).
    if (!ends_with_eoi(jpeg)) return std::nullopt;
    Stream stream;  // first, so that it outlives the nvJPEG objects that were created on it
    Library lib;
    check(nvjpegCreateSimple(&lib.handle), "creating a handle");
    int components = 0;
    nvjpegChromaSubsampling_t css = NVJPEG_CSS_UNKNOWN;
    int widths[NVJPEG_MAX_COMPONENT] = {}, heights[NVJPEG_MAX_COMPONENT] = {};
    if (nvjpegGetImageInfo(lib.handle, jpeg.data(), jpeg.size(), &components, &css, widths, heights) != NVJPEG_STATUS_SUCCESS) return std::nullopt;
    if (css == NVJPEG_CSS_UNKNOWN || (components != 1 && components != 3)) return std::nullopt;
    const std::int64_t width = widths[0], height = heights[0];
    check_declared_size(path, width, height, limits);
    const bool grey = components == 1 || css == NVJPEG_CSS_GRAY;
    const PixelFormat format{SampleType::u8, grey ? 1 : 3};
    const Extent out = output_extent(element, {width, height});
    const std::size_t src_pitch = vector_aligned_pitch(static_cast<std::size_t>(width) * format.pixel_bytes());
    const std::size_t dst_pitch = vector_aligned_pitch(static_cast<std::size_t>(out.width) * format.pixel_bytes());
    const std::size_t needed = src_pitch * static_cast<std::size_t>(height) + dst_pitch * static_cast<std::size_t>(out.height);
    if (gpu_memory && needed > gpu_memory) return std::nullopt;  // the banded path keeps to the budget

    DeviceBuffer src(src_pitch * static_cast<std::size_t>(height));
    DeviceBuffer dst(dst_pitch * static_cast<std::size_t>(out.height));
    {
        NvtxRange range("nvjpeg decode");
        check(nvjpegJpegStateCreate(lib.handle, &lib.decoder), "creating a decoder");
        nvjpegImage_t decoded{};
        decoded.channel[0] = reinterpret_cast<unsigned char*>(src.get());
        decoded.pitch[0] = src_pitch;
        if (nvjpegDecode(lib.handle, lib.decoder, jpeg.data(), jpeg.size(), grey ? NVJPEG_OUTPUT_Y : NVJPEG_OUTPUT_RGBI, &decoded, stream.get()) !=
            NVJPEG_STATUS_SUCCESS) {
            return std::nullopt;  // damaged or unsupported: TurboJPEG decides and names the damage
        }
    }
    {
        NvtxRange range("kernel");
        const ConstImageView d_src(src.get(), width, height, src_pitch, format);
        const ImageView d_dst{dst.get(), out.width, out.height, dst_pitch, format};
        transform_device_cuda(d_src, d_dst, axis_map(element), CudaKernel::automatic, stream.get());
    }
    NvtxRange range("nvjpeg encode");
    const nvjpegChromaSubsampling_t out_css = grey ? NVJPEG_CSS_GRAY : kept_subsampling(css, swaps_axes(element));
    check(nvjpegEncoderStateCreate(lib.handle, &lib.encoder, stream.get()), "creating an encoder");
    check(nvjpegEncoderParamsCreate(lib.handle, &lib.params, stream.get()), "creating encoder parameters");
    check(nvjpegEncoderParamsSetQuality(lib.params, quality, stream.get()), "setting the quality");
    check(nvjpegEncoderParamsSetSamplingFactors(lib.params, out_css, stream.get()), "setting the subsampling");
    check(nvjpegEncoderParamsSetOptimizedHuffman(lib.params, 1, stream.get()), "choosing optimised Huffman tables");
    nvjpegImage_t source{};
    source.channel[0] = reinterpret_cast<unsigned char*>(dst.get());
    source.pitch[0] = dst_pitch;
    const int w = static_cast<int>(out.width), h = static_cast<int>(out.height);
    if (grey) {
        check(nvjpegEncodeYUV(lib.handle, lib.encoder, lib.params, &source, NVJPEG_CSS_GRAY, w, h, stream.get()), "encoding");
    } else {
        check(nvjpegEncodeImage(lib.handle, lib.encoder, lib.params, &source, NVJPEG_INPUT_RGBI, w, h, stream.get()), "encoding");
    }
    std::size_t length = 0;
    check(nvjpegEncodeRetrieveBitstream(lib.handle, lib.encoder, nullptr, &length, stream.get()), "sizing the bitstream");
    std::vector<std::uint8_t> encoded(length);
    check(nvjpegEncodeRetrieveBitstream(lib.handle, lib.encoder, encoded.data(), &length, stream.get()), "retrieving the bitstream");
    stream.synchronize();
    encoded.resize(length);
    report = {out.width, out.height, format.channels, subsampling_name(out_css)};
    return encoded;
}

}  // namespace gpurotate::detail
