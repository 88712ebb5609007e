// Reading and writing image files: the decoder chain, the encoder per output format, atomic output.

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include "codecs/alpha_channel.hpp"
#include "codecs/file_bytes.hpp"
#include "codecs/metadata.hpp"
#include "codecs/xmp_geometry.hpp"
#include "codecs/opencv_codec.hpp"
#include "codecs/output_format.hpp"
#include "codecs/png_chunks.hpp"
#include "codecs/png_codec.hpp"
#include "codecs/pnm_codec.hpp"
#include "codecs/stb_codec.hpp"
#include "codecs/turbojpeg_codec.hpp"
#include "core/validate.hpp"

namespace gpurotate {

Image read_image(const std::string& path, const ReadOptions& options) { return decode_image(detail::read_file_bytes(path), options, path); }

Image decode_image(const std::vector<std::uint8_t>& bytes, const ReadOptions& options, const std::string& path) {
    if (options.max_pixels < 0) throw Error(ErrorCode::usage, "max_pixels " + std::to_string(options.max_pixels) + " is negative");
    if (auto image = detail::turbojpeg_decode(bytes, path, options)) return std::move(*image);
    if (auto image = detail::decode_png(bytes, path, options)) return std::move(*image);
    if (auto image = detail::decode_pnm(bytes, path, options)) return std::move(*image);
    std::string stb_reason;
    if (auto image = detail::stb_decode(bytes, path, options, stb_reason)) return std::move(*image);
    if (auto image = detail::opencv_decode(bytes, path, options)) return std::move(*image);
    throw Error(ErrorCode::input, "cannot decode '" + path + "': not an image in a supported format (" + stb_reason + ")");
}

Image read_image(const std::string& path, HostMemory memory) { return read_image(path, ReadOptions{memory, default_max_pixels}); }

void check_output_writable(const std::string& path, bool overwrite) { detail::check_output_path(path, overwrite); }

void check_output_format(const std::string& path) { detail::output_format_named_by(path); }

void check_output_format(const std::string& path, PixelFormat format) { detail::output_format_for(path, format); }

void write_image(const std::string& path, ConstImageView image, const WriteOptions& options) {
    detail::output_format_for(path, image.format);  // the view itself: encode_image
    detail::check_output_path(path, options.overwrite);  // fail before the encoding work, not after
    const std::vector<std::uint8_t> bytes = encode_image(image, path, options);
    detail::write_file_atomically(path, bytes, options.overwrite, options.durable);
}

std::vector<std::uint8_t> encode_image(ConstImageView image, const std::string& name, const WriteOptions& options) {
    using detail::OutputFormat;
    detail::validate_view(image, "output");
    if (image.width < 1 || image.height < 1) {
        throw Error(ErrorCode::usage, "output image is " + std::to_string(image.width) + "x" + std::to_string(image.height) + ": no pixels");
    }
    const auto& spec = detail::output_format_for(name, image.format);
    if (options.quality < 1 || options.quality > 100) {
        throw Error(ErrorCode::usage, "quality " + std::to_string(options.quality) + " is outside 1..100");
    }
    // Every format but TIFF stores straight alpha: premultiplied colours are divided out first.
    if (options.metadata && options.metadata->associated_alpha && spec.format != detail::OutputFormat::tiff &&
        (image.format.channels == 2 || image.format.channels == 4)) {
        const Image straight = detail::unpremultiplied(image);
        WriteOptions unassociated = options;
        ImageMetadata metadata = *options.metadata;
        metadata.associated_alpha = false;
        unassociated.metadata = &metadata;
        return encode_image(straight.view(), name, unassociated);
    }
    std::vector<std::uint8_t> bytes;
    switch (spec.format) {
        case OutputFormat::png: return detail::encode_png(image, options.png_level, options.metadata);
        case OutputFormat::jpeg:
            // TurboJPEG and OpenCV's libjpeg write true greyscale; stb stores grey as three equal channels.
            bytes = detail::turbojpeg_available()      ? detail::turbojpeg_encode(image, options.quality, options.chroma)
                    : detail::opencv_codecs_available() ? detail::opencv_encode(image, spec.format, options.quality)
                                                        : detail::stb_encode_jpeg(image, options.quality);
            break;
        case OutputFormat::bmp:
            bytes = detail::stb_encode_bmp(image);
            // stb writes no resolution; a BMP's is pixels per metre at bytes 38 and 42 (little-endian).
            if (options.metadata && options.metadata->resolution && options.metadata->resolution->unit != Resolution::Unit::none && bytes.size() >= 46) {
                const Resolution& r = *options.metadata->resolution;
                for (const auto& [at, value] : {std::pair{std::size_t{38}, r.x}, std::pair{std::size_t{42}, r.y}}) {
                    const std::uint32_t ppm = detail::pixels_per_metre(value, r.unit);
                    for (int i = 0; i < 4; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(ppm >> (8 * i));
                }
            }
            break;
        case OutputFormat::tga: bytes = detail::stb_encode_tga(image); break;
        case OutputFormat::hdr: bytes = detail::stb_encode_hdr(image); break;
        // OpenCV's WebP writer codes losslessly for a quality above 100; the plugin adds the ICC profile and EXIF.
        case OutputFormat::webp: return detail::opencv_encode(image, spec.format, options.lossless ? 101 : options.quality, options.metadata);
        // A TIFF carries the ICC profile, EXIF, XMP and its text tags, and says whether the alpha is premultiplied;
        // OpenCV's formats carry nothing.
        case OutputFormat::tiff: return detail::opencv_encode(image, spec.format, options.quality, options.metadata);
        case OutputFormat::exr: bytes = detail::opencv_encode(image, spec.format, options.quality); break;
    }
    if (options.metadata) bytes = detail::with_metadata(std::move(bytes), *options.metadata);
    return bytes;
}

ImageMetadata read_metadata(const std::string& path) { return detail::metadata_of(detail::read_file_bytes(path)); }

int exif_orientation(const ImageMetadata& metadata) { return detail::exif_orientation(metadata.exif).value_or(0); }

Orientation orientation_from_exif(int tag) {
    static constexpr Orientation upright[] = {Orientation::identity,  Orientation::flip_h,    Orientation::rot180, Orientation::flip_v,
                                              Orientation::transpose, Orientation::rot90,     Orientation::transverse, Orientation::rot270};
    return tag >= 1 && tag <= 8 ? upright[tag - 1] : Orientation::identity;
}

ImageMetadata metadata_after(const ImageMetadata& metadata, Orientation element, int orientation_tag) {
    ImageMetadata out = metadata;
    if (swaps_axes(element)) {
        detail::swap_exif_dimensions(out.exif);
        detail::swap_xmp_axes(out.xmp);
        if (out.resolution) std::swap(out.resolution->x, out.resolution->y);
        for (PngChunk& chunk : out.png_chunks) {
            if (chunk.type == "pHYs") detail::swap_phys_axes(chunk);
        }
    }
    if (orientation_tag != 0) {
        detail::set_exif_orientation(out.exif, orientation_tag);
        detail::set_xmp_orientation(out.xmp, orientation_tag);
    }
    // A PNG's eXIf chunk is left as read: the PNG writer puts `exif` in its place.
    return out;
}

ImageMetadata stripped_metadata(const ImageMetadata& metadata) {
    ImageMetadata out;
    out.png_storage = metadata.png_storage;
    out.associated_alpha = metadata.associated_alpha;  // what the pixels are, as png_storage
    return out;
}

std::vector<FormatInfo> output_formats() {
    std::vector<FormatInfo> formats;
    for (const auto& spec : detail::output_format_table()) {
        if (spec.needs_opencv && !detail::opencv_codecs_available()) continue;
        const bool jpeg = spec.format == detail::OutputFormat::jpeg;
        const char* codec = spec.format == detail::OutputFormat::png                     ? "libspng"
                            : jpeg && detail::turbojpeg_available()                      ? "libjpeg-turbo"
                            : spec.format == detail::OutputFormat::tiff                                   ? "libtiff"
                            : spec.needs_opencv || (jpeg && detail::opencv_codecs_available()) ? "opencv"
                                                                                          : "stb";
        formats.push_back({spec.name, spec.extensions, detail::describe_capacity(spec), codec});
    }
    return formats;
}

}  // namespace gpurotate
