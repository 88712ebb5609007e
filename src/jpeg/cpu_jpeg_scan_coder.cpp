// The CPU's JPEG scan coder: a scan cut into segments of whole MCUs, each coded on a core of its own by
// the GPU's block coding (jpeg_scan_coding.hpp), its bits then spliced after the segment before. libjpeg
// codes a scan on one core, and only after the coefficients have been moved into a scratch array; here
// every block is read where jpeg_read_coefficients left it, so neither the move nor the scratch's pages
// are paid for.

#include "jpeg/jpeg_scan_coder.hpp"

#include "core/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>

namespace gpurotate::detail {
namespace {

// Room for one more block's codes before it is coded: a DC symbol and its bits (at most 16 + 11), 63 AC
// symbols with theirs (16 + 10 each), their zero runs and the word carried over stay under 56 words.
constexpr std::uint64_t words_per_block = 64;

// Segments a thread codes of a scan: more than one, so that a thread slowed by another process's work on its
// core (the 2-core VM is shared) leaves the rest to the others rather than holding up the splice.
constexpr std::int64_t segments_per_thread = 4;

// One segment's coded bits, as BitWriter writes them: whole words, the last filled with zeros.
struct CodedSegment {
    std::unique_ptr<std::uint32_t[]> words;  // uninitialized: BitWriter stores every word but the last
    std::uint64_t capacity = 0, bits = 0;
    bool coded = true;

    void reserve(std::uint64_t count) {
        if (count <= capacity) return;
        std::unique_ptr<std::uint32_t[]> grown(new std::uint32_t[count]);
        if (words) std::memcpy(grown.get(), words.get(), capacity * sizeof(std::uint32_t));
        words = std::move(grown);
        capacity = count;
    }
};

// Blocks of the scan ahead of the one being coded whose coefficients are fetched early: a turn walks the
// source down its columns, a block per 4 KiB page, where the CPU's own prefetcher sees no pattern.
constexpr std::int64_t blocks_fetched_ahead = 16;

// Fetches slot's coefficients into the cache (a dummy block reads none). Inline in the coding loop: GCC
// drops the calls to a function that does nothing but prefetch, as if it had no effect.
#define GPUROTATE_FETCH_EARLY(layout, store, slot)                                                                          \
    do {                                                                                                                     \
        const ScanBlock ahead = scan_block(layout, slot);                                                                    \
        const ScanComponent& c = (layout).component[ahead.component];                                                        \
        if (ahead.x < c.width_in_blocks && ahead.y < c.height_in_blocks) {                                                   \
            const std::int16_t* coefficients = block_at(store, ahead.component, source_block(layout, c, ahead.x, ahead.y)); \
            __builtin_prefetch(coefficients);                                                                                \
            __builtin_prefetch(coefficients + 32); /* a block is two cache lines */                                          \
        }                                                                                                                    \
    } while (0)

template <bool SwapAxes>
void code_segment(const ScanLayout& layout, const ScanTables& tables, const ComponentBlocks& store, std::int64_t first, std::int64_t last,
                  CodedSegment& segment) {
    // 24 bytes a block: a guess that rarely has to grow (a photograph's scan at quality 90 takes 8-9).
    segment.reserve(static_cast<std::uint64_t>(last - first) * 6 + words_per_block);
    BitWriter writer(segment.words.get(), 0);
    for (std::int64_t slot = first; slot < std::min(last, first + blocks_fetched_ahead); ++slot) GPUROTATE_FETCH_EARLY(layout, store, slot);
    for (std::int64_t slot = first; slot < last; ++slot) {
        if (slot + blocks_fetched_ahead < last) GPUROTATE_FETCH_EARLY(layout, store, slot + blocks_fetched_ahead);
        if (writer.word_index + words_per_block > segment.capacity) {
            segment.reserve(segment.capacity * 2);
            writer.words = segment.words.get();
        }
        if (!code_scan_block<SwapAxes>(layout, tables, store, slot, writer)) {
            segment.coded = false;
            return;
        }
    }
    segment.bits = writer.word_index * 32 + static_cast<std::uint64_t>(writer.count);
    segment.words[writer.word_index] = 0;  // finish() ORs the partial word in
    writer.finish();
}
#undef GPUROTATE_FETCH_EARLY

std::uint32_t big_endian(std::uint32_t word) { return __builtin_bswap32(word); }

// The segments' bits one after another, as the bytes a scan is made of (CodedScan::bytes).
std::vector<std::uint8_t> splice(const std::vector<CodedSegment>& segments) {
    std::uint64_t bits = 0;
    for (const CodedSegment& s : segments) bits += s.bits;
    std::vector<std::uint32_t> words((bits + 31) / 32 + 1, 0);
    std::uint64_t position = 0;
    for (const CodedSegment& s : segments) {
        const std::uint64_t first = position / 32, count = (s.bits + 31) / 32;
        const unsigned shift = static_cast<unsigned>(position % 32);
        if (shift == 0) {
            std::memcpy(words.data() + first, s.words.get(), count * sizeof(std::uint32_t));
        } else {
            // Words in memory order, bits most significant first: a shift moves bits within a big-endian word.
            std::uint32_t carried = big_endian(words[first]);
            for (std::uint64_t i = 0; i < count; ++i) {
                const std::uint32_t word = big_endian(s.words[i]);
                words[first + i] = big_endian(carried | word >> shift);
                carried = word << (32 - shift);
            }
            words[first + count] = big_endian(carried);
        }
        position += s.bits;
    }
    return scan_bytes_of(reinterpret_cast<const std::uint8_t*>(words.data()), bits);
}

class CpuJpegScanCoder final : public JpegScanCoder {
public:
    CpuJpegScanCoder(unsigned threads, std::int64_t mcus_per_segment) : threads_(threads), mcus_per_segment_(mcus_per_segment) {}

    std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts,
                                               const ScanCoding& coding) override {
        std::vector<std::optional<CodedScan>> scans(layouts.size());
        ComponentBlocks store;
        if (!blocks_in_place(source, store)) return scans;  // libjpeg codes them
        for (std::size_t v = 0; v < layouts.size(); ++v) scans[v] = code_scan(layouts[v], coding, store);
        return scans;
    }

private:
    // Each component's blocks as one array (libjpeg-turbo allocates a component's rows at once, up to 1 GB).
    static bool blocks_in_place(const SourceCoefficients& source, ComponentBlocks& store) {
        if (source.components.size() > static_cast<std::size_t>(max_scan_components)) return false;
        std::int64_t first_block = 0;
        for (std::size_t c = 0; c < source.components.size(); ++c) {
            const SourceComponent& component = source.components[c];
            for (std::int64_t y = 1; y < component.row_count; ++y) {
                if (component.rows[y] != component.rows[0] + y * component.columns * 64) return false;
            }
            store.first[c] = component.row_count > 0 ? component.rows[0] : nullptr;
            store.first_block[c] = first_block;
            first_block += component.columns * component.row_count;
        }
        return true;
    }

    // The threads a scan is coded on: as asked, or one a usable core.
    unsigned thread_count() const { return threads_ ? threads_ : usable_cores(); }

    // [first, last) slot of each segment: whole MCUs, segments_per_thread runs of them a thread unless told smaller.
    std::vector<std::pair<std::int64_t, std::int64_t>> segments_of(const ScanLayout& layout) const {
        const std::int64_t mcus = layout.mcus_per_row * layout.mcu_rows;
        const std::int64_t wanted = std::int64_t{thread_count()} * segments_per_thread;
        const std::int64_t per_segment = mcus_per_segment_ > 0 ? mcus_per_segment_ : std::max<std::int64_t>(1, (mcus + wanted - 1) / wanted);
        std::vector<std::pair<std::int64_t, std::int64_t>> segments;
        for (std::int64_t first = 0; first < mcus; first += per_segment) {
            segments.emplace_back(first * layout.blocks_in_mcu, std::min(mcus, first + per_segment) * layout.blocks_in_mcu);
        }
        return segments;
    }

    // Calls body(segment) for every segment, on the coder's threads (threads_ 0: one a usable core), each
    // taking the next segment when it is done with one: a core another process holds leaves its share to the
    // others. No more threads than that: where the pool is busy, parallel_for starts a thread a chunk.
    void for_each_segment(std::size_t count, const std::function<void(std::size_t)>& body) const {
        const unsigned threads = thread_count();
        std::atomic<std::size_t> next{0};
        parallel_for(threads, 1, [&](std::int64_t, std::int64_t) {
            for (std::size_t s = next++; s < count; s = next++) body(s);
        }, threads);
    }

    std::optional<CodedScan> code_scan(const ScanLayout& layout, const ScanCoding& coding, const ComponentBlocks& store) const {
        const auto segments = segments_of(layout);
        if (segments.empty()) return std::nullopt;  // no blocks: libjpeg has nothing to code either
        CodedScan scan;
        ScanTables tables = coding.tables;
        if (coding.own_tables && !make_tables(layout, store, segments, tables, scan)) return std::nullopt;
        std::vector<CodedSegment> coded(segments.size());
        for_each_segment(segments.size(), [&](std::size_t s) {
            if (layout.map.swap_axes) {
                code_segment<true>(layout, tables, store, segments[s].first, segments[s].second, coded[s]);
            } else {
                code_segment<false>(layout, tables, store, segments[s].first, segments[s].second, coded[s]);
            }
        });
        if (!std::all_of(coded.begin(), coded.end(), [](const CodedSegment& s) { return s.coded; })) return std::nullopt;
        scan.bytes = splice(coded);
        return scan;
    }

    // The scan's own tables, from every segment's symbol counts (libjpeg's optimize_coding's first pass).
    bool make_tables(const ScanLayout& layout, const ComponentBlocks& store, const std::vector<std::pair<std::int64_t, std::int64_t>>& segments,
                     ScanTables& tables, CodedScan& scan) const {
        std::vector<std::uint32_t> counts(segments.size() * table_slots * 256, 0);
        std::vector<char> counted(segments.size(), 1);
        for_each_segment(segments.size(), [&](std::size_t s) {
            SymbolCount sink{counts.data() + s * table_slots * 256};
            for (std::int64_t slot = segments[s].first; slot < segments[s].second && counted[s]; ++slot) {
                counted[s] = layout.map.swap_axes ? code_scan_block<true>(layout, tables, store, slot, sink)
                                                  : code_scan_block<false>(layout, tables, store, slot, sink);
            }
        });
        if (std::find(counted.begin(), counted.end(), 0) != counted.end()) return false;
        std::vector<std::uint64_t> total(table_slots * 256, 0);
        for (std::size_t s = 0; s < segments.size(); ++s) {
            for (std::size_t i = 0; i < total.size(); ++i) total[i] += counts[s * table_slots * 256 + i];
        }
        return make_own_tables(layout, total.data(), tables, scan);
    }

    unsigned threads_;
    std::int64_t mcus_per_segment_;
};

}  // namespace

std::unique_ptr<JpegScanCoder> open_cpu_jpeg_scan_coder(unsigned threads, std::int64_t mcus_per_segment) {
    return std::make_unique<CpuJpegScanCoder>(threads, mcus_per_segment);
}

}  // namespace gpurotate::detail
