// JPEG to JPEG without decoding: the lossless transforms (one or two elements per input, from its size, as
// augment asks for several variants of one decode; with the EXIF rewriting, trimming and --strip) and the
// quality and subsampling estimate that re-encodes use. Every transform runs twice, its scans coded by
// libjpeg and by the GPU's block coder run on the CPU (tests/cpu_scan_coder.hpp): the bytes must agree, and
// so must a refusal.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "jpeg/jpeg_character.hpp"
#include "jpeg/jpeg_lossless.hpp"
#include "metadata/metadata.hpp"
#include "cpu_scan_coder.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    using namespace gpurotate;
    detail::jpeg_character(bytes);
    const auto first = static_cast<Orientation>(size % 8), second = static_cast<Orientation>((size / 8) % 8);
    // Every edge rule, keep's partial mirror among them (not tied to the elements' or --strip's bits of the size).
    constexpr detail::JpegEdge edges[] = {detail::JpegEdge::trim, detail::JpegEdge::error, detail::JpegEdge::reencode, detail::JpegEdge::keep};
    const detail::JpegEdge edge = edges[(size / 64) % 4];
    try {
        const ImageMetadata metadata = detail::metadata_of(bytes);
        const ImageMetadata after_first = metadata_after(metadata, first, 0), after_second = metadata_after(metadata, second, 0);
        std::vector<detail::LosslessJpegVariant> variants{{first, &after_first}};
        if (size % 5 == 0) variants.push_back({second, &after_second});
        std::vector<detail::LosslessJpegReport> reports;
        std::optional<std::vector<std::optional<std::vector<std::uint8_t>>>> by_libjpeg, by_blocks;
        try {
            by_libjpeg = detail::transform_jpeg_lossless_variants(bytes, "fuzz.jpg", variants, edge, size % 2 == 0, fuzz::read_options(), reports);
        } catch (const Error&) {
        }
        jpeg_scan_support::CpuScanCoder coder;
        try {
            by_blocks = detail::transform_jpeg_lossless_variants(bytes, "fuzz.jpg", variants, edge, size % 2 == 0, fuzz::read_options(), reports, &coder);
        } catch (const Error&) {
        }
        if (by_libjpeg != by_blocks) std::abort();
    } catch (const Error&) {
    }
    return 0;
}
