#pragma once
// The CPU backend's kernels, included by one unit per instruction set (transform_cpu_baseline.cpp,
// transform_cpu_avx2.cpp): the same source compiled with different target flags, one of which
// transform_cpu.cpp picks at run time. Everything here is in an unnamed namespace so that each unit keeps
// its own copy: a shared inline function would let the linker hand the AVX2 instructions to the baseline.

#include "core/parallel_for.hpp"
#include "core/pixel_word.hpp"
#include "cpu/register_block.hpp"
#include "cpu/transform_cpu.hpp"

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

namespace gpurotate::detail {
namespace {

/// How a transposing element walks the output. A tile is `source_rows` output columns by the output rows
/// whose sources are `source_row_bytes` of each of those source rows (three times that for 3-, 6- and 12-byte
/// pixels, below): each source line is read into L1/L2 once and used by every output row of the tile. Tiles
/// go down a column of tiles before the next column, so that consecutive tiles read on along the same source
/// rows: every source row sits in its own 4 KiB page (a 6000-pixel row is wider than a page), and a column's
/// `source_rows` pages stay in the second-level TLB (1536 to 3072 entries on x86 cores of the last years),
/// where walking tile rows across the whole output touched every source row's page once per 64 bytes. A
/// tile also writes `source_rows` pixels of each of its output rows, so wider tiles touch the output's pages
/// less often; 768 measured best on a 2-core Zen 4 VM (bench/RESULTS.md, issue 23), 256 and 1024 slower.
struct TransposeTilePolicy {
    std::int64_t source_rows;
    std::size_t source_row_bytes;
};
inline constexpr TransposeTilePolicy transpose_tiles{768, 64};

// Pixels of 3, 6 and 12 bytes take three lines' worth of each source row (64, 32 and 16 pixels), so that a
// tile ends where a line does: with one line's worth (21, 10, 5 pixels) the line a tile boundary cuts would
// be fetched twice, once for each tile.
template <std::size_t Bytes>
constexpr std::int64_t output_rows_per_tile() {
    constexpr std::size_t odd_factor = Bytes / natural_alignment(Bytes);
    return static_cast<std::int64_t>(transpose_tiles.source_row_bytes * odd_factor / Bytes);
}

// Both images, as raw bytes: the kernels below compute their own addresses.
struct Frame {
    const std::byte* src;
    std::size_t src_pitch;
    Extent source;
    std::byte* dst;
    std::size_t dst_pitch;
    Extent output;
};

// Words are moved with memcpy: the pixel bytes may live in any buffer, and memcpy of a fixed small size
// compiles to plain loads and stores without breaking aliasing rules.
template <std::size_t Bytes>
inline void copy_pixel(std::byte* dst, const std::byte* src) {
    std::memcpy(dst, src, Bytes);
}

/// The one move a pixel of `bytes` fits in: 8 bytes for a 6-byte pixel, 16 for a 12-byte one (each takes two
/// moves of its own width); every other width is its own.
constexpr std::size_t wide_copy_bytes(std::size_t bytes) { return bytes == 6 ? 8 : bytes == 12 ? 16 : bytes; }

// ---------------------------------------------------------------- elements that keep rows as rows

template <std::size_t Bytes>
void reverse_row(std::byte* out, const std::byte* in, std::int64_t width) {
    std::int64_t x = 0;
    if constexpr (Bytes == 1 && !simd::reverses_in_vectors(1)) {
        // Without a byte shuffle, eight 1-byte pixels still reverse in one 64-bit byte swap.
        for (; x + 8 <= width; x += 8) {
            std::uint64_t eight;
            std::memcpy(&eight, in + (width - x - 8), 8);
            eight = __builtin_bswap64(eight);
            std::memcpy(out + x, &eight, 8);
        }
    }
    if constexpr (simd::reverses_in_three_vectors(Bytes)) {
        using V = simd::LaneVector<Bytes / 3>;
        constexpr auto vector = static_cast<std::int64_t>(simd::vector_bytes);
        constexpr std::int64_t k = 3 * vector / static_cast<std::int64_t>(Bytes);  // pixels in three vectors
        for (; x + k <= width; x += k) {
            const std::byte* from = in + (width - x - k) * Bytes;
            const std::array<V, 3> reversed = simd::reverse_pixels_of_three<V>({simd::load<V>(from), simd::load<V>(from + vector), simd::load<V>(from + 2 * vector)});
            for (std::int64_t i = 0; i < 3; ++i) simd::store(out + x * Bytes + i * vector, reversed[static_cast<std::size_t>(i)]);
        }
    } else if constexpr (simd::reverses_in_vectors(Bytes)) {
        constexpr std::int64_t k = simd::lanes<Bytes>;
        // Indices, not a pointer walked backwards: one step past the row's first pixel would point before
        // the buffer (undefined; clang's UBSan reports it).
        for (; x + k <= width; x += k) simd::store(out + x * Bytes, simd::reverse_lanes<Bytes>(simd::load<simd::LaneVector<Bytes>>(in + (width - x - k) * Bytes)));
    }
    for (; x < width; ++x) copy_pixel<Bytes>(out + x * Bytes, in + (width - 1 - x) * Bytes);
}

// ------------------------------------------------ the same, streaming (outputs past the caches)
// A streaming store must fill a whole aligned vector: pixels of a vector lane reverse one vector at a time, 3-, 6-
// and 12-byte pixels three vectors at a time, 16-byte pixels one each.

/// Pixels one streamed reversal moves (0: this width streams no reversal on this target: plain stores then).
constexpr std::int64_t pixels_per_streamed_reversal(std::size_t bytes) {
    if (!simd::has_streaming_store) return 0;
    if (bytes == simd::vector_bytes) return 1;
    if (simd::reverses_in_three_vectors(bytes)) return static_cast<std::int64_t>(3 * simd::vector_bytes / bytes);
    if (simd::reverses_in_vectors(bytes)) return static_cast<std::int64_t>(simd::vector_bytes / bytes);
    return 0;
}

// The pixels_per_streamed_reversal pixels at `from`, reversed, streamed to `to` (16-byte aligned).
template <std::size_t Bytes>
inline void stream_reversed(std::byte* to, const std::byte* from) {
    constexpr std::size_t vector = simd::vector_bytes;
    if constexpr (Bytes == vector) {
        simd::stream(to, simd::load<simd::U8x16>(from));
    } else if constexpr (pixels_per_streamed_reversal(Bytes) * Bytes == 3 * vector) {
        using V = simd::LaneVector<Bytes / 3>;
        const std::array<V, 3> reversed = simd::reverse_pixels_of_three<V>({simd::load<V>(from), simd::load<V>(from + vector), simd::load<V>(from + 2 * vector)});
        for (std::size_t i = 0; i < 3; ++i) simd::stream(to + i * vector, reversed[i]);
    } else {
        simd::stream(to, simd::reverse_lanes<Bytes>(simd::load<simd::LaneVector<Bytes>>(from)));
    }
}

// A row reversed with streaming stores, its source read forwards (the output written from its end), so that
// with the rows walked as mirror_rows walks them every read of the image ascends through memory, as the
// cores' prefetchers follow best. On the 2-core VM, 6000x4000: flip-v of u8c3 took 2.7-3.4 ms with the source's
// rows taken in ascending address order against 3.8-5.3 in descending order; flip-h of u8c1 1.14 ms with each
// row read forwards against 1.84 read backwards, both streaming (bench/RESULTS.md, 2026-11-25).
template <std::size_t Bytes>
void reverse_row_streaming(std::byte* out, const std::byte* in, std::int64_t width) {
    constexpr std::int64_t k = pixels_per_streamed_reversal(Bytes);
    // The output's last aligned vector boundary: pixels past it go one by one, as do all where none is near (a
    // pixel of even width at an odd address is never aligned).
    std::int64_t x_end = width;
    while (x_end > width - 16 && x_end > 0 && reinterpret_cast<std::uintptr_t>(out + x_end * Bytes) % simd::vector_bytes != 0) --x_end;
    if (reinterpret_cast<std::uintptr_t>(out + x_end * Bytes) % simd::vector_bytes != 0) x_end = 0;
    for (std::int64_t x = width - 1; x >= x_end; --x) copy_pixel<Bytes>(out + x * Bytes, in + (width - 1 - x) * Bytes);
    for (; x_end >= k; x_end -= k) stream_reversed<Bytes>(out + (x_end - k) * Bytes, in + (width - x_end) * Bytes);
    for (std::int64_t x = x_end - 1; x >= 0; --x) copy_pixel<Bytes>(out + x * Bytes, in + (width - 1 - x) * Bytes);
}

// A row copied as it is (flip-v), streaming: vectors read anywhere, stored aligned, four at a time.
inline void stream_row(std::byte* out, const std::byte* in, std::size_t bytes) {
    constexpr std::size_t vector = simd::vector_bytes;
    const std::size_t head = std::min(bytes, (vector - reinterpret_cast<std::uintptr_t>(out) % vector) % vector);
    std::memcpy(out, in, head);
    std::size_t i = head;
    for (; i + 4 * vector <= bytes; i += 4 * vector) {
        const std::array<simd::U8x16, 4> v{simd::load<simd::U8x16>(in + i), simd::load<simd::U8x16>(in + i + vector),
                                           simd::load<simd::U8x16>(in + i + 2 * vector), simd::load<simd::U8x16>(in + i + 3 * vector)};
        for (std::size_t j = 0; j < 4; ++j) simd::stream(out + i + j * vector, v[j]);
    }
    for (; i + vector <= bytes; i += vector) simd::stream(out + i, simd::load<simd::U8x16>(in + i));
    std::memcpy(out + i, in + i, bytes - i);
}

// `How` is CpuStores::cached or CpuStores::streaming (transform_cpu_kernels decides by_size).
template <std::size_t Bytes, CpuStores How>
void mirror_rows(const Frame& f, AxisMap map, std::int64_t y_begin, std::int64_t y_end) {
    constexpr bool streaming = How == CpuStores::streaming && simd::has_streaming_store;
    const std::size_t row_bytes = static_cast<std::size_t>(f.output.width) * Bytes;
    // Plain stores walk the output downwards (their lines are read before they are written, so the writes lead);
    // streaming ones walk the source upwards (reads are the only ones that wait), so a mirrored y goes up the output.
    // Not where a reversed row falls back to reverse_row, which reads backwards: its rows must go down the source
    // (rot180 of u8c1 on the SSE2 unit, 6000x4000: 2.5 ms walking up against 1.4 down).
    constexpr bool reversals_stream = pixels_per_streamed_reversal(Bytes) > 0;
    const bool up_the_output = streaming && map.mirror_y && (!map.mirror_x || reversals_stream);
    for (std::int64_t i = y_begin; i < y_end; ++i) {
        const std::int64_t y = up_the_output ? y_end - 1 - (i - y_begin) : i;
        const std::byte* source_row = f.src + static_cast<std::size_t>(map.mirror_y ? f.source.height - 1 - y : y) * f.src_pitch;
        std::byte* out = f.dst + static_cast<std::size_t>(y) * f.dst_pitch;
        if (map.mirror_x) {
            if constexpr (streaming && reversals_stream) {
                reverse_row_streaming<Bytes>(out, source_row, f.output.width);
            } else {
                reverse_row<Bytes>(out, source_row, f.output.width);
            }
        } else if (streaming) {
            stream_row(out, source_row, row_bytes);
        } else {
            std::memcpy(out, source_row, row_bytes);
        }
    }
    if (streaming) simd::stream_fence();
}

// ---------------------------------------------------------------- elements that swap the axes
// Output (x, y) reads source (sx, sy) = (MirrorX ? W-1-y : y, MirrorY ? H-1-x : x): along an output row the
// source column is fixed and the source row steps by one, so each output row is a column of the source.

template <std::size_t Bytes, bool MirrorX, bool MirrorY>
struct TransposeWalk {
    const Frame& f;

    std::int64_t source_column(std::int64_t y) const { return MirrorX ? f.source.width - 1 - y : y; }
    std::int64_t source_row(std::int64_t x) const { return MirrorY ? f.source.height - 1 - x : x; }
    std::ptrdiff_t source_row_step() const {
        return MirrorY ? -static_cast<std::ptrdiff_t>(f.src_pitch) : static_cast<std::ptrdiff_t>(f.src_pitch);
    }
    const std::byte* source_pixel(std::int64_t sx, std::int64_t sy) const {
        return f.src + static_cast<std::size_t>(sy) * f.src_pitch + static_cast<std::size_t>(sx) * Bytes;
    }
    std::byte* output_pixel(std::int64_t x, std::int64_t y) const {
        return f.dst + static_cast<std::size_t>(y) * f.dst_pitch + static_cast<std::size_t>(x) * Bytes;
    }

    // Calls body(y, y_stop) for the runs of `step` output rows (the last one shorter where they do not divide)
    // that cover [y_begin, y_end), in the order their source columns ascend: from the last run with MirrorX,
    // whose output row y is source column W - 1 - y. The cores' next-line prefetchers fetch the line after the
    // one a run misses, which is the next run's only when the walk goes forward along the source rows (rot270
    // and transverse of u8c1 ran at 60% of rot90's speed walking backwards).
    template <class Body>
    static void in_source_column_order(std::int64_t y_begin, std::int64_t y_end, std::int64_t step, Body body) {
        const std::int64_t runs = (y_end - y_begin + step - 1) / step;
        for (std::int64_t r = 0; r < runs; ++r) {
            const std::int64_t y = y_begin + (MirrorX ? runs - 1 - r : r) * step;
            body(y, std::min(y + step, y_end));
        }
    }

    // One pixel at a time: the widths that are not a vector lane, and the edges of a tile that do not fill a block.
    void pixels(std::int64_t x_begin, std::int64_t x_end, std::int64_t y_begin, std::int64_t y_end) const {
        const std::ptrdiff_t step = source_row_step();
        in_source_column_order(y_begin, y_end, 1, [&](std::int64_t y, std::int64_t) {
            const std::byte* first = source_pixel(source_column(y), source_row(x_begin));
            std::byte* o = output_pixel(x_begin, y);
            // Offsets from the first pixel, not a pointer stepped after the last one: with MirrorY that step
            // would point above the image's first row, outside the buffer (as reverse_row's once did).
            for (std::int64_t x = x_begin; x < x_end; ++x, o += Bytes) copy_pixel<Bytes>(o, first + (x - x_begin) * step);
        });
    }

    // The walk the block kernels share: runs of K output rows (K source columns) in the order their source columns
    // ascend. A run short of K, or whose vectors (Vector bytes) would reach past its source rows' end (the last
    // columns), goes to `edges(x_begin, x_end, y, y_stop)` whole. Otherwise `along_x(s, o, column_step, x_blocks_end)`
    // moves K x K blocks from x_begin (s: its first source row's pixel, o: its first output row's pixel, the output
    // rows column_step apart) while a block ends by x_blocks_end, which keeps its stores' vectors inside the output
    // row, and returns where it stopped; `edges` takes the rest of the run. The addresses are locals, computed once:
    // a store through a std::byte pointer may alias the frame, so addresses computed from it were reloaded after
    // every store.
    template <std::int64_t K, std::int64_t Vector, class AlongX, class Edges>
    void walk_blocks(std::int64_t x_begin, std::int64_t x_end, std::int64_t y_begin, std::int64_t y_end, AlongX along_x, Edges edges) const {
        constexpr auto pixel = static_cast<std::int64_t>(Bytes);
        const std::int64_t x_blocks_end =
            std::max(x_begin, std::min(x_begin + (x_end - x_begin) / K * K, (f.output.width * pixel - Vector) / pixel + 1));
        const std::ptrdiff_t column_step = MirrorX ? -static_cast<std::ptrdiff_t>(f.dst_pitch) : static_cast<std::ptrdiff_t>(f.dst_pitch);
        in_source_column_order(y_begin, y_end, K, [&](std::int64_t y, std::int64_t y_stop) {
            const std::int64_t first_column = MirrorX ? f.source.width - y - K : y;
            if (y_stop - y < K || first_column * pixel + Vector > f.source.width * pixel) {
                edges(x_begin, x_end, y, y_stop);
                return;
            }
            const std::int64_t x = along_x(source_pixel(first_column, source_row(x_begin)), output_pixel(x_begin, MirrorX ? y + K - 1 : y),
                                           column_step, x_blocks_end);
            edges(x, x_end, y, y_stop);
        });
    }

    // Square blocks of k pixels a side, turned in registers: a block's source rows are loaded as one vector
    // each, and each column becomes one vector store into an output row. A mirrored source column order only
    // changes which output row receives which column. For 3-byte pixels the vectors reach 4 bytes past
    // the block on both sides: a load must stay inside its source row, and a store's spare bytes land on pixels
    // to its right that this thread writes next (so never past the output row's end). What no block covers goes
    // pixel by pixel.
    void blocks(std::int64_t x_begin, std::int64_t x_end, std::int64_t y_begin, std::int64_t y_end) const {
        constexpr std::size_t lane = simd::lane_bytes(Bytes);
        constexpr std::int64_t k = simd::lanes<lane>;
        constexpr auto pixel = static_cast<std::int64_t>(Bytes);
        const std::ptrdiff_t step = source_row_step();
        const auto along_x = [&](const std::byte* s, std::byte* o, std::ptrdiff_t column_step, std::int64_t x_blocks_end) {
            std::int64_t x = x_begin;
            if constexpr (simd::has_vector_pairs && Bytes == 3 && simd::transposes_in_pairs(Bytes)) {
                // Four blocks, two pairs, so that each output row takes 16 whole pixels (48 bytes) in two stores.
                for (; x + 4 * k <= x_blocks_end; x += 4 * k, s += 4 * k * step, o += 4 * k * pixel) {
                    std::array<simd::VectorPair<lane>, k> low, high;
                    for (std::int64_t i = 0; i < k; ++i) {
                        low[i] = simd::load_pixel_pair<Bytes>(s + i * step, s + (i + k) * step);
                        high[i] = simd::load_pixel_pair<Bytes>(s + (i + 2 * k) * step, s + (i + 3 * k) * step);
                    }
                    simd::transpose_blocks(low);
                    simd::transpose_blocks(high);
                    for (std::int64_t c = 0; c < k; ++c) simd::store_sixteen_three_byte_pixels(o + c * column_step, low[c], high[c]);
                }
            }
            if constexpr (simd::has_vector_pairs && simd::transposes_in_pairs(Bytes)) {
                // Two blocks, one above the other in the source, in the halves of 32-byte vectors: each interleave
                // moves both, and each output row takes both halves of a vector. 2-core VM, one thread, median of
                // 5x301: 1920x1080 u8c1 transpose 0.118 -> 0.096 ms; 6000x4000 u8c3 on two threads 7.40 -> 6.09
                // (bench/RESULTS.md, 2026-11-26).
                for (; x + 2 * k <= x_blocks_end; x += 2 * k, s += 2 * k * step, o += 2 * k * pixel) {
                    std::array<simd::VectorPair<lane>, k> pair;
                    for (std::int64_t i = 0; i < k; ++i) pair[i] = simd::load_pixel_pair<Bytes>(s + i * step, s + (i + k) * step);
                    simd::transpose_blocks(pair);
                    for (std::int64_t c = 0; c < k; ++c) simd::store_pixel_pair<Bytes>(o + c * column_step, pair[c]);
                }
            }
            for (; x + k <= x_blocks_end; x += k, s += k * step, o += k * pixel) {
                std::array<simd::LaneVector<lane>, k> block;
                for (std::int64_t i = 0; i < k; ++i) block[i] = simd::load_pixels<Bytes>(s + i * step);
                simd::transpose_blocks(block);
                for (std::int64_t c = 0; c < k; ++c) simd::store_pixels<Bytes>(o + c * column_step, block[c]);
            }
            return x;
        };
        walk_blocks<k, static_cast<std::int64_t>(simd::vector_bytes)>(x_begin, x_end, y_begin, y_end, along_x,
                                                                      [this](std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1) { pixels(x0, x1, y0, y1); });
    }

    // Pixels of 6, 12 and 16 bytes, which have no vector lane: a run of output rows whose source columns are
    // adjacent (4 of 6-byte pixels, 2 of the others: 24 or 32 bytes of each source row) is written in one pass
    // along x, so that each source line fetched serves the whole run before it leaves L1 (one row a pass
    // fetched it once per output row). A 6- or 12-byte pixel moves as one 8- or 16-byte word, one load and one
    // store where its own width takes two of each: the spare bytes read the next pixel of the same source row
    // (so the run's columns must not reach the row's last one) and land on the output row's next pixel, which
    // this pass or this thread's next tile overwrites (so not on the row's last pixel).
    // 1920x1080 transposes on the 2-core VM: u16c3 1.66-2.02 -> 1.38-1.43 ms, f32c3 3.25-3.58 -> 2.32-2.53, f32c4
    // 3.45-3.49 -> 2.80-3.01 (bench/RESULTS.md, 2026-11-25).
    void column_runs(std::int64_t x_begin, std::int64_t x_end, std::int64_t y_begin, std::int64_t y_end) const {
        constexpr std::int64_t run = Bytes == 6 ? 4 : 2;
        constexpr std::size_t word = wide_copy_bytes(Bytes);
        const std::ptrdiff_t step = source_row_step();
        const std::int64_t word_end = std::max(x_begin, std::min(x_end, f.output.width - 1));
        in_source_column_order(y_begin, y_end, run, [&](std::int64_t y, std::int64_t y_stop) {
            const std::int64_t first_column = MirrorX ? f.source.width - y - run : y;
            if (y_stop - y < run || (word != Bytes && first_column + run >= f.source.width)) {
                pixels(x_begin, x_end, y, y_stop);
                return;
            }
            const std::byte* first = source_pixel(first_column, source_row(x_begin));
            std::array<std::byte*, run> out;  // the output row of each source column of the run
            for (std::int64_t i = 0; i < run; ++i) out[i] = output_pixel(x_begin, MirrorX ? y + run - 1 - i : y + i);
            const auto move_all = [&](auto size, std::int64_t x_from, std::int64_t x_to) {
                for (std::int64_t x = x_from; x < x_to; ++x) {
                    const std::byte* s = first + (x - x_begin) * step;
                    for (std::int64_t i = 0; i < run; ++i) copy_pixel<decltype(size)::value>(out[i] + (x - x_begin) * Bytes, s + i * Bytes);
                }
            };
            move_all(std::integral_constant<std::size_t, word>{}, x_begin, word_end);
            move_all(std::integral_constant<std::size_t, Bytes>{}, word_end, x_end);
        });
    }

    // Pixels of 6 bytes where the target has 32-byte vectors: 4x4 blocks, a source row's four pixels spread into the
    // 8-byte lanes of one vector, turned by eight lane shuffles and packed back as each output row's four are stored.
    // The vectors reach 8 bytes past the block, as blocks()' reach 4 for 3-byte pixels; what no block covers goes
    // through column_runs. 2-core VM, two threads, median of 3x301: 6000x4000 u16c3 transposes 15.2-17.3 ->
    // 10.4-11.8 ms against column_runs alone (bench/RESULTS.md, 2026-11-26).
    void six_byte_blocks(std::int64_t x_begin, std::int64_t x_end, std::int64_t y_begin, std::int64_t y_end) const {
        constexpr std::int64_t k = 4, pixel = 6;
        const std::ptrdiff_t step = source_row_step();
        const auto along_x = [&](const std::byte* s, std::byte* o, std::ptrdiff_t column_step, std::int64_t x_blocks_end) {
            std::int64_t x = x_begin;
            for (; x + k <= x_blocks_end; x += k, s += k * step, o += k * pixel) {
                std::array<simd::U64x4, k> block;
                for (std::int64_t i = 0; i < k; ++i) block[i] = simd::load_pixels_in_eight<Bytes>(s + i * step);
                simd::transpose_lanes_4x4(block);
                for (std::int64_t c = 0; c < k; ++c) simd::store_pixels_from_eight<Bytes>(o + c * column_step, block[c]);
            }
            return x;
        };
        walk_blocks<k, 32>(x_begin, x_end, y_begin, y_end, along_x,
                           [this](std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1) { column_runs(x0, x1, y0, y1); });
    }

    void tile(std::int64_t x_begin, std::int64_t x_end, std::int64_t y_begin, std::int64_t y_end) const {
        if constexpr (simd::has_lane(Bytes)) {
            blocks(x_begin, x_end, y_begin, y_end);
        } else if constexpr (Bytes == 6 && simd::has_six_byte_blocks) {
            six_byte_blocks(x_begin, x_end, y_begin, y_end);
        } else if constexpr (Bytes == 6 || Bytes == 12 || Bytes == 16) {
            column_runs(x_begin, x_end, y_begin, y_end);
        } else {
            pixels(x_begin, x_end, y_begin, y_end);
        }
    }

    // A column of tiles at a time (see TransposeTilePolicy): down the output, along the same source rows,
    // the tiles (and within them the blocks and rows) in the order their source columns ascend.
    void rows(std::int64_t y_begin, std::int64_t y_end) const {
        for (std::int64_t tile_x = 0; tile_x < f.output.width; tile_x += transpose_tiles.source_rows) {
            const std::int64_t tile_x_end = std::min(tile_x + transpose_tiles.source_rows, f.output.width);
            in_source_column_order(y_begin, y_end, output_rows_per_tile<Bytes>(),
                                   [&](std::int64_t tile_y, std::int64_t tile_y_end) { tile(tile_x, tile_x_end, tile_y, tile_y_end); });
        }
    }
};

template <std::size_t Bytes>
void transpose_rows(const Frame& f, AxisMap map, std::int64_t y_begin, std::int64_t y_end) {
    if (map.mirror_x) {
        if (map.mirror_y) {
            TransposeWalk<Bytes, true, true>{f}.rows(y_begin, y_end);
        } else {
            TransposeWalk<Bytes, true, false>{f}.rows(y_begin, y_end);
        }
    } else if (map.mirror_y) {
        TransposeWalk<Bytes, false, true>{f}.rows(y_begin, y_end);
    } else {
        TransposeWalk<Bytes, false, false>{f}.rows(y_begin, y_end);
    }
}

void transform_cpu_kernels(ConstImageView src, ImageView dst, AxisMap map, unsigned max_threads, CpuStores stores) {
    const Frame frame{src.data, src.pitch, src.extent(), dst.data, dst.pitch, dst.extent()};
    visit_pixel_word(src.format.pixel_bytes(), false, [&](auto word) {
        constexpr std::size_t bytes = sizeof(word);
        const auto row_bytes = static_cast<std::int64_t>(std::max<std::size_t>(1, dst.row_bytes()));
        // Threads take whole tile rows, so that no two write the same output lines.
        const std::int64_t rows_per_unit = map.swap_axes ? output_rows_per_tile<bytes>() : 1;
        const std::int64_t units = (dst.height + rows_per_unit - 1) / rows_per_unit;
        const std::int64_t min_bytes = map.swap_axes ? min_bytes_per_thread_transposes : min_bytes_per_thread_mirrors;
        const std::int64_t min_units = std::max<std::int64_t>(1, min_bytes / (row_bytes * rows_per_unit));
        const bool streaming =
            stores == CpuStores::streaming || (stores == CpuStores::by_size && row_bytes * dst.height >= streaming_store_min_bytes());
        parallel_for(units, min_units, [&](std::int64_t begin, std::int64_t end) {
            const std::int64_t y_begin = begin * rows_per_unit;
            const std::int64_t y_end = std::min(end * rows_per_unit, dst.height);
            if (map.swap_axes) {
                transpose_rows<bytes>(frame, map, y_begin, y_end);
            } else if (streaming) {
                mirror_rows<bytes, CpuStores::streaming>(frame, map, y_begin, y_end);
            } else {
                mirror_rows<bytes, CpuStores::cached>(frame, map, y_begin, y_end);
            }
        }, max_threads);
    });
}

}  // namespace
}  // namespace gpurotate::detail
