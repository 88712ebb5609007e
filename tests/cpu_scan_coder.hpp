#pragma once
// The scan coder's block coding (jpeg_scan_coding.hpp) run on the CPU, one block after another: what the
// tests and fuzz_jpeg_transform hold against libjpeg's coding, everywhere, GPU or not.

#include "jpeg/jpeg_scan_coder.hpp"
#include "jpeg/jpeg_scan_coding.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace jpeg_scan_support {

using namespace gpurotate::detail;

// Each block counted, then written at its place, one after another; tables made for the scan from its
// symbol counts where asked.
class CpuScanCoder final : public JpegScanCoder {
public:
    int calls = 0, calls_for_own_tables = 0;
    std::size_t coded = 0;  ///< scans given back coded

    std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts,
                                               const ScanCoding& coding) override {
        ++calls;
        calls_for_own_tables += coding.own_tables ? 1 : 0;
        std::vector<std::int16_t> store;
        for (const SourceComponent& c : source.components) {
            for (std::int64_t y = 0; y < c.row_count; ++y) store.insert(store.end(), c.rows[y], c.rows[y] + c.columns * 64);
        }
        std::vector<std::optional<CodedScan>> scans;
        for (const ScanLayout& layout : layouts) {
            scans.push_back(code_scan(layout, coding, store.data()));
            coded += scans.back() ? 1 : 0;
        }
        return scans;
    }

private:
    template <class Sink>
    static bool code_block(const ScanLayout& layout, const ScanTables& tables, const std::int16_t* store, std::int64_t slot, Sink& sink) {
        return layout.map.swap_axes ? code_scan_block<true>(layout, tables, store, slot, sink) : code_scan_block<false>(layout, tables, store, slot, sink);
    }

    static std::optional<CodedScan> code_scan(const ScanLayout& layout, const ScanCoding& coding, const std::int16_t* store) {
        CodedScan scan;
        ScanTables tables = coding.tables;
        if (coding.own_tables) {
            std::vector<std::uint32_t> counts(table_slots * 256, 0);
            for (std::int64_t slot = 0; slot < layout.slots(); ++slot) {
                SymbolCount count{counts.data()};
                if (!code_block(layout, tables, store, slot, count)) return std::nullopt;
            }
            const std::vector<std::uint64_t> wide(counts.begin(), counts.end());
            if (!make_own_tables(layout, wide.data(), tables, scan)) return std::nullopt;
        }
        std::uint64_t bits = 0;
        for (std::int64_t slot = 0; slot < layout.slots(); ++slot) {
            BitCount count;
            if (!code_block(layout, tables, store, slot, count)) return std::nullopt;
            bits += count.bits;
        }
        std::vector<std::uint32_t> words((bits + 31) / 32 + 1, 0);
        std::uint64_t position = 0;
        for (std::int64_t slot = 0; slot < layout.slots(); ++slot) {
            BitCount count;
            code_block(layout, tables, store, slot, count);
            BitWriter writer(words.data(), position);
            code_block(layout, tables, store, slot, writer);
            writer.finish();
            position += count.bits;
        }
        scan.bytes = scan_bytes_of(reinterpret_cast<const std::uint8_t*>(words.data()), bits);
        return scan;
    }
};

}  // namespace jpeg_scan_support
