#include "bench/peers.hpp"

#include "check.cuh"

#include <gpurotate/error.hpp>

#include <cublas_v2.h>

#include <cmath>

#if GPUROTATE_HAVE_NPP
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_geometry_transforms.h>
#endif

namespace gpurotate::bench {
namespace {

void check_cublas(cublasStatus_t status, const char* call) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw Error(ErrorCode::device, std::string("cuBLAS error ") + std::to_string(static_cast<int>(status)) + " in " + call);
    }
}

#if GPUROTATE_HAVE_NPP
void check_npp(NppStatus status, const char* call) {
    if (status != NPP_SUCCESS) throw Error(ErrorCode::device, std::string("NPP error ") + std::to_string(status) + " in " + call);
}

NppStreamContext npp_context(cudaStream_t stream) {
    NppStreamContext ctx{};
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    GPUROTATE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    ctx.hStream = stream;
    ctx.nCudaDeviceId = device;
    ctx.nMultiProcessorCount = prop.multiProcessorCount;
    ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
    ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
    ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
    ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
    ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
    GPUROTATE_CUDA_CHECK(cudaStreamGetFlags(stream, &ctx.nStreamFlags));
    return ctx;
}

int npp_step(std::size_t pitch) { return static_cast<int>(pitch); }
#endif

}  // namespace

struct Peers::State {
    cublasHandle_t cublas = nullptr;
};

Peers::Peers() : state_(std::make_unique<State>()) { check_cublas(cublasCreate(&state_->cublas), "cublasCreate"); }

Peers::~Peers() {
    if (state_->cublas) cublasDestroy(state_->cublas);
}

bool Peers::npp_compiled_in() { return GPUROTATE_HAVE_NPP != 0; }

// NPP's transpose exists for 8u, 16u and 32f with 1, 3 and 4 channels; it is a transpose only.
bool Peers::npp_transpose_applies(const Case& c) const {
    return npp_compiled_in() && c.orientation == Orientation::transpose && c.src.format.channels != 2;
}

void Peers::npp_transpose(const Case& c) const {
#if GPUROTATE_HAVE_NPP
    const NppStreamContext ctx = npp_context(c.stream);
    const NppiSize roi{static_cast<int>(c.src.width), static_cast<int>(c.src.height)};
    const int ss = npp_step(c.src.pitch), ds = npp_step(c.dst.pitch);
    const auto* s = c.src.data;
    auto* d = c.dst.data;
    const int ch = c.src.format.channels;
#define GPUROTATE_NPP_T(T, SUFFIX) \
    check_npp(nppiTranspose_##SUFFIX##_Ctx(reinterpret_cast<const T*>(s), ss, reinterpret_cast<T*>(d), ds, roi, ctx), "nppiTranspose_" #SUFFIX)
    switch (c.src.format.sample) {
        case SampleType::u8:
            if (ch == 1) GPUROTATE_NPP_T(Npp8u, 8u_C1R);
            if (ch == 3) GPUROTATE_NPP_T(Npp8u, 8u_C3R);
            if (ch == 4) GPUROTATE_NPP_T(Npp8u, 8u_C4R);
            break;
        case SampleType::u16:
            if (ch == 1) GPUROTATE_NPP_T(Npp16u, 16u_C1R);
            if (ch == 3) GPUROTATE_NPP_T(Npp16u, 16u_C3R);
            if (ch == 4) GPUROTATE_NPP_T(Npp16u, 16u_C4R);
            break;
        case SampleType::f32:
            if (ch == 1) GPUROTATE_NPP_T(Npp32f, 32f_C1R);
            if (ch == 3) GPUROTATE_NPP_T(Npp32f, 32f_C3R);
            if (ch == 4) GPUROTATE_NPP_T(Npp32f, 32f_C4R);
            break;
    }
#undef GPUROTATE_NPP_T
#else
    static_cast<void>(c);
#endif
}

// NPP's mirror covers the three elements that keep the axes: flip-h (about the vertical axis), flip-v
// (about the horizontal axis) and rot180 (both).
bool Peers::npp_mirror_applies(const Case& c) const {
    const Orientation o = c.orientation;
    return npp_compiled_in() && (o == Orientation::flip_h || o == Orientation::flip_v || o == Orientation::rot180) &&
           c.src.format.channels != 2;
}

void Peers::npp_mirror(const Case& c) const {
#if GPUROTATE_HAVE_NPP
    const NppStreamContext ctx = npp_context(c.stream);
    const NppiSize roi{static_cast<int>(c.src.width), static_cast<int>(c.src.height)};
    const NppiAxis axis = c.orientation == Orientation::flip_h   ? NPP_VERTICAL_AXIS
                          : c.orientation == Orientation::flip_v ? NPP_HORIZONTAL_AXIS
                                                                 : NPP_BOTH_AXIS;
    const int ss = npp_step(c.src.pitch), ds = npp_step(c.dst.pitch);
    const auto* s = c.src.data;
    auto* d = c.dst.data;
    const int ch = c.src.format.channels;
#define GPUROTATE_NPP_M(T, SUFFIX) \
    check_npp(nppiMirror_##SUFFIX##_Ctx(reinterpret_cast<const T*>(s), ss, reinterpret_cast<T*>(d), ds, roi, axis, ctx), "nppiMirror_" #SUFFIX)
    switch (c.src.format.sample) {
        case SampleType::u8:
            if (ch == 1) GPUROTATE_NPP_M(Npp8u, 8u_C1R);
            if (ch == 3) GPUROTATE_NPP_M(Npp8u, 8u_C3R);
            if (ch == 4) GPUROTATE_NPP_M(Npp8u, 8u_C4R);
            break;
        case SampleType::u16:
            if (ch == 1) GPUROTATE_NPP_M(Npp16u, 16u_C1R);
            if (ch == 3) GPUROTATE_NPP_M(Npp16u, 16u_C3R);
            if (ch == 4) GPUROTATE_NPP_M(Npp16u, 16u_C4R);
            break;
        case SampleType::f32:
            if (ch == 1) GPUROTATE_NPP_M(Npp32f, 32f_C1R);
            if (ch == 3) GPUROTATE_NPP_M(Npp32f, 32f_C3R);
            if (ch == 4) GPUROTATE_NPP_M(Npp32f, 32f_C4R);
            break;
    }
#undef GPUROTATE_NPP_M
#else
    static_cast<void>(c);
#endif
}

bool Peers::npp_rotate_applies(PixelFormat format) const { return npp_compiled_in() && format.channels != 2; }

// nppiRotate turns counter-clockwise about the origin and then shifts: x' = x cos a + y sin a + shift_x,
// y' = -x sin a + y cos a + shift_y, pixel centres at integers (nppiGetRotateQuad maps the corner (W-1, 0) of a
// W x H ROI to ((W-1) cos a, -(W-1) sin a)). So a = -degrees is rotate.hpp's clockwise turn, and the shifts move
// the source's centre ((W-1)/2, (H-1)/2) onto the destination's, as the expanded canvas (and keep_size) places it.
int Peers::npp_rotate(ConstImageView src, ImageView dst, double degrees, Interpolation interpolation, cudaStream_t stream) const {
#if GPUROTATE_HAVE_NPP
    constexpr double pi = 3.14159265358979323846;
    const double c = std::cos(degrees * pi / 180), s = std::sin(degrees * pi / 180);
    const double cx = static_cast<double>(src.width - 1) / 2, cy = static_cast<double>(src.height - 1) / 2;
    const double shift_x = static_cast<double>(dst.width - 1) / 2 - (cx * c - cy * s);
    const double shift_y = static_cast<double>(dst.height - 1) / 2 - (cx * s + cy * c);
    const int mode = interpolation == Interpolation::nearest    ? NPPI_INTER_NN
                     : interpolation == Interpolation::bilinear ? NPPI_INTER_LINEAR
                                                                : NPPI_INTER_CUBIC;
    const NppStreamContext ctx = npp_context(stream);
    const NppiSize size{static_cast<int>(src.width), static_cast<int>(src.height)};
    const NppiRect src_roi{0, 0, size.width, size.height};
    const NppiRect dst_roi{0, 0, static_cast<int>(dst.width), static_cast<int>(dst.height)};
    const int ss = npp_step(src.pitch), ds = npp_step(dst.pitch);
    const int ch = src.format.channels;
    NppStatus status = NPP_NOT_SUPPORTED_MODE_ERROR;
#define GPUROTATE_NPP_R(T, SUFFIX)                                                                                                   \
    status = nppiRotate_##SUFFIX##_Ctx(reinterpret_cast<const T*>(src.data), size, ss, src_roi, reinterpret_cast<T*>(dst.data), ds, \
                                       dst_roi, -degrees, shift_x, shift_y, mode, ctx)
    switch (src.format.sample) {
        case SampleType::u8:
            if (ch == 1) GPUROTATE_NPP_R(Npp8u, 8u_C1R);
            if (ch == 3) GPUROTATE_NPP_R(Npp8u, 8u_C3R);
            if (ch == 4) GPUROTATE_NPP_R(Npp8u, 8u_C4R);
            break;
        case SampleType::u16:
            if (ch == 1) GPUROTATE_NPP_R(Npp16u, 16u_C1R);
            if (ch == 3) GPUROTATE_NPP_R(Npp16u, 16u_C3R);
            if (ch == 4) GPUROTATE_NPP_R(Npp16u, 16u_C4R);
            break;
        case SampleType::f32:
            if (ch == 1) GPUROTATE_NPP_R(Npp32f, 32f_C1R);
            if (ch == 3) GPUROTATE_NPP_R(Npp32f, 32f_C3R);
            if (ch == 4) GPUROTATE_NPP_R(Npp32f, 32f_C4R);
            break;
    }
#undef GPUROTATE_NPP_R
    return static_cast<int>(status);
#else
    static_cast<void>(src);
    static_cast<void>(dst);
    static_cast<void>(degrees);
    static_cast<void>(interpolation);
    static_cast<void>(stream);
    return -1;
#endif
}

// geam transposes a column-major matrix; a row-major W x H float image is a column-major W x H matrix
// with leading dimension pitch / 4, so C (H x W, column-major) = A^T is the row-major transpose.
bool Peers::cublas_geam_applies(const Case& c) const {
    return c.orientation == Orientation::transpose && c.src.format == PixelFormat{SampleType::f32, 1} && c.src.pitch % 4 == 0 &&
           c.dst.pitch % 4 == 0;
}

void Peers::cublas_geam(const Case& c) const {
    check_cublas(cublasSetStream(state_->cublas, c.stream), "cublasSetStream");
    const float alpha = 1.0f, beta = 0.0f;
    auto* C = reinterpret_cast<float*>(c.dst.data);
    const int ldc = static_cast<int>(c.dst.pitch / 4);
    check_cublas(cublasSgeam(state_->cublas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(c.src.height), static_cast<int>(c.src.width),
                             &alpha, reinterpret_cast<const float*>(c.src.data), static_cast<int>(c.src.pitch / 4), &beta, C, ldc, C, ldc),
                 "cublasSgeam");
}

}  // namespace gpurotate::bench
