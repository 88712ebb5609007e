#include "formats/tiff_lzw.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace gpurotate::detail {
namespace {

constexpr unsigned clear_code = 256, end_code = 257, first_free = 258;
// libtiff's coder starts a new table once code 4093 is taken, so a 12-bit code never reaches 4094 or 4095.
constexpr unsigned table_full = 4094;
constexpr int min_width = 9;

// The table of strings: string (prefix code, byte) -> its code, in two parts. Strings of two bytes (a prefix below
// 256), which noisy samples make nearly all of (a 16-bit photo's differenced samples averaged 1.2 bytes a code),
// are found in one load at [prefix][byte] of a 64Ki-word table (256 KiB, in L2), whose words carry the table's
// generation above their code: a reset only moves to the next generation, and the table is cleared once in 2^20
// of them. Longer strings go to open addressing over 8192 words (32 KiB, the L1 cache's size), at most 3836 of
// them taken, so that a probe rarely goes past its first word; a word holds the string's key plus one above its
// code's 12 bits (no key is 0, so a zero word is free). One table of 8192 words for every string took 8 ns a
// byte of those samples (2-core VM), its probes' lengths unpredictable; the two take 3.7.
constexpr int table_bits = 13;
constexpr std::uint32_t table_mask = (1u << table_bits) - 1;

std::uint32_t slot_of(std::uint32_t key) { return (key * 0x9E3779B1u) >> (32 - table_bits); }

// Codes most significant bit first, stored 32 bits at a time.
class CodeWriter {
public:
    explicit CodeWriter(std::uint8_t* out) : out_(out) {}
    void put(unsigned code, int width) {
        pending_ = (pending_ << width) | code;
        bits_ += width;
        if (bits_ >= 32) {
            bits_ -= 32;
            std::uint32_t word = static_cast<std::uint32_t>(pending_ >> bits_);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            word = __builtin_bswap32(word);  // its most significant byte first
#endif
            std::memcpy(out_, &word, 4);
            out_ += 4;
        }
    }
    /// The last bits, the byte's free ones zero; the end of what was written.
    std::uint8_t* finish() {
        while (bits_ >= 8) {
            bits_ -= 8;
            *out_++ = static_cast<std::uint8_t>(pending_ >> bits_);
        }
        if (bits_ > 0) *out_++ = static_cast<std::uint8_t>(pending_ << (8 - bits_));
        bits_ = 0;
        return out_;
    }

private:
    std::uint8_t* out_;
    std::uint64_t pending_ = 0;  ///< its low `bits_` bits not yet stored
    int bits_ = 0;
};

// The two-byte strings' table, one a thread (the strips of an image are coded on several), and its generation.
class PairTable {
public:
    /// A table with no pair in it: the next generation's tag, above a code's 12 bits.
    std::uint32_t reset() {
        if (++generation_ == 1u << 20) {
            std::fill(words_.begin(), words_.end(), 0u);
            generation_ = 1;
        }
        return generation_ << 12;
    }
    std::uint32_t* words() { return words_.data(); }

private:
    std::vector<std::uint32_t> words_ = std::vector<std::uint32_t>(std::size_t{1} << 16, 0u);
    std::uint32_t generation_ = 0;
};

}  // namespace

std::size_t encode_tiff_lzw(const std::uint8_t* bytes, std::size_t size, std::uint8_t* out) {
    thread_local PairTable pairs;
    CodeWriter writer(out);
    std::array<std::uint32_t, 1u << table_bits> table{};
    std::uint32_t* const pair = pairs.words();
    std::uint32_t tag = pairs.reset();
    int width = min_width;
    unsigned next = first_free;  // the code the next new string takes
    writer.put(clear_code, width);
    if (size > 0) {
        unsigned string = bytes[0];  // the code of the longest string in the table that the bytes so far end with
        for (std::size_t i = 1; i < size; ++i) {
            const unsigned byte = bytes[i];
            if (string < 256) {
                std::uint32_t& word = pair[string << 8 | byte];
                if ((word & ~0xFFFu) == tag) {
                    string = word & 0xFFFu;
                    continue;
                }
                word = tag | next;
            } else {
                const std::uint32_t key = (string << 8 | byte) + 1;
                std::uint32_t slot = slot_of(key);
                std::uint32_t word;
                while ((word = table[slot]) != 0 && word >> 12 != key) slot = (slot + 1) & table_mask;
                if (word != 0) {
                    string = word & 0xFFFu;
                    continue;
                }
                table[slot] = key << 12 | next;
            }
            writer.put(string, width);
            string = byte;
            if (++next == table_full) {
                writer.put(clear_code, width);
                table.fill(0);
                tag = pairs.reset();
                next = first_free;
                width = min_width;
            } else if (next >> width != 0) {  // the next code would not fit
                ++width;
            }
        }
        // The decoder adds a string for the last code too, so the widths of what follows count it.
        writer.put(string, width);
        if (++next == table_full) {
            writer.put(clear_code, width);
            width = min_width;
        } else if (next >> width != 0) {
            ++width;
        }
    }
    writer.put(end_code, width);
    return static_cast<std::size_t>(writer.finish() - out);
}

}  // namespace gpurotate::detail
