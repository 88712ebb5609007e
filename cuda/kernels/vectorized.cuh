#pragma once
// The production kernels: every global access is a 16-byte vector (8 bytes for the stores of 3-byte
// pixels), coalesced on both sides, and the pixels change places in registers, not in shared memory.
//
// A lane owns a block of R source rows by K source pixels, where K pixels fill one or three 16-byte
// vectors (16 u8, 8 u16, 16 RGB8 = 48 bytes, 4 RGBA8 or f32, 8 RGB16 = 48 bytes, 2 RGBA16, 4 RGB32F = 48
// bytes, 1 RGBA32F). It loads the R row vectors, and for an element that swaps axes writes K output
// rows of R pixels each; R is chosen so that those R pixels are again whole vectors (for 3- and 6-byte
// pixels, the pieces of the warp's four lanes together are). Eight lanes cover 128 contiguous bytes of a
// source row; four lanes cover 4 R contiguous output pixels. Several blocks per lane (BlocksPerLane),
// run one after another, tile the rest.
//
// Mirrors are compile-time parameters: they reverse the order of rows and of pixels inside a vector,
// which are register renamings. A mirrored source column range starts on a vector only when the row's
// bytes are whole vectors; otherwise (a run-time choice per image) each row is loaded as the vectors that
// cover it and shifted into place (load_words_shifted). In tiles that overhang the image edge, the lane
// blocks cut by the edge load only the bytes inside, as words, and store the part of each row inside.
//
// The tile bodies are structs with a static `tile` function, so that the grouped launch (grouped.cuh)
// runs the same code per image.

#include "kernels/pixel_access.cuh"
#include "kernels/vector_load.cuh"

#include <cstdint>
#include <type_traits>

namespace gpurotate::detail {

/// The register block of a pixel width: K pixels per source vector, R rows per block, blocks per lane.
template <int PixelBytes>
struct VectorBlock;
template <> struct VectorBlock<1> { static constexpr int K = 16, R = 16, blocks_per_lane = 1; };
template <> struct VectorBlock<2> { static constexpr int K = 8, R = 8, blocks_per_lane = 2; };
template <> struct VectorBlock<3> { static constexpr int K = 16, R = 8, blocks_per_lane = 1; };
template <> struct VectorBlock<4> { static constexpr int K = 4, R = 4, blocks_per_lane = 2; };
// 6-byte pixels: 4 rows a block (24-byte output pieces, staged into whole vectors per warp), 2 blocks in
// sequence. As one block of 8 rows, a thread needed 255 registers and spilled, and the transposes ran at
// 90% of copy against 92-93% (H100, the `vectorized-split-rows` study row; bench/RESULTS.md, 2026-11-22).
template <> struct VectorBlock<6> { static constexpr int K = 8, R = 4, blocks_per_lane = 2; };
template <> struct VectorBlock<8> { static constexpr int K = 2, R = 2, blocks_per_lane = 2; };
template <> struct VectorBlock<12> { static constexpr int K = 4, R = 4, blocks_per_lane = 1; };
template <> struct VectorBlock<16> { static constexpr int K = 1, R = 1, blocks_per_lane = 2; };

/// The same tile with each lane block split into two of half the rows (for R > 1): half the registers a
/// block holds, and with blocks run one after another, about half the registers a thread needs.
template <int PixelBytes>
struct SplitVectorBlock {
    using Whole = VectorBlock<PixelBytes>;
    static constexpr bool splits = Whole::R > 1;
    static constexpr int K = Whole::K, R = splits ? Whole::R / 2 : Whole::R;
    static constexpr int blocks_per_lane = splits ? 2 * Whole::blocks_per_lane : Whole::blocks_per_lane;
};

/// Threads per block: 4 warps, each 8 lanes wide (128 source bytes) and 4 lanes tall.
inline constexpr int vectorized_threads = 128;
inline constexpr int vectorized_lanes_x = 8;
inline constexpr int vectorized_lanes_y = vectorized_threads / vectorized_lanes_x;  // across the 4 warps

/// Whether an image's mirrored source columns load shifted (load_words_shifted): exactly when its rows
/// are not whole 16-byte vectors, since lane blocks end at the row's end and are K * S = 16 or 48 bytes
/// wide. The same for the whole image, so the launchers pick a kernel (or a grouped family) by it.
__host__ __device__ constexpr bool loads_shifted_columns(bool mirror_x, std::int64_t width, int pixel_bytes) {
    return mirror_x && width * pixel_bytes % 16 != 0;
}

/// Widest power-of-two access (at most 16 bytes) that divides `bytes`.
constexpr int vector_access_bytes(int bytes) { return bytes % 16 == 0 ? 16 : bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : 0; }

template <int Bytes, bool L2Prefetch = false>
__device__ __forceinline__ void load_words(const std::byte* p, std::uint32_t* words) {
    constexpr int access = vector_access_bytes(Bytes);
    static_assert(access >= 4, "vectorized rows are whole 32-bit words");
#pragma unroll
    for (int i = 0; i < Bytes / access; ++i) {
        if constexpr (access == 16) {
            const uint4 v = load_vector<L2Prefetch>(p + 16 * i);
            words[4 * i] = v.x, words[4 * i + 1] = v.y, words[4 * i + 2] = v.z, words[4 * i + 3] = v.w;
        } else if constexpr (access == 8) {
            const uint2 v = reinterpret_cast<const uint2*>(p)[i];
            words[2 * i] = v.x, words[2 * i + 1] = v.y;
        } else {
            words[i] = reinterpret_cast<const std::uint32_t*>(p)[i];
        }
    }
}

template <int Bytes>
__device__ __forceinline__ void store_words(std::byte* p, const std::uint32_t* words) {
    constexpr int access = vector_access_bytes(Bytes);
    static_assert(access >= 4, "vectorized rows are whole 32-bit words");
#pragma unroll
    for (int i = 0; i < Bytes / access; ++i) {
        if constexpr (access == 16) {
            reinterpret_cast<uint4*>(p)[i] = make_uint4(words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]);
        } else if constexpr (access == 8) {
            reinterpret_cast<uint2*>(p)[i] = make_uint2(words[2 * i], words[2 * i + 1]);
        } else {
            reinterpret_cast<std::uint32_t*>(p)[i] = words[i];
        }
    }
}

/// The first `n` of `Bytes` bytes at `p` (n < Bytes) into `words`, the rest zero: whole words, then single
/// bytes, so nothing past the n bytes is read. `p` is word-aligned.
template <int Bytes>
__device__ __forceinline__ void load_prefix(const std::byte* p, std::uint32_t* words, int n) {
#pragma unroll
    for (int j = 0; j < Bytes / 4; ++j) {
        if (4 * j + 4 <= n) {
            words[j] = reinterpret_cast<const std::uint32_t*>(p)[j];
        } else {
            std::uint32_t w = 0;
#pragma unroll
            for (int b = 0; b < 3; ++b) {
                if (4 * j + b < n) w |= static_cast<std::uint32_t>(p[4 * j + b]) << (8 * b);
            }
            words[j] = w;
        }
    }
}

/// The first `n` of the `Bytes` bytes in `words` (n < Bytes), stored at `p`: whole words, then single bytes.
/// `p` is word-aligned.
template <int Bytes>
__device__ __forceinline__ void store_prefix(std::byte* p, const std::uint32_t* words, int n) {
#pragma unroll
    for (int j = 0; j < Bytes / 4; ++j) {
        if (4 * j + 4 <= n) {
            reinterpret_cast<std::uint32_t*>(p)[j] = words[j];
        } else {
#pragma unroll
            for (int b = 0; b < 3; ++b) {
                if (4 * j + b < n) p[4 * j + b] = static_cast<std::byte>(words[j] >> (8 * b));
            }
        }
    }
}

/// The bytes a block of `block_bytes` bytes stores from byte `x_bytes` of the output row at `row`: those inside the
/// row, and where its padding is scratch (TransformArgs::scratch_padding) also those up to the end of the row's last
/// 32-byte sector, never past the pitch. L2 fills a sector written in part from DRAM before writing it back: an
/// 800x600 1-byte rot90 read one extra sector for each 600-byte output row (bench/RESULTS.md, 2026-11-23).
/// 0 for a block wholly past the stored bytes.
__device__ __forceinline__ int stored_bytes(const TransformArgs& a, const std::byte* row, long long x_bytes, int block_bytes, int pixel_bytes) {
    constexpr long long sector = 32;
    long long end = static_cast<long long>(a.dst_width) * pixel_bytes;
    if (a.scratch_padding) {
        const long long lead = static_cast<long long>(reinterpret_cast<std::uintptr_t>(row) % sector);  // the row's offset in its first sector
        end = min(static_cast<long long>(a.dst_pitch), (lead + end + sector - 1) / sector * sector - lead);
    }
    return static_cast<int>(max(0LL, min(static_cast<long long>(block_bytes), end - x_bytes)));
}

/// The Bytes bytes from byte `shift` (0-15) on of the chunks `w`, into `words`.
template <int Bytes, int Chunks>
__device__ __forceinline__ void shift_chunks(std::uint32_t (&w)[4 * Chunks], int shift, std::uint32_t* words) {
    // Whole words by shift / 4 in two select steps (a register array cannot be indexed at run time
    // without going to local memory), then the bytes by shift % 4.
    const int word_shift = shift >> 2;
#pragma unroll
    for (int i = 0; i + 1 < 4 * Chunks; ++i) w[i] = (word_shift & 1) ? w[i + 1] : w[i];
#pragma unroll
    for (int i = 0; i + 2 < 4 * Chunks; ++i) w[i] = (word_shift & 2) ? w[i + 2] : w[i];
    const unsigned bits = 8u * static_cast<unsigned>(shift & 3);
#pragma unroll
    for (int j = 0; j < Bytes / 4; ++j) words[j] = __funnelshift_r(w[j], w[j + 1], bits);
}

/// Bytes [offset, offset + Bytes) of the row that starts at `row` (16-byte aligned), for an offset that
/// need not be: the 16-byte chunks that cover the range are loaded whole and their words funnel-shifted
/// into place. A mirrored source column range starts at an offset that is a multiple of 16 bytes only when
/// the row's width is, so without this, images of such widths (1080 1-byte pixels, 600 RGB8) took the
/// pixel kernels for flip-h, rot180, rot270 and transverse. Reads stay inside the row's 16-byte chunks:
/// the last chunk is loaded only when the range reaches into it. MayStartBefore: `offset` may be negative
/// (a lane block cut by the row's start); chunks before the row read as zero.
template <int Bytes, bool L2Prefetch, bool MayStartBefore>
__device__ __forceinline__ void load_words_shifted(const std::byte* row, int offset, std::uint32_t* words) {
    static_assert(Bytes % 16 == 0, "shifted rows are whole 16-byte vectors");
    constexpr int chunks = Bytes / 16 + 1;
    const int shift = offset & 15;  // two's complement: the floor remainder, for negative offsets too
    const int first = offset - shift;
    std::uint32_t w[4 * chunks];
#pragma unroll
    for (int c = 0; c < chunks; ++c) {
        const int at = first + 16 * c;
        const bool needed = (c + 1 < chunks || shift != 0) && (!MayStartBefore || at >= 0);
        uint4 v = make_uint4(0, 0, 0, 0);
        if (needed) v = load_vector<L2Prefetch>(row + at);
        w[4 * c] = v.x, w[4 * c + 1] = v.y, w[4 * c + 2] = v.z, w[4 * c + 3] = v.w;
    }
    shift_chunks<Bytes, chunks>(w, shift, words);
}

/// load_words_shifted for `Rows` rows at once, by a converged warp whose groups of LanesX lanes read the
/// same rows, lane x the range Bytes before lane x - 1's (mirrored columns, inside the rows): a lane's
/// last chunk of a row is lane x - 1's first, so it comes by a shuffle, and only lane 0 of a group loads
/// it. 1-byte transposes of 1080-wide images went from 78 to 88% of copy (H100, bench/RESULTS.md, 2026-11-23).
/// Every load goes out before the first shuffle: loaded and shuffled row by row, the shuffles
/// held each row's loads back until the row before had arrived, and the same transposes fell to 64%.
/// What keeps them under the aligned ones' 97%: 255 registers a thread (all 32 loads of a block in flight,
/// and every lane holds lane 0's 16 extra chunks), 2 blocks an SM against 3 at 136. Spreading those chunks
/// over the group's lanes took 182 registers, still 2 blocks an SM, and ncu timed the kernel the same.
/// `row_of(r)` is the start of row r.
template <int Bytes, int Rows, bool L2Prefetch, int LanesX, class RowOf>
__device__ __forceinline__ void load_rows_shifted_shared(RowOf&& row_of, int offset, std::uint32_t* words, int lane_x) {
    static_assert(Bytes % 16 == 0, "shifted rows are whole 16-byte vectors");
    constexpr int chunks = Bytes / 16 + 1;
    const int shift = offset & 15;
    const int first = offset - shift;
    const auto load = [&](int r, int c) { return load_vector<L2Prefetch>(row_of(r) + first + 16 * c); };
    uint4 own[Rows][chunks - 1], last[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
#pragma unroll
        for (int c = 0; c + 1 < chunks; ++c) own[r][c] = load(r, c);
    }
    const bool loads_last = lane_x == 0 && shift != 0;  // the group's first lane: its last chunk is no lane's first
#pragma unroll
    for (int r = 0; r < Rows; ++r) last[r] = loads_last ? load(r, chunks - 1) : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
        std::uint32_t w[4 * chunks];
#pragma unroll
        for (int c = 0; c + 1 < chunks; ++c) w[4 * c] = own[r][c].x, w[4 * c + 1] = own[r][c].y, w[4 * c + 2] = own[r][c].z, w[4 * c + 3] = own[r][c].w;
        constexpr int l = 4 * (chunks - 1);
        w[l] = __shfl_up_sync(0xffffffffu, own[r][0].x, 1, LanesX), w[l + 1] = __shfl_up_sync(0xffffffffu, own[r][0].y, 1, LanesX);
        w[l + 2] = __shfl_up_sync(0xffffffffu, own[r][0].z, 1, LanesX), w[l + 3] = __shfl_up_sync(0xffffffffu, own[r][0].w, 1, LanesX);
        if (loads_last) w[l] = last[r].x, w[l + 1] = last[r].y, w[l + 2] = last[r].z, w[l + 3] = last[r].w;
        shift_chunks<Bytes, chunks>(w, shift, words + r * (Bytes / 4));
    }
}

/// The 32-bit word whose bytes 0..3 are bytes b0..b3 of the register array `w` (byte b is byte b % 4 of
/// word b / 4). With constant indices this folds to a move when the bytes are one word in order (every
/// width that is a multiple of 4 bytes), to one PRMT when they come from at most two words, else three.
template <int N>
__device__ __forceinline__ std::uint32_t gather_word(const std::uint32_t (&w)[N], int b0, int b1, int b2, int b3) {
    const int w0 = b0 / 4, w1 = b1 / 4, w2 = b2 / 4, w3 = b3 / 4;
    const unsigned s0 = b0 % 4, s1 = b1 % 4, s2 = b2 % 4, s3 = b3 % 4;
    if (w0 == w1 && w1 == w2 && w2 == w3) {
        if (s0 == 0 && s1 == 1 && s2 == 2 && s3 == 3) return w[w0];
        return __byte_perm(w[w0], 0, s0 | s1 << 4 | s2 << 8 | s3 << 12);
    }
    if (w0 == w1 && w2 == w3) return __byte_perm(w[w0], w[w2], s0 | s1 << 4 | (4 + s2) << 8 | (4 + s3) << 12);
    const std::uint32_t lo = w0 == w1 ? __byte_perm(w[w0], 0, s0 | s1 << 4) : __byte_perm(w[w0], w[w1], s0 | (4 + s1) << 4);
    const std::uint32_t hi = w2 == w3 ? __byte_perm(w[w2], 0, s2 | s3 << 4) : __byte_perm(w[w2], w[w3], s2 | (4 + s3) << 4);
    return __byte_perm(lo, hi, 0x5410);
}

/// Stores a warp's output through shared memory so that consecutive lanes store consecutive 16-byte
/// vectors. For 3-, 6- and 12-byte pixels a lane's block is 48 (or 24) bytes wide, and storing it directly
/// as vectors at that stride writes half sectors per instruction; staged, every store fills whole sectors.
/// The warp writes `Slots` output row segments at once; lane (slot, part) holds `Words` words of its
/// slot at word offset part * Words.
template <int Slots, int Parts, int Words>
struct WarpStaging {
    static constexpr int slot_words = Parts * Words;
    static_assert(slot_words % 4 == 0, "a slot is whole 16-byte vectors");
    static constexpr int padded_words = slot_words + 4;  // one vector of padding staggers the slots' banks
    static constexpr int buffer_words = Slots * padded_words;
    static constexpr int slot_vectors = slot_words / 4;

    std::uint32_t* buffer;  ///< this warp's `buffer_words` words of shared memory

    __device__ __forceinline__ void put(int slot, int part, const std::uint32_t (&words)[Words]) const {
#pragma unroll
        for (int j = 0; j < Words; ++j) buffer[slot * padded_words + part * Words + j] = words[j];
    }

    /// Stores every slot; `slot_start(slot)` is the global address of the slot's first byte.
    template <class SlotStart>
    __device__ __forceinline__ void store(int lane, SlotStart&& slot_start) const {
        __syncwarp();
#pragma unroll
        for (int v = lane; v < Slots * slot_vectors; v += 32) {
            const int slot = v / slot_vectors, piece = v % slot_vectors;
            const uint4 value = *reinterpret_cast<const uint4*>(buffer + slot * padded_words + piece * 4);
            *reinterpret_cast<uint4*>(slot_start(slot) + piece * 16) = value;
        }
        __syncwarp();  // the buffer is reused by the next put
    }
};

inline constexpr int vectorized_warps = vectorized_threads / 32;
inline constexpr int vectorized_lanes_y_per_warp = 32 / vectorized_lanes_x;

// ----------------------------------------------------------------------------------- axis-swapping elements

/// Output tile of a block: tile_w output pixels wide (source rows), tile_h output rows (source columns).
/// LanesX lanes of a warp cover one source row (LanesX x 16 bytes); the rest of the warp stacks rows.
template <int S, int LanesX = vectorized_lanes_x, int BlocksScale = 1, bool SplitRows = false>
struct VectorizedTransposeTile {
    using B = std::conditional_t<SplitRows, SplitVectorBlock<S>, VectorBlock<S>>;
    static constexpr int blocks_per_lane = B::blocks_per_lane * BlocksScale;
    static constexpr int lanes_x = LanesX;
    static constexpr int lanes_y_per_warp = 32 / LanesX;
    static constexpr int lanes_y = vectorized_threads / LanesX;
    static constexpr int tile_h = LanesX * B::K;                         // output rows per tile
    static constexpr int tile_w = lanes_y * B::R * blocks_per_lane;  // output pixels per row
};

/// One output tile of an axis-swapping element, by the block's 128 threads. A whole tile takes the fast
/// path: no bounds checks, and 3-, 6- and 12-byte pixels staged into whole-vector stores. A tile that
/// overhangs the image still moves the lane blocks of warps that hold only whole blocks as vectors (stored
/// directly), and a warp holding a block cut by the edge moves all its blocks through cut_block (words for
/// the cut ones, vectors for the rest): small images, as in a grouped launch, are mostly
/// such tiles.
/// A lane's register blocks (2 for 2-, 4-, 8- and 16-byte pixels) run one after another: the loop is not
/// unrolled. Unrolled, all their loads are in flight at once, but a thread then needs 202-255 registers
/// for 2- and 4-byte pixels, 2 blocks of 128 threads fit on an SM, and the 4- and 8-byte transposes ran at
/// 76-86% of copy on an H100 against 92-96% in sequence, the others within a point (bench/RESULTS.md,
/// 2026-11-22). `Unrolled` = true is the bench's `vectorized-unrolled` row.
/// `SplitRows` takes SplitVectorBlock's blocks (a tuning-study row).
/// `RuntimeMirrors`: the mirrors are the image's (a.map), not MirrorX and MirrorY: one body for all four
/// axis-swapping elements, for launches that mix them (grouped, one element per image of a batch). A mirrored
/// y is then a walk up the source rows and a mirrored x a walk up the block's output rows, both addresses;
/// the fixed bodies instead gather the mirrored columns, for which a runtime choice would need registers
/// indexed at run time. Four fixed bodies in one kernel, used at once, overflowed the instruction cache:
/// stalls for want of an instruction rose from 1.4 to 13.8 per issue and the kernel took 54 us where one
/// body took 31 (ncu, 768 planes of 224x224 u8 on an H100; bench/RESULTS.md, 2026-11-24).
template <int S, bool MirrorX, bool MirrorY, int LanesX = vectorized_lanes_x, int BlocksScale = 1, bool L2Prefetch = true,
          bool Unrolled = false, bool SplitRows = false, bool RuntimeMirrors = false>
struct VectorizedTranspose {
    using Tile = VectorizedTransposeTile<S, LanesX, BlocksScale, SplitRows>;
    using B = typename Tile::B;
    static constexpr int K = B::K, R = B::R;
    static constexpr int row_words = K * S / 4;  // one source row of the block
    static constexpr int out_words = R * S / 4;  // one output row of the block
    // The warp's output segments: one row per lane_x, each lanes_y_per_warp lanes wide (staged only when
    // that is whole vectors; the placeholder parameters otherwise just keep the type valid).
    static constexpr bool staged = S % 3 == 0 && Tile::lanes_y_per_warp * out_words % 4 == 0;
    using Staging = WarpStaging<Tile::lanes_x, staged ? Tile::lanes_y_per_warp : 1, staged ? out_words : 4>;
    /// Shared words each warp needs for its staging buffer.
    static constexpr int staging_words = staged ? Staging::buffer_words : 1;

    __device__ __forceinline__ static bool mirror_x(const TransformArgs& a) {
        if constexpr (RuntimeMirrors) {
            return a.map.mirror_x;
        } else {
            return MirrorX;
        }
    }
    __device__ __forceinline__ static bool mirror_y(const TransformArgs& a) {
        if constexpr (RuntimeMirrors) {
            return a.map.mirror_y;
        } else {
            return MirrorY;
        }
    }
    /// The block's output row (0..K-1) that its gathered column i goes to (see gather_output_row).
    __device__ __forceinline__ static int output_row_of(const TransformArgs& a, int i) {
        if constexpr (RuntimeMirrors) {
            return a.map.mirror_x ? K - 1 - i : i;
        } else {
            return i;
        }
    }

    /// Loads the block whose output starts at (x_out, y_out) into `rows`. AllInside: all of it, unchecked;
    /// else only its first `rows_inside` source rows and of each its first `bytes_inside` bytes (the rest
    /// zero). Shifted: the mirrored source columns do not start on a vector (load_words_shifted); a block
    /// cut by the row's start then has its columns before the start read as zero.
    template <bool AllInside, bool Shifted>
    __device__ __forceinline__ static void load_block(const TransformArgs& a, int x_out, int y_out, int rows_inside, int bytes_inside,
                                                      std::uint32_t (&rows)[R * row_words]) {
        const int W = static_cast<int>(a.src_extent.width), H = static_cast<int>(a.src_extent.height);
        const int source_x = mirror_x(a) ? W - (y_out + K) : y_out;
        const bool up = mirror_y(a);
        const auto row_of = [&](int r) {
            const int source_y = up ? H - 1 - (x_out + r) : x_out + r;
            return a.src + static_cast<std::size_t>(source_y) * a.src_pitch;
        };
        // 1-byte pixels, a whole block, the whole warp here (tile_body's vote): shared chunks. Measured against
        // the per-lane loads (H100, bench/RESULTS.md, 2026-11-23): 1-byte transposes of 1080-wide images
        // 78 -> 88% of copy, 8184-wide 70 -> 78; 2-, 4- and 8-byte pixels (1001-wide) -2.2 to +1.6 points, the
        // mirrors -1.8 to +1.5; 3-byte pixels, whose 48-byte rows save one load in four and keep all four
        // chunks of every row in registers, -0.9 to -6.6. So 1-byte transposes only.
        if constexpr (Shifted && AllInside && S == 1) {
            load_rows_shifted_shared<K * S, R, L2Prefetch, Tile::lanes_x>(row_of, source_x * S, rows,
                                                                         static_cast<int>(threadIdx.x) % Tile::lanes_x);
        } else {
#pragma unroll
            for (int r = 0; r < R; ++r) {  // row r of the block is words [r * row_words, (r + 1) * row_words)
                const std::byte* const row = row_of(r);
                const std::byte* const p = row + static_cast<std::ptrdiff_t>(source_x) * S;
                if (!AllInside && r >= rows_inside) {
#pragma unroll
                    for (int w = 0; w < row_words; ++w) rows[r * row_words + w] = 0;
                } else if constexpr (Shifted) {
                    load_words_shifted<K * S, L2Prefetch, !AllInside>(row, source_x * S, rows + r * row_words);
                } else if (AllInside || bytes_inside == K * S) {
                    load_words<K * S, L2Prefetch>(p, rows + r * row_words);
                } else {
                    load_prefix<K * S>(p, rows + r * row_words, bytes_inside);
                }
            }
        }
    }

    /// Gathered column i of the block: pixel p of each of its R source rows, p = K - 1 - i with a fixed
    /// mirrored x (output row i), else p = i (output row output_row_of(i)).
    __device__ __forceinline__ static void gather_output_row(const std::uint32_t (&rows)[R * row_words], int i, std::uint32_t (&out)[out_words]) {
        const int p = !RuntimeMirrors && MirrorX ? K - 1 - i : i;
#pragma unroll
        for (int j = 0; j < out_words; ++j) {
            // Output byte b is byte b % S of pixel p of block row b / S.
            int src[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const int b = 4 * j + t;
                src[t] = (b / S) * row_words * 4 + p * S + b % S;
            }
            out[j] = gather_word(rows, src[0], src[1], src[2], src[3]);
        }
    }

    /// A lane block cut by the image's edge: its source rows inside (all R, or those before the image's
    /// last) and of each the source columns inside (all K, or those before the row's end, or with mirrored
    /// columns of a width that is not whole vectors, those after the row's start) move as words, and each
    /// output row inside is stored in full or as its prefix inside. A batch of 800x600 1-byte rot90, whose
    /// blocks the last source rows cut, ran at 64% of copy with such blocks pixel by pixel, 70% so, and 77%
    /// with the warp's whole blocks on this path too (H100, bench/RESULTS.md, 2026-11-22 and 2026-11-23; the
    /// rest is mostly part-written sectors: every 600-byte output row ends inside one).
    /// With scratch padding a block past the row's end, inside its last sector, comes here too: it loads nothing
    /// (no source row inside) and stores zeros into the padding.
    template <bool Shifted>
    __device__ __forceinline__ static void cut_block(const TransformArgs& a, int x_out, int y_out) {
        const int rows_inside = max(0, min(R, a.dst_width - x_out));
        const int columns_inside = min(K, a.dst_height - y_out);  // = output rows inside
        std::uint32_t rows[R * row_words];
        load_block<false, Shifted>(a, x_out, y_out, rows_inside, columns_inside * S, rows);
#pragma unroll
        for (int i = 0; i < K; ++i) {
            const int row = output_row_of(a, i);
            if (row >= columns_inside) continue;
            std::uint32_t out[out_words];
            gather_output_row(rows, i, out);
            std::byte* const row_start = a.dst + static_cast<std::size_t>(y_out + row) * a.dst_pitch;
            const int stored = stored_bytes(a, row_start, static_cast<long long>(x_out) * S, R * S, S);
            std::byte* const out_row = row_start + static_cast<std::size_t>(x_out) * S;
            if (stored == R * S) {
                store_words<R * S>(out_row, out);
            } else if (stored > 0) {
                store_prefix<R * S>(out_row, out, stored);
            }
        }
    }

    __device__ static void tile(const TransformArgs& a, int tile_col, int tile_row, std::uint32_t* warp_staging) {
        if constexpr (MirrorX || RuntimeMirrors) {
            // The same for the whole image: no divergence, and whole rows keep the plain loads.
            if (loads_shifted_columns(mirror_x(a), a.src_extent.width, S)) {
                tile_body<true>(a, tile_col, tile_row, warp_staging);
                return;
            }
        }
        tile_body<false>(a, tile_col, tile_row, warp_staging);
    }

    template <bool Shifted>
    __device__ __forceinline__ static void tile_body(const TransformArgs& a, int tile_col, int tile_row, std::uint32_t* warp_staging) {
        const int lane_x = static_cast<int>(threadIdx.x) % Tile::lanes_x;
        const int lane_y = static_cast<int>(threadIdx.x) / Tile::lanes_x;
        const int x0 = tile_col * Tile::tile_w;
        const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
        const Staging staging{warp_staging};
        const bool whole_tile = x0 + Tile::tile_w <= a.dst_width && (tile_row + 1) * Tile::tile_h <= a.dst_height;
        // This lane's output rows y_out .. y_out + K - 1 are source columns u .. u + K - 1 (before mirroring).
        const int y_out = tile_row * Tile::tile_h + lane_x * K;
#pragma unroll(Unrolled ? Tile::blocks_per_lane : 1)
        for (int blk = 0; blk < Tile::blocks_per_lane; ++blk) {
            // Output pixels x_out .. x_out + R - 1 are source rows v .. v + R - 1 (before mirroring).
            const int x_out = x0 + (blk * Tile::lanes_y + lane_y) * R;
            // A warp with any cut block runs the cut path on all its blocks: divergent, it ran both paths one
            // after the other, and the tiles holding cut blocks took about twice as long. Every lane of the
            // warp comes here the same number of times, and whole_tile is the same for the whole block.
            if (!whole_tile && __any_sync(0xffffffffu, !(y_out + K <= a.dst_height && x_out + R <= a.dst_width))) {
                if (y_out < a.dst_height && (x_out < a.dst_width || a.scratch_padding)) cut_block<Shifted>(a, x_out, y_out);
                continue;
            }
            std::uint32_t rows[R * row_words];
            load_block<true, Shifted>(a, x_out, y_out, R, K * S, rows);
#pragma unroll
            for (int i = 0; i < K; ++i) {
                std::uint32_t out[out_words];
                gather_output_row(rows, i, out);
                const int row = output_row_of(a, i);
                bool stored = false;
                if constexpr (staged) {
                    if (whole_tile) {  // the same for the whole block, so the warp stays converged
                        staging.put(lane_x, lane_y % Tile::lanes_y_per_warp, out);
                        const int x_warp = x0 + (blk * Tile::lanes_y + warp * Tile::lanes_y_per_warp) * R;
                        staging.store(lane, [&](int slot) {
                            return a.dst + static_cast<std::size_t>(tile_row * Tile::tile_h + slot * K + row) * a.dst_pitch +
                                   static_cast<std::size_t>(x_warp) * S;
                        });
                        stored = true;
                    }
                }
                if (!stored) {
                    store_words<R * S>(a.dst + static_cast<std::size_t>(y_out + row) * a.dst_pitch + static_cast<std::size_t>(x_out) * S,
                                       out);
                }
            }
        }
    }
};

/// Which load a kernel's tiles use for mirrored source columns: chosen per image as the tile runs (the
/// grouped launch, the bench's study layouts), or fixed by the launcher. Fixed, a kernel holds one body:
/// both in one kernel, the 1-byte transposes that mirror columns needed 187 registers a thread, not 136.
enum class ColumnShift { per_image, aligned, shifted };

template <class Body, ColumnShift Shift>
__device__ __forceinline__ void run_tile(const TransformArgs& a, int tile_col, int tile_row, std::uint32_t* warp_staging) {
    if constexpr (Shift == ColumnShift::per_image) {
        Body::tile(a, tile_col, tile_row, warp_staging);
    } else {
        Body::template tile_body<Shift == ColumnShift::shifted>(a, tile_col, tile_row, warp_staging);
    }
}

/// The blocks start where the source starts, whatever the element: an element that reads the source rows
/// bottom-up (MirrorY: rot90, transverse) takes its tile columns last to first, and one that reads the source
/// columns right to left (MirrorX: rot270, transverse) its tile rows last to first. Taken in the output's
/// order, rot270 and transverse ran 0.3-1.6 points of copy below the source's order on an H100 and 0.4-1.4 on
/// an H200, at 8192x8192; rot90 is level either way (bench/RESULTS.md, 2026-11-27).
template <int S, bool MirrorX, bool MirrorY, int LanesX = vectorized_lanes_x, int BlocksScale = 1, bool L2Prefetch = true,
          bool Unrolled = false, bool SplitRows = false, ColumnShift Shift = ColumnShift::per_image, class Passes = OnePass>
__global__ void __launch_bounds__(vectorized_threads) transpose_vectorized_kernel(TransformArgs args, Passes passes) {
    using Body = VectorizedTranspose<S, MirrorX, MirrorY, LanesX, BlocksScale, L2Prefetch, Unrolled, SplitRows>;
    const TransformArgs a = for_this_image(args);
    __shared__ std::uint32_t staging[vectorized_warps][Body::staging_words];
    const int col = static_cast<int>(MirrorY ? gridDim.x - 1 - blockIdx.x : blockIdx.x);
    for (int step = static_cast<int>(blockIdx.y); step < a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        const int row = tile_row_of(a, step);
        run_tile<Body, Shift>(a, col, MirrorX ? a.tiles_y - 1 - row : row, staging[threadIdx.x / 32]);
    }
}

// ----------------------------------------------------------------------------------- axis-keeping elements

template <int S>
struct VectorizedMirrorTile {
    using B = VectorBlock<S>;
    static constexpr int rows_per_lane = 4;
    static constexpr int tile_w = vectorized_lanes_x * B::K;                        // output pixels per row
    static constexpr int tile_h = vectorized_lanes_y * rows_per_lane;               // output rows
};

/// One output tile of an axis-keeping element; like VectorizedTranspose::tile, whole tiles take the fast
/// path and overhanging tiles move their inside rows as vectors and only the edge pixels one by one.
template <int S, bool MirrorX, bool MirrorY>
struct VectorizedMirror {
    using B = VectorBlock<S>;
    using Tile = VectorizedMirrorTile<S>;
    static constexpr int K = B::K;
    static constexpr int row_words = K * S / 4;
    // The warp's output segments: one row per lane_y of the warp, each vectorized_lanes_x lanes wide.
    using Staging = WarpStaging<vectorized_lanes_y_per_warp, vectorized_lanes_x, row_words>;
    static constexpr bool staged = S % 3 == 0;
    static constexpr int staging_words = staged ? Staging::buffer_words : 1;

    /// Output byte-word j of row r of the lane's block, from the loaded rows `in`.
    template <int N>
    __device__ __forceinline__ static void mirror_row(const std::uint32_t (&in)[N], int r, std::uint32_t (&out)[row_words]) {
#pragma unroll
        for (int j = 0; j < row_words; ++j) {
            // Output byte b is byte b % S of pixel b / S, which mirroring takes from pixel K - 1 - b / S.
            int src[4];
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const int b = 4 * j + t;
                src[t] = r * row_words * 4 + (MirrorX ? K - 1 - b / S : b / S) * S + b % S;
            }
            out[j] = gather_word(in, src[0], src[1], src[2], src[3]);
        }
    }

    /// Row `source_y`'s K pixels from `source_x` into `in`, the first `bytes_inside` of them (the rest zero),
    /// or with Shifted (load_words_shifted) those from the row's start on.
    template <bool Shifted, bool AllInside>
    __device__ __forceinline__ static void load_row(const TransformArgs& a, int source_y, int source_x, int bytes_inside,
                                                    std::uint32_t* in) {
        const std::byte* const row = a.src + static_cast<std::size_t>(source_y) * a.src_pitch;
        if constexpr (Shifted) {
            load_words_shifted<K * S, false, !AllInside>(row, source_x * S, in);
        } else if (AllInside || bytes_inside == K * S) {
            load_words<K * S>(row + static_cast<std::size_t>(source_x) * S, in);
        } else {
            load_prefix<K * S>(row + static_cast<std::size_t>(source_x) * S, in, bytes_inside);
        }
    }

    __device__ static void tile(const TransformArgs& a, int tile_col, int tile_row, std::uint32_t* warp_staging) {
        if constexpr (MirrorX) {
            if (loads_shifted_columns(MirrorX, a.src_extent.width, S)) {  // the same for the whole image, so no divergence
                tile_body<true>(a, tile_col, tile_row, warp_staging);
                return;
            }
        }
        tile_body<false>(a, tile_col, tile_row, warp_staging);
    }

    template <bool Shifted>
    __device__ __forceinline__ static void tile_body(const TransformArgs& a, int tile_col, int tile_row, std::uint32_t* warp_staging) {
        const int lane_x = static_cast<int>(threadIdx.x) % vectorized_lanes_x;
        const int lane_y = static_cast<int>(threadIdx.x) / vectorized_lanes_x;
        const int W = static_cast<int>(a.src_extent.width), H = static_cast<int>(a.src_extent.height);
        const int x0 = tile_col * Tile::tile_w;
        const int x_out = x0 + lane_x * K;
        const int source_x = MirrorX ? W - (x_out + K) : x_out;
        const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
        const Staging staging{warp_staging};
        const int y_first = tile_row * Tile::tile_h + lane_y * Tile::rows_per_lane;
        if (!(x0 + Tile::tile_w <= a.dst_width && (tile_row + 1) * Tile::tile_h <= a.dst_height)) {
            // An overhanging tile: each of the lane's rows inside, whole or cut by the image's right edge
            // (only the bytes inside are read, and the output row's prefix inside is stored; with scratch
            // padding, up to the row's sector end, where a lane wholly past the row's end stores zeros).
            if (x_out >= a.dst_width && !a.scratch_padding) return;
            const int bytes_inside = max(0, min(K, a.dst_width - x_out)) * S;
#pragma unroll 1
            for (int r = 0; r < Tile::rows_per_lane; ++r) {
                const int y = y_first + r;
                if (y >= a.dst_height) break;
                std::byte* const row_start = a.dst + static_cast<std::size_t>(y) * a.dst_pitch;
                const int stored = stored_bytes(a, row_start, static_cast<long long>(x_out) * S, K * S, S);
                if (stored == 0) continue;
                std::uint32_t in[row_words]{}, out[row_words];
                if (bytes_inside > 0) load_row<Shifted, false>(a, MirrorY ? H - 1 - y : y, source_x, bytes_inside, in);
                mirror_row(in, 0, out);
                std::byte* const out_row = row_start + static_cast<std::size_t>(x_out) * S;
                if (stored == K * S) {
                    store_words<K * S>(out_row, out);
                } else {
                    store_prefix<K * S>(out_row, out, stored);
                }
            }
            return;
        }
        std::uint32_t in[Tile::rows_per_lane * row_words];
#pragma unroll
        for (int r = 0; r < Tile::rows_per_lane; ++r) {
            const int source_y = MirrorY ? H - 1 - (y_first + r) : y_first + r;
            load_row<Shifted, true>(a, source_y, source_x, K * S, in + r * row_words);
        }
#pragma unroll
        for (int r = 0; r < Tile::rows_per_lane; ++r) {
            std::uint32_t out[row_words];
            mirror_row(in, r, out);
            if constexpr (staged) {
                staging.put(lane_y % vectorized_lanes_y_per_warp, lane_x, out);
                staging.store(lane, [&](int slot) {
                    const int y = tile_row * Tile::tile_h + (warp * vectorized_lanes_y_per_warp + slot) * Tile::rows_per_lane + r;
                    return a.dst + static_cast<std::size_t>(y) * a.dst_pitch + static_cast<std::size_t>(x0) * S;
                });
            } else {
                store_words<K * S>(a.dst + static_cast<std::size_t>(y_first + r) * a.dst_pitch + static_cast<std::size_t>(x_out) * S, out);
            }
        }
    }
};

template <int S, bool MirrorX, bool MirrorY, ColumnShift Shift, class Passes = OnePass>
__global__ void __launch_bounds__(vectorized_threads) mirror_vectorized_kernel(TransformArgs args, Passes passes) {
    using Body = VectorizedMirror<S, MirrorX, MirrorY>;
    const TransformArgs a = for_this_image(args);
    __shared__ std::uint32_t staging[vectorized_warps][Body::staging_words];
    for (int step = static_cast<int>(blockIdx.y); step < a.tiles_y * passes.count(); step += static_cast<int>(gridDim.y)) {
        run_tile<Body, Shift>(a, static_cast<int>(blockIdx.x), tile_row_of(a, step), staging[threadIdx.x / 32]);
    }
}

}  // namespace gpurotate::detail
