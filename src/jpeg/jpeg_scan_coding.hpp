#pragma once
// A lossless variant's baseline scan, coded one block at a time. Each block of the output scan is found in
// the source's coefficient arrays (moved, transposed and negated as dct_blocks.hpp moves it) and coded as
// libjpeg's Huffman encoder codes it, so every block's bits can be counted and written without its
// neighbours': the GPU codes a scan one thread a block (cuda/kernels/jpeg_scan.cuh), where libjpeg codes
// a variant on one CPU core. A block depends on its neighbour only through the DC difference, and the
// neighbour's DC is read from the source like the block's own.
//
// Host and device code alike: the tests run the same functions on the CPU against libjpeg's bytes, but for the
// AC walk, which the CPU does from a mask of the nonzero coefficients (code_acs_by_mask) and the GPU unrolled
// (code_acs, tested on the GPU by test_jpeg_scan_cuda.cpp).

#include <gpurotate/orientation.hpp>

#include <array>
#include <cstdint>
#include <utility>

#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <emmintrin.h>
#endif

namespace gpurotate::detail {

/// A Huffman table as an encoder uses it (libjpeg's c_derived_tbl): each symbol's code and its length in
/// bits, 0 where the table has no code for the symbol.
struct HuffmanCodes {
    std::uint16_t code[256];
    std::uint8_t size[256];
};

/// The tables a scan codes with, by table number (a JPEG holds up to four of each class).
struct ScanTables {
    HuffmanCodes dc[4];
    HuffmanCodes ac[4];

    /// Table `slot`: DC table n at n, AC table n at 4 + n.
    GPUROTATE_HOST_DEVICE const HuffmanCodes& at(int slot) const { return slot < 4 ? dc[slot] : ac[slot - 4]; }
};

constexpr int table_slots = 8;  // ScanTables::at's slots

/// One component of an output scan: where its source blocks are and how its blocks sit in an MCU.
struct ScanComponent {
    std::int64_t first_block = 0;                       ///< the component's first source block in the coefficient store
    std::int64_t stride = 0;                            ///< source blocks from one block row to the next
    std::int64_t region_width = 0, region_height = 0;   ///< the source blocks the variant reads (dct_blocks.hpp's width, height)
    std::int64_t width_in_blocks = 0, height_in_blocks = 0;  ///< the output's blocks; those past them in an MCU are dummies
    std::int32_t h = 1, v = 1;                          ///< output blocks across and down an MCU (1 and 1 in a scan of one component)
    std::int32_t first_in_mcu = 0;                      ///< the index of its first block in the MCU
    std::int32_t dc_table = 0, ac_table = 0;
};

constexpr int max_scan_components = 4;  // libjpeg's MAX_COMPS_IN_SCAN

/// An output scan: its MCU grid and the element that maps its blocks to the source's.
struct ScanLayout {
    AxisMap map{};
    std::uint64_t negated = 0;  ///< bit n: output coefficient n (natural order) is its source coefficient negated
    std::int32_t components = 0;
    std::int32_t blocks_in_mcu = 0;
    std::int64_t mcus_per_row = 0, mcu_rows = 0;
    ScanComponent component[max_scan_components];

    GPUROTATE_HOST_DEVICE std::int64_t slots() const { return mcus_per_row * mcu_rows * blocks_in_mcu; }
};

/// The negated mask of `map`: the output coefficients whose source has an odd frequency along a mirrored
/// source axis (dct_blocks.cpp's signs).
constexpr std::uint64_t negated_coefficients(AxisMap map) {
    std::uint64_t mask = 0;
    for (int row = 0; row < 8; ++row) {
        for (int column = 0; column < 8; ++column) {
            const int source_row = map.swap_axes ? column : row, source_column = map.swap_axes ? row : column;
            if ((map.mirror_x && source_column % 2) != (map.mirror_y && source_row % 2)) mask |= std::uint64_t{1} << (row * 8 + column);
        }
    }
    return mask;
}

/// The zigzag order's natural index of coefficient k (libjpeg's jpeg_natural_order).
GPUROTATE_HOST_DEVICE constexpr int natural_index(int k) {
    constexpr int order[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
                               41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
                               30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};
    return order[k];
}

/// An output block of a scan: its component, its place and its place in the MCU.
struct ScanBlock {
    std::int32_t component = 0;
    std::int32_t across = 0, down = 0;  ///< its place in the component's part of the MCU
    std::int64_t mcu_x = 0, mcu_y = 0;
    std::int64_t x = 0, y = 0;          ///< in the component's output blocks
};

GPUROTATE_HOST_DEVICE inline ScanBlock scan_block(const ScanLayout& layout, std::int64_t slot) {
    ScanBlock b;
    const std::int64_t mcu = slot / layout.blocks_in_mcu;
    const std::int32_t in_mcu = static_cast<std::int32_t>(slot - mcu * layout.blocks_in_mcu);
    while (b.component + 1 < layout.components && in_mcu >= layout.component[b.component + 1].first_in_mcu) ++b.component;
    const ScanComponent& c = layout.component[b.component];
    b.across = (in_mcu - c.first_in_mcu) % c.h;
    b.down = (in_mcu - c.first_in_mcu) / c.h;
    b.mcu_y = mcu / layout.mcus_per_row;
    b.mcu_x = mcu - b.mcu_y * layout.mcus_per_row;
    b.x = b.mcu_x * c.h + b.across;
    b.y = b.mcu_y * c.v + b.down;
    return b;
}

/// The source block (its index in the coefficient store) of the component's real output block (x, y).
GPUROTATE_HOST_DEVICE inline std::int64_t source_block(const ScanLayout& layout, const ScanComponent& c, std::int64_t x, std::int64_t y) {
    const AxisMap m = layout.map;
    const std::int64_t u = m.swap_axes ? y : x, v = m.swap_axes ? x : y;  // the output block's place along the source's axes
    const std::int64_t source_x = m.mirror_x ? c.region_width - 1 - u : u, source_y = m.mirror_y ? c.region_height - 1 - v : v;
    return c.first_block + source_y * c.stride + source_x;
}

/// A block's 64 coefficients in the GPU's store: every component's blocks one after another, as the layouts
/// index them (ScanComponent::first_block).
GPUROTATE_HOST_DEVICE inline const std::int16_t* block_at(const std::int16_t* store, int, std::int64_t block) { return store + block * 64; }

/// The store as libjpeg holds it on the CPU: each component's blocks in an array of their own (row after row),
/// which the CPU coder reads in place rather than copying them into one.
struct ComponentBlocks {
    const std::int16_t* first[max_scan_components] = {};  ///< the component's first block
    std::int64_t first_block[max_scan_components] = {};   ///< its index in the layouts' numbering
};

inline const std::int16_t* block_at(const ComponentBlocks& store, int component, std::int64_t block) {
    return store.first[component] + (block - store.first_block[component]) * 64;
}

/// The DC coefficient libjpeg codes for block (x, y) of MCU column mcu_x. A dummy block (past the
/// component's blocks, filling an MCU at the right or bottom edge) takes the DC of the block before it in
/// the MCU (jctrans.c): a dummy in a row of real blocks that row's last real block's, a dummy row that of
/// the last real block of the last real row in the MCU.
template <class Store>
GPUROTATE_HOST_DEVICE inline int coded_dc(const ScanLayout& layout, int component, const Store& store, std::int64_t mcu_x, std::int64_t x,
                                          std::int64_t y) {
    const ScanComponent& c = layout.component[component];
    if (y >= c.height_in_blocks) {
        y = c.height_in_blocks - 1;
        x = mcu_x * c.h + c.h - 1;
    }
    if (x >= c.width_in_blocks) x = c.width_in_blocks - 1;
    return block_at(store, component, source_block(layout, c, x, y))[0];
}

/// The DC coefficient coded just before `b` in its component (0 for the scan's first block of it).
template <class Store>
GPUROTATE_HOST_DEVICE inline int previous_dc(const ScanLayout& layout, const ScanBlock& b, const Store& store) {
    const ScanComponent& c = layout.component[b.component];
    if (b.across > 0) return coded_dc(layout, b.component, store, b.mcu_x, b.x - 1, b.y);
    if (b.down > 0) return coded_dc(layout, b.component, store, b.mcu_x, b.x + c.h - 1, b.y - 1);
    if (b.mcu_x == 0 && b.mcu_y == 0) return 0;
    const std::int64_t mcu_x = b.mcu_x > 0 ? b.mcu_x - 1 : layout.mcus_per_row - 1, mcu_y = b.mcu_x > 0 ? b.mcu_y : b.mcu_y - 1;
    return coded_dc(layout, b.component, store, mcu_x, mcu_x * c.h + c.h - 1, mcu_y * c.v + c.v - 1);
}

/// A block's 64 coefficients as 32 words of two (the low half first), so that a GPU thread holds them in
/// registers: every index below is a constant once the coding loop is unrolled.
struct BlockWords {
    std::uint32_t word[32];

    GPUROTATE_HOST_DEVICE int coefficient(int n) const { return static_cast<std::int16_t>(word[n >> 1] >> ((n & 1) * 16)); }
};

/// The number of bits of |value| (libjpeg's JPEG_NBITS).
GPUROTATE_HOST_DEVICE inline int magnitude_bits(unsigned magnitude) {
#if defined(__CUDA_ARCH__)
    return 32 - __clz(magnitude);
#else
    return magnitude ? 32 - __builtin_clz(magnitude) : 0;
#endif
}

/// Codes symbol `symbol` of table `slot` and `bits` extra bits of `value` (a negative value as its ones'
/// complement, as JPEG writes it); false where the table has no code for the symbol. A sink that counts
/// symbols (for tables made for the scan, as libjpeg's optimize_coding makes them) takes the symbol instead.
template <class Sink>
GPUROTATE_HOST_DEVICE bool put_symbol(const ScanTables& tables, int slot, int symbol, int value, int bits, Sink& sink) {
    if constexpr (Sink::counts_symbols) {
        sink.count(slot, symbol);
        return true;
    } else {
        const HuffmanCodes& table = tables.at(slot);
        const int size = table.size[symbol];
        if (size == 0) return false;
        const std::uint32_t extra = static_cast<std::uint32_t>(value < 0 ? value - 1 : value) & ((1u << bits) - 1);
        sink.put((static_cast<std::uint32_t>(table.code[symbol]) << bits) | extra, size + bits);
        return true;
    }
}

/// One AC coefficient, the k-th in zigzag order: a zero lengthens the run, anything else codes the run and itself.
template <bool SwapAxes, int K, class Sink>
GPUROTATE_HOST_DEVICE void code_ac(const BlockWords& block, std::uint64_t negated, const ScanTables& tables, int slot, int& run, bool& ok,
                                   Sink& sink) {
    constexpr int n = natural_index(K);
    constexpr int source = SwapAxes ? (n % 8) * 8 + n / 8 : n;
    int value = block.coefficient(source);
    if ((negated >> n) & 1) value = static_cast<std::int16_t>(-value);  // modulo 2^16, as dct_blocks.cpp negates
    if (value == 0) {
        ++run;
        return;
    }
    for (; run > 15; run -= 16) ok &= put_symbol(tables, slot, 0xf0, 0, 0, sink);  // ZRL: sixteen zeros
    const int bits = magnitude_bits(static_cast<unsigned>(value < 0 ? -value : value));
    ok &= bits <= 10 && put_symbol(tables, slot, run * 16 + bits, value, bits, sink);  // 8-bit JPEG: AC within 10 bits
    run = 0;
}

template <bool SwapAxes, class Sink, int... K>
GPUROTATE_HOST_DEVICE bool code_acs(const BlockWords& block, std::uint64_t negated, const ScanTables& tables, int slot, Sink& sink,
                                    std::integer_sequence<int, K...>) {
    int run = 0;
    bool ok = true;
    (code_ac<SwapAxes, K + 1>(block, negated, tables, slot, run, ok, sink), ...);
    if (run > 0) ok &= put_symbol(tables, slot, 0x00, 0, 0, sink);  // EOB
    return ok;
}

#if !defined(__CUDA_ARCH__)
/// The natural index of each output coefficient in zigzag order k, or with `source` that of the source
/// coefficient it is read from: natural_index at run time would build its table on every call.
template <bool SwapAxes>
constexpr std::array<std::uint8_t, 64> zigzag_naturals(bool source) {
    std::array<std::uint8_t, 64> naturals{};
    for (int k = 0; k < 64; ++k) {
        const int n = natural_index(k);
        naturals[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(source && SwapAxes ? (n % 8) * 8 + n / 8 : n);
    }
    return naturals;
}

/// For each row of a source block and each set of its nonzero coefficients (a byte, a bit a column), the
/// output's zigzag positions they take, as bits: eight lookups turn a block's nonzero mask into zigzag order.
template <bool SwapAxes>
constexpr std::array<std::array<std::uint64_t, 256>, 8> zigzag_masks() {
    constexpr std::array<std::uint8_t, 64> sources = zigzag_naturals<SwapAxes>(true);
    std::array<int, 64> position{};
    for (int k = 0; k < 64; ++k) position[sources[static_cast<std::size_t>(k)]] = k;
    std::array<std::array<std::uint64_t, 256>, 8> masks{};
    for (int row = 0; row < 8; ++row) {
        for (int set = 0; set < 256; ++set) {
            std::uint64_t mask = 0;
            for (int column = 0; column < 8; ++column) {
                if ((set >> column) & 1) mask |= std::uint64_t{1} << position[static_cast<std::size_t>(row * 8 + column)];
            }
            masks[static_cast<std::size_t>(row)][static_cast<std::size_t>(set)] = mask;
        }
    }
    return masks;
}

/// A bit for each nonzero coefficient of a block, in natural order.
inline std::uint64_t nonzero_coefficients(const std::int16_t* coefficients) {
    std::uint64_t mask = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < 4; ++i) {
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(coefficients + 16 * i));
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(coefficients + 16 * i + 8));
        const __m128i zeros = _mm_packs_epi16(_mm_cmpeq_epi16(low, zero), _mm_cmpeq_epi16(high, zero));
        mask |= static_cast<std::uint64_t>(~_mm_movemask_epi8(zeros) & 0xffff) << (16 * i);
    }
#else
    for (int n = 0; n < 64; ++n) mask |= std::uint64_t{coefficients[n] != 0} << n;
#endif
    return mask;
}

/// code_acs on the CPU: the same symbols from a mask of the nonzero coefficients in zigzag order, so that a
/// zero costs nothing (as libjpeg-turbo's jchuff.c codes), where the GPU's unrolled walk keeps a block in
/// registers and every thread of a warp on the same instruction. The walk took three times as long on the CPU.
template <bool SwapAxes, class Sink>
bool code_acs_by_mask(const std::int16_t* coefficients, std::uint64_t negated, const ScanTables& tables, int slot, Sink& sink) {
    static constexpr std::array<std::uint8_t, 64> sources = zigzag_naturals<SwapAxes>(true), naturals = zigzag_naturals<SwapAxes>(false);
    static constexpr std::array<std::array<std::uint64_t, 256>, 8> masks = zigzag_masks<SwapAxes>();
    const std::uint64_t natural = nonzero_coefficients(coefficients);
    std::uint64_t nonzero = 0;
    for (int row = 0; row < 8; ++row) nonzero |= masks[static_cast<std::size_t>(row)][(natural >> (8 * row)) & 0xff];
    nonzero &= ~std::uint64_t{1};  // the DC is coded apart
    bool ok = true;
    int last = 0;  // the zigzag index of the last nonzero coefficient coded
    for (; nonzero; nonzero &= nonzero - 1) {
        const int k = __builtin_ctzll(nonzero);
        int run = k - last - 1;
        for (; run > 15; run -= 16) ok &= put_symbol(tables, slot, 0xf0, 0, 0, sink);  // ZRL: sixteen zeros
        int value = coefficients[sources[static_cast<std::size_t>(k)]];
        if ((negated >> naturals[static_cast<std::size_t>(k)]) & 1) value = static_cast<std::int16_t>(-value);  // modulo 2^16, as dct_blocks.cpp negates
        const int bits = magnitude_bits(static_cast<unsigned>(value < 0 ? -value : value));
        ok &= bits <= 10 && put_symbol(tables, slot, run * 16 + bits, value, bits, sink);  // 8-bit JPEG: AC within 10 bits
        last = k;
    }
    if (last < 63) ok &= put_symbol(tables, slot, 0x00, 0, 0, sink);  // EOB
    return ok;
}
#endif

/// Codes the scan's block `slot` of `store` (block_at's) into `sink` (which takes codes of up to 27 bits through put(code, size)),
/// as libjpeg's encode_one_block would: false where libjpeg could not code it (a coefficient or DC
/// difference out of 8-bit JPEG's range, a symbol without a code), which leaves the scan to libjpeg.
template <bool SwapAxes, class Store, class Sink>
GPUROTATE_HOST_DEVICE bool code_scan_block(const ScanLayout& layout, const ScanTables& tables, const Store& store, std::int64_t slot, Sink& sink) {
    const ScanBlock b = scan_block(layout, slot);
    const ScanComponent& c = layout.component[b.component];
    const int dc_slot = c.dc_table, ac_slot = 4 + c.ac_table;
    const int difference = coded_dc(layout, b.component, store, b.mcu_x, b.x, b.y) - previous_dc(layout, b, store);
    const int dc_bits = magnitude_bits(static_cast<unsigned>(difference < 0 ? -difference : difference));
    if (dc_bits > 11 || !put_symbol(tables, dc_slot, dc_bits, difference, dc_bits, sink)) return false;
    if (b.x >= c.width_in_blocks || b.y >= c.height_in_blocks) return put_symbol(tables, ac_slot, 0x00, 0, 0, sink);  // a dummy's ACs are 0
    const std::int16_t* coefficients = block_at(store, b.component, source_block(layout, c, b.x, b.y));
#if defined(__CUDA_ARCH__)
    BlockWords block;
    const uint4* vectors = reinterpret_cast<const uint4*>(coefficients);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const uint4 v = __ldg(vectors + i);
        block.word[4 * i] = v.x, block.word[4 * i + 1] = v.y, block.word[4 * i + 2] = v.z, block.word[4 * i + 3] = v.w;
    }
    return code_acs<SwapAxes>(block, layout.negated, tables, ac_slot, sink, std::make_integer_sequence<int, 63>{});
#else
    return code_acs_by_mask<SwapAxes>(coefficients, layout.negated, tables, ac_slot, sink);
#endif
}

/// A sink that counts each table's symbols (`counts[slot * 256 + symbol]`), for tables made for the scan;
/// on the GPU in a thread block's shared memory.
struct SymbolCount {
    static constexpr bool counts_symbols = true;
    std::uint32_t* counts;
    GPUROTATE_HOST_DEVICE void count(int slot, int symbol) {
#if defined(__CUDA_ARCH__)
        atomicAdd(counts + slot * 256 + symbol, 1u);
#else
        ++counts[slot * 256 + symbol];
#endif
    }
};

/// A sink that counts bits.
struct BitCount {
    static constexpr bool counts_symbols = false;
    std::uint32_t bits = 0;
    GPUROTATE_HOST_DEVICE void put(std::uint32_t, int size) { bits += static_cast<std::uint32_t>(size); }
};

/// A sink that writes a block's bits, most significant first, into a stream of 32-bit words in memory
/// order (a word's first byte is the stream's first), starting at bit `position`. The first and last word
/// may hold a neighbour's bits too and are OR-ed in (atomically on the GPU); the words between are the
/// block's alone. The stream must start zeroed.
struct BitWriter {
    static constexpr bool counts_symbols = false;
    std::uint32_t* words;
    std::uint64_t word_index;
    std::uint64_t pending;  // `count` bits, right-aligned, the oldest highest
    int count;
    bool shared_word;       // the word being filled holds bits of the block before

    GPUROTATE_HOST_DEVICE BitWriter(std::uint32_t* stream, std::uint64_t position)
        : words(stream), word_index(position >> 5), pending(0), count(static_cast<int>(position & 31)), shared_word(count > 0) {}

    GPUROTATE_HOST_DEVICE void put(std::uint32_t code, int size) {
        pending = pending << size | code;
        count += size;
        if (count >= 32) {
            store(static_cast<std::uint32_t>(pending >> (count - 32)), shared_word);
            count -= 32;
            shared_word = false;
            ++word_index;
        }
    }

    /// The last, partial word (always OR-ed: the next block's bits follow in it).
    GPUROTATE_HOST_DEVICE void finish() {
        if (count > 0) store(static_cast<std::uint32_t>(pending << (32 - count)), true);
    }

private:
    GPUROTATE_HOST_DEVICE void store(std::uint32_t value, bool shared) {
#if defined(__CUDA_ARCH__)
        value = __byte_perm(value, 0, 0x0123);
        if (shared) {
            atomicOr(words + word_index, value);
        } else {
            words[word_index] = value;
        }
#else
        value = __builtin_bswap32(value);
        if (shared) {
            words[word_index] |= value;
        } else {
            words[word_index] = value;
        }
#endif
    }
};

}  // namespace gpurotate::detail
