// JPEG to JPEG on the GPU: nvJPEG decodes into device memory, the D4 kernel runs there, nvJPEG encodes
// from there; only the compressed bytes cross the bus.

#include "check.cuh"

#include "core/decode_limits.hpp"
#include "jpeg/jpeg_work_limits.hpp"
#include "jpeg/nvjpeg_codec.hpp"
#include "frontend/cuda_backend.hpp"
#include "core/nvtx.hpp"

#include <gpurotate/error.hpp>

#include <nvjpeg.h>

#include <chrono>
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

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool nvjpeg_available() { return true; }

struct NvjpegCoder::Handle {
    int device = 0;
    nvjpegHandle_t handle = nullptr;    // default backend: encodes, and decodes what the hardware does not take
    nvjpegHandle_t hardware = nullptr;  // the NVJPG engines' batched decoder, where the GPU has them
    ~Handle() {
        if (hardware) nvjpegDestroy(hardware);
        if (handle) nvjpegDestroy(handle);
    }
};

std::shared_ptr<NvjpegCoder::Handle> NvjpegCoder::open_handle(int device, bool hardware_decoder) {
    GPUROTATE_CUDA_CHECK(cudaSetDevice(device));
    auto h = std::make_shared<Handle>();
    h->device = device;
    check(nvjpegCreateSimple(&h->handle), "creating a handle");
    // A GPU without NVJPG engines refuses the backend: the hybrid decoder then does all the work.
    if (hardware_decoder && nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, NVJPEG_FLAGS_DEFAULT, &h->hardware) != NVJPEG_STATUS_SUCCESS) {
        h->hardware = nullptr;
    }
    return h;
}

bool NvjpegCoder::has_hardware_decoder(const Handle& handle) { return handle.hardware != nullptr; }

// Members are destroyed in reverse order: the nvJPEG states before the buffers and the stream they use,
// the handle last.
struct NvjpegCoder::State {
    std::shared_ptr<Handle> library;
    std::size_t gpu_memory = 0;
    Stream stream;
    DeviceBuffer source, results;  // grown to the largest file so far
    nvjpegHandle_t handle = nullptr;  // library's
    nvjpegJpegState_t decoder = nullptr;  // made on first use: 0.3 s on an H100, more than the rest of the coder
    nvjpegEncoderState_t encoder = nullptr;
    nvjpegEncoderParams_t params = nullptr;
    nvjpegJpegState_t hardware_decoder = nullptr;  // batches of one image, RGB interleaved
    nvjpegJpegStream_t hardware_stream = nullptr;  // the parsed header, to ask the hardware whether it takes the file

    ~State() {
        if (hardware_stream) nvjpegJpegStreamDestroy(hardware_stream);
        if (hardware_decoder) nvjpegJpegStateDestroy(hardware_decoder);
        if (params) nvjpegEncoderParamsDestroy(params);
        if (encoder) nvjpegEncoderStateDestroy(encoder);
        if (decoder) nvjpegJpegStateDestroy(decoder);
    }

    // nvJPEG's hybrid decoder into `image`; false (nothing decoded) where it fails.
    bool decode_hybrid(const std::vector<std::uint8_t>& jpeg, nvjpegOutputFormat_t format, nvjpegImage_t& image) {
        if (!decoder) check(nvjpegJpegStateCreate(handle, &decoder), "creating a decoder");
        if (nvjpegDecode(handle, decoder, jpeg.data(), jpeg.size(), format, &image, stream.get()) == NVJPEG_STATUS_SUCCESS) return true;
        // A failed decode may leave the state part-way: a fresh one for the next file.
        stream.synchronize();
        nvjpegJpegStateDestroy(decoder);
        decoder = nullptr;
        return false;
    }

    // The hardware decoder into `image`; false (nothing decoded) where it does not take the file.
    bool decode_on_hardware(const std::vector<std::uint8_t>& jpeg, nvjpegImage_t& image) {
        const nvjpegHandle_t hw = library->hardware;
        if (!hardware_decoder) return false;
        int unsupported = 1;
        if (nvjpegJpegStreamParseHeader(hw, jpeg.data(), jpeg.size(), hardware_stream) != NVJPEG_STATUS_SUCCESS ||
            nvjpegDecodeBatchedSupported(hw, hardware_stream, &unsupported) != NVJPEG_STATUS_SUCCESS || unsupported != 0) {
            return false;
        }
        const unsigned char* data = jpeg.data();
        const std::size_t length = jpeg.size();
        if (nvjpegDecodeBatched(hw, hardware_decoder, &data, &length, &image, stream.get()) != NVJPEG_STATUS_SUCCESS) {
            stream.synchronize();  // and the batch reset, as nvJPEG asks after a failed one
            check(nvjpegDecodeBatchedInitialize(hw, hardware_decoder, 1, 1, NVJPEG_OUTPUT_RGBI), "resetting the hardware decoder");
            return false;
        }
        return true;
    }

    static void grow(DeviceBuffer& buffer, std::size_t bytes) {
        if (buffer.size() < bytes) buffer = DeviceBuffer(bytes);
    }
};

NvjpegCoder::NvjpegCoder(std::shared_ptr<Handle> handle, std::size_t gpu_memory, bool optimized_huffman) {
    GPUROTATE_CUDA_CHECK(cudaSetDevice(handle->device));
    state_ = std::make_unique<State>();
    State& s = *state_;
    s.library = std::move(handle);
    s.handle = s.library->handle;
    s.gpu_memory = gpu_memory;
    check(nvjpegEncoderStateCreate(s.handle, &s.encoder, s.stream.get()), "creating an encoder");
    check(nvjpegEncoderParamsCreate(s.handle, &s.params, s.stream.get()), "creating encoder parameters");
    check(nvjpegEncoderParamsSetOptimizedHuffman(s.params, optimized_huffman ? 1 : 0, s.stream.get()), "choosing Huffman tables");
    if (const nvjpegHandle_t hw = s.library->hardware) {
        check(nvjpegJpegStateCreate(hw, &s.hardware_decoder), "creating a hardware decoder");
        check(nvjpegDecodeBatchedInitialize(hw, s.hardware_decoder, 1, 1, NVJPEG_OUTPUT_RGBI), "initialising the hardware decoder");
        check(nvjpegJpegStreamCreate(hw, &s.hardware_stream), "creating a bitstream parser");
    }
}

NvjpegCoder::~NvjpegCoder() = default;

std::optional<std::vector<std::vector<std::uint8_t>>> NvjpegCoder::variants(const std::vector<std::uint8_t>& jpeg, const std::string& path,
                                                                            const std::vector<Orientation>& elements, int quality,
                                                                            const ReadOptions& limits, GpuJpegReport& report,
                                                                            const Image* decoded) {
    // nvJPEG decodes a truncated file into grey rows without an error; TurboJPEG refuses it (STOPONWARNING).
    if (!ends_with_eoi(jpeg) || elements.empty()) return std::nullopt;
    State& s = *state_;
    GPUROTATE_CUDA_CHECK(cudaSetDevice(s.library->device));
    const auto decode_start = std::chrono::steady_clock::now();
    int components = 0;
    nvjpegChromaSubsampling_t css = NVJPEG_CSS_UNKNOWN;
    int widths[NVJPEG_MAX_COMPONENT] = {}, heights[NVJPEG_MAX_COMPONENT] = {};
    if (nvjpegGetImageInfo(s.handle, jpeg.data(), jpeg.size(), &components, &css, widths, heights) != NVJPEG_STATUS_SUCCESS) return std::nullopt;
    if (css == NVJPEG_CSS_UNKNOWN || (components != 1 && components != 3)) return std::nullopt;
    const std::int64_t width = widths[0], height = heights[0];
    check_declared_size(path, width, height, limits);
    check_jpeg_work(jpeg, path, limits.max_jpeg_scans);
    const bool grey = components == 1 || css == NVJPEG_CSS_GRAY;
    const PixelFormat format{SampleType::u8, grey ? 1 : 3};
    const std::size_t src_pitch = device_pitch(static_cast<std::size_t>(width) * format.pixel_bytes());
    std::vector<TransformTarget> targets;
    std::vector<std::size_t> offsets;
    std::size_t results_bytes = 0;
    for (Orientation element : elements) {
        const Extent out = output_extent(element, {width, height});
        const std::size_t pitch = device_pitch(static_cast<std::size_t>(out.width) * format.pixel_bytes());
        targets.push_back({element, ImageView{nullptr, out.width, out.height, pitch, format}});
        offsets.push_back(results_bytes);
        results_bytes += pitch * static_cast<std::size_t>(out.height);
    }
    const std::size_t source_bytes = src_pitch * static_cast<std::size_t>(height);
    if (s.gpu_memory && source_bytes + results_bytes > s.gpu_memory) return std::nullopt;  // the CPU path keeps to the budget
    State::grow(s.source, source_bytes);
    State::grow(s.results, results_bytes);
    for (std::size_t i = 0; i < targets.size(); ++i) targets[i].dst.data = s.results.get() + offsets[i];
    if (!decoded) {
        NvtxRange range("nvjpeg decode");
        nvjpegImage_t image{};
        image.channel[0] = reinterpret_cast<unsigned char*>(s.source.get());
        image.pitch[0] = src_pitch;
        if (!grey && s.decode_on_hardware(jpeg, image)) {
            report.decoder = "nvJPEG hardware";
        } else if (s.decode_hybrid(jpeg, grey ? NVJPEG_OUTPUT_Y : NVJPEG_OUTPUT_RGBI, image)) {
            report.decoder = "nvJPEG hybrid";
        } else {
            return std::nullopt;  // damaged or unsupported: TurboJPEG decides and names the damage
        }
    } else {
        NvtxRange range("upload");
        if (decoded->format() != format || decoded->width() != width || decoded->height() != height) return std::nullopt;
        const ConstImageView v = decoded->view();
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(s.source.get(), src_pitch, v.data, v.pitch, v.row_bytes(), static_cast<std::size_t>(height),
                                               cudaMemcpyHostToDevice, s.stream.get()));
        report.decoder = "libjpeg-turbo";
    }
    report.decode_seconds = seconds_since(decode_start);
    const auto encode_start = std::chrono::steady_clock::now();
    {
        NvtxRange range("kernel");
        const ConstImageView d_src(s.source.get(), width, height, src_pitch, format);
        transform_device_multi_cuda(d_src, targets.data(), targets.size(), s.stream.get());
    }
    NvtxRange range("nvjpeg encode");
    check(nvjpegEncoderParamsSetQuality(s.params, quality, s.stream.get()), "setting the quality");
    std::vector<std::vector<std::uint8_t>> encoded;
    for (const TransformTarget& t : targets) {
        const nvjpegChromaSubsampling_t out_css = grey ? NVJPEG_CSS_GRAY : kept_subsampling(css, swaps_axes(t.orientation));
        check(nvjpegEncoderParamsSetSamplingFactors(s.params, out_css, s.stream.get()), "setting the subsampling");
        nvjpegImage_t source{};
        source.channel[0] = reinterpret_cast<unsigned char*>(t.dst.data);
        source.pitch[0] = t.dst.pitch;
        const int w = static_cast<int>(t.dst.width), h = static_cast<int>(t.dst.height);
        if (grey) {
            check(nvjpegEncodeYUV(s.handle, s.encoder, s.params, &source, NVJPEG_CSS_GRAY, w, h, s.stream.get()), "encoding");
        } else {
            check(nvjpegEncodeImage(s.handle, s.encoder, s.params, &source, NVJPEG_INPUT_RGBI, w, h, s.stream.get()), "encoding");
        }
        std::size_t length = 0;
        check(nvjpegEncodeRetrieveBitstream(s.handle, s.encoder, nullptr, &length, s.stream.get()), "sizing the bitstream");
        std::vector<std::uint8_t> bytes(length);
        check(nvjpegEncodeRetrieveBitstream(s.handle, s.encoder, bytes.data(), &length, s.stream.get()), "retrieving the bitstream");
        s.stream.synchronize();
        bytes.resize(length);
        encoded.push_back(std::move(bytes));
        report.subsampling = subsampling_name(out_css);
    }
    report.encode_seconds = seconds_since(encode_start);
    report.width = targets.front().dst.width;
    report.height = targets.front().dst.height;
    report.channels = format.channels;
    return encoded;
}

}  // namespace gpurotate::detail
