#pragma once
// The CUDA backend's tuning policy, in one place: which kernel runs an element, its launch shape (blocks per
// SM), which batch shapes take a kernel of their own, and whether a multi-output call runs fused or as one
// launch per element, from (pixel bytes, element, batch shape, device). In the style of CUB's
// dispatch/tuning/tuning_<algo>.cuh: plain data and constexpr selectors, no CUDA, so that the launchers, the
// bench and the tests read the same answers. The launchers only check whether a choice applies (alignment,
// sizes) and launch it; the bench swaps in other shapes through its own header (src/bench/study_launch.hpp),
// never through the production seam. The measurements behind each rule are named beside it; the fused
// choice is computed from the table in measured_fused.hpp.

#include "tuning/measured_fused.hpp"

#include <cstddef>
#include <cstdint>

namespace gpurotate::detail::tuning {

/// The class of a device with `dram_bytes_per_sm` bytes/s of DRAM bandwidth per SM at peak: above 30 GB/s an SM
/// (the H200: 36) keeping memory busy takes more bytes in flight an SM than on the H100 (25), so fewer blocks in
/// flight starve it.
constexpr DeviceClass device_class_of(double dram_bytes_per_sm) { return dram_bytes_per_sm > 30e9 ? DeviceClass::h200 : DeviceClass::h100; }

// ------------------------------------------------------------------------------------------- one element

/// The kernel family that runs one element of a single image (or a batch, per image).
enum class ElementKernel : std::uint8_t {
    vectorized,        ///< the vectorized transpose or mirror (kernels/vectorized.cuh)
    tile16_skiplines,  ///< the 16x16 skip-lines tile and its mirror, one pixel a thread
};

/// How one element runs: the kernel and, for the vectorized kernels, at most how many blocks an SM runs at once.
struct ElementPolicy {
    ElementKernel kernel;
    int blocks_per_sm;  ///< 0: as many as fit
};

/// Blocks of the vectorized transpose an SM runs at once, by pixel width (0: as many as fit). On an H100 fewer
/// warps in flight serve DRAM better for some widths; a cap is kept only where the `vectorized-N-per-sm` study
/// rows found it at least as good on 8192x8192 and on batches of 1080x1920 and 800x600 alike (H100,
/// bench/RESULTS.md, 2026-11-22/23): 3 for 2-byte pixels (+1.6 to +2.7 points of copy on the batches), 2 for 3-, 6-
/// and 12-byte (+0.8 to +5.2; +2.6 for 6-byte at 8192x8192). The caps that helped 4- and 8-byte pixels at
/// 8192x8192 (+2 to +3) cost 9 to 12 points on a batch of 1080x1920. Measured again on 2026-11-25, the caps still
/// win 0-3 points at 1920x1080 and 8192x8192 and 5 for 3-byte transposes of batches of 224x224. On an H200
/// (2026-11-25), capped against uncapped: 2-, 6- and 12-byte transposes 72-89% against 79-98% of copy on a batch of
/// 768 planes of 224x224, u16c3 86.5 against 91.8% at 8192x8192; only the 3-byte transposes still gain (224x224:
/// 68.8 against 65.6%).
constexpr int transpose_blocks_per_sm(int pixel_bytes, DeviceClass device) {
    if (device == DeviceClass::h200) return pixel_bytes == 3 ? 2 : 0;
    switch (pixel_bytes) {
        case 2: return 3;
        case 3: case 6: case 12: return 2;
        default: return 0;
    }
}

/// Blocks of the vectorized mirror an SM runs at once (0: as many as fit). H100: 3 for 3-, 6- and 12-byte
/// pixels, back at 98% of copy where uncapped lost 1.5-5 points (2026-11-22); 8-byte pixels gained a point at 5 on
/// 8192x8192 but lost 9 on a batch of 1080x1920 (2026-11-23); 4-byte pixels found no cap that helps. H200: the
/// 3-, 6- and 12-byte mirrors 78-90% capped against 92-96% uncapped on 224x224 batches, 90-91% against 96% for
/// flip-v at 8192x8192 (2026-11-25): uncapped.
constexpr int mirror_blocks_per_sm(int pixel_bytes, DeviceClass device) {
    if (device == DeviceClass::h200) return 0;
    switch (pixel_bytes) {
        case 3: case 6: case 12: return 3;
        default: return 0;
    }
}

/// The kernel and launch shape of one element (`swaps_axes`: rot90, rot270, transpose, transverse) on S-byte
/// pixels. The vectorized kernels win for every width but 16 bytes, where a pixel already is one 16-byte access
/// and the skip-lines tile, one pixel a thread, is faster: H200 8192x8192 f32c4 (2026-11-28,
/// bench/results/2026-11-28-h200-single-8192.txt) rot90 94.5% of copy against the vectorized 92.3% (tile32 89.4),
/// flip-h 99.5 against 96.0 (the plain mirror 98.8); H100 flip-h 100.1-100.3% against the plain mirror's 99.0-99.1
/// (2026-11-23). At every other width the vectorized kernels lead by 1 to 80 points (the same H200 file).
constexpr ElementPolicy select_element(int pixel_bytes, bool swaps_axes, DeviceClass device) {
    if (pixel_bytes == 16) return {ElementKernel::tile16_skiplines, 0};
    return {ElementKernel::vectorized, swaps_axes ? transpose_blocks_per_sm(pixel_bytes, device) : mirror_blocks_per_sm(pixel_bytes, device)};
}

// ------------------------------------------------------------------------------------------- batches

/// A batch of images of one size, as the launchers see it.
struct BatchShape {
    int count = 1;
    bool back_to_back = false;    ///< each image starts right after the previous one, on both sides
    std::size_t plane_bytes = 0;  ///< one source image's row bytes times its height
};

/// The route a batch takes, where the launcher finds that it applies; otherwise per image (select_element).
enum class BatchRoute : std::uint8_t {
    per_image,       ///< one launch, blockIdx.z picks the image
    mirror_rows,     ///< an axis-keeping element, one output vector a thread across the batch (kernels/mirror_rows.cuh)
    stacked_planes,  ///< a transposing element on the batch as one stack of planes (kernels/stacked_planes.cuh)
};

/// Pixel widths whose axis-keeping elements take mirror_rows on a batch: 1 and 2 bytes. On an H200
/// (bench/RESULTS.md, 2026-11-25) it took the mirrors of 768 planes of 224x224 u8 from 84-85% of the copy to
/// 94-96%, u16 from 87-89% to 91-95%, and 1920x1080 u8 flip-v and rot180 from 90% to 95-96%; for 4-byte pixels and
/// wider the vectorized mirror's tiles were as fast or faster (u8c4 and f32c1 flip-h 97% against 93%).
constexpr bool mirror_rows_width(int pixel_bytes) { return pixel_bytes <= 2; }

/// Pixel widths whose transposes run as a stack of planes: 1 byte. On an H200 (bench/RESULTS.md, 2026-11-26) the
/// stack took 768 planes of 224x224 u8 from 80-81% of the copy to 88%, but u16 and f32 planes lost 1-2 points
/// there, and 16 planes of 1920x1080 u16 18 (70% against 88%).
constexpr bool stacked_planes_width(int pixel_bytes) { return pixel_bytes == 1; }

/// The largest plane that runs in a stack: small planes, where the per-image tiles' overhang is a large share of
/// their lanes (23% at 224x224); larger ones were not measured in a stack.
inline constexpr std::size_t most_stacked_plane_bytes = 256 * 1024;

/// Lanes across a source row in the stacked transposes: 4 (64 source bytes). On an H200, 768 planes of 224x224
/// (2026-11-26), % of the copy with 2, 4 and 8 lanes: u8 85.5, 87.5 and 86.3 (the per-image tiles 81).
inline constexpr int stacked_lanes_x = 4;

/// The route of a batch of `batch.count` images of S-byte pixels under an element that swaps the axes or not.
constexpr BatchRoute select_batch_route(int pixel_bytes, bool swaps_axes, const BatchShape& batch) {
    if (batch.count < 2 || !batch.back_to_back) return BatchRoute::per_image;
    if (!swaps_axes) return mirror_rows_width(pixel_bytes) ? BatchRoute::mirror_rows : BatchRoute::per_image;
    return stacked_planes_width(pixel_bytes) && batch.plane_bytes <= most_stacked_plane_bytes ? BatchRoute::stacked_planes : BatchRoute::per_image;
}

/// Tiles of one image a block of the grouped kernel runs one after another (a work item): the image's search and
/// arguments are loaded once for them all, which pays only where a tile is small. The `grouped-N-tiles` study rows
/// (H200, 1024 mixed images, bench/RESULTS.md, 2026-11-27): the 16-byte transposes, whose output tile is 32 pixels
/// by 8 rows (4 KiB), 70.5% of copy at 1, 80.2 at 2, 81.7 at 4; the 8-byte ones (64 by 16) 82.0 at 1, 86.1 at 2,
/// 81.2 at 4; every other width and every mirror best at 1 (u8c1 rot90 70.4 at 1, 65.9 at 2; f32c4 flip-h 91.4 at
/// 1, 89.4 at 2).
constexpr int grouped_tiles_per_item(int pixel_bytes, bool transposes) {
    return !transposes ? 1 : pixel_bytes == 16 ? 4 : pixel_bytes == 8 ? 2 : 1;
}

// ------------------------------------------------------------------------------------------- multi-output

/// How a multi-output call (several elements of one source) runs.
enum class FusedKernel : std::uint8_t {
    vectorized,  ///< the vectorized fused kernel: one read, every target written (kernels/multi_output_vectorized.cuh)
    tiled,       ///< the shared-memory fused kernel, 32x33 tile (kernels/multi_output.cuh)
    separate,    ///< one automatic launch per element
};

namespace fused_detail {

constexpr double pixels_of(const FusedMeasurement& m) { return static_cast<double>(m.width) * static_cast<double>(m.height); }

/// How far apart two pixel counts are: the larger over the smaller (a distance on a log scale).
constexpr double apart(double a, double b) { return a > b ? a / b : b / a; }

constexpr double ms_of(const FusedMeasurement& m, FusedKernel k) {
    return k == FusedKernel::vectorized ? m.vectorized_ms : k == FusedKernel::tiled ? m.tiled_ms : m.separate_ms;
}

/// The measured size of `device` and `pixel_bytes` nearest `pixels` (with `with_vectorized`, among the sizes where
/// the vectorized fused kernel was measured); 0 where none was measured.
constexpr double nearest_measured(DeviceClass device, int pixel_bytes, double pixels, bool with_vectorized) {
    double best = 0;
    for (const FusedMeasurement& m : fused_measurements) {
        if (m.device != device || m.pixel_bytes != pixel_bytes || (with_vectorized && m.vectorized_ms <= 0)) continue;
        if (best == 0 || apart(pixels_of(m), pixels) < apart(best, pixels)) best = pixels_of(m);
    }
    return best;
}

}  // namespace fused_detail

/// The fastest measured way to make several elements of one image of `pixels` S-byte pixels on `device`: among
/// the rows of measured_fused.hpp for that device and pixel width at the measured size nearest `pixels` (on a log
/// scale: 8192x8192 above 28 MP, 4000x3000 above 5 MP, 1920x1080 below), the one whose summed time is least
/// (types of one width, u8c4 and f32c1, add up); ties go to fewer launches. Where the vectorized fused kernel's
/// alignment rules refuse the targets (`vectorized_fits` false) it is left out; where they allow it, only sizes at
/// which it was measured count (the 1-byte rows at 4000x3000 and 1920x1080 could not run it). A width never
/// measured on `device` reads the other device's rows.
constexpr FusedKernel select_fused(DeviceClass device, int pixel_bytes, std::int64_t pixels, bool vectorized_fits) {
    using namespace fused_detail;
    const double p = static_cast<double>(pixels);
    if (nearest_measured(device, pixel_bytes, p, vectorized_fits) == 0) device = device == DeviceClass::h100 ? DeviceClass::h200 : DeviceClass::h100;
    const double size = nearest_measured(device, pixel_bytes, p, vectorized_fits);
    if (size == 0) return vectorized_fits ? FusedKernel::vectorized : FusedKernel::tiled;  // a width no table holds
    double total[3] = {0, 0, 0};
    bool measured[3] = {true, true, true};
    for (const FusedMeasurement& m : fused_measurements) {
        if (m.device != device || m.pixel_bytes != pixel_bytes || pixels_of(m) != size) continue;
        for (int k = 0; k < 3; ++k) {
            const double ms = ms_of(m, static_cast<FusedKernel>(k));
            measured[k] = measured[k] && ms > 0;
            total[k] += ms;
        }
    }
    measured[0] = measured[0] && vectorized_fits;
    int best = -1;
    for (int k = 0; k < 3; ++k) {
        if (measured[k] && (best < 0 || total[k] < total[best])) best = k;
    }
    return best < 0 ? FusedKernel::separate : static_cast<FusedKernel>(best);
}

/// Whether, for every measured row, select_fused picks a way at least as fast as every other way measured in
/// that row (the vectorized one counted where it was measured, i.e. where it fits). Checked at compile time below.
constexpr bool fused_choice_never_slower() {
    for (const FusedMeasurement& m : fused_measurements) {
        const bool fits = m.vectorized_ms > 0;
        const double chosen = fused_detail::ms_of(m, select_fused(m.device, m.pixel_bytes, static_cast<std::int64_t>(m.width) * m.height, fits));
        for (int k = 0; k < 3; ++k) {
            const double other = fused_detail::ms_of(m, static_cast<FusedKernel>(k));
            if (other > 0 && other < chosen) return false;
        }
    }
    return true;
}
static_assert(fused_choice_never_slower(), "a fused choice is slower than another measured way in its row of measured_fused.hpp");

}  // namespace gpurotate::detail::tuning
