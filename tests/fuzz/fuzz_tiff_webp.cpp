// TIFF and WebP through libtiff and libwebp, as the CLI reads them (its ImageSource: the metadata first, then the
// pixels under the shared limit). Whatever decodes is turned by rot90 and written back into its own format as the
// CLI writes it (a TIFF keeps its compression, predictor, planes and strips, so the strip coder runs; a lossless
// WebP stays lossless; the metadata travels), then decoded again: a lossless coding must give back exactly the
// turned pixels, and our own output must always decode.

#include "fuzz_limits.hpp"
#include "same_pixels.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>

#include "formats/image_source.hpp"
#include "formats/tiff_codec.hpp"
#include "formats/tiff_coding.hpp"
#include "formats/webp_codec.hpp"

#include <cstdlib>
#include <cstring>

namespace {

using gpurotate::ConstImageView;
using gpurotate::Image;

// Re-encoding costs far more than decoding (libwebp's lossless search above all): only images of up to 64K
// pixels are written back, as fuzz_roundtrip holds its inputs. The decoders still meet the shared limit.
constexpr std::int64_t reencode_max_pixels = std::int64_t{1} << 16;

enum class Kind { tiff, webp };

std::optional<Image> decode(Kind kind, const std::vector<std::uint8_t>& bytes, const char* name) {
    const gpurotate::ReadOptions options = gpurotate::fuzz::read_options();
    return kind == Kind::tiff ? gpurotate::detail::decode_tiff(bytes, name, options) : gpurotate::detail::decode_webp(bytes, name, options);
}

void turn_and_write_back(Kind kind, const gpurotate::detail::ImageSource& source, const Image& input) {
    if (input.width() * input.height() > reencode_max_pixels) return;
    const Image turned = gpurotate::transform(input, gpurotate::Orientation::rot90, gpurotate::Backend::cpu);
    const gpurotate::ImageMetadata metadata = source.metadata_for(gpurotate::Orientation::rot90, false, false);
    gpurotate::WriteOptions options;
    options.quality = 75;
    options.metadata = &metadata;
    options.tiff = gpurotate::detail::tiff_coding_of(source.bytes()).value_or(gpurotate::TiffCoding{});
    options.lossless = source.is_lossless_webp();
    std::vector<std::uint8_t> written;
    try {
        written = kind == Kind::tiff ? gpurotate::detail::encode_tiff(turned.view(), options) : gpurotate::detail::encode_webp(turned.view(), options);
    } catch (const gpurotate::Error& e) {
        if (e.code() != gpurotate::ErrorCode::output) std::abort();  // only "cannot hold these" (JPEG of 16 bits, a codec not built)
        return;
    }
    const std::optional<Image> back = decode(kind, written, "written");  // our own output must decode: an Error aborts
    if (!back || back->width() != turned.width() || back->height() != turned.height()) std::abort();
    const bool lossless = kind == Kind::tiff ? options.tiff.compression != gpurotate::TiffCompression::jpeg : options.lossless;
    if (lossless && !gpurotate::fuzz::same_pixels(back->view(), turned.view())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> bytes(data, data + size);
    std::optional<gpurotate::detail::ImageSource> source;
    try {
        source.emplace("fuzz", std::move(bytes), gpurotate::default_max_jpeg_scans);
    } catch (const gpurotate::Error&) {
        return 0;
    }
    for (const Kind kind : {Kind::tiff, Kind::webp}) {
        std::optional<Image> image;
        try {
            image = decode(kind, source->bytes(), "fuzz");
        } catch (const gpurotate::Error&) {  // a clean refusal is the expected outcome for most inputs
            continue;
        }
        if (image) turn_and_write_back(kind, *source, *image);
    }
    return 0;
}
