#pragma once
// Who entropy-codes a lossless JPEG transform's variants, where not libjpeg: the GPU coder
// (cuda/jpeg_scan_coder.cu), which codes every variant of a JPEG in a few launches from one upload of its
// coefficients, or the CPU coder (cpu_jpeg_scan_coder.cpp), which codes segments of a scan on several cores. jpeg_lossless.cpp decides which files it may take (baseline Huffman coding, with the
// standard tables or tables made for each variant) and writes everything but the scan's bits itself.

#include "jpeg/jpeg_scan_coding.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace gpurotate::detail {

/// A source component's coefficient blocks as jpeg_read_coefficients left them: one pointer per block row.
struct SourceComponent {
    const std::int16_t* const* rows = nullptr;  ///< rows[y] holds `columns` blocks of 64 coefficients
    std::int64_t columns = 0, row_count = 0;
};

/// The source of a transform's scans: its components in order. The coefficient store the layouts index
/// (ScanComponent::first_block) is the components' blocks one after another, each row after row.
struct SourceCoefficients {
    std::vector<SourceComponent> components;
};

/// A Huffman table as a DHT segment holds it (libjpeg's JHUFF_TBL): how many codes each length 1..16 has,
/// and the symbols in code order.
struct HuffmanSpec {
    std::uint8_t bits[17] = {};
    std::uint8_t symbols[256] = {};
};

/// The table libjpeg's jpeg_gen_optimal_table makes for a scan's symbol counts (`counts[256]`), so that a
/// scan coded with it is libjpeg's optimize_coding output, byte for byte.
HuffmanSpec optimal_huffman_table(const std::uint64_t* counts);

/// An encoder's codes for `spec` (libjpeg's jpeg_make_c_derived_tbl); false for a table libjpeg would
/// refuse (a symbol twice, a DC symbol past 15, more codes than a length holds).
bool huffman_codes_of(const HuffmanSpec& spec, bool dc, HuffmanCodes& codes);

/// One scan's entropy-coded data, and the tables it was coded with where they were made for it.
struct CodedScan {
    std::vector<std::uint8_t> bytes;  ///< as libjpeg writes them before byte stuffing: whole bytes, the last filled with 1 bits
    bool own_tables = false;          ///< coded with tables made for it (below, by table number), which the file must carry
    HuffmanSpec dc[4], ac[4];
};

/// The scan of `bits` bits at the start of `stream` (BitWriter's words), its last byte filled with 1 bits.
inline std::vector<std::uint8_t> scan_bytes_of(const std::uint8_t* stream, std::uint64_t bits) {
    std::vector<std::uint8_t> bytes(stream, stream + (bits + 7) / 8);
    if (bits % 8) bytes.back() |= static_cast<std::uint8_t>(0xff >> (bits % 8));
    return bytes;
}

/// How the scans are coded: with `tables`, or each with tables made for it from its own symbol counts.
struct ScanCoding {
    ScanTables tables{};
    bool own_tables = false;
};

/// A scan's tables made for it from `counts` (`counts[slot * 256 + symbol]`, ScanTables::at's slots): the
/// codes to code it with in `codes`, the tables its file carries in `scan`. False where libjpeg would refuse one.
bool make_own_tables(const ScanLayout& layout, const std::uint64_t* counts, ScanTables& codes, CodedScan& scan);

class JpegScanCoder {
public:
    virtual ~JpegScanCoder() = default;
    /// Codes every layout's scan of `source` as `coding` says: one result per layout, nothing where a block
    /// cannot be coded (libjpeg codes that scan and says why). Throws Error (device) where the coder fails;
    /// the caller codes on the CPU.
    virtual std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts,
                                                       const ScanCoding& coding) = 0;
    /// Device memory the coder holds now, in bytes.
    virtual std::size_t device_bytes() const { return 0; }
    /// Gives back every buffer it holds between calls: after the known-answer check, whose buffers would
    /// otherwise count against the budget of the user's files.
    virtual void release_memory() {}
};

/// A coder on GPU `device` with a stream and buffers of its own, kept between calls (nullptr where CUDA
/// is not compiled in). Throws Error (device) where the GPU cannot be used; a file whose coding would take
/// more than `budget` bytes of device memory (0: no limit) is refused with Error (device), before anything
/// is allocated for it.
std::unique_ptr<JpegScanCoder> open_gpu_jpeg_scan_coder(int device, std::size_t budget = 0);

/// A coder on the CPU: each scan cut into segments of whole MCUs, coded on `threads` threads (0: every usable
/// core) and spliced into libjpeg's bytes. `mcus_per_segment` 0 makes one segment a thread; the tests make
/// them small, so that a small image is spliced many times. A scan it cannot code in place (a component's
/// blocks not in one array) is left to libjpeg.
std::unique_ptr<JpegScanCoder> open_cpu_jpeg_scan_coder(unsigned threads = 0, std::int64_t mcus_per_segment = 0);

}  // namespace gpurotate::detail
