#include "formats/webp_codec.hpp"

#include "core/decode_limits.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/metadata.hpp>

#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace gpurotate::detail {
namespace {

bool is_webp(const std::vector<std::uint8_t>& b) {
    return b.size() >= 12 && std::memcmp(b.data(), "RIFF", 4) == 0 && std::memcmp(b.data() + 8, "WEBP", 4) == 0;
}

[[noreturn]] void cannot_write(const std::string& why) { throw Error(ErrorCode::output, "WebP: " + why); }

// libwebp's lossless coder clears the bitstream's alpha_is_used hint where every alpha sample is 255, and a
// decoder then reads the file as RGB: an RGBA input would come out with 3 channels. The hint is one bit of the
// VP8L header (bit 28 of the 32-bit little-endian word after its 0x2f signature; the format's specification
// allows it set whatever the alpha), set again here; libwebpmux's VP8X alpha flag follows it.
void keep_alpha_declared(std::vector<std::uint8_t>& webp) {
    constexpr std::size_t header = 20;  // RIFF, size, WEBP, VP8L, chunk size
    if (webp.size() < header + 5 || std::memcmp(webp.data() + 12, "VP8L", 4) != 0 || webp[header] != 0x2f) return;
    webp[header + 4] = static_cast<std::uint8_t>(webp[header + 4] | 0x10u);
}

// The coded picture, without metadata.
std::vector<std::uint8_t> encode_picture(ConstImageView image, const WriteOptions& options) {
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) cannot_write("libwebp could not start an encoder");
    const std::unique_ptr<WebPPicture, void (*)(WebPPicture*)> owned(&picture, WebPPictureFree);
    if (options.lossless) {
        // exact: a lossless copy of a lossless file keeps the colour of fully transparent pixels too.
        config.lossless = 1;
        config.exact = 1;
    } else {
        config.quality = static_cast<float>(std::clamp(options.quality, 1, 100));
    }
    // ARGB for lossless, YUV straight from the samples for lossy, as libwebp's own WebPEncodeRGB does.
    picture.use_argb = options.lossless ? 1 : 0;
    picture.width = static_cast<int>(image.width);
    picture.height = static_cast<int>(image.height);
    const auto* samples = reinterpret_cast<const std::uint8_t*>(image.data);
    const int stride = static_cast<int>(image.pitch);
    const int imported = image.format.channels == 4 ? WebPPictureImportRGBA(&picture, samples, stride) : WebPPictureImportRGB(&picture, samples, stride);
    if (!imported) cannot_write("libwebp could not take the pixels (out of memory?)");
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    const std::unique_ptr<WebPMemoryWriter, void (*)(WebPMemoryWriter*)> written(&writer, WebPMemoryWriterClear);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    if (!WebPEncode(&config, &picture)) cannot_write("libwebp could not encode it (error " + std::to_string(static_cast<int>(picture.error_code)) + ")");
    std::vector<std::uint8_t> coded(writer.mem, writer.mem + writer.size);
    if (options.lossless && image.format.channels == 4) keep_alpha_declared(coded);
    return coded;
}

// The ICC profile, EXIF and XMP as chunks: libwebpmux adds them and the VP8X header that announces them.
void add_metadata(std::vector<std::uint8_t>& webp, const ImageMetadata& m) {
    if (m.icc.empty() && m.exif.empty() && m.xmp.empty()) return;
    const WebPData in{webp.data(), webp.size()};
    const std::unique_ptr<WebPMux, void (*)(WebPMux*)> mux(WebPMuxCreate(&in, 1), WebPMuxDelete);
    const WebPData icc{m.icc.data(), m.icc.size()}, exif{m.exif.data(), m.exif.size()};
    const WebPData xmp{reinterpret_cast<const std::uint8_t*>(m.xmp.data()), m.xmp.size()};
    if (!mux || (!m.icc.empty() && WebPMuxSetChunk(mux.get(), "ICCP", &icc, 1) != WEBP_MUX_OK) ||
        (!m.exif.empty() && WebPMuxSetChunk(mux.get(), "EXIF", &exif, 1) != WEBP_MUX_OK) ||
        (!m.xmp.empty() && WebPMuxSetChunk(mux.get(), "XMP ", &xmp, 1) != WEBP_MUX_OK)) {
        cannot_write("libwebpmux could not add the metadata");
    }
    WebPData out{nullptr, 0};
    if (WebPMuxAssemble(mux.get(), &out) != WEBP_MUX_OK) cannot_write("libwebpmux could not assemble it");
    webp.assign(out.bytes, out.bytes + out.size);
    WebPDataClear(&out);
}

}  // namespace

std::optional<Extent> webp_declared_extent(const std::vector<std::uint8_t>& bytes) {
    WebPBitstreamFeatures features;
    if (!is_webp(bytes) || WebPGetFeatures(bytes.data(), bytes.size(), &features) != VP8_STATUS_OK) return std::nullopt;
    return Extent{features.width, features.height};
}

std::optional<Image> decode_webp(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!is_webp(bytes)) return std::nullopt;
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(bytes.data(), bytes.size(), &features) != VP8_STATUS_OK) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt WebP (libwebp cannot read its header)");
    }
    if (features.has_animation) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': an animated WebP (still WebPs are read; extract a frame with webpmux -get frame 1)");
    }
    check_declared_size(path, features.width, features.height, options);
    const int channels = features.has_alpha ? 4 : 3;
    Image image(features.width, features.height, PixelFormat{SampleType::u8, channels}, options.memory);
    auto* out = reinterpret_cast<std::uint8_t*>(image.view().row(0));
    const std::size_t size = image.size_bytes();
    const int stride = static_cast<int>(image.view().pitch);
    const std::uint8_t* decoded = channels == 4 ? WebPDecodeRGBAInto(bytes.data(), bytes.size(), out, size, stride)
                                                : WebPDecodeRGBInto(bytes.data(), bytes.size(), out, size, stride);
    if (!decoded) throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt or truncated WebP (libwebp cannot decode its pixels)");
    return image;
}

std::vector<std::uint8_t> encode_webp(ConstImageView image, const WriteOptions& options) {
    std::vector<std::uint8_t> webp = encode_picture(image, options);
    if (options.metadata) add_metadata(webp, *options.metadata);
    return webp;
}

std::string webp_library() {
    const int v = WebPGetDecoderVersion();  // 0xMMmmpp
    return "libwebp " + std::to_string(v >> 16 & 0xff) + "." + std::to_string(v >> 8 & 0xff) + "." + std::to_string(v & 0xff);
}

}  // namespace gpurotate::detail
