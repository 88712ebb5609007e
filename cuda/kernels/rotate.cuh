#pragma once
// Rotation by any angle, one output tile at a time per block, the blocks looping over tiles. For each tile the block
// computes its rows' origins and its columns' steps (the fixed-point coordinates warpAffine builds per row and column)
// once, into shared memory, and one thread computes a later tile's footprint from the same coordinates at its corners:
// the rectangle every tap of the tile falls in, since both tables are rounded linear functions and so monotonic. The
// footprint, clipped to the image, comes into shared memory by cp.async (the 8-bit bicubic weight table too, once a
// block; bilinear weights are computed from the coordinates' bits), where it pays only the words of each row that the
// tile's taps reach (rotation_row_words). A tile's loads go out first, after the one barrier that frees the footprint;
// its tables, the next tile's rows' words and the bounds of the one after are computed while they fly, so that a tile
// takes two barriers (three for windows; one, and no tables, where it misses the image). 1-byte bilinear footprints are
// then rewritten as overlapping windows that hold both taps of a row in one aligned 16-bit pair. Each thread makes a
// run of pixels of one row from there and stores them as 16-byte words at 16-byte addresses: where the output's rows
// miss their words, each row's tiles are shifted onto them (RotationShift), or, where rows miss even the pixel's
// alignment, the runs' words are shuffled. A tile whose footprint misses the image is the background; one whose
// footprint lies inside takes its taps without the border's tests; the others follow sample_at's border rules, from the
// same shared copy. The arithmetic is core/rotation_sampling.hpp's, the CPU backend's: both give OpenCV's bytes.
// 16-byte pixels stage nothing: their tiles inside the image read each tap straight from global memory, one 16-byte
// load a tap (rotation_direct_reads), and their tiles across the border read it as the CPU does, a sample a load. Where
// the footprint would not fit the shared buffer (a plan no rotation makes), the tile reads global memory as the CPU
// does too.
// Measured: docs/performance.md, "Any angle".

#include "core/rotation_row_span.hpp"
#include "core/rotation_sampling.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpurotate::detail {

/// One image of a launch: its plan, and where its source and destination lie on the device.
struct RotationItem {
    RotationPlan plan;
    const std::byte* src;
    std::size_t src_pitch;
    std::byte* dst;
    std::size_t dst_pitch;
};

/// A launch's images: `count` of them at `items` in device memory (blockIdx.z picks one), or `single` alone
/// where `items` is null; `footprint_bytes` of dynamic shared memory hold a tile's source. `direct_reads`: the
/// tiles inside the image read their taps from global memory (rotation_direct_reads), and nothing is staged.
/// `row_spans`: each footprint row stages only the words the tile's taps can reach there (rotation_row_words),
/// not the whole bounding box. `tables_first`: a study; the tile's tables before its footprint's loads, behind a
/// barrier, rather than while the loads fly.
struct RotationLaunch {
    const RotationItem* items;
    RotationItem single;
    int footprint_bytes;
    int direct_reads;
    int row_spans;
    int tables_first;
};

/// The tile of a pixel width: a thread makes `run` pixels of a row, a whole number of 16-byte words (16 or
/// 48 bytes), in several rows of the tile. Tiles are square (a footprint about twice a tile's area at 45
/// degrees, the least for its area) and as large as keeps a footprint within 48 KiB: 64 pixels a side up to
/// 4 bytes (1-byte bilinear keeps its footprint also as windows, rotation_footprint_paired), 32 above. A tile's fixed
/// costs (its tables, its classification, the staging's bookkeeping, its barriers) were as many
/// instructions as its pixels' at 32x32 (ncu, H100).
template <int PixelBytes>
struct RotateTileShape {
    static constexpr int alignment = PixelBytes % 16 == 0 ? 16 : PixelBytes % 8 == 0 ? 8 : PixelBytes % 4 == 0 ? 4 : PixelBytes % 2 == 0 ? 2 : 1;
    static constexpr int run = 16 / alignment;
    static constexpr int run_bytes = run * PixelBytes;
    static constexpr int side = PixelBytes <= 4 ? 64 : 32;
    static constexpr int runs_per_row = side / run;
    static constexpr int runs = side * side / run;
    static constexpr int threads = runs < 256 ? runs : 256;
    static_assert(run_bytes % 16 == 0 && threads % runs_per_row == 0);
};

/// Where a launch's output rows do not start at 16-byte words (a tight PyTorch or NumPy array: rows of 11191
/// bytes) but each starts at a multiple of gcd(pixel bytes, 16), each row's tiles are shifted left by the 0 to
/// run - 1 pixels that put its runs at 16-byte words: every store is then a whole aligned word, and the words
/// two tiles share are written by one. (Unshifted, a tile's rows began and ended inside words, written a byte
/// at a time: u8c1 into a tight output ran at half the speed of a padded one.) A tile's tables and footprint
/// reach run - 1 columns further left; the grid has a column of tiles more where that reaches past the image.
template <int PixelBytes>
struct RotationShift {
    using Shape = RotateTileShape<PixelBytes>;
    static constexpr int run = Shape::run;
    static constexpr int extra_columns = run - 1;
    /// (PixelBytes / alignment)^-1 modulo run: the shift s solves s * PixelBytes = row address (modulo 16).
    static constexpr int inverse = [] {
        for (int x = 0; x < run; ++x) {
            if ((PixelBytes / Shape::alignment * x) % run == 1 % run) return x;
        }
        return 0;
    }();
    /// The pixels by which a row starting `misalignment` bytes past a 16-byte word (a multiple of the pixel's
    /// alignment) shifts its tiles.
    __host__ __device__ static constexpr int of_misalignment(std::uintptr_t misalignment) {
        return static_cast<int>(misalignment / Shape::alignment) * inverse % run;
    }
    /// The same for a row starting at `row`.
    __device__ static int of(const std::byte* row) { return of_misalignment(reinterpret_cast<std::uintptr_t>(row) % 16); }
};

/// Whether RotationShift's shift puts every row that starts at the pixel's alignment on a 16-byte word.
template <int PixelBytes>
constexpr bool rotation_shift_aligns() {
    using Shift = RotationShift<PixelBytes>;
    for (int m = 0; m < 16; m += RotateTileShape<PixelBytes>::alignment) {
        const int shift = Shift::of_misalignment(static_cast<std::uintptr_t>(m));
        if (shift < 0 || shift >= Shift::run || (m - shift * PixelBytes) % 16 != 0) return false;
    }
    return true;
}
static_assert(rotation_shift_aligns<1>() && rotation_shift_aligns<2>() && rotation_shift_aligns<3>() && rotation_shift_aligns<4>() &&
              rotation_shift_aligns<6>() && rotation_shift_aligns<8>() && rotation_shift_aligns<12>() && rotation_shift_aligns<16>());

/// The staged footprint: source pixel (x, y) at `base + (y - y0) * pitch + x * PixelBytes - first_byte`.
template <int PixelBytes>
struct SharedPixels {
    const std::byte* base;
    std::int32_t pitch;
    std::int32_t y0;
    std::int32_t first_byte;
    __device__ const std::byte* at(std::int32_t x, std::int32_t y) const { return base + (y - y0) * pitch + x * PixelBytes - first_byte; }
    __device__ std::size_t stride() const { return static_cast<std::size_t>(pitch); }
};

/// The most shared memory a footprint takes; a plan whose footprint needs more (no rotation's does) has its
/// tiles read global memory.
inline constexpr int rotation_footprint_cap = 48 * 1024;

/// Whether a tile's footprint is also kept as windows: 1-byte pixels under bilinear interpolation. Window h
/// of a row holds its bytes 2h, 2h + 1, 2h + 1, 2h + 2, so that the taps x and x + 1 of any x are the 16-bit
/// pair at byte 2x. A pixel reads two pairs (its two rows) where it read four bytes, found by a shift and a
/// mask of its coordinate.
__host__ __device__ constexpr bool rotation_footprint_paired(int pixel_bytes, Interpolation interpolation) {
    return pixel_bytes == 1 && interpolation == Interpolation::bilinear;
}

/// Bytes a staged footprint keeps past its last row for the reads that run over it: 3-byte bilinear taps
/// read the aligned word after their pixel (bilinear_u8_inside), up to 6 bytes further.
__host__ __device__ constexpr int rotation_footprint_tail(int pixel_bytes, Interpolation interpolation) {
    return pixel_bytes == 3 && interpolation == Interpolation::bilinear ? 16 : 0;
}

/// Bytes from a row of windows to the next: room for a footprint row of up to 140 bytes (a 64-pixel tile's
/// rows take at most 112, a shifted one's 128; a wider row is not windowed), a multiple of 8 for the build's
/// 8-byte stores, and 70 words, whose bank pattern kept a warp's 32 pixels to 2-3 accesses a load at every
/// angle a simulation of the kernel's lanes tried (64 words: up to 7.7).
inline constexpr int rotation_window_stride = 280;

/// Bytes of shared memory that hold any tile's footprint under `plan`: the span of a tile's coordinates
/// (|m0| a column and |m1| a row in x, |m3| and |m4| in y), two for the roundings, the taps, and a 16-byte word
/// for the alignment of each row's start; where the footprint is paired, the windows before it (280 bytes a
/// row, to a whole 16) and a word past it. `extra_columns`: the columns a shifted tile reaches left of its own
/// (RotationShift).
template <int PixelBytes>
int rotation_footprint_bytes(const RotationPlan& plan, int extra_columns = 0) {
    constexpr int side = RotateTileShape<PixelBytes>::side;
    const int taps = rotation_side_taps(plan.interpolation);
    const auto span = [&](double a, double b) {
        const double a_abs = a < 0 ? -a : a, b_abs = b < 0 ? -b : b;
        return static_cast<long long>(a_abs * (side - 1 + extra_columns) + b_abs * (side - 1)) + 3 + taps;
    };
    const long long columns = span(plan.inverse[0], plan.inverse[1]), rows = span(plan.inverse[3], plan.inverse[4]);
    const long long pitch = (columns * PixelBytes + 15) / 16 * 16 + 16;
    // Paired: the windows to a whole 16 bytes, then the footprint and a word past it (the windows' build reads
    // one).
    const long long bytes = rotation_footprint_paired(PixelBytes, plan.interpolation) ? rows * (rotation_window_stride + pitch) + 32
                                                                                       : rows * pitch + rotation_footprint_tail(PixelBytes, plan.interpolation);
    return static_cast<int>(bytes < rotation_footprint_cap ? bytes : rotation_footprint_cap);
}

/// A 16-byte copy from global to shared memory that does not wait for its data (cp.async, sm_80 on): the
/// footprint's loads all go out at once, where a load-then-store loop waited a DRAM latency per word.
__device__ inline void copy_16_async(unsigned to_shared, const std::byte* from_global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to_shared), "l"(from_global) : "memory");
}
__device__ inline void copy_16_async(std::byte* to_shared, const std::byte* from_global) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(to_shared)), from_global);
}
__device__ inline void wait_copies_async() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

/// A pixel of up to 4 bytes as one word, its bytes in order (the taps' channels for dp2a).
template <int PixelBytes>
__device__ inline unsigned pixel_word(const std::byte* p) {
    if constexpr (PixelBytes == 4) return *reinterpret_cast<const unsigned*>(p);
    if constexpr (PixelBytes == 2) return *reinterpret_cast<const unsigned short*>(p);
    if constexpr (PixelBytes == 1) return *reinterpret_cast<const unsigned char*>(p);
    if constexpr (PixelBytes == 3) {
        const auto* b = reinterpret_cast<const unsigned char*>(p);
        return b[0] | (static_cast<unsigned>(b[1]) << 8) | (static_cast<unsigned>(b[2]) << 16);
    }
}

/// The alignment of a pixel's loads from global memory where a tile reads its taps directly: the widest
/// of 16, 8, 4, 2 or 1 bytes that divides the pixel.
__host__ __device__ constexpr int rotation_direct_alignment(int pixel_bytes) {
    return pixel_bytes % 16 == 0 ? 16 : pixel_bytes % 8 == 0 ? 8 : pixel_bytes % 4 == 0 ? 4 : pixel_bytes % 2 == 0 ? 2 : 1;
}

/// Whether a kernel reads the taps of its tiles inside the image straight from global memory, a whole pixel
/// a load through the read-only cache, where its source is aligned to rotation_direct_alignment (the launcher
/// checks), and stages nothing: 16-byte pixels under nearest and bilinear interpolation (1 or 4 taps a pixel,
/// in registers). A 32-pixel tile's footprint of 16-byte pixels takes up to 37 KiB at 45 degrees, for few blocks
/// an SM, and each pixel read its taps from it a sample at a time. Measured (H100, 8192x8192 bilinear, every
/// output verified, against staging in the same run): f32c4 1.491 / 1.505 ms at 30 / 45 degrees against 1.523 /
/// 1.662; at 8 bytes (u16c4) 0.963 / 0.965 against 0.885 / 0.910, at 4 (u8c4 0.519 / 0.548 against 0.410 / 0.451;
/// f32c1 0.438 / 0.464 against 0.419 / 0.456) slower, at 12 (f32c3) within 1% (bench/RESULTS.md, 2026-12-06).
__host__ __device__ constexpr bool rotation_direct_reads(int pixel_bytes, Interpolation interpolation) {
    return interpolation != Interpolation::bicubic && pixel_bytes == 16;
}

/// Whether a launch stages only the words of each footprint row that its tile's taps reach (rotation_row_words)
/// unless told otherwise: where the kernel waits on memory, as measured pixel width by pixel width under
/// nearest and bilinear interpolation (H100, 8192x8192 at 30 and 45 degrees, the same kernel with and without
/// in one run; bench/RESULTS.md, 2026-12-07 (night)). At 45 degrees the bounding box is twice the tile, and much
/// of it was read from DRAM twice: u8c4 bilinear read 475 MB from DRAM for a 268 MB source, 336 MB with the rows'
/// words alone, and ran 1.12x faster (f32c1 the same; 6- and 12-byte pixels 1.07-1.10x). The kernels of 1, 2, 3
/// and 8 bytes are bound by instructions (8: four 16-bit channels, each converted to float and back), and the
/// spans cost instructions, since a warp's lanes that skip a word still take its issue slot: u8c1 0.181 against
/// 0.195 ms without them, u16c1 0.226 against 0.238, u8c3 0.412 against 0.423, u16c4 0.888 against 0.913.
/// Bicubic moved within 1% either way. 16-byte pixels read their taps directly and stage nothing.
__host__ __device__ constexpr bool rotation_row_spans_pay(int pixel_bytes, Interpolation interpolation) {
    return interpolation != Interpolation::bicubic && (pixel_bytes == 4 || pixel_bytes == 6 || pixel_bytes == 12);
}

/// One pixel from global memory at `p` (aligned to rotation_direct_alignment) into `to`, through the read-only
/// cache, a load for each aligned word.
template <int PixelBytes>
__device__ inline void load_pixel_direct(const std::byte* p, std::byte* to) {
    constexpr int a = rotation_direct_alignment(PixelBytes);
#pragma unroll
    for (int i = 0; i < PixelBytes; i += a) {
        if constexpr (a == 16) {
            const uint4 v = __ldg(reinterpret_cast<const uint4*>(p + i));
            std::memcpy(to + i, &v, 16);
        } else if constexpr (a == 8) {
            const uint2 v = __ldg(reinterpret_cast<const uint2*>(p + i));
            std::memcpy(to + i, &v, 8);
        } else if constexpr (a == 4) {
            const unsigned v = __ldg(reinterpret_cast<const unsigned*>(p + i));
            std::memcpy(to + i, &v, 4);
        } else {
            to[i] = p[i];
            if constexpr (a == 2) to[i + 1] = p[i + 1];
        }
    }
}

/// Bilinear 8-bit samples inside the image as sample_inside computes them, two taps a dp2a instruction:
/// 16-bit weights (two to a word: bilinear_u8_weight_pairs) times unsigned bytes, summed in 32 bits. Integer
/// sums are exact in any order and the weights sum to 2^15, so the bytes are sample_inside's with half its
/// instructions and no clamp; each tap is one load of its whole pixel (the staged footprint keeps 2- and
/// 4-byte pixels aligned).
///
/// Three channels: a row's two taps are 6 bytes at any alignment, which took 6 byte loads. They lie in the
/// three aligned words from the one at or before them (the staged footprint keeps rotation_footprint_tail
/// bytes past its last row for the third); two funnel shifts by their offset put them at bytes 0-5 of two
/// words, and a constant permutation pairs each channel's taps: 3 loads a row.
template <int Channels>
__device__ inline void bilinear_u8_inside(const std::byte* p, int pitch, uint2 weights, std::uint8_t* out) {
    unsigned t0, t1, b0, b1;
    if constexpr (Channels == 3) {
        const unsigned offset = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p)) & 3u;
        const auto* top = reinterpret_cast<const unsigned*>(p - offset);
        const auto* bottom = reinterpret_cast<const unsigned*>(p - offset + pitch);
        const unsigned shift = offset * 8;
        t0 = __funnelshift_r(top[0], top[1], shift);
        t1 = __funnelshift_r(top[1], top[2], shift);
        b0 = __funnelshift_r(bottom[0], bottom[1], shift);
        b1 = __funnelshift_r(bottom[1], bottom[2], shift);
    } else {
        t0 = pixel_word<Channels>(p);
        t1 = pixel_word<Channels>(p + Channels);
        b0 = pixel_word<Channels>(p + pitch);
        b1 = pixel_word<Channels>(p + pitch + Channels);
    }
#pragma unroll
    for (int k = 0; k < Channels; ++k) {
        // Channel k of the first tap, then of the second: bytes k and k + 3 of the two shifted words for three
        // channels, else byte k of each tap's word.
        const unsigned pick = static_cast<unsigned>(Channels == 3 ? ((3 + k) << 4) | k : ((4 + k) << 4) | k);
        unsigned sum = 1u << (rotation_coef_bits - 1);  // the cast's rounding, added first
        asm("dp2a.lo.u32.u32 %0, %1, %2, %0;" : "+r"(sum) : "r"(weights.x), "r"(__byte_perm(t0, t1, pick)));
        asm("dp2a.lo.u32.u32 %0, %1, %2, %0;" : "+r"(sum) : "r"(weights.y), "r"(__byte_perm(b0, b1, pick)));
        out[k] = static_cast<std::uint8_t>(static_cast<unsigned>(sum) >> rotation_coef_bits);
    }
}

/// The 16 bytes at an aligned address that begins `m` bytes (1 to 15, or 0) before `hi`'s first byte, where
/// `lo` holds the 16 bytes before `hi`: bytes 16 - m to 31 - m of lo then hi, by a funnel shift of words and
/// a selection among them (a register array indexed at run time would live in local memory).
__device__ inline uint4 aligned_window(uint4 lo, uint4 hi, int m) {
    const unsigned c[9] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w, 0u};
    const int d = 16 - m;
    const int q = d >> 2;
    const unsigned r = static_cast<unsigned>(d & 3) * 8;
    unsigned shifted[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) shifted[k] = __funnelshift_r(c[k], c[k + 1], r);
    unsigned o[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        unsigned v = shifted[i];
        v = q == 1 ? shifted[i + 1] : v;
        v = q == 2 ? shifted[i + 2] : v;
        v = q == 3 ? shifted[i + 3] : v;
        v = q == 4 ? shifted[i + 4 < 8 ? i + 4 : 7] : v;
        o[i] = v;
    }
    return make_uint4(o[0], o[1], o[2], o[3]);
}

/// Bytes `from` to `to` (exclusive) of the 16-byte `window` at `at`: a row's first and last partial words,
/// a 4-byte store for each whole word of the range and byte stores only at its ends.
__device__ inline void store_window_part(std::byte* at, uint4 window, int from, int to) {
    const unsigned w[4] = {window.x, window.y, window.z, window.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int lo = 4 * k, hi = lo + 4;
        if (from <= lo && hi <= to) {
            *reinterpret_cast<unsigned*>(at + lo) = w[k];
        } else if (from < hi && lo < to) {
#pragma unroll
            for (int b = 0; b < 4; ++b) {
                if (lo + b >= from && lo + b < to) at[lo + b] = static_cast<std::byte>((w[k] >> (8 * b)) & 0xffu);
            }
        }
    }
}

/// A thread's run (`RunBytes`, of which `count` pixels belong to the tile) into row `y` of the output, as
/// 16-byte words at 16-byte addresses whatever the row's alignment: a tight PyTorch or NumPy output has rows
/// of any length (11191 bytes). The threads of a row hold consecutive runs in consecutive lanes, so each
/// aligned word is the end of the previous lane's run and the start of this one's, brought over by a
/// shuffle; the row's first and last partial words go a byte at a time. Called by every lane of the warp.
template <int RunBytes, int RunsPerRow>
__device__ inline void store_run(const void* out, std::byte* dst, std::size_t dst_pitch, int tile_x, int y, int tile_w, int column,
                                 int count, int pixel_bytes, bool active) {
    constexpr int words = RunBytes / 16;
    constexpr int lanes = RunsPerRow < 32 ? RunsPerRow : 32;
    uint4 w[words];
#pragma unroll
    for (int q = 0; q < words; ++q) std::memcpy(&w[q], static_cast<const std::byte*>(out) + 16 * q, 16);
    std::byte* const row = dst + static_cast<std::size_t>(y) * dst_pitch;
    std::byte* const at = row + static_cast<std::size_t>(tile_x + column) * pixel_bytes;
    const int m = static_cast<int>(reinterpret_cast<std::uintptr_t>(at) % 16);
    const int valid = count * pixel_bytes;
    const bool direct = !active || (m == 0 && valid == RunBytes);
    // Streaming stores (the output is never read back, the source's neighbouring footprints are) only where
    // the tiles' rows start on 32-byte sectors: a sector that two tiles share, written in part and evicted
    // first, goes to DRAM as a read, a merge and a write.
    std::byte* const row_start = row + static_cast<std::size_t>(tile_x) * pixel_bytes;
    const bool whole_sectors = __all_sync(0xffffffffu, !active || reinterpret_cast<std::uintptr_t>(row_start) % 32 == 0);
    if (__all_sync(0xffffffffu, direct)) {
        if (active) {
#pragma unroll
            for (int q = 0; q < words; ++q) {
                if (whole_sectors) {
                    __stcs(reinterpret_cast<uint4*>(at) + q, w[q]);
                } else {
                    reinterpret_cast<uint4*>(at)[q] = w[q];
                }
            }
        }
        return;
    }
    uint4 prev;
    prev.x = __shfl_up_sync(0xffffffffu, w[words - 1].x, 1, lanes);
    prev.y = __shfl_up_sync(0xffffffffu, w[words - 1].y, 1, lanes);
    prev.z = __shfl_up_sync(0xffffffffu, w[words - 1].z, 1, lanes);
    prev.w = __shfl_up_sync(0xffffffffu, w[words - 1].w, 1, lanes);
    if (!active) return;
    const std::ptrdiff_t begin = row_start - at;  // where the tile's row begins, from `at` (0 or less)
    const bool last = column + count >= tile_w;    // the tile's row ends in this run: its last word is ours
#pragma unroll
    for (int q = 0; q <= words; ++q) {
        if (q == words && !last) break;
        const uint4 lo = q == 0 ? prev : w[q - 1];
        const uint4 hi = q == words ? make_uint4(0, 0, 0, 0) : w[q];
        const uint4 window = m == 0 ? hi : aligned_window(lo, hi, m);
        // The window covers bytes 16q - m to 16q - m + 16 from `at`; ours, and the previous lane's, are
        // `begin` to `valid`.
        const int start = 16 * q - (m == 0 ? 0 : m);
        if (m == 0 && q == words) break;
        const int from = static_cast<int>(begin > start ? begin - start : 0);
        const int to = valid < start + 16 ? valid - start : 16;
        if (to <= from) continue;
        std::byte* const word = at + start;
        if (from == 0 && to == 16) {
            *reinterpret_cast<uint4*>(word) = window;  // not streamed: the row's ends share sectors with the next tiles'
        } else {
            store_window_part(word, window, from, to);
        }
    }
}

/// A shifted tile's run (RotationShift) at `at`, a 16-byte word: its bytes `from` to `to` (exclusive), all of
/// them but at the image's left and right edges, as whole words where they cover one.
template <int RunBytes>
__device__ inline void store_shifted_run(const void* out, std::byte* at, int from, int to) {
    constexpr int words = RunBytes / 16;
#pragma unroll
    for (int q = 0; q < words; ++q) {
        uint4 w;
        std::memcpy(&w, static_cast<const std::byte*>(out) + 16 * q, 16);
        const int lo = max(from - 16 * q, 0), hi = min(to - 16 * q, 16);
        if (lo == 0 && hi == 16) {
            *reinterpret_cast<uint4*>(at + 16 * q) = w;
        } else if (lo < hi) {
            store_window_part(at + 16 * q, w, lo, hi);
        }
    }
}

/// Whether a block copies the interpolation's weight table into shared memory: the 8-bit bicubic one (32 KiB);
/// bilinear weights are computed (bilinear_u8_weight_pairs, bilinear_float_weights), the float bicubic ones
/// read from global memory. A warp's 32 pixels read 32 scattered entries; from L1 that cost a cycle per cache
/// line touched, about 25 a warp, and bounded the kernel at a quarter of copy for 8-bit pixels; from shared
/// memory a 16-byte entry costs a quarter-warp's access each, with bank conflicts.
template <class Sample, Interpolation Interp>
inline constexpr bool rotation_table_shared = Interp == Interpolation::bicubic && sizeof(Sample) == 1;

template <class Sample, Interpolation Interp>
constexpr int rotation_shared_table_bytes() {
    if constexpr (!rotation_table_shared<Sample, Interp>) return 0;
    return rotation_tab_entries * rotation_taps(Interp) * static_cast<int>(sizeof(typename RotationSampleTraits<Sample>::Weight));
}

/// `magic` such that __umulhi(n, magic) is n / d for every n < 2^32 / d and d > 1 (ceil(2^32 / d), which for
/// d = 1 does not fit 32 bits): the quotient of a tile's word counts by one multiplication, where a division by
/// a value known only at run time took about 25 instructions.
__host__ __device__ constexpr unsigned division_magic(unsigned d) { return d > 1 ? 0xffffffffu / d + 1u : 0u; }
__device__ inline int divide_by_magic(int n, int d, unsigned magic) {
    return d > 1 ? static_cast<int>(__umulhi(static_cast<unsigned>(n), magic)) : n;
}

/// How a block's threads share a footprint of `words` 16-byte words a row: thread tid takes word `column` of
/// rows `first_row`, + `row_step`, ..., where row_step = Threads / words rows make one sweep of the block; the
/// threads past row_step * words sit it out. Each thread's word and addresses then advance by constants,
/// where stepping one counter through the words recomputed them: in the 1-byte kernel's SASS, 36 instructions
/// a word of the staging and 29 of the windows' build, about two footprint words for every 16 output pixels
/// at 45 degrees. `magic` is division_magic(words); words <= Threads (rotation_tile_bounds stages no wider
/// footprint).
struct FootprintSweep {
    int column, first_row, row_step;
    bool active;
};
template <int Threads>
__device__ inline FootprintSweep footprint_sweep(int tid, int words, unsigned magic) {
    FootprintSweep f;
    f.row_step = divide_by_magic(Threads, words, magic);
    f.first_row = divide_by_magic(tid, words, magic);
    f.column = tid - f.first_row * words;
    f.active = f.first_row < f.row_step;
    return f;
}

/// Where a tile reads: its footprint's first row y0 clipped to the image, the 16-byte word its rows' copy
/// starts at, their bytes and count, and its case.
struct RotationTileBounds {
    int y0, first_byte, pitch, rows;
    unsigned words_magic;  // division_magic(pitch / 16), for footprint_sweep
    TileParallelogram parallelogram;  // where the tile's samples lie, for rotation_row_words
    bool misses;  // every tap outside the image: the background
    bool inside;  // every tap inside: no border tests
    bool staged;  // the footprint in shared memory (else the tile reads global memory)
};

/// Bytes of the windows of a footprint of `rows` rows, to a whole 16 so that the footprint after them starts at a
/// 16-byte word for cp.async.
__device__ inline int rotation_windows_bytes(int rows) { return (rows * rotation_window_stride + 15) & ~15; }

/// Footprint rows whose words rotation_row_words gives, in a table of the block's (the most any tile of a
/// rotation has: 64 * sqrt(2) plus the taps and a shifted tile's columns, under 110); a tile of more rows stages
/// them whole.
inline constexpr int rotation_span_rows = 128;

/// The 16-byte words of footprint row `row` (source row y0 + row) that a tile's taps can read
/// (rotation_row_columns), first and past the last, of `words` a row; (0, 0) where none.
template <int PixelBytes, Interpolation Interp>
__device__ inline ushort2 rotation_row_words(const RotationTileBounds& b, int row, int words) {
    const ColumnRange columns = rotation_row_columns(b.parallelogram, b.y0 + row, Interp);
    const int first_word = (columns.first * PixelBytes - b.first_byte) >> 4;  // arithmetic: left of the box is negative
    const int past_word = ((columns.last + 1) * PixelBytes - b.first_byte + 15) >> 4;
    const int lo = min(max(first_word, 0), words), hi = min(max(past_word, 0), words);
    return lo < hi ? make_ushort2(static_cast<unsigned short>(lo), static_cast<unsigned short>(hi)) : make_ushort2(0, 0);
}

/// A tile's bounds from its tables' ends: the first and last rows' origins and columns' steps, in 64 bits. A
/// coordinate past 2^30 (a plan no rotation of a side under 32767 makes) is "wild": the tile goes to the global
/// path, whose 32-bit sums wrap as OpenCV's do. Paired footprints keep their windows first and a word past.
template <int PixelBytes, Interpolation Interp>
__device__ inline RotationTileBounds rotation_tile_bounds(int2 o0, int2 o1, int2 c0, int2 c1, int width, int height, int footprint_bytes) {
    constexpr int taps = rotation_side_taps(Interp);
    constexpr int lead = rotation_lead_taps(Interp);
    constexpr bool paired = rotation_footprint_paired(PixelBytes, Interp);
    const long long fx_lo = static_cast<long long>(min(o0.x, o1.x)) + min(c0.x, c1.x);
    const long long fx_hi = static_cast<long long>(max(o0.x, o1.x)) + max(c0.x, c1.x);
    const long long fy_lo = static_cast<long long>(min(o0.y, o1.y)) + min(c0.y, c1.y);
    const long long fy_hi = static_cast<long long>(max(o0.y, o1.y)) + max(c0.y, c1.y);
    constexpr long long tame = 1LL << 30;
    const bool wild = fx_lo < -tame || fx_hi > tame || fy_lo < -tame || fy_hi > tame;
    const long long sx_lo = (fx_lo >> rotation_ab_bits) - lead, sx_hi = (fx_hi >> rotation_ab_bits) - lead + taps - 1;
    const long long sy_lo = (fy_lo >> rotation_ab_bits) - lead, sy_hi = (fy_hi >> rotation_ab_bits) - lead + taps - 1;
    RotationTileBounds b;
    b.misses = !wild && (sx_hi < 0 || sx_lo >= width || sy_hi < 0 || sy_lo >= height);
    b.inside = !wild && sx_lo >= 0 && sx_hi < width && sy_lo >= 0 && sy_hi < height;
    const int x0 = static_cast<int>(sx_lo < 0 ? 0 : sx_lo);
    const int x1 = static_cast<int>(sx_hi >= width ? width - 1 : sx_hi);
    b.y0 = static_cast<int>(sy_lo < 0 ? 0 : sy_lo);
    const int y1 = static_cast<int>(sy_hi >= height ? height - 1 : sy_hi);
    b.first_byte = (x0 * PixelBytes) & ~15;
    b.pitch = (((x1 + 1) * PixelBytes - b.first_byte + 15) & ~15);
    b.rows = y1 - b.y0 + 1;
    b.words_magic = division_magic(static_cast<unsigned>(b.pitch >= 16 ? b.pitch / 16 : 1));
    b.parallelogram = tile_parallelogram(o0.x, o0.y, o1.x, o1.y, c0.x, c0.y, c1.x, c1.y);  // read only where staged, so tame
    const int windows_bytes = paired ? rotation_windows_bytes(b.rows) : 0;
    b.staged = !wild && !b.misses && b.pitch / 16 <= RotateTileShape<PixelBytes>::threads &&
               static_cast<long long>(b.rows) * b.pitch + windows_bytes + (paired ? 16 : rotation_footprint_tail(PixelBytes, Interp)) <= footprint_bytes;
    return b;
}

/// Blocks a multiprocessor keeps of the kernel: enough warps to cover one block's footprint load with the
/// others' arithmetic, at up to 64 registers a thread; 3-byte pixels, whose 48-byte runs and their shuffled
/// stores spilled hundreds of bytes at 64, get up to 80; bilinear samples of one channel fit 48 without a spill,
/// for 5 blocks.
template <class Sample, int Channels, Interpolation Interp>
constexpr int rotate_min_blocks() {
    constexpr int pixel_bytes = static_cast<int>(sizeof(Sample)) * Channels;
    constexpr int threads = RotateTileShape<pixel_bytes>::threads;
    constexpr bool lean = Interp == Interpolation::bilinear && Channels == 1 && pixel_bytes <= 4;
    return (lean ? 1280 : pixel_bytes % 3 == 0 && pixel_bytes < 12 ? 800 : 1024) / threads;
}

/// Each block takes tiles blockIdx.x, + gridDim.x, ... of its image (blockIdx.z), so that the weight table
/// it copies once serves many tiles, and the blocks in flight at any time hold neighbouring tiles, whose
/// footprints overlap in L2. Dynamic shared memory: the table, then `launch.footprint_bytes`.
template <class Sample, int Channels, Interpolation Interp, bool Shifted>
__global__ void __launch_bounds__(RotateTileShape<sizeof(Sample) * Channels>::threads,
                                  rotate_min_blocks<Sample, Channels, Interp>()) rotate_kernel(const __grid_constant__ RotationLaunch launch) {
    using Shape = RotateTileShape<sizeof(Sample) * Channels>;
    using Traits = RotationSampleTraits<Sample>;
    using Weight = typename Traits::Weight;
    constexpr int pixel_bytes = static_cast<int>(sizeof(Sample)) * Channels;
    constexpr int side = Shape::side;
    constexpr int run = Shape::run;
    constexpr int taps = rotation_side_taps(Interp);
    constexpr int table_bytes = rotation_shared_table_bytes<Sample, Interp>();
    constexpr bool paired = rotation_footprint_paired(pixel_bytes, Interp);
    using Shift = RotationShift<pixel_bytes>;
    constexpr int extra = Shifted ? Shift::extra_columns : 0;  // columns a tile reaches left of its own
    constexpr int columns = side + extra;                       // the columns' table: tile_x - extra on
    extern __shared__ __align__(16) std::byte dynamic_shared[];
    std::byte* const footprint = dynamic_shared + table_bytes;
    __shared__ int2 row_origin[side];
    // Column c's step at c + c / 16: a warp's lanes read columns a run (8 or 16 pixels) apart, whose 8-byte
    // entries would otherwise share a bank.
    __shared__ int2 column_step[columns + columns / 16];

    // Three tiles' bounds, a ring: the one being worked, the next, whose rows' words the block finds while the
    // current footprint's loads are in flight, and the one after, which its thread computes then.
    __shared__ RotationTileBounds bounds[3];
    // The footprint rows' words that a tile's taps can reach (rotation_row_words), where row_spans: the current
    // tile's, and the next one's.
    __shared__ ushort2 row_words[2][rotation_span_rows];

    // The item in shared memory, read there by every pixel: from the launch's parameters or a group's table
    // in global memory, which the compiler re-read after each store it could not prove apart from it.
    __shared__ __align__(16) std::byte item_copy[sizeof(RotationItem)];
    static_assert(sizeof(RotationItem) % 8 == 0 && sizeof(RotationItem) / 8 <= Shape::threads);
    const int tid = static_cast<int>(threadIdx.x);
    {
        const RotationItem* from = launch.items != nullptr ? launch.items + blockIdx.z : &launch.single;
        if (tid < static_cast<int>(sizeof(RotationItem) / 8)) {
            reinterpret_cast<unsigned long long*>(item_copy)[tid] = reinterpret_cast<const unsigned long long*>(from)[tid];
        }
        __syncthreads();
    }
    const RotationItem& item = *reinterpret_cast<const RotationItem*>(item_copy);
    const RotationPlan& plan = item.plan;
    const int tiles_x = plan.dst_width > 0 ? (plan.dst_width + extra + side - 1) / side : 0;
    const int tiles = tiles_x * ((plan.dst_height + side - 1) / side);
    if (static_cast<int>(blockIdx.x) >= tiles) return;  // a smaller image of a batch
    if constexpr (table_bytes > 0) {
        // In flight with the first tile's footprint; its wait covers both.
        for (int i = tid * 16; i < table_bytes; i += Shape::threads * 16) {
            copy_16_async(dynamic_shared + i, static_cast<const std::byte*>(plan.weights) + i);
        }
    }
    const Weight* const shared_weights = reinterpret_cast<const Weight*>(dynamic_shared);
    const int width = plan.src_width;
    std::byte* const dst = item.dst;
    const std::size_t dst_pitch = item.dst_pitch;
    // In registers: read from the item's shared copy they were re-read at every word of the footprint.
    const std::byte* const src = item.src;
    const std::size_t src_pitch = item.src_pitch;
    const bool wide_src = (reinterpret_cast<std::uintptr_t>(src) | src_pitch) % 16 == 0;
    const bool direct = rotation_direct_reads(pixel_bytes, Interp) && launch.direct_reads != 0;
    const int column = (tid % Shape::runs_per_row) * run;  // unshifted; shifted, less the row's shift
    const int step_index = column + column / 16;  // runs start at multiples of 16 pixels or within 16 of one
    static_assert(16 % run == 0);

    // The tile's column and row in the grid of tiles, stepped by the grid's width without a division a tile.
    const int grid = static_cast<int>(gridDim.x);
    const int grid_columns = grid % tiles_x, grid_rows = grid / tiles_x;
    const auto next_tile = [&](int& tile_column, int& tile_row) {
        tile_column += grid_columns;
        tile_row += grid_rows;
        if (tile_column >= tiles_x) {
            tile_column -= tiles_x;
            ++tile_row;
        }
    };
    // The footprint from the tables' ends (computed as the tables' threads compute them), by one thread.
    // A tile's columns: tile_x - extra to tile_x + side - 1, within the image.
    const auto first_column = [&](int tile_x) { return max(tile_x - extra, 0); };
    const auto last_column = [&](int tile_x) { return min(tile_x + side, plan.dst_width) - 1; };
    const auto bounds_of = [&](int tile_column, int tile_row) {
        const int x = tile_column * side, y = tile_row * side;
        const int h = min(side, plan.dst_height - y);
        int2 o0, o1, c0, c1;
        rotation_row_origin(plan, y, o0.x, o0.y);
        rotation_row_origin(plan, y + h - 1, o1.x, o1.y);
        rotation_column_step(plan, first_column(x), c0.x, c0.y);
        rotation_column_step(plan, last_column(x), c1.x, c1.y);
        return rotation_tile_bounds<pixel_bytes, Interp>(o0, o1, c0, c1, plan.src_width, plan.src_height, launch.footprint_bytes);
    };
    constexpr int bounds_thread = Shape::threads - 1;
    int tile_column = static_cast<int>(blockIdx.x) % tiles_x, tile_row = static_cast<int>(blockIdx.x) / tiles_x;
    // Kept apart from the tiles' fields: where the compiler could not prove a tile staged no spans, an idle
    // call of find_row_words cost 40 instructions a warp a tile (ncu, u8c1).
    const bool row_spans = launch.row_spans != 0;
    const auto uses_spans = [&](const RotationTileBounds& b) { return row_spans && b.staged && b.rows <= rotation_span_rows; };
    // Tile `b`'s rows' words into `words`, by the threads from `first_thread` on.
    const auto find_row_words = [&](const RotationTileBounds& b, ushort2* words, int first_thread) {
        if (!uses_spans(b)) return;
        for (int i = (tid + first_thread) % Shape::threads; i < b.rows; i += Shape::threads) {
            words[i] = rotation_row_words<pixel_bytes, Interp>(b, i, b.pitch / 16);
        }
    };
    const auto tile_after = [&](int steps) {
        int2 t = make_int2(tile_column, tile_row);
        for (int i = 0; i < steps; ++i) next_tile(t.x, t.y);
        return t;
    };
    // The first tile's bounds and words, and the second's bounds (by a thread of another warp).
    static_assert(Shape::threads > 32);
    if (tid == bounds_thread) bounds[0] = bounds_of(tile_column, tile_row);
    if (tid == bounds_thread - 32 && static_cast<int>(blockIdx.x) + grid < tiles) {
        const int2 next = tile_after(1);
        bounds[1] = bounds_of(next.x, next.y);
    }
    __syncthreads();
    find_row_words(bounds[0], row_words[0], 0);

    // Ring positions of this tile's bounds, the next one's and the one after; the slot of this tile's words.
    int now = 0, next = 1, after = 2, slot = 0;
    const bool tables_first = launch.tables_first != 0;
    for (int tile = static_cast<int>(blockIdx.x); tile < tiles; tile += grid, next_tile(tile_column, tile_row), slot ^= 1) {
        const int tile_x = tile_column * side, tile_y = tile_row * side;
        const int tile_w = min(side, plan.dst_width - tile_x), tile_h = min(side, plan.dst_height - tile_y);
        // The previous tile's readers are done with the tables and the footprint; this tile's bounds and words are
        // in, and the next one's bounds.
        __syncthreads();
        // The fields this tile uses, read once (a copy of the whole struct, the parallelogram included, took 40
        // instructions a warp a tile).
        const RotationTileBounds& tile_bounds = bounds[now];
        const bool spans = uses_spans(tile_bounds);
        const int y0 = tile_bounds.y0, first_byte = tile_bounds.first_byte, pitch = tile_bounds.pitch, rows = tile_bounds.rows;
        const bool misses = tile_bounds.misses, inside = tile_bounds.inside, staged = tile_bounds.staged;
        const int windows_bytes = paired ? rotation_windows_bytes(rows) : 0;
        std::byte* const raw = footprint + windows_bytes;
        const bool windowed = paired && staged && inside && 2 * pitch <= rotation_window_stride;
        // Which words of the footprint this thread stages, and then rewrites as windows.
        const FootprintSweep sweep = footprint_sweep<Shape::threads>(tid, pitch / 16, tile_bounds.words_magic);
        // Whether footprint row r's word in this thread's column holds taps (every word where there are no spans).
        const auto reached = [&](int r) {
            if (!spans) return true;
            const ushort2 w = row_words[slot][r];
            return static_cast<unsigned>(sweep.column - w.x) < static_cast<unsigned>(w.y - w.x);
        };

        // The tile's row origins and column steps; none for a tile that misses the image (half the tiles of an
        // expanded canvas at 45 degrees), whose background reads neither.
        const auto make_tables = [&] {
            if (misses) return;
            for (int i = tid; i < columns; i += Shape::threads) {
                int a = 0, b = 0;
                if (i < tile_h) {
                    rotation_row_origin(plan, tile_y + i, a, b);
                    row_origin[i] = make_int2(a, b);
                }
                // Columns past the tile's (or the image's) edges repeat its last, so that a run reads its steps
                // unclamped and every pixel it computes, stored or not, takes its taps in the footprint.
                rotation_column_step(plan, min(max(tile_x - extra + i, first_column(tile_x)), last_column(tile_x)), a, b);
                column_step[i + i / 16] = make_int2(a, b);
            }
        };
        // The footprint's loads first; the tables, the next tile's words and the bounds of the one after it are
        // computed while they fly. `tables_first` (a study) makes the tables before the loads, behind a barrier
        // of their own, as the kernel did.
        if (tables_first) {
            make_tables();
            __syncthreads();
        }
        if (staged) {
            // Whole 16-byte words where the source allows, the row's last partial word a sample at a time.
            const int row_bytes = width * pixel_bytes;
            if (sweep.active) {
                const int byte = first_byte + sweep.column * 16;
                const bool whole = wide_src && byte + 16 <= row_bytes;  // the same for every row of the column
                const std::byte* from = src + static_cast<std::size_t>(y0 + sweep.first_row) * src_pitch + byte;
                const std::size_t from_step = static_cast<std::size_t>(sweep.row_step) * src_pitch;
                const int to_first = sweep.first_row * pitch + sweep.column * 16, to_step = sweep.row_step * pitch;
                if (whole) {
                    unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(raw)) + static_cast<unsigned>(to_first);
                    for (int r = sweep.first_row; r < rows; r += sweep.row_step, from += from_step, to += static_cast<unsigned>(to_step)) {
                        if (reached(r)) copy_16_async(to, from);
                    }
                } else {
                    std::byte* to = raw + to_first;
                    for (int r = sweep.first_row; r < rows; r += sweep.row_step, from += from_step, to += to_step) {
                        if (!reached(r)) continue;
                        for (int b = 0; b < 16 && byte + b < row_bytes; b += static_cast<int>(sizeof(Sample))) {
                            *reinterpret_cast<Sample*>(to + b) = *reinterpret_cast<const Sample*>(from + b);
                        }
                    }
                }
            }
        }
        if (!tables_first) make_tables();
        // By the block's second half, whose warps the tables leave idle.
        if (row_spans && tile + grid < tiles) find_row_words(bounds[next], row_words[slot ^ 1], Shape::threads / 2);
        if (tid == bounds_thread && tile + 2 * grid < tiles) {
            const int2 later = tile_after(2);
            bounds[after] = bounds_of(later.x, later.y);
        }
        // A tile that misses the image loaded nothing and reads neither the footprint nor the tables: the next
        // tile's first barrier orders what this one wrote for later tiles (their bounds and rows' words), so it
        // skips this barrier (half the tiles of an expanded canvas at 45 degrees). It still waits for the table's
        // copy where the first tile misses, so that no block ends with a copy into its shared memory in flight.
        wait_copies_async();  // the footprint's, and the first time the table's
        if (!misses) __syncthreads();
        {
            const int done = now;
            now = next;
            next = after;
            after = done;
        }
        if constexpr (paired) {
            if (windowed) {
                // Windows 2i and 2i + 1 from word i and the next word's first byte: a 16-byte word and one
                // word more make 8 windows (the row's last reads past it, unused).
                if (sweep.active) {
                    const std::byte* from = raw + sweep.first_row * pitch + sweep.column * 16;
                    std::byte* to_bytes = footprint + sweep.first_row * rotation_window_stride + sweep.column * 32;
                    const int from_step = sweep.row_step * pitch, to_step = sweep.row_step * rotation_window_stride;
                    for (int r = sweep.first_row; r < rows; r += sweep.row_step, from += from_step, to_bytes += to_step) {
                        if (!reached(r)) continue;
                        const uint4 v = *reinterpret_cast<const uint4*>(from);
                        const unsigned next_word = *reinterpret_cast<const unsigned*>(from + 16);
                        uint2* const to = reinterpret_cast<uint2*>(to_bytes);
                        to[0] = make_uint2(__byte_perm(v.x, 0, 0x2110), __byte_perm(v.x, v.y, 0x4332));
                        to[1] = make_uint2(__byte_perm(v.y, 0, 0x2110), __byte_perm(v.y, v.z, 0x4332));
                        to[2] = make_uint2(__byte_perm(v.z, 0, 0x2110), __byte_perm(v.z, v.w, 0x4332));
                        to[3] = make_uint2(__byte_perm(v.w, 0, 0x2110), __byte_perm(v.w, next_word, 0x4332));
                    }
                }
                __syncthreads();
            }
        }

        const bool in_tile = column < tile_w;  // unshifted only (a shifted grid's last column may lie past the image)
        const int count = in_tile ? min(run, tile_w - column) : 0;
        const SharedPixels<pixel_bytes> shared{raw, pitch, y0, first_byte};
        const PitchedPixels<pixel_bytes> global{src, src_pitch};

        // Unshifted, a thread's columns are the same in each of its rows: short runs keep their steps in
        // registers.
        constexpr bool steps_held = !Shifted && run <= 4;
        int2 held[steps_held ? run : 1];
        if constexpr (steps_held) {
#pragma unroll
            for (int j = 0; j < run; ++j) held[j] = column_step[in_tile ? step_index + j : 0];
        }
        // A pixel whose taps all lie in the image, from `p`, its first tap, `stride` bytes from a row of taps to the
        // next: in the staged footprint, or in registers (direct reads).
        const auto inside_pixel = [&](const std::byte* p, int stride, const RotationTap& tap, Sample* pixel) {
            if constexpr (sizeof(Sample) == 1 && Interp == Interpolation::bilinear) {
                uint2 weights;
                bilinear_u8_weight_pairs(static_cast<std::uint32_t>(tap.entry) & 31u, static_cast<std::uint32_t>(tap.entry) >> 5, weights.x,
                                         weights.y);
                bilinear_u8_inside<Channels>(p, stride, weights, pixel);
            } else if constexpr (Interp == Interpolation::nearest) {
                const Weight none[1] = {};
                sample_inside<Sample, Channels, Interp>(p, static_cast<std::size_t>(stride), none, pixel);
            } else if constexpr (Interp == Interpolation::bilinear) {
                float w[4];
                bilinear_float_weights(static_cast<std::uint32_t>(tap.entry) & 31u, static_cast<std::uint32_t>(tap.entry) >> 5, w);
                sample_inside<Sample, Channels, Interp>(p, static_cast<std::size_t>(stride), w, pixel);
            } else {
                Weight w[taps * taps];
                if constexpr (table_bytes > 0 && sizeof(w) % 16 == 0) {
#pragma unroll
                    for (int q = 0; q < static_cast<int>(sizeof(w) / 16); ++q) {
                        const uint4 v = reinterpret_cast<const uint4*>(shared_weights + tap.entry * taps * taps)[q];
                        std::memcpy(reinterpret_cast<std::byte*>(w) + 16 * q, &v, 16);
                    }
                } else if constexpr (table_bytes > 0) {
                    static_assert(sizeof(w) == 8);
                    const uint2 v = reinterpret_cast<const uint2*>(shared_weights + tap.entry * taps * taps)[0];
                    std::memcpy(w, &v, 8);
                } else {
                    load_weights(plan.weights, tap.entry, w);
                }
                sample_inside<Sample, Channels, Interp>(p, static_cast<std::size_t>(stride), w, pixel);
            }
        };
        // Every thread goes round every pass, in the tile or not: the stores' shuffles need the whole warp.
        // The tile's case is chosen once a row, outside the loop over its pixels.
        constexpr int rows_per_pass = Shape::threads / Shape::runs_per_row;
        for (int pass = 0; pass < tile_h; pass += rows_per_pass) {
            const int row = pass + tid / Shape::runs_per_row;
            std::byte* const row_start = dst + static_cast<std::size_t>(tile_y + row) * dst_pitch;
            // Shifted: the run's first pixel, from tile_x, and its pixels lo to hi - 1 in the image.
            const int first = Shifted && row < tile_h ? column - Shift::of(row_start) : column;
            const int lo = Shifted ? max(0, -(tile_x + first)) : 0;
            const int hi = Shifted ? min(run, plan.dst_width - tile_x - first) : count;
            const bool active = Shifted ? row < tile_h && lo < hi : in_tile && row < tile_h;
            const int shifted_index = first + extra;  // the run's first column in the table
            const auto step_of = [&](int j) {
                if constexpr (steps_held) return held[j];
                if constexpr (Shifted) return column_step[shifted_index + j + ((shifted_index + j) >> 4)];
                return column_step[step_index + j];
            };
            __align__(16) Sample out[run * Channels] = {};
            if (active) {
                const int2 origin = row_origin[row];
                if (misses) {
#pragma unroll
                    for (int j = 0; j < run; ++j) {
#pragma unroll
                        for (int k = 0; k < Channels; ++k) out[j * Channels + k] = Traits::background(plan, k);
                    }
                } else if (paired && windowed) {
                    // Coordinates from the footprint's corner, with the windows' shared-memory address in
                    // bits 9 up of x (a multiple of 4, so neither the fraction nor x & 1 changes): pixel x's
                    // two taps of a row are the 16-bit pair at byte 2x of its windows, `half & ~1`, one
                    // 16-bit load a row, each summed by its own dp2a (where a word at `half & ~3` and a
                    // byte permutation chosen by `half & 2` took three instructions more a pixel).
                    const unsigned windows = static_cast<unsigned>(__cvta_generic_to_shared(footprint));
                    const int from_x = origin.x - (first_byte << rotation_ab_bits) + static_cast<int>(windows << (rotation_ab_bits - 1));
                    const int from_y = origin.y - (y0 << rotation_ab_bits);
#pragma unroll
                    for (int j = 0; j < run; ++j) {
                        const int2 step = step_of(j);
                        const int fx = from_x + step.x, fy = from_y + step.y;
                        const unsigned half = static_cast<unsigned>(fx) >> (rotation_ab_bits - 1);
                        const unsigned at = static_cast<unsigned>(fy >> rotation_ab_bits) * rotation_window_stride + (half & ~1u);
                        unsigned top_pair, bottom_pair;
                        asm volatile("ld.shared.u16 %0, [%2];\n\tld.shared.u16 %1, [%2+%3];"
                                     : "=r"(top_pair), "=r"(bottom_pair)
                                     : "r"(at), "n"(rotation_window_stride));
                        std::uint32_t top = 0, bottom = 0;
                        constexpr int fraction = rotation_ab_bits - rotation_inter_bits;
                        bilinear_u8_weight_pairs(static_cast<std::uint32_t>(fx >> fraction) & 31u, static_cast<std::uint32_t>(fy >> fraction) & 31u, top, bottom);
                        unsigned sum = 1u << (rotation_coef_bits - 1);  // the cast's rounding; the weights sum to 2^15
                        asm("dp2a.lo.u32.u32 %0, %1, %2, %0;" : "+r"(sum) : "r"(top), "r"(top_pair));
                        asm("dp2a.lo.u32.u32 %0, %1, %2, %0;" : "+r"(sum) : "r"(bottom), "r"(bottom_pair));
                        out[j] = static_cast<Sample>(sum >> rotation_coef_bits);
                    }
                } else if (inside && staged) {
#pragma unroll
                    for (int j = 0; j < run; ++j) {
                        const int2 step = step_of(j);
                        const RotationTap tap = rotation_tap<Interp, false>(origin.x + step.x, origin.y + step.y);
                        inside_pixel(shared.at(tap.x, tap.y), pitch, tap, out + j * Channels);
                    }
                } else if (direct && inside) {
                    // The taps straight from global memory, a whole pixel a load, into registers.
#pragma unroll
                    for (int j = 0; j < run; ++j) {
                        const int2 step = step_of(j);
                        const RotationTap tap = rotation_tap<Interp, false>(origin.x + step.x, origin.y + step.y);
                        __align__(16) std::byte near[taps * taps * pixel_bytes];
                        const std::byte* const first_tap = global.at(tap.x, tap.y);
#pragma unroll
                        for (int r = 0; r < taps; ++r) {
#pragma unroll
                            for (int c = 0; c < taps; ++c) load_pixel_direct<pixel_bytes>(first_tap + r * src_pitch + c * pixel_bytes, near + (r * taps + c) * pixel_bytes);
                        }
                        inside_pixel(near, taps * pixel_bytes, tap, out + j * Channels);
                    }
                } else if (staged) {
#pragma unroll
                    for (int j = 0; j < run; ++j) {
                        const int2 step = step_of(j);
                        sample_at<Sample, Channels, Interp>(plan, shared, origin.x + step.x, origin.y + step.y, out + j * Channels);
                    }
                } else {
#pragma unroll
                    for (int j = 0; j < run; ++j) {
                        const int2 step = step_of(j);
                        sample_at<Sample, Channels, Interp>(plan, global, rotation_math::add_wrapping(origin.x, step.x),
                                                            rotation_math::add_wrapping(origin.y, step.y), out + j * Channels);
                    }
                }
            }
            if constexpr (Shifted) {
                if (active) store_shifted_run<Shape::run_bytes>(out, row_start + static_cast<std::ptrdiff_t>(tile_x + first) * pixel_bytes, lo * pixel_bytes, hi * pixel_bytes);
            } else {
                store_run<Shape::run_bytes, Shape::runs_per_row>(out, dst, dst_pitch, tile_x, tile_y + row, tile_w, column, count, pixel_bytes, active);
            }
        }
    }
}

}  // namespace gpurotate::detail
