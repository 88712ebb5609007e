// Huffman tables for the scans a JpegScanCoder codes: the encoder's codes of a DHT table, and the table
// libjpeg's optimize_coding would make for a scan's symbol counts. Both follow libjpeg's jchuff.c step for
// step: a coded scan must be the bytes libjpeg writes, tables included.

#include "jpeg/jpeg_scan_coder.hpp"

#include <algorithm>

namespace gpurotate::detail {

HuffmanSpec optimal_huffman_table(const std::uint64_t* counts) {
    constexpr int longest = 32;  // MAX_CLEN: the tree's codes before they are limited to 16 bits
    std::uint64_t frequency[257];
    std::copy(counts, counts + 256, frequency);
    frequency[256] = 1;  // a pseudo-symbol, so that no real symbol gets the code of all ones
    int code_size[257] = {}, others[257];
    std::fill(others, others + 257, -1);
    for (;;) {
        // The two least frequent symbols (the larger symbol where counts tie) merge into one branch.
        // libjpeg starts each search from 10^9, so a count above it is never picked: kept, for the same tables.
        constexpr std::uint64_t libjpeg_start = 1000000000;
        int c1 = -1, c2 = -1;
        std::uint64_t least = libjpeg_start;
        for (int i = 0; i <= 256; ++i) {
            if (frequency[i] && frequency[i] <= least) least = frequency[i], c1 = i;
        }
        least = libjpeg_start;
        for (int i = 0; i <= 256; ++i) {
            if (frequency[i] && frequency[i] <= least && i != c1) least = frequency[i], c2 = i;
        }
        if (c2 < 0) break;  // (also where c1 is -1: then c2 is too)
        frequency[c1] += frequency[c2];
        frequency[c2] = 0;
        for (++code_size[c1]; others[c1] >= 0; ++code_size[c1]) c1 = others[c1];
        others[c1] = c2;
        for (++code_size[c2]; others[c2] >= 0; ++code_size[c2]) c2 = others[c2];
    }
    int bits[longest + 1] = {};
    for (int i = 0; i <= 256; ++i) {
        if (code_size[i]) ++bits[std::min(code_size[i], longest)];  // over 32 bits needs 2^32 symbols
    }
    // JPEG's codes are at most 16 bits: a pair of the longest codes becomes one code a bit shorter and
    // a code of the next shorter length with codes left turns into two one bit longer (JPEG's Annex K.3).
    for (int i = longest; i > 16; --i) {
        while (bits[i] > 0) {
            int j = i - 2;
            while (bits[j] == 0) --j;
            bits[i] -= 2;
            bits[i - 1] += 1;
            bits[j + 1] += 2;
            bits[j] -= 1;
        }
    }
    int last = 16;
    while (bits[last] == 0) --last;
    --bits[last];  // the pseudo-symbol's code goes
    HuffmanSpec spec;
    for (int i = 1; i <= 16; ++i) spec.bits[i] = static_cast<std::uint8_t>(bits[i]);
    int p = 0;
    for (int length = 1; length <= longest; ++length) {
        for (int symbol = 0; symbol <= 255; ++symbol) {
            if (code_size[symbol] == length) spec.symbols[p++] = static_cast<std::uint8_t>(symbol);
        }
    }
    return spec;
}

bool huffman_codes_of(const HuffmanSpec& spec, bool dc, HuffmanCodes& codes) {
    codes = HuffmanCodes{};
    unsigned code = 0;
    int p = 0;
    for (int length = 1; length <= 16; ++length, code <<= 1) {
        for (int i = 0; i < spec.bits[length]; ++i, ++p, ++code) {
            if (p >= 256) return false;
            const int symbol = spec.symbols[p];
            if ((dc && symbol > 15) || codes.size[symbol] != 0) return false;
            codes.code[symbol] = static_cast<std::uint16_t>(code);
            codes.size[symbol] = static_cast<std::uint8_t>(length);
        }
        if (code >= (1u << length)) return false;  // no code may be all ones
    }
    return true;
}

bool make_own_tables(const ScanLayout& layout, const std::uint64_t* counts, ScanTables& codes, CodedScan& scan) {
    scan.own_tables = true;
    for (int c = 0; c < layout.components; ++c) {
        for (const int slot : {layout.component[c].dc_table, 4 + layout.component[c].ac_table}) {
            const bool dc = slot < 4;
            HuffmanSpec& spec = dc ? scan.dc[slot] : scan.ac[slot - 4];
            spec = optimal_huffman_table(counts + slot * 256);
            if (!huffman_codes_of(spec, dc, dc ? codes.dc[slot] : codes.ac[slot - 4])) return false;
        }
    }
    return true;
}

}  // namespace gpurotate::detail
