#pragma once
// One output pixel of a rotation, as OpenCV 4.6's warpAffine + remap compute it (imgwarp.cpp): host and device
// code, so that the CPU backend and the CUDA kernel give the same bytes. The plan (the inverted matrix, the
// sizes, the border value and a pointer to the weight table) is built once on the host (rotation_tables.hpp).
//
// Every floating-point operation here is written as one rounded operation: on the device through the _rn
// intrinsics, which nvcc never contracts into FMA; on the host the including unit is compiled with
// -ffp-contract=off (CMakeLists.txt), as x86-64's baseline OpenCV is (no FMA without -mfma). The order of the
// additions is OpenCV's, left to right.

#include <gpurotate/orientation.hpp>
#include <gpurotate/rotate.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpurotate::detail {

/// OpenCV's fixed-point source coordinates: INTER_BITS fractional bits of a pixel (a 32x32 weight table),
/// AB_BITS bits in the per-row and per-column increments, INTER_REMAP_COEF_BITS in the 8-bit weights.
inline constexpr int rotation_inter_bits = 5;
inline constexpr int rotation_tab_size = 1 << rotation_inter_bits;
inline constexpr int rotation_tab_entries = rotation_tab_size * rotation_tab_size;
inline constexpr int rotation_ab_bits = 10;
inline constexpr int rotation_ab_scale = 1 << rotation_ab_bits;
inline constexpr int rotation_coef_bits = 15;
inline constexpr int rotation_coef_scale = 1 << rotation_coef_bits;

/// Weights per table entry: the kernel's taps, 2x2 or 4x4.
GPUROTATE_HOST_DEVICE constexpr int rotation_taps(Interpolation interpolation) {
    return interpolation == Interpolation::bicubic ? 16 : interpolation == Interpolation::bilinear ? 4 : 0;
}

/// Everything a pixel needs: the map from output to source (warpAffine's inverted matrix, in double), the
/// sizes, the border value saturated to the sample type, and the weights (int16 for u8 samples, float for u16
/// and f32; 1024 entries of rotation_taps() each; host or device memory, as the caller reads pixels).
struct RotationPlan {
    double inverse[6] = {1, 0, 0, 0, 1, 0};
    std::int32_t src_width = 0;
    std::int32_t src_height = 0;
    std::int32_t dst_width = 0;
    std::int32_t dst_height = 0;
    Interpolation interpolation = Interpolation::bilinear;
    SampleType sample = SampleType::u8;
    std::uint8_t background_u8[4] = {};
    std::uint16_t background_u16[4] = {};
    float background_f32[4] = {};
    const void* weights = nullptr;
};

namespace rotation_math {

inline constexpr std::int32_t int_min = -2147483647 - 1;

// One rounding per operation, never fused.
GPUROTATE_HOST_DEVICE inline double dmul(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
GPUROTATE_HOST_DEVICE inline double dadd(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}
GPUROTATE_HOST_DEVICE inline float fmul(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
GPUROTATE_HOST_DEVICE inline float fadd(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
GPUROTATE_HOST_DEVICE inline float fsub(float a, float b) {
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

/// cvRound / saturate_cast<int>(double): to nearest, ties to even; out of int's range SSE2's cvtsd2si answers
/// INT_MIN, and so does this on both sides.
GPUROTATE_HOST_DEVICE inline std::int32_t round_to_int(double v) {
#ifdef __CUDA_ARCH__
    const double r = rint(v);
#else
    const double r = std::nearbyint(v);
#endif
    if (!(r >= -2147483648.0 && r <= 2147483647.0)) return int_min;
    return static_cast<std::int32_t>(r);
}

/// cvRound(float), as saturate_cast<ushort>(float) starts.
GPUROTATE_HOST_DEVICE inline std::int32_t round_to_int(float v) {
#ifdef __CUDA_ARCH__
    const float r = rintf(v);
#else
    const float r = std::nearbyint(v);
#endif
    if (!(r >= -2147483648.0f && r < 2147483648.0f)) return int_min;
    return static_cast<std::int32_t>(r);
}

GPUROTATE_HOST_DEVICE inline std::int32_t clamp_int(std::int32_t v, std::int32_t lo, std::int32_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/// saturate_cast<short>(int): the source coordinates OpenCV keeps in CV_16SC2.
GPUROTATE_HOST_DEVICE inline std::int32_t saturate_short(std::int32_t v) { return clamp_int(v, -32768, 32767); }

/// int addition that wraps as the x86 instruction OpenCV's does, without the undefined behaviour.
GPUROTATE_HOST_DEVICE inline std::int32_t add_wrapping(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

}  // namespace rotation_math

/// The accumulator and the output conversion of each sample type (OpenCV's WT and CastOp): u8 sums int16
/// weights in int and rounds (sum + 2^14) >> 15 to 0..255; u16 sums float weights in float and rounds to
/// 0..65535; f32 sums in float and stores the sum.
template <class Sample>
struct RotationSampleTraits;

template <>
struct RotationSampleTraits<std::uint8_t> {
    using Weight = std::int16_t;
    using Sum = std::int32_t;
    GPUROTATE_HOST_DEVICE static Sum value(std::uint8_t s) { return s; }
    GPUROTATE_HOST_DEVICE static Sum times_one(Sum v) { return v * rotation_coef_scale; }
    GPUROTATE_HOST_DEVICE static Sum mul(Sum v, Weight w) { return v * w; }
    GPUROTATE_HOST_DEVICE static Sum add(Sum a, Sum b) { return a + b; }
    GPUROTATE_HOST_DEVICE static Sum sub(Sum a, Sum b) { return a - b; }
    GPUROTATE_HOST_DEVICE static std::uint8_t cast(Sum sum) {
        return static_cast<std::uint8_t>(rotation_math::clamp_int((sum + (1 << (rotation_coef_bits - 1))) >> rotation_coef_bits, 0, 255));
    }
    GPUROTATE_HOST_DEVICE static std::uint8_t background(const RotationPlan& plan, int k) { return plan.background_u8[k]; }
};

template <>
struct RotationSampleTraits<std::uint16_t> {
    using Weight = float;
    using Sum = float;
    GPUROTATE_HOST_DEVICE static Sum value(std::uint16_t s) { return static_cast<float>(s); }
    GPUROTATE_HOST_DEVICE static Sum times_one(Sum v) { return rotation_math::fmul(v, 1.0f); }
    GPUROTATE_HOST_DEVICE static Sum mul(Sum v, Weight w) { return rotation_math::fmul(v, w); }
    GPUROTATE_HOST_DEVICE static Sum add(Sum a, Sum b) { return rotation_math::fadd(a, b); }
    GPUROTATE_HOST_DEVICE static Sum sub(Sum a, Sum b) { return rotation_math::fsub(a, b); }
    GPUROTATE_HOST_DEVICE static std::uint16_t cast(Sum sum) {
        return static_cast<std::uint16_t>(rotation_math::clamp_int(rotation_math::round_to_int(sum), 0, 65535));
    }
    GPUROTATE_HOST_DEVICE static std::uint16_t background(const RotationPlan& plan, int k) { return plan.background_u16[k]; }
};

template <>
struct RotationSampleTraits<float> {
    using Weight = float;
    using Sum = float;
    GPUROTATE_HOST_DEVICE static Sum value(float s) { return s; }
    GPUROTATE_HOST_DEVICE static Sum times_one(Sum v) { return rotation_math::fmul(v, 1.0f); }
    GPUROTATE_HOST_DEVICE static Sum mul(Sum v, Weight w) { return rotation_math::fmul(v, w); }
    GPUROTATE_HOST_DEVICE static Sum add(Sum a, Sum b) { return rotation_math::fadd(a, b); }
    GPUROTATE_HOST_DEVICE static Sum sub(Sum a, Sum b) { return rotation_math::fsub(a, b); }
    GPUROTATE_HOST_DEVICE static float cast(Sum sum) { return sum; }
    GPUROTATE_HOST_DEVICE static float background(const RotationPlan& plan, int k) { return plan.background_f32[k]; }
};

/// warpAffine's rounding offset: half a pixel for nearest, half a table step for the others.
GPUROTATE_HOST_DEVICE inline std::int32_t rotation_round_delta(Interpolation interpolation) {
    return interpolation == Interpolation::nearest ? rotation_ab_scale / 2 : rotation_ab_scale / rotation_tab_size / 2;
}

/// warpAffine's per-row origin of output row `y`, x then y: saturate_cast<int>((M[1]*y + M[2])*AB_SCALE) +
/// round_delta.
GPUROTATE_HOST_DEVICE inline void rotation_row_origin(const RotationPlan& plan, std::int32_t y, std::int32_t& x0, std::int32_t& y0) {
    using namespace rotation_math;
    const double yd = static_cast<double>(y);
    const std::int32_t delta = rotation_round_delta(plan.interpolation);
    x0 = round_to_int(dmul(dadd(dmul(plan.inverse[1], yd), plan.inverse[2]), rotation_ab_scale)) + delta;
    y0 = round_to_int(dmul(dadd(dmul(plan.inverse[4], yd), plan.inverse[5]), rotation_ab_scale)) + delta;
}

/// warpAffine's per-column step of output column `x`: saturate_cast<int>(M[0]*x*AB_SCALE), and M[3] for y.
GPUROTATE_HOST_DEVICE inline void rotation_column_step(const RotationPlan& plan, std::int32_t x, std::int32_t& dx, std::int32_t& dy) {
    using namespace rotation_math;
    const double xd = static_cast<double>(x);
    dx = round_to_int(dmul(dmul(plan.inverse[0], xd), rotation_ab_scale));
    dy = round_to_int(dmul(dmul(plan.inverse[3], xd), rotation_ab_scale));
}

template <class Sample>
GPUROTATE_HOST_DEVICE inline Sample rotation_load(const std::byte* src, std::size_t src_pitch, std::int32_t x, std::int32_t y, int channel,
                                                  int channels) {
    const std::byte* at = src + static_cast<std::size_t>(y) * src_pitch + (static_cast<std::size_t>(x) * channels + channel) * sizeof(Sample);
#ifdef __CUDA_ARCH__
    return *reinterpret_cast<const Sample*>(at);  // the launcher checks the samples' alignment
#else
    Sample value;
    std::memcpy(&value, at, sizeof(Sample));  // a host view may hold samples at any address
    return value;
#endif
}

/// The pixel whose fixed-point coordinates are (x0 + dx, y0 + dy) (the row origin plus the column step) into
/// `out`, `Channels` samples: remapNearest, remapBilinear or remapBicubic with BORDER_CONSTANT.
template <class Sample, int Channels>
GPUROTATE_HOST_DEVICE inline void sample_at(const RotationPlan& plan, const std::byte* src, std::size_t src_pitch, std::int32_t fixed_x,
                                            std::int32_t fixed_y, Sample* out) {
    using Traits = RotationSampleTraits<Sample>;
    using Weight = typename Traits::Weight;
    using Sum = typename Traits::Sum;
    using rotation_math::saturate_short;
    const std::int32_t width = plan.src_width, height = plan.src_height;

    if (plan.interpolation == Interpolation::nearest) {
        const std::int32_t sx = saturate_short(fixed_x >> rotation_ab_bits);
        const std::int32_t sy = saturate_short(fixed_y >> rotation_ab_bits);
        const bool inside = sx >= 0 && sx < width && sy >= 0 && sy < height;
        for (int k = 0; k < Channels; ++k) {
            out[k] = inside ? rotation_load<Sample>(src, src_pitch, sx, sy, k, Channels) : Traits::background(plan, k);
        }
        return;
    }

    const std::int32_t fx = fixed_x >> (rotation_ab_bits - rotation_inter_bits);
    const std::int32_t fy = fixed_y >> (rotation_ab_bits - rotation_inter_bits);
    const std::int32_t entry = (fy & (rotation_tab_size - 1)) * rotation_tab_size + (fx & (rotation_tab_size - 1));
    const bool bicubic = plan.interpolation == Interpolation::bicubic;
    const int taps = bicubic ? 4 : 2;
    // The footprint's top-left tap: remapBicubic starts one pixel up and left of the remap coordinate.
    const std::int32_t sx = saturate_short(fx >> rotation_inter_bits) - (bicubic ? 1 : 0);
    const std::int32_t sy = saturate_short(fy >> rotation_inter_bits) - (bicubic ? 1 : 0);
    const Weight* w = static_cast<const Weight*>(plan.weights) + static_cast<std::size_t>(entry) * static_cast<std::size_t>(taps * taps);

    if (sx >= width || sx + taps <= 0 || sy >= height || sy + taps <= 0) {  // the whole footprint outside
        for (int k = 0; k < Channels; ++k) out[k] = Traits::background(plan, k);
        return;
    }
    const bool inside = sx >= 0 && sx + taps <= width && sy >= 0 && sy + taps <= height;

    if (!bicubic) {
        // remapBilinear: one formula inside and across the border, outside taps replaced by the border value.
        const bool x0_in = sx >= 0, x1_in = sx + 1 < width, y0_in = sy >= 0, y1_in = sy + 1 < height;
        for (int k = 0; k < Channels; ++k) {
            const Sample cval = Traits::background(plan, k);
            const Sample v0 = inside || (x0_in && y0_in) ? rotation_load<Sample>(src, src_pitch, sx, sy, k, Channels) : cval;
            const Sample v1 = inside || (x1_in && y0_in) ? rotation_load<Sample>(src, src_pitch, sx + 1, sy, k, Channels) : cval;
            const Sample v2 = inside || (x0_in && y1_in) ? rotation_load<Sample>(src, src_pitch, sx, sy + 1, k, Channels) : cval;
            const Sample v3 = inside || (x1_in && y1_in) ? rotation_load<Sample>(src, src_pitch, sx + 1, sy + 1, k, Channels) : cval;
            Sum sum = Traits::mul(Traits::value(v0), w[0]);
            sum = Traits::add(sum, Traits::mul(Traits::value(v1), w[1]));
            sum = Traits::add(sum, Traits::mul(Traits::value(v2), w[2]));
            sum = Traits::add(sum, Traits::mul(Traits::value(v3), w[3]));
            out[k] = Traits::cast(sum);
        }
        return;
    }

    if (inside) {
        // remapBicubic's inner path: each row's four products summed left to right, the rows added in turn.
        for (int k = 0; k < Channels; ++k) {
            Sum sum{};
            for (int i = 0; i < 4; ++i) {
                Sum row = Traits::mul(Traits::value(rotation_load<Sample>(src, src_pitch, sx, sy + i, k, Channels)), w[i * 4]);
                for (int j = 1; j < 4; ++j) {
                    row = Traits::add(row, Traits::mul(Traits::value(rotation_load<Sample>(src, src_pitch, sx + j, sy + i, k, Channels)), w[i * 4 + j]));
                }
                sum = i == 0 ? row : Traits::add(sum, row);
            }
            out[k] = Traits::cast(sum);
        }
        return;
    }
    // remapBicubic across the border: the border value times the whole weight, plus each inside tap's
    // difference from it.
    for (int k = 0; k < Channels; ++k) {
        const Sum cval = Traits::value(Traits::background(plan, k));
        Sum sum = Traits::times_one(cval);
        for (int i = 0; i < 4; ++i) {
            const std::int32_t y = sy + i;
            if (y < 0 || y >= height) continue;
            for (int j = 0; j < 4; ++j) {
                const std::int32_t x = sx + j;
                if (x < 0 || x >= width) continue;
                const Sum difference = Traits::sub(Traits::value(rotation_load<Sample>(src, src_pitch, x, y, k, Channels)), cval);
                sum = Traits::add(sum, Traits::mul(difference, w[i * 4 + j]));
            }
        }
        out[k] = Traits::cast(sum);
    }
}

/// Output pixel (x, y) into `out`: the row origin and column step computed here (the CPU backend computes
/// them once per row and column and calls sample_at).
template <class Sample, int Channels>
GPUROTATE_HOST_DEVICE inline void sample_pixel(const RotationPlan& plan, const std::byte* src, std::size_t src_pitch, std::int32_t x, std::int32_t y,
                                               Sample* out) {
    std::int32_t x0 = 0, y0 = 0, dx = 0, dy = 0;
    rotation_row_origin(plan, y, x0, y0);
    rotation_column_step(plan, x, dx, dy);
    sample_at<Sample, Channels>(plan, src, src_pitch, rotation_math::add_wrapping(x0, dx), rotation_math::add_wrapping(y0, dy), out);
}

}  // namespace gpurotate::detail
