// JPEG to JPEG without decoding: the lossless transforms (one or two elements per input, from its size, as
// augment asks for several variants of one decode; with the EXIF rewriting, trimming and --strip) and the
// quality and subsampling estimate that re-encodes use.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "codecs/jpeg_character.hpp"
#include "codecs/jpeg_lossless.hpp"
#include "codecs/metadata.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    using namespace gpurotate;
    detail::jpeg_character(bytes);
    const auto first = static_cast<Orientation>(size % 8), second = static_cast<Orientation>((size / 8) % 8);
    const detail::JpegEdge edge = size % 3 == 0 ? detail::JpegEdge::trim : size % 3 == 1 ? detail::JpegEdge::error : detail::JpegEdge::reencode;
    try {
        const ImageMetadata metadata = detail::metadata_of(bytes);
        const ImageMetadata after_first = metadata_after(metadata, first, 0), after_second = metadata_after(metadata, second, 0);
        std::vector<detail::LosslessJpegVariant> variants{{first, &after_first}};
        if (size % 5 == 0) variants.push_back({second, &after_second});
        std::vector<detail::LosslessJpegReport> reports;
        detail::transform_jpeg_lossless_variants(bytes, "fuzz.jpg", variants, edge, size % 2 == 0, fuzz::read_options(), reports);
    } catch (const Error&) {
    }
    return 0;
}
