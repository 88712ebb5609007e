#pragma once
// A TIFF strip's LZW coding (TIFF 6.0, section 13), for the strips libtiff would code slowest: its coder probes
// a 9001-entry hash table byte by byte and took 14.6 ns a byte of a 12-megapixel 16-bit RGB image's differenced
// samples, where a direct table of two-byte strings, a small hash table for the longer ones and codes packed into
// 64-bit words take 3.7-3.9 ns (2-core VM, bench/RESULTS.md, 2026-12-07; tiff_lzw.cpp says why). The codes are those libtiff's coder writes, without its resets of the table
// when the compression ratio falls: a Clear code first and whenever the table's last code (4093) is taken,
// widths from 9 to 12 bits raised one code early (when the next code to be assigned no longer fits), the End of
// Information code last, bits most significant first. libtiff's decoder reads them back (tests/test_tiff_lzw.cpp).

#include <cstddef>
#include <cstdint>

namespace gpurotate::detail {

/// The most bytes encode_tiff_lzw writes for `size` bytes: a 12-bit code a byte, the Clear codes and the end.
constexpr std::size_t tiff_lzw_bound(std::size_t size) { return ((size + size / 1024 + 8) * 12 + 7) / 8 + 8; }

/// Codes the `size` bytes at `bytes` as one LZW strip into `out`, which has room for tiff_lzw_bound(size)
/// bytes; returns the bytes written.
std::size_t encode_tiff_lzw(const std::uint8_t* bytes, std::size_t size, std::uint8_t* out);

/// Writes to `out` each sample of `rows` rows of `row_samples` samples of `Sample` (an unsigned type of the
/// samples' width) at `in` less the sample `stride` before it in its row, as TIFF's horizontal predictor
/// (predictor 2) asks, modulo the type: the first `stride` samples of each row are copied.
template <typename Sample>
void difference_rows(const Sample* __restrict in, Sample* __restrict out, std::size_t rows, std::size_t row_samples, std::size_t stride) {
    for (std::size_t r = 0; r < rows; ++r) {
        const Sample* from = in + r * row_samples;
        Sample* to = out + r * row_samples;
        for (std::size_t i = 0; i < stride && i < row_samples; ++i) to[i] = from[i];
        for (std::size_t i = stride; i < row_samples; ++i) to[i] = static_cast<Sample>(from[i] - from[i - stride]);
    }
}

}  // namespace gpurotate::detail
