// JPEG to JPEG without decoding: the lossless transform (one element per input, from its size, with the
// EXIF rewriting, trimming and --strip) and the quality and subsampling estimate that re-encodes use.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "codecs/jpeg_character.hpp"
#include "codecs/jpeg_lossless.hpp"
#include "codecs/metadata.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    using namespace gpurotate;
    detail::jpeg_character(bytes);
    const auto element = static_cast<Orientation>(size % 8);
    const detail::JpegEdge edge = size % 3 == 0 ? detail::JpegEdge::trim : size % 3 == 1 ? detail::JpegEdge::error : detail::JpegEdge::reencode;
    try {
        const ImageMetadata metadata = metadata_after(detail::metadata_of(bytes), element, 0);
        detail::LosslessJpegReport report;
        detail::transform_jpeg_lossless(bytes, "fuzz.jpg", element, edge, size % 2 == 0, metadata, fuzz::read_options(), report);
    } catch (const Error&) {
    }
    return 0;
}
