#pragma once
// The CPU backend's register-level moves, on 16-byte vectors of the compilers' vector extensions (GCC 12+ and
// clang both have __builtin_shufflevector): the compiler picks the instructions of whatever target the unit is
// built for (SSE2 unpacks and pshufd on plain x86-64, NEON zips elsewhere), so there is one source for every ISA.
// A pixel of a power-of-two width is one lane of a vector; a 3-byte pixel is spread into a lane of 4 bytes on
// loading and packed back on storing (one byte shuffle each way), so that the same lane moves serve it. 6-byte
// pixels measured no faster spread into 8-byte lanes two to a 16-byte vector than moved one by one, but four to a
// 32-byte vector (AVX2) they are (the last section); 12- and 16-byte pixels do not use this header. Included only by transform_cpu_kernels.hpp, whose units are
// built for different targets: hence the unnamed namespace.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpurotate::detail::simd {
namespace {

typedef std::uint8_t U8x16 __attribute__((vector_size(16)));
typedef std::uint16_t U16x8 __attribute__((vector_size(16)));
typedef std::uint32_t U32x4 __attribute__((vector_size(16)));
typedef std::uint64_t U64x2 __attribute__((vector_size(16)));

inline constexpr std::size_t vector_bytes = 16;

/// Whether a pixel of `bytes` is one lane of a 16-byte vector.
constexpr bool is_lane_width(std::size_t bytes) { return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8; }

/// The lane a pixel of `bytes` travels in: its own width, or 4 bytes for a 3-byte pixel.
constexpr std::size_t lane_bytes(std::size_t bytes) { return bytes == 3 ? 4 : bytes; }

/// Whether the target has a byte shuffle instruction (SSSE3's pshufb, NEON's tbl). Without one, an arbitrary
/// byte permutation compiles to a long run of shifts and unpacks: measured on plain x86-64 (SSE2), spreading
/// 3-byte pixels made rot90 of RGB8 2.7x slower than moving the pixels one by one, and reversing bytes made the
/// mirrors of 1-byte pixels 2x slower.
#if defined(__SSSE3__) || defined(__ARM_NEON)
inline constexpr bool has_byte_shuffle = true;
#else
inline constexpr bool has_byte_shuffle = false;
#endif

/// Whether pixels of `bytes` travel in vector lanes: 1, 2, 4 and 8 bytes, and 3 where bytes shuffle.
constexpr bool has_lane(std::size_t bytes) { return is_lane_width(bytes) || (has_byte_shuffle && bytes == 3); }

/// Whether a vector of pixels of `bytes` reverses in one cheap shuffle, each pixel one lane (pixels of 1 byte need a
/// byte shuffle). 3-byte pixels reverse three vectors at a time instead (reverses_in_three_vectors).
constexpr bool reverses_in_vectors(std::size_t bytes) { return is_lane_width(bytes) && (bytes > 1 || has_byte_shuffle); }

/// The unsigned integer of `LaneBytes` (1, 2, 4 or 8).
template <std::size_t LaneBytes>
using LaneOf = std::conditional_t<LaneBytes == 1, std::uint8_t,
                                  std::conditional_t<LaneBytes == 2, std::uint16_t, std::conditional_t<LaneBytes == 4, std::uint32_t, std::uint64_t>>>;

/// A vector of `Bytes` whose lanes are `Lane`s (the same type as the typedefs above where they agree).
template <class Lane, std::size_t Bytes>
struct VectorOf {
    typedef Lane type __attribute__((vector_size(Bytes)));
};

/// A vector whose lanes are pixels of `LaneBytes`.
template <std::size_t LaneBytes>
using LaneVector = typename VectorOf<LaneOf<LaneBytes>, vector_bytes>::type;

/// Pixels of `LaneBytes` in one vector: the side of the square block `transpose_blocks` turns.
template <std::size_t LaneBytes>
inline constexpr std::size_t lanes = vector_bytes / LaneBytes;

// memcpy, not a dereference: the pixels may sit at any address, and this compiles to one unaligned move.
template <class V>
inline V load(const std::byte* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <class V>
inline void store(std::byte* p, V v) {
    std::memcpy(p, &v, sizeof v);
}

/// Whether `stream` bypasses the caches (x86's movntdq); elsewhere it is a plain store.
#if defined(__SSE2__)
inline constexpr bool has_streaming_store = true;
#else
inline constexpr bool has_streaming_store = false;
#endif

/// Stores `v` at `p`, which must be 16-byte aligned, without reading its line into the caches first (a plain
/// store fetches the line it writes: a third stream of memory traffic when the output is larger than the cache).
/// Streaming stores are weakly ordered: a thread must `stream_fence` before others may read what it wrote.
template <class V>
inline void stream(std::byte* p, V v) {
#if defined(__SSE2__)
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), (__m128i)v);
#else
    store(p, v);
#endif
}

inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

namespace shuffle_index {
// Byte j of the spread vector: byte j % lane of pixel j / lane (the lane's spare bytes take byte 0).
constexpr int spread(std::size_t pixel, std::size_t j) {
    const std::size_t lane = lane_bytes(pixel);
    return static_cast<int>(j % lane < pixel ? j / lane * pixel + j % lane : 0);
}
// Byte j of the packed vector: byte j % pixel of lane j / pixel (the bytes beyond the pixels take byte 0).
constexpr int pack(std::size_t pixel, std::size_t j) {
    const std::size_t lane = lane_bytes(pixel);
    return static_cast<int>(j < vector_bytes / lane * pixel ? j / pixel * lane + j % pixel : 0);
}
// Lane j of the interleave of a and b within each group of n lanes, in vectors of `total` lanes (indices from
// `total` on name b's lanes): the low halves of a group's lanes of a and b alternate (or the high halves, `high`).
// One group of 16 bytes is x86's punpckl/punpckh; two groups of a 32-byte vector, AVX2's, which work in each half.
constexpr int interleave_in_groups(int n, int total, bool high, int j) { return (j % n % 2 ? total : 0) + j / n * n + (high ? n / 2 : 0) + j % n / 2; }
}  // namespace shuffle_index

template <int N, bool High, class V, std::size_t... J>
inline V interleave_in_groups(V a, V b, std::index_sequence<J...>) {
    return __builtin_shufflevector(a, b, shuffle_index::interleave_in_groups(N, static_cast<int>(sizeof...(J)), High, static_cast<int>(J))...);
}

template <class V, std::size_t... J>
inline V reversed(V v, std::index_sequence<J...>) {
    return __builtin_shufflevector(v, v, (sizeof...(J) - 1 - J)...);
}

template <std::size_t PixelBytes, std::size_t... J>
inline U8x16 spread(U8x16 v, std::index_sequence<J...>) {
    return __builtin_shufflevector(v, v, shuffle_index::spread(PixelBytes, J)...);
}

template <std::size_t PixelBytes, std::size_t... J>
inline U8x16 pack(U8x16 v, std::index_sequence<J...>) {
    return __builtin_shufflevector(v, v, shuffle_index::pack(PixelBytes, J)...);
}

/// The lanes<lane_bytes(PixelBytes)> pixels at `p`, one a lane. Reads a whole vector: for 3-byte pixels, 4 bytes
/// beyond them, which the caller must own.
template <std::size_t PixelBytes>
inline LaneVector<lane_bytes(PixelBytes)> load_pixels(const std::byte* p) {
    using V = LaneVector<lane_bytes(PixelBytes)>;
    if constexpr (lane_bytes(PixelBytes) == PixelBytes) {
        return load<V>(p);
    } else {
        return (V)spread<PixelBytes>(load<U8x16>(p), std::make_index_sequence<vector_bytes>{});
    }
}

/// Stores the pixels of `v` at `p`. Writes a whole vector: for 3-byte pixels, 4 bytes of garbage beyond them,
/// which the caller must own and overwrite later.
template <std::size_t PixelBytes>
inline void store_pixels(std::byte* p, LaneVector<lane_bytes(PixelBytes)> v) {
    if constexpr (lane_bytes(PixelBytes) == PixelBytes) {
        store(p, v);
    } else {
        store(p, pack<PixelBytes>((U8x16)v, std::make_index_sequence<vector_bytes>{}));
    }
}

/// The vector's pixels in the opposite order.
template <std::size_t LaneBytes>
inline LaneVector<LaneBytes> reverse_lanes(LaneVector<LaneBytes> v) {
    return reversed(v, std::make_index_sequence<lanes<LaneBytes>>{});
}

/// Whether pixels of `bytes` reverse three vectors at a time (`reverse_pixels_of_three`): 3-, 6- and 12-byte
/// pixels, three 1-, 2- or 4-byte lanes each, 16, 8 or 4 of them in 48 bytes (1- and 2-byte lanes gathered
/// from three vectors need a byte shuffle; 4-byte lanes move with SSE2's own shuffles). Each store then fills
/// a vector of its own. 3-byte pixels spread into 4-byte lanes took one byte shuffle per 4 pixels, against 6
/// per 16 here, but were stored 12 bytes apart, each store overlapping the next and one in four split across
/// two cache lines: a 1920x1080 RGB8 flip-h took 0.40-0.45 ms so on one thread of the 2-core VM, and 0.21-0.27
/// three vectors at a time (bench/RESULTS.md, 2026-11-27).
constexpr bool reverses_in_three_vectors(std::size_t bytes) { return ((bytes == 3 || bytes == 6) && has_byte_shuffle) || bytes == 12; }

namespace shuffle_index {
// Lane j of the reversal of three vectors of N lanes holding 3-lane pixels: lane j % 3 of pixel
// (pixels - 1 - j / 3), as an index into the concatenation of the three vectors.
constexpr int reversed_triple(int n, int j) { return (n - 1 - j / 3) * 3 + j % 3; }
// Where lane t of output vector o comes from: its index into the pair of input vectors `first`, `first` + 1
// (0..2n-1), or into the single input vector `third` (0..n-1); lane_from_single says which. Lanes the other
// source gives are 0.
constexpr int from_pair(int n, int o, int t, int first) {
    const int k = reversed_triple(n, o * n + t);
    return k / n == first ? k % n : k / n == first + 1 ? n + k % n : 0;
}
constexpr int from_single(int n, int o, int t, int third) {
    const int k = reversed_triple(n, o * n + t);
    return k / n == third ? k % n : 0;
}
constexpr bool lane_from_single(int n, int o, int t, int third) { return reversed_triple(n, o * n + t) / n == third; }
}  // namespace shuffle_index

template <class V, int O, std::size_t... T>
inline V reversed_triple_part(const std::array<V, 3>& in, std::index_sequence<T...>) {
    constexpr int n = sizeof...(T);
    // Output vector 0 draws on input vectors 1 and 2, vector 2 on 0 and 1, and vector 1 on all three.
    constexpr int first = O == 0 ? 1 : 0, third = O == 0 ? 0 : 2;
    const V pair = __builtin_shufflevector(in[first], in[first + 1], shuffle_index::from_pair(n, O, static_cast<int>(T), first)...);
    const V single = __builtin_shufflevector(in[third], in[third], shuffle_index::from_single(n, O, static_cast<int>(T), third)...);
    constexpr V take_single = {(shuffle_index::lane_from_single(n, O, static_cast<int>(T), third) ? static_cast<typename std::remove_reference_t<decltype(V{}[0])>>(-1) : 0)...};
    return (single & take_single) | (pair & ~take_single);
}

/// The pixels of three lanes each (3-, 6- or 12-byte pixels, in 1-, 2- or 4-byte lanes: as many as a vector has
/// lanes) held by three vectors, in the opposite order: each output vector is one two-vector shuffle, one single-vector
/// shuffle and a blend.
template <class V>
inline std::array<V, 3> reverse_pixels_of_three(const std::array<V, 3>& in) {
    constexpr std::size_t n = sizeof(V) / sizeof(V{}[0]);
    return {reversed_triple_part<V, 0>(in, std::make_index_sequence<n>{}), reversed_triple_part<V, 1>(in, std::make_index_sequence<n>{}),
            reversed_triple_part<V, 2>(in, std::make_index_sequence<n>{})};
}

/// Transposes the N x N blocks of pixels held by N vectors, one block in each group of N lanes (row i of each in
/// rows[i]): after log2(N) rounds of the perfect shuffle (interleaving row j with row j + N/2 within each group),
/// rows[c] holds column c of each. A 16-byte vector of pixels in lanes<LaneBytes> holds one block; a VectorPair two.
template <std::size_t N, class V>
inline void transpose_blocks(std::array<V, N>& rows) {
    constexpr std::size_t total = sizeof(V) / sizeof(rows[0][0]);
    for (std::size_t round = 1; round < N; round *= 2) {
        std::array<V, N> next;
        for (std::size_t j = 0; j < N / 2; ++j) {
            next[2 * j] = interleave_in_groups<N, false>(rows[j], rows[j + N / 2], std::make_index_sequence<total>{});
            next[2 * j + 1] = interleave_in_groups<N, true>(rows[j], rows[j + N / 2], std::make_index_sequence<total>{});
        }
        rows = next;
    }
}

// ------------------------------------------------ two blocks at once, in the halves of 32-byte vectors

/// Whether the target has 32-byte vectors whose byte interleaves work in each 16-byte half (AVX2's vpunpck*), so
/// that one instruction moves two blocks: the shuffle ports bound the 16x16 transpose of 1-byte pixels (64
/// interleaves a block).
#if defined(__AVX2__)
inline constexpr bool has_vector_pairs = true;
#else
inline constexpr bool has_vector_pairs = false;
#endif

/// Whether pixels of `bytes` transpose two blocks at a time (a VectorPair through transpose_blocks): where a block's
/// shuffles bound it, 1-byte pixels (64 interleaves a block of 256 bytes) and 3-byte ones (a byte shuffle each way
/// besides). Pixels of 2, 4 and 8 bytes gained on the 2-core EPYC VM (1920x1080 u8c4 transpose on one thread 0.77 ->
/// 0.60 ms) but lost on the H200 machine's Xeon from 4 threads up (0.53-0.55 -> 0.62-0.66 ms; 16 threads on 6000x4000
/// u16c1 1.06-1.35 -> 1.11-1.79 ms), where 1- and 3-byte pixels gained on both (bench/RESULTS.md, 2026-11-26).
constexpr bool transposes_in_pairs(std::size_t bytes) { return bytes == 1 || (bytes == 3 && has_byte_shuffle); }

typedef std::uint8_t U8x32 __attribute__((vector_size(32)));
typedef std::uint64_t U64x4 __attribute__((vector_size(32)));
typedef std::uint32_t U32x8 __attribute__((vector_size(32)));

/// Two vectors of pixels of `LaneBytes` in the two halves of one.
template <std::size_t LaneBytes>
using VectorPair = typename VectorOf<LaneOf<LaneBytes>, 2 * vector_bytes>::type;

template <class V, std::size_t... J>
inline auto joined(V low, V high, std::index_sequence<J...>) {
    return __builtin_shufflevector(low, high, J...);
}

template <class Pair, std::size_t... J>
inline auto half_of(Pair v, std::size_t first, std::index_sequence<J...>) {
    typedef std::remove_reference_t<decltype(v[0])> Lane __attribute__((vector_size(16)));
    return Lane{v[first + J]...};
}

/// Pixels from two places as one pair: the lanes<lane_bytes(PixelBytes)> pixels at `low` in the low half, those at
/// `high` in the high half (each read as load_pixels reads).
template <std::size_t PixelBytes>
inline VectorPair<lane_bytes(PixelBytes)> load_pixel_pair(const std::byte* low, const std::byte* high) {
    constexpr std::size_t n = lanes<lane_bytes(PixelBytes)>;
    return joined(load_pixels<PixelBytes>(low), load_pixels<PixelBytes>(high), std::make_index_sequence<2 * n>{});
}

/// Stores the pair's pixels at `p`, the low half's first: one store where pixels fill their lanes, else two, the
/// second over the first's spare bytes (and as store_pixels, writing spare bytes past the pixels).
template <std::size_t PixelBytes>
inline void store_pixel_pair(std::byte* p, VectorPair<lane_bytes(PixelBytes)> v) {
    constexpr std::size_t n = lanes<lane_bytes(PixelBytes)>;
    if constexpr (lane_bytes(PixelBytes) == PixelBytes) {
        store(p, v);
    } else {
        store_pixels<PixelBytes>(p, half_of(v, 0, std::make_index_sequence<n>{}));
        store_pixels<PixelBytes>(p + n * PixelBytes, half_of(v, n, std::make_index_sequence<n>{}));
    }
}

namespace shuffle_index {
// Byte j of a pair with each half's four 3-byte pixels packed from their 4-byte lanes into its first 12 bytes.
constexpr int packed_in_halves(std::size_t j) { return static_cast<int>(j / 16 * 16 + (j % 16 < 12 ? j % 16 / 3 * 4 + j % 16 % 3 : 0)); }
}  // namespace shuffle_index

template <std::size_t... J>
inline U32x8 packed_in_halves(U8x32 v, std::index_sequence<J...>) {
    return (U32x8)__builtin_shufflevector(v, v, shuffle_index::packed_in_halves(J)...);
}

/// Stores the 16 3-byte pixels that two pairs hold in 4-byte lanes (pixels 0-7 in `low`, 8-15 in `high`) as
/// their 48 bytes at `p`: each half packed to its first 3 words (a byte shuffle within halves), the words then
/// gathered across halves, and two stores that write nothing past the pixels. store_pixel_pair writes each pair
/// as two 16-byte stores 12 bytes apart, each over the one before's 4 spare bytes.
/// A template, so that only the AVX2 unit, which calls it, compiles its 32-byte vectors.
template <class Pair = VectorPair<4>>
inline void store_sixteen_three_byte_pixels(std::byte* p, Pair low, Pair high) {
    const U32x8 a = packed_in_halves((U8x32)low, std::make_index_sequence<32>{});
    const U32x8 b = packed_in_halves((U8x32)high, std::make_index_sequence<32>{});
    store(p, __builtin_shufflevector(a, b, 0, 1, 2, 4, 5, 6, 8, 9));
    store(p + 32, __builtin_shufflevector(b, b, 2, 4, 5, 6));
}

// ------------------------------------------------ 6-byte pixels in the 8-byte lanes of 32-byte vectors

/// Whether 6-byte pixels transpose in 4x4 blocks, each pixel in an 8-byte lane of a 32-byte vector: AVX2 moves
/// lanes and bytes across a whole vector's halves in two instructions.
inline constexpr bool has_six_byte_blocks = has_vector_pairs;

namespace shuffle_index {
// Byte j of four pixels of `pixel` bytes spread into 8-byte lanes (the spare bytes take byte 0), and back.
constexpr int spread_to_eight(std::size_t pixel, std::size_t j) { return static_cast<int>(j % 8 < pixel ? j / 8 * pixel + j % 8 : 0); }
constexpr int pack_from_eight(std::size_t pixel, std::size_t j) { return static_cast<int>(j < 4 * pixel ? j / pixel * 8 + j % pixel : 0); }
}  // namespace shuffle_index

template <std::size_t PixelBytes, std::size_t... J>
inline U64x4 spread_to_eight(U8x32 v, std::index_sequence<J...>) {
    return (U64x4)__builtin_shufflevector(v, v, shuffle_index::spread_to_eight(PixelBytes, J)...);
}

template <std::size_t PixelBytes, std::size_t... J>
inline U8x32 pack_from_eight(U64x4 v, std::index_sequence<J...>) {
    return __builtin_shufflevector((U8x32)v, (U8x32)v, shuffle_index::pack_from_eight(PixelBytes, J)...);
}

/// The four pixels of `PixelBytes` (6) at `p`, one an 8-byte lane. Reads 32 bytes: past the pixels too, which the
/// caller must own.
template <std::size_t PixelBytes>
inline U64x4 load_pixels_in_eight(const std::byte* p) {
    return spread_to_eight<PixelBytes>(load<U8x32>(p), std::make_index_sequence<32>{});
}

/// Stores the four pixels of `v` at `p`, and garbage past them (32 bytes in all), which the caller must own and
/// overwrite.
template <std::size_t PixelBytes>
inline void store_pixels_from_eight(std::byte* p, U64x4 v) {
    store(p, pack_from_eight<PixelBytes>(v, std::make_index_sequence<32>{}));
}

/// Transposes the 4x4 block of 8-byte lanes held by four vectors (row i in rows[i]): interleaves within each half,
/// then halves exchanged.
template <class V>
inline void transpose_lanes_4x4(std::array<V, 4>& rows) {
    static_assert(sizeof(V) == 32 && sizeof(V{}[0]) == 8);
    const V t0 = __builtin_shufflevector(rows[0], rows[1], 0, 4, 2, 6), t1 = __builtin_shufflevector(rows[0], rows[1], 1, 5, 3, 7);
    const V t2 = __builtin_shufflevector(rows[2], rows[3], 0, 4, 2, 6), t3 = __builtin_shufflevector(rows[2], rows[3], 1, 5, 3, 7);
    rows = {__builtin_shufflevector(t0, t2, 0, 1, 4, 5), __builtin_shufflevector(t1, t3, 0, 1, 4, 5), __builtin_shufflevector(t0, t2, 2, 3, 6, 7),
            __builtin_shufflevector(t1, t3, 2, 3, 6, 7)};
}

}  // namespace
}  // namespace gpurotate::detail::simd
