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

/// Taps a side of an interpolation's footprint (1, 2 or 4) and how many of them lie before the remap
/// coordinate (remapBicubic starts one pixel up and left of it).
GPUROTATE_HOST_DEVICE constexpr int rotation_side_taps(Interpolation interpolation) {
    return interpolation == Interpolation::bicubic ? 4 : interpolation == Interpolation::bilinear ? 2 : 1;
}
GPUROTATE_HOST_DEVICE constexpr int rotation_lead_taps(Interpolation interpolation) { return interpolation == Interpolation::bicubic ? 1 : 0; }

/// Weights per table entry: the footprint's taps, 2x2 or 4x4 (nearest reads no table).
GPUROTATE_HOST_DEVICE constexpr int rotation_taps(Interpolation interpolation) {
    return interpolation == Interpolation::nearest ? 0 : rotation_side_taps(interpolation) * rotation_side_taps(interpolation);
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

/// round_to_int(float) for |v| < 2^22, by an add: v + 1.5 * 2^23 has unit steps, so the add rounds v to its
/// nearest integer, ties to even, into the low bits. On the device it takes an add where rintf and the
/// conversion to int (FRND, F2I) go to the conversion unit, which serves a sixteenth of an SM's lanes a cycle.
GPUROTATE_HOST_DEVICE inline std::int32_t round_small_to_int(float v) {
#ifdef __CUDA_ARCH__
    return __float_as_int(__fadd_rn(v, 12582912.0f)) - 0x4b400000;
#else
    const float shifted = v + 12582912.0f;
    std::int32_t bits = 0;
    std::memcpy(&bits, &shifted, sizeof bits);
    return bits - 0x4b400000;
#endif
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
#ifdef __CUDA_ARCH__
        // By an add on the device, where FRND and F2I were two conversions a pixel beside about twenty other
        // instructions: a 16-bit sample's weighted sums stay within 2^18 (bicubic's weights sum to at most
        // 1.9 in absolute value, bilinear's to 1), well inside round_small_to_int's range.
        return static_cast<std::uint16_t>(rotation_math::clamp_int(rotation_math::round_small_to_int(sum), 0, 65535));
#else
        return static_cast<std::uint16_t>(rotation_math::clamp_int(rotation_math::round_to_int(sum), 0, 65535));
#endif
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

/// One sample at `at`: on the host at any address (a host view may hold samples anywhere), on the device at
/// the sample's alignment, which every caller there guarantees.
template <class Sample>
GPUROTATE_HOST_DEVICE inline Sample load_sample(const std::byte* at) {
#ifdef __CUDA_ARCH__
    return *reinterpret_cast<const Sample*>(at);
#else
    Sample value;
    std::memcpy(&value, at, sizeof(Sample));
    return value;
#endif
}

/// A source image at a pitch, read where it lies (host memory, or device memory by the GPU's fallback).
template <int PixelBytes>
struct PitchedPixels {
    const std::byte* data;
    std::size_t pitch;
    GPUROTATE_HOST_DEVICE const std::byte* at(std::int32_t x, std::int32_t y) const {
        return data + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * PixelBytes;
    }
    GPUROTATE_HOST_DEVICE std::size_t stride() const { return pitch; }
};

/// Where one output pixel reads: its footprint's first tap (x, y) and its weights' table entry.
struct RotationTap {
    std::int32_t x;
    std::int32_t y;
    std::int32_t entry;
};

/// remap's split of the fixed-point coordinate: the 1/32-pixel table entry and the first tap, as
/// saturate_cast<short> keeps it. `Saturate` false leaves the clamp out where the caller knows the
/// coordinate is inside the image (a short's range holds every side under 32767).
template <Interpolation Interp, bool Saturate = true>
GPUROTATE_HOST_DEVICE inline RotationTap rotation_tap(std::int32_t fixed_x, std::int32_t fixed_y) {
    using rotation_math::saturate_short;
    constexpr int lead = rotation_lead_taps(Interp);
    // fixed >> (AB_BITS - INTER_BITS) >> INTER_BITS: the whole pixel, as remap takes it from the table's index.
    const std::int32_t x = fixed_x >> rotation_ab_bits, y = fixed_y >> rotation_ab_bits;
    const std::int32_t entry = Interp == Interpolation::nearest
                                   ? 0
                                   : ((fixed_y >> (rotation_ab_bits - rotation_inter_bits)) & (rotation_tab_size - 1)) * rotation_tab_size +
                                         ((fixed_x >> (rotation_ab_bits - rotation_inter_bits)) & (rotation_tab_size - 1));
    if constexpr (Saturate) return {saturate_short(x) - lead, saturate_short(y) - lead, entry};
    return {x - lead, y - lead, entry};
}

/// The 8-bit bilinear weights for the fractions `a` (x) and `b` (y), in 1/32 pixel, as unsigned 16-bit pairs
/// for dp2a.u32.u32: .x the top row's two weights (left in the low half), .y the bottom row's. Each is
/// (32-a or a)(32-b or b) * 32, OpenCV's table entry exactly (1/32 fractions multiply exactly in float) but
/// for entry 0, whose 32768 the table saturates and corrects to 32767, 0, 0, 1. Kept whole here: the sum
/// 32768 p00 + 2^14 and the table's 32767 p00 + p11 + 2^14 differ by p11 - p00, less than 2^14 either way, so
/// both give p00 after the shift (tests/test_rotate_cpu.cpp checks every entry's sums against the table's).
/// Two multiplies and no correction: the kernels compute an entry where they would load 8 bytes.
GPUROTATE_HOST_DEVICE inline void bilinear_u8_weight_pairs(std::uint32_t a, std::uint32_t b, std::uint32_t& top, std::uint32_t& bottom) {
    const std::uint32_t columns = a * 0xffffu + rotation_tab_size;  // (32 - a) low, a high: a * 2^16 + 32 - a
    bottom = columns * (b << rotation_inter_bits);                   // halves (32 - a) * 32b and a * 32b
    top = (columns << 2 * rotation_inter_bits) - bottom;             // (32 - a) * (1024 - 32b), a * (1024 - 32b): no borrow
}

/// The float bilinear weights for the fractions `a` (x) and `b` (y), in 1/32 pixel, as initInterTab2D makes
/// them: x = a / 32 and 1 - x for each axis, and their products, every one exact in float (5 fraction bits a
/// factor). A kernel computes them from its coordinate's bits where it would read 16 bytes of a table at a
/// scattered entry (tests/test_rotate_cpu.cpp checks every entry against the table, bit for bit, and the
/// device's construction of a / 32 on the host). On the device a / 32 is the float 2^18 + a * 2^-5 built from
/// its bits, less 2^18: two instructions, where the conversion unit runs at an eighth of the adds'.
GPUROTATE_HOST_DEVICE inline void bilinear_float_weights(std::uint32_t a, std::uint32_t b, float (&w)[4]) {
    using namespace rotation_math;
#ifdef __CUDA_ARCH__
    const float x1 = __fsub_rn(__uint_as_float(0x48800000u | a), 262144.0f), y1 = __fsub_rn(__uint_as_float(0x48800000u | b), 262144.0f);
#else
    const float x1 = static_cast<float>(a) * (1.0f / rotation_tab_size), y1 = static_cast<float>(b) * (1.0f / rotation_tab_size);
#endif
    const float x0 = fsub(1.0f, x1), y0 = fsub(1.0f, y1);
    w[0] = fmul(y0, x0);
    w[1] = fmul(y0, x1);
    w[2] = fmul(y1, x0);
    w[3] = fmul(y1, x1);
}

/// The table entry's weights into `w`: on the device as 8- or 16-byte read-only loads (the tables start at a
/// multiple of 16 bytes and each entry is 8, 16, 32 or 64 bytes long).
template <class Weight, int Count>
GPUROTATE_HOST_DEVICE inline void load_weights(const void* table, std::int32_t entry, Weight (&w)[Count]) {
    const Weight* from = static_cast<const Weight*>(table) + static_cast<std::size_t>(entry) * Count;
#ifdef __CUDA_ARCH__
    if constexpr (sizeof(w) == 8) {
        const uint2 v = __ldg(reinterpret_cast<const uint2*>(from));
        std::memcpy(w, &v, 8);
    } else {
        static_assert(sizeof(w) % 16 == 0);
        for (int i = 0; i < static_cast<int>(sizeof(w) / 16); ++i) {
            const uint4 v = __ldg(reinterpret_cast<const uint4*>(from) + i);
            std::memcpy(reinterpret_cast<std::byte*>(w) + 16 * i, &v, 16);
        }
    }
#else
    std::memcpy(w, from, sizeof(w));
#endif
}

/// The pixel whose footprint's first tap is at `p` (rows `pitch` bytes apart), every tap inside the image:
/// remapNearest's copy, remapBilinear's four products summed in order, or remapBicubic's inner path (each
/// row's four products left to right, the rows added in turn).
template <class Sample, int Channels, Interpolation Interp, class Weight>
GPUROTATE_HOST_DEVICE inline void sample_inside(const std::byte* p, std::size_t pitch, const Weight* w, Sample* out) {
    using Traits = RotationSampleTraits<Sample>;
    using Sum = typename Traits::Sum;
    constexpr std::size_t pixel = sizeof(Sample) * Channels;
    for (int k = 0; k < Channels; ++k) {
        const std::byte* q = p + k * sizeof(Sample);
        if constexpr (Interp == Interpolation::nearest) {
            out[k] = load_sample<Sample>(q);
        } else if constexpr (Interp == Interpolation::bilinear) {
            Sum sum = Traits::mul(Traits::value(load_sample<Sample>(q)), w[0]);
            sum = Traits::add(sum, Traits::mul(Traits::value(load_sample<Sample>(q + pixel)), w[1]));
            sum = Traits::add(sum, Traits::mul(Traits::value(load_sample<Sample>(q + pitch)), w[2]));
            sum = Traits::add(sum, Traits::mul(Traits::value(load_sample<Sample>(q + pitch + pixel)), w[3]));
            out[k] = Traits::cast(sum);
        } else {
            Sum sum{};
            for (int i = 0; i < 4; ++i) {
                const std::byte* r = q + i * pitch;
                Sum row = Traits::mul(Traits::value(load_sample<Sample>(r)), w[i * 4]);
                for (int j = 1; j < 4; ++j) row = Traits::add(row, Traits::mul(Traits::value(load_sample<Sample>(r + j * pixel)), w[i * 4 + j]));
                sum = i == 0 ? row : Traits::add(sum, row);
            }
            out[k] = Traits::cast(sum);
        }
    }
}

/// The pixel at fixed-point coordinates (fixed_x, fixed_y) (a row origin plus a column step) into `out`,
/// `Channels` samples, with BORDER_CONSTANT: remapNearest, remapBilinear or remapBicubic. `pixels.at(x, y)`
/// is where source pixel (x, y) lies and `pixels.stride()` the bytes from a row to the next; it is asked only
/// for pixels inside the image.
template <class Sample, int Channels, Interpolation Interp, class Pixels>
GPUROTATE_HOST_DEVICE inline void sample_at(const RotationPlan& plan, const Pixels& pixels, std::int32_t fixed_x, std::int32_t fixed_y, Sample* out) {
    using Traits = RotationSampleTraits<Sample>;
    using Weight = typename Traits::Weight;
    using Sum = typename Traits::Sum;
    const std::int32_t width = plan.src_width, height = plan.src_height;
    constexpr int taps = rotation_side_taps(Interp);
    const RotationTap tap = rotation_tap<Interp>(fixed_x, fixed_y);
    const std::int32_t sx = tap.x, sy = tap.y;

    if (sx >= width || sx + taps <= 0 || sy >= height || sy + taps <= 0) {  // the whole footprint outside
        for (int k = 0; k < Channels; ++k) out[k] = Traits::background(plan, k);
        return;
    }
    Weight w[Interp == Interpolation::nearest ? 1 : taps * taps] = {};
    if constexpr (Interp != Interpolation::nearest) load_weights(plan.weights, tap.entry, w);
    if (sx >= 0 && sx + taps <= width && sy >= 0 && sy + taps <= height) {
        sample_inside<Sample, Channels, Interp>(pixels.at(sx, sy), pixels.stride(), w, out);
        return;
    }
    if constexpr (Interp == Interpolation::bilinear) {
        // remapBilinear across the border: its one formula, the outside taps replaced by the border value.
        const bool x0_in = sx >= 0, x1_in = sx + 1 < width, y0_in = sy >= 0, y1_in = sy + 1 < height;
        for (int k = 0; k < Channels; ++k) {
            const Sample cval = Traits::background(plan, k);
            const auto tap_value = [&](bool in, std::int32_t x, std::int32_t y) {
                return in ? load_sample<Sample>(pixels.at(x, y) + k * sizeof(Sample)) : cval;
            };
            Sum sum = Traits::mul(Traits::value(tap_value(x0_in && y0_in, sx, sy)), w[0]);
            sum = Traits::add(sum, Traits::mul(Traits::value(tap_value(x1_in && y0_in, sx + 1, sy)), w[1]));
            sum = Traits::add(sum, Traits::mul(Traits::value(tap_value(x0_in && y1_in, sx, sy + 1)), w[2]));
            sum = Traits::add(sum, Traits::mul(Traits::value(tap_value(x1_in && y1_in, sx + 1, sy + 1)), w[3]));
            out[k] = Traits::cast(sum);
        }
    } else if constexpr (Interp == Interpolation::bicubic) {
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
                    const Sum difference = Traits::sub(Traits::value(load_sample<Sample>(pixels.at(x, y) + k * sizeof(Sample))), cval);
                    sum = Traits::add(sum, Traits::mul(difference, w[i * 4 + j]));
                }
            }
            out[k] = Traits::cast(sum);
        }
    }
}

}  // namespace gpurotate::detail
