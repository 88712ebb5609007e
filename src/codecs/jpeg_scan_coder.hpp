#pragma once
// Who entropy-codes a lossless JPEG transform's variants, where not libjpeg: the GPU coder
// (cuda/jpeg_scan_coder.cu), which codes every variant of a JPEG in a few launches from one upload of its
// coefficients. jpeg_lossless.cpp decides which files it may take (baseline Huffman coding with the
// standard tables) and writes everything but the scan's bits itself.

#include "codecs/jpeg_scan_coding.hpp"

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

/// One scan's entropy-coded bits as libjpeg would write them before byte stuffing: whole bytes, the last
/// filled with 1 bits.
using CodedScan = std::vector<std::uint8_t>;

/// The scan of `bits` bits at the start of `stream` (BitWriter's words), its last byte filled with 1 bits.
inline CodedScan coded_scan_of(const std::uint8_t* stream, std::uint64_t bits) {
    CodedScan scan(stream, stream + (bits + 7) / 8);
    if (bits % 8) scan.back() |= static_cast<std::uint8_t>(0xff >> (bits % 8));
    return scan;
}

class JpegScanCoder {
public:
    virtual ~JpegScanCoder() = default;
    /// Codes every layout's scan of `source` with `tables`: one result per layout, nothing where a block
    /// cannot be coded (libjpeg codes that scan and says why). Throws Error (device) where the coder fails;
    /// the caller codes on the CPU.
    virtual std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts,
                                                       const ScanTables& tables) = 0;
    /// Device memory the coder holds now, in bytes.
    virtual std::size_t device_bytes() const { return 0; }
};

/// A coder on GPU `device` with a stream and buffers of its own, kept between calls (nullptr where CUDA
/// is not compiled in). Throws Error (device) where the GPU cannot be used; a file whose coding would take
/// more than `budget` bytes of device memory (0: no limit) is refused with Error (device), before anything
/// is allocated for it.
std::unique_ptr<JpegScanCoder> open_gpu_jpeg_scan_coder(int device, std::size_t budget = 0);

}  // namespace gpurotate::detail
