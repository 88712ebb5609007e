#pragma once
// The CUDA backend's tuning policy, in one place: which kernel runs an element, its launch shape (blocks per
// SM), which batch shapes take a kernel of their own, and whether a multi-output call runs fused or as one
// launch per element, from (pixel bytes, element, batch shape, device). In the style of CUB's
// dispatch/tuning/tuning_<algo>.cuh: plain data and constexpr selectors, no CUDA, so that the launchers, the
// bench and the tests read the same answers. The launchers only check whether a choice applies (alignment,
// sizes) and launch it; the bench swaps in other shapes through its own header (src/bench/study_launch.hpp),
// never through the production seam. The measurements behind each rule are named beside it; the fused
// choice is a rule by pixel width, fit and size, checked at compile time against the table in measured_fused.hpp.

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

/// Whether a plan's blocks find their work by the search rather than by a work descriptor each: the 2-byte
/// transposes, the one family where the search was faster in both runs that measured the two (H100, 1024 mixed
/// images, rot90 through a plan: u16c1 0.365 against 0.369 ms and u8c2 0.365 against 0.370 on 2026-12-06; a
/// call running from its kept, searched tables against the plan on 2026-12-07, u16c1 0.361 against 0.366 and
/// u8c2 0.362 against 0.365). Elsewhere descriptors were as fast or up to 1% faster (bench/RESULTS.md).
constexpr bool grouped_plan_searches(int pixel_bytes, bool transposes) { return transposes && pixel_bytes == 2; }

// ------------------------------------------------------------------------------------------- multi-output

/// How a multi-output call (several elements of one source) runs.
enum class FusedKernel : std::uint8_t {
    vectorized,  ///< the vectorized fused kernel: one read, every target written (kernels/multi_output_vectorized.cuh)
    tiled,       ///< the shared-memory fused kernel, 32x33 tile (kernels/multi_output.cuh)
    separate,    ///< one automatic launch per element
};

/// Pixel widths that the shared-memory fused kernel moves as one aligned 8- or 16-byte word a thread: as wide as
/// the vectorized fused kernel's accesses, with a fraction of its registers, so the tile wins at every measured
/// size, on both devices (u16c4 and f32c4: 0.55-0.66 of seven launches against the vectorized 0.62-0.74).
constexpr bool fused_tile_word_is_wide(int pixel_bytes) { return pixel_bytes == 8 || pixel_bytes == 16; }

/// Below this many source bytes the shared-memory fused kernel is the fastest way whatever the width: the
/// launch is all there is (`--fused-sweep`, H100, 2026-12-06: 512x512 u8c1, u8c2, u16c1 and u8c3 0.009-0.010 ms
/// against the vectorized kernel's 0.010-0.017; from 1 MB on, 1024x1024 u8c1 and 512x512 u8c4, the vectorized
/// kernel's 0.008-0.011 against 0.009-0.020).
inline constexpr std::int64_t fused_tiny_most_bytes = 1'000'000;

/// 6-byte pixels, whose vectorized fused kernel holds seven bodies of 238 registers (multi_output_vectorized.cuh):
/// on landscape images under this many source bytes the shared-memory fused kernel is faster (1920x1080: 0.057
/// against 0.061 ms on the H100, 0.046 against 0.049 on the H200; 4000x3000: 0.343 against 0.361 on the H100, 0.259
/// against 0.290 on the H200), while on square and portrait ones the vectorized kernel is, at every size the sweep
/// measured (H100, 2026-12-06: 1000x1000 0.029 against 0.036 ms, 2048x2048 0.079 against 0.087, 3000x4000 0.266
/// against 0.315), as it is on large landscape ones (4096x4096 on the H200, issue 51: 0.674 of seven launches
/// against the tile's 0.754; 8192x8192 1.268 against 1.331 on the H100).
inline constexpr std::int64_t fused_vectorized_6byte_least_bytes = 85'000'000;
/// ... and on any 6-byte image under this many (512x512 u16c3: the tile's 0.011 ms against 0.017; 1000x1000, 6 MB,
/// the vectorized kernel's 0.029 against 0.036).
inline constexpr std::int64_t fused_6byte_tiled_most_bytes = 4'000'000;

/// Where the vectorized fused kernel's alignment rules refuse the targets, the most pixels for which the
/// shared-memory fused kernel beats seven launches, by pixel width; above, seven launches. The tile moves one
/// pixel word a thread, so its time grows as the pixels; seven launches read the source seven times near DRAM
/// speed after a floor of about 35 us. Measured (H100; `--fused-sweep` 2026-12-06 for the odd sizes):
/// - 1 and 2 bytes: 1920x1080 and 1921x1081 the tile's (0.035-0.036 against 0.043-0.056 ms), 2999x4001 the
///   launches' (u8c1 0.101 against 0.178, u16c1 0.162 against 0.170): 3.5 MP;
/// - 3 bytes: the tile's at 2999x4001 (12 MP: 0.216 against 0.245; the H200, 2026-12-07: 0.194 against 0.203), the
///   launches' from 4095x4097 (16.8 MP) on: the H200 took 0.259 ms with them against the tile's 0.270, the H100
///   0.317 against 0.310 (within 2.3%); 8191x8193 1.052 against 1.351: 14 MP;
/// - 4 bytes: the tile's up to 4095x4097 (0.346 against 0.352), 8191x8193 the launches' (1.335 against 1.446):
///   32 MP;
/// - 6 bytes: 1921x1081 the tile's, 2999x4001 the launches' (0.402 against 0.417), 4095x4097 (0.541 against
///   0.587): 6 MP;
/// - 12 bytes: the tile's up to 4095x4097 (H100 0.940 against 0.995; the H200 0.737 against 0.722, within 2.1%),
///   the launches' at 8191x8193 (H200 2.783 against the tile's 3.070; H100 3.873 against 3.846, within 0.7%): 32 MP;
/// - 8 and 16 bytes: the tile's at every size.
constexpr std::int64_t fused_tiled_most_pixels(int pixel_bytes) {
    switch (pixel_bytes) {
        case 1:
        case 2: return 3'500'000;
        case 3: return 14'000'000;
        case 4:
        case 12: return 32'000'000;
        case 6: return 6'000'000;
        default: return INT64_MAX;
    }
}

/// Source bytes up to which the vectorized fused kernel keeps its speed where the axis-swapping outputs' rows end
/// inside a sector (swapped_rows_end_in_sector): between the largest such image measured without a loss (4000x3000
/// u8c3, 36 MB: fastest by 15% on the H200, even with the tile on the H100) and the smallest with one (12000x9000
/// u8c2, 216 MB: 1.2x seven launches' time on the H100). The sweep's 6000x4500 and 8192x8200 on the H100 (2026-12-06)
/// put the loss lower: 6000x4500 u8c4 and f32c1 (108 MB) took 1.34x the tile's time with the vectorized kernel, and
/// 8192x8200 u8c2 (134 MB) 1.16x seven launches'; no such image between 36 and 108 MB is measured, so the edge
/// lies there, not yet placed.
inline constexpr std::int64_t fused_split_rows_vectorized_most_bytes = 100'000'000;

/// Whether the vectorized fused kernel loses its speed on large images whose axis-swapping outputs' rows end inside a
/// sector (fused_split_rows_vectorized_most_bytes): every width but 12 bytes. At 6000x4500 on the H200 (2026-12-07)
/// it took 1.39x the tile's time at 4 bytes (u8c4 0.522 against 0.375 ms; the H100 1.34x) and 1.19x at 6 (u16c3), but
/// f32c3's was the fastest way, 0.957 against the tile's 1.060 and seven launches' 1.143 (not measured on the H100).
constexpr bool vectorized_slows_on_split_rows(int pixel_bytes) { return pixel_bytes != 12; }

/// Whether the outputs that swap the axes have rows that end inside a 32-byte sector: `height` pixels of S bytes,
/// not a whole number of sectors (a 12000x9000 2-byte image's rotations have rows of 18000 bytes).
constexpr bool swapped_rows_end_in_sector(int pixel_bytes, std::int64_t height) { return height * pixel_bytes % 32 != 0; }

/// The way to make several elements of one width x height image of S-byte pixels, from what each way does: the
/// vectorized fused kernel reads once and writes every target with 16-byte accesses; the shared-memory fused
/// kernel reads once and writes through a padded tile, one pixel word a thread; seven launches read the source
/// seven times. So:
/// - 8- and 16-byte pixels, and images under fused_tiny_most_bytes: the tile;
/// - where the vectorized kernel fits: it, but for 6-byte images under fused_6byte_tiled_most_bytes and landscape
///   ones under fused_vectorized_6byte_least_bytes source bytes (the tile); at every measured 1-, 2-, 3-, 4- and 12-byte row
///   it is fastest or within 2.3% (4000x3000 u8c4 and f32c1 on the H100: 0.174-0.175 against the tile's 0.171 ms);
/// - where it fits but some output swaps the axes, its rows end inside a 32-byte sector
///   (swapped_rows_end_in_sector) and the image is over fused_split_rows_vectorized_most_bytes: as where it does
///   not fit, but for 12-byte pixels (vectorized_slows_on_split_rows). Measured at one size so far: 12000x9000 on
///   the H100, twice (2026-12-06), where seven launches took 0.82-0.89 of the vectorized kernel's time at 2 and
///   3 bytes (rows of 18000 and 27000 bytes) and 1.005 at 6 (54000), while at 4 and 12 bytes (36000 and 108000,
///   whole sectors) it stayed fastest or within 2%. Why is not known: a row's last sector written in part costs a
///   DRAM read, but one such sector a row is a tiny share of the bytes. The sweep's 6000x4500 and 8192x8200 (H100,
///   2026-12-06) kept the rule: every row within 2.7% of its fastest way, the 12 rows now in measured_fused.hpp;
/// - where it does not fit: the tile up to fused_tiled_most_pixels(S), seven launches above.
/// The rule does not depend on the device: under it every measured row of the H100 and the H200 (the H200's sweep
/// of 2026-12-07 among them, less one row that measured_fused.hpp leaves out, saying why) takes at most 3% more than its
/// fastest way (measured_fused.hpp, checked below). Until 2026-12-06 the choice snapped to the nearest measured
/// size, and at 4096x4096, between 4000x3000 and 8192x8192, took seven launches for 2-byte pixels where the
/// vectorized kernel took 0.65 of their time.
/// `swapped_rows_in_sector`: some output swaps the axes and swapped_rows_end_in_sector holds.
constexpr FusedKernel select_fused(int pixel_bytes, std::int64_t width, std::int64_t height, bool vectorized_fits, bool swapped_rows_in_sector) {
    const std::int64_t pixels = width * height, bytes = pixels * pixel_bytes;
    if (fused_tile_word_is_wide(pixel_bytes) || bytes < fused_tiny_most_bytes) return FusedKernel::tiled;
    if (vectorized_fits) {
        const bool tiled_6byte =
            pixel_bytes == 6 && (bytes < fused_6byte_tiled_most_bytes || (width > height && bytes < fused_vectorized_6byte_least_bytes));
        if (tiled_6byte) return FusedKernel::tiled;
        const bool split_rows_slow =
            swapped_rows_in_sector && bytes > fused_split_rows_vectorized_most_bytes && vectorized_slows_on_split_rows(pixel_bytes);
        if (!split_rows_slow) return FusedKernel::vectorized;
    }
    return pixels <= fused_tiled_most_pixels(pixel_bytes) ? FusedKernel::tiled : FusedKernel::separate;
}

/// select_fused for targets of which some swap the axes (`some_target_swaps`) or none: the one place where the
/// launcher and the bench's sweep turn the targets into the rule's trait.
constexpr FusedKernel select_fused_for_targets(int pixel_bytes, std::int64_t width, std::int64_t height, bool vectorized_fits,
                                               bool some_target_swaps) {
    return select_fused(pixel_bytes, width, height, vectorized_fits, some_target_swaps && swapped_rows_end_in_sector(pixel_bytes, height));
}

/// How far a way may be from its row's fastest and still count as right: the run-to-run spread of these medians.
inline constexpr double fused_choice_tolerance = 1.03;

namespace fused_detail {

constexpr double ms_of(const FusedMeasurement& m, FusedKernel k) {
    return k == FusedKernel::vectorized ? m.vectorized_ms : k == FusedKernel::tiled ? m.tiled_ms : m.separate_ms;
}

/// Whether the way select_fused picks for measured row `m`, with the vectorized kernel fitting or not, takes at
/// most fused_choice_tolerance times the fastest way of that row that could run (the vectorized one only where it
/// fits; a row where it was not measured is checked only as not fitting).
constexpr bool choice_within_tolerance(const FusedMeasurement& m, bool fits) {
    const double chosen = ms_of(m, select_fused(m.pixel_bytes, m.width, m.height, fits, swapped_rows_end_in_sector(m.pixel_bytes, m.height)));
    for (int k = 0; k < 3; ++k) {
        const auto way = static_cast<FusedKernel>(k);
        const double other = ms_of(m, way);
        if (way == FusedKernel::vectorized && !fits) continue;
        if (other > 0 && chosen > other * fused_choice_tolerance) return false;
    }
    return chosen > 0;
}

}  // namespace fused_detail

/// Whether, for every measured row, select_fused picks a way within fused_choice_tolerance of that row's fastest:
/// as measured (the vectorized kernel where it was measured), and for the 1-byte rows, which also stand for the
/// sizes where it does not fit, without it. Checked at compile time below.
constexpr bool fused_choice_within_tolerance() {
    for (const FusedMeasurement& m : fused_measurements) {
        if (!fused_detail::choice_within_tolerance(m, m.vectorized_ms > 0)) return false;
        if (m.pixel_bytes == 1 && !fused_detail::choice_within_tolerance(m, false)) return false;
    }
    return true;
}
static_assert(fused_choice_within_tolerance(),
              "select_fused picks a way more than 3% slower than another measured way in a row of measured_fused.hpp");

}  // namespace gpurotate::detail::tuning
