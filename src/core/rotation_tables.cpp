// OpenCV 4.6's interpolation tables and warpAffine's matrix, recomputed (modules/imgproc/src/imgwarp.cpp:
// interpolateLinear, interpolateCubic, initInterTab1D/2D, getRotationMatrix2D_, warpAffine). Compiled with
// -ffp-contract=off (CMakeLists.txt): each float and double operation rounds once, as in OpenCV's baseline
// x86-64 build.

#include "core/rotation_tables.hpp"

#include <gpurotate/error.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

namespace gpurotate::detail {
namespace {

constexpr double cv_pi = 3.1415926535897932384626433832795;  // CV_PI

void interpolate_linear(float x, float* coeffs) {
    coeffs[0] = 1.f - x;
    coeffs[1] = x;
}

// Keys' cubic with A = -0.75, evaluated in OpenCV's order; the last weight makes the sum 1.
void interpolate_cubic(float x, float* coeffs) {
    const float a = -0.75f;
    const float x1 = x + 1;
    const float rx = 1 - x;
    coeffs[0] = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a;
    coeffs[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
    coeffs[2] = ((a + 2) * rx - (a + 3)) * rx * rx + 1;
    coeffs[3] = 1.f - coeffs[0] - coeffs[1] - coeffs[2];
}

std::int16_t saturate_short(float v) {
    return static_cast<std::int16_t>(rotation_math::clamp_int(rotation_math::round_to_int(v), -32768, 32767));
}

// initInterTab2D for a kernel of `ksize` taps per axis: the outer products of the 1-D weights, and their
// int16 roundings with the sum brought to 2^15 by adjusting the largest (sum too small) or smallest (too big)
// of the four central weights.
void build_table(int ksize, float* tab, std::int16_t* itab) {
    std::vector<float> tab1d(static_cast<std::size_t>(ksize) * rotation_tab_size);
    const float scale = 1.f / rotation_tab_size;
    for (int i = 0; i < rotation_tab_size; ++i) {
        const float x = static_cast<float>(i) * scale;
        if (ksize == 2) {
            interpolate_linear(x, &tab1d[static_cast<std::size_t>(i) * 2]);
        } else {
            interpolate_cubic(x, &tab1d[static_cast<std::size_t>(i) * 4]);
        }
    }
    const int area = ksize * ksize;
    for (int i = 0; i < rotation_tab_size; ++i) {
        for (int j = 0; j < rotation_tab_size; ++j, tab += area, itab += area) {
            int isum = 0;
            for (int k1 = 0; k1 < ksize; ++k1) {
                const float vy = tab1d[static_cast<std::size_t>(i * ksize + k1)];
                for (int k2 = 0; k2 < ksize; ++k2) {
                    const float v = vy * tab1d[static_cast<std::size_t>(j * ksize + k2)];
                    tab[k1 * ksize + k2] = v;
                    itab[k1 * ksize + k2] = saturate_short(v * static_cast<float>(rotation_coef_scale));
                    isum += itab[k1 * ksize + k2];
                }
            }
            if (isum == rotation_coef_scale) continue;
            // OpenCV scans the 2x2 taps from (ksize/2, ksize/2): for the bilinear 2x2 kernel that runs past the
            // entry into the next one, which is still zero when this entry is built (the table is filled in
            // order, once). Only entry 0 of each table needs the correction (its one weight of 1.0 saturates
            // to 32767); it ends up adjusting tap (1, 1) for bilinear and (2, 2) for bicubic.
            const auto at = [&](int index) -> int { return index < area ? itab[index] : 0; };
            const int diff = isum - rotation_coef_scale;
            const int ksize2 = ksize / 2;
            int big1 = ksize2, big2 = ksize2, small1 = ksize2, small2 = ksize2;
            for (int k1 = ksize2; k1 < ksize2 + 2; ++k1) {
                for (int k2 = ksize2; k2 < ksize2 + 2; ++k2) {
                    if (at(k1 * ksize + k2) < at(small1 * ksize + small2)) {
                        small1 = k1, small2 = k2;
                    } else if (at(k1 * ksize + k2) > at(big1 * ksize + big2)) {
                        big1 = k1, big2 = k2;
                    }
                }
            }
            const int target = diff < 0 ? big1 * ksize + big2 : small1 * ksize + small2;
            if (target >= area) throw Error(ErrorCode::internal, "rotation weight table: correction outside its entry");
            itab[target] = static_cast<std::int16_t>(itab[target] - diff);
        }
    }
}

RotationTables build_tables() {
    RotationTables tables;
    build_table(2, tables.bilinear_float.data(), tables.bilinear_fixed.data());
    build_table(4, tables.bicubic_float.data(), tables.bicubic_fixed.data());
    return tables;
}

// getRotationMatrix2D's cosine and sine of -degrees (OpenCV's angle is counter-clockwise).
void rotation_cos_sin(double degrees, double& alpha, double& beta) {
    double angle = -degrees;
    angle *= cv_pi / 180;
    alpha = std::cos(angle);
    beta = std::sin(angle);
}

}  // namespace

const RotationTables& rotation_tables() {
    static const RotationTables tables = build_tables();
    return tables;
}

std::size_t rotation_weights_offset(Interpolation interpolation, SampleType sample) {
    const bool fixed = sample == SampleType::u8;
    switch (interpolation) {
        case Interpolation::nearest: return 0;
        case Interpolation::bilinear:
            return fixed ? offsetof(RotationTables, bilinear_fixed) : offsetof(RotationTables, bilinear_float);
        case Interpolation::bicubic:
            return fixed ? offsetof(RotationTables, bicubic_fixed) : offsetof(RotationTables, bicubic_float);
    }
    return 0;
}

std::size_t rotation_weights_bytes(Interpolation interpolation, SampleType sample) {
    const std::size_t weight = sample == SampleType::u8 ? sizeof(std::int16_t) : sizeof(float);
    return static_cast<std::size_t>(rotation_tab_entries) * static_cast<std::size_t>(rotation_taps(interpolation)) * weight;
}

Extent expanded_extent(Extent source, double degrees) {
    double alpha = 0, beta = 0;
    rotation_cos_sin(degrees, alpha, beta);
    const double w = static_cast<double>(source.width), h = static_cast<double>(source.height);
    const double ca = std::fabs(alpha), sb = std::fabs(beta);
    return {static_cast<std::int64_t>(std::ceil(w * ca + h * sb - 1e-6)), static_cast<std::int64_t>(std::ceil(w * sb + h * ca - 1e-6))};
}

RotationPlan make_rotation_plan(Extent source, Extent destination, SampleType sample, const RotateOptions& options) {
    RotationPlan plan;
    plan.src_width = static_cast<std::int32_t>(source.width);
    plan.src_height = static_cast<std::int32_t>(source.height);
    plan.dst_width = static_cast<std::int32_t>(destination.width);
    plan.dst_height = static_cast<std::int32_t>(destination.height);
    plan.interpolation = options.interpolation;
    plan.sample = sample;

    // getRotationMatrix2D(Point2f((W-1)/2, (H-1)/2), -degrees, 1): the centre is a float.
    double alpha = 0, beta = 0;
    rotation_cos_sin(options.degrees, alpha, beta);
    const double cx = static_cast<double>(static_cast<float>(source.width - 1) * 0.5f);
    const double cy = static_cast<double>(static_cast<float>(source.height - 1) * 0.5f);
    double m[6] = {alpha, beta, (1 - alpha) * cx - beta * cy, -beta, alpha, beta * cx + (1 - alpha) * cy};
    // The expanded canvas: the image's centre moves to the new canvas's centre.
    if (!options.keep_size) {
        m[2] += static_cast<double>(destination.width - source.width) / 2;
        m[5] += static_cast<double>(destination.height - source.height) / 2;
    }
    // warpAffine's inversion, operation for operation.
    double d = m[0] * m[4] - m[1] * m[3];
    d = d != 0 ? 1. / d : 0;
    const double a11 = m[4] * d, a22 = m[0] * d;
    m[0] = a11;
    m[1] *= -d;
    m[3] *= -d;
    m[4] = a22;
    const double b1 = -m[0] * m[2] - m[1] * m[5];
    const double b2 = -m[3] * m[2] - m[4] * m[5];
    m[2] = b1;
    m[5] = b2;
    for (int i = 0; i < 6; ++i) plan.inverse[i] = m[i];

    // cv::Scalar's saturate_cast to the sample type: rounded to nearest even and clamped for the integers.
    for (int k = 0; k < 4; ++k) {
        const double v = options.background[static_cast<std::size_t>(k)];
        plan.background_u8[k] = static_cast<std::uint8_t>(rotation_math::clamp_int(rotation_math::round_to_int(v), 0, 255));
        plan.background_u16[k] = static_cast<std::uint16_t>(rotation_math::clamp_int(rotation_math::round_to_int(v), 0, 65535));
        plan.background_f32[k] = static_cast<float>(v);
    }
    plan.weights = options.interpolation == Interpolation::nearest
                       ? nullptr
                       : reinterpret_cast<const std::byte*>(&rotation_tables()) + rotation_weights_offset(options.interpolation, sample);
    return plan;
}

}  // namespace gpurotate::detail
