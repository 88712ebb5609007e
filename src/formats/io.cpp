// Reading and writing image files: the checks, then the format registry's decoders and encoders; atomic output.

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include "formats/alpha_channel.hpp"
#include "formats/file_bytes.hpp"
#include "jpeg/jpeg_lossless.hpp"
#include "metadata/metadata.hpp"
#include "formats/format_registry.hpp"
#include "core/validate.hpp"

namespace gpurotate {

Image read_image(const std::string& path, const ReadOptions& options) { return decode_image(detail::read_file_bytes(path), options, path); }

Image decode_image(const std::vector<std::uint8_t>& bytes, const ReadOptions& options, const std::string& path) {
    if (options.max_pixels < 0) throw Error(ErrorCode::usage, "max_pixels " + std::to_string(options.max_pixels) + " is negative");
    return detail::decode_any_format(bytes, path, options);
}

Image read_image(const std::string& path, HostMemory memory) { return read_image(path, ReadOptions{memory, default_max_pixels}); }

void check_output_writable(const std::string& path, bool overwrite) { detail::check_output_path(path, overwrite); }

void check_output_format(const std::string& path) { detail::output_format_named_by(path); }

void check_output_format(const std::string& path, PixelFormat format) { detail::output_format_for(path, format); }

void write_image(const std::string& path, ConstImageView image, const WriteOptions& options) {
    const detail::FormatRow& row = detail::output_format_for(path, image.format);  // the view itself: encode_image
    detail::check_output_path(path, options.overwrite);  // fail before the encoding work, not after
    if (row.encode_into && !detail::is_stream_output(path)) {  // coded straight into the file (a TIFF's strips)
        const auto fill = [&](int fd) {
            try {
                detail::encode_as_into(image, row, options, fd);
            } catch (const Error& e) {
                throw detail::named_for_output(e, path);  // as a failed write of bytes is named
            }
        };
        detail::write_file_streamed(path, fill, options.overwrite, options.durable);
        return;
    }
    const std::vector<std::uint8_t> bytes = encode_image(image, path, options);
    detail::write_file_atomically(path, bytes, options.overwrite, options.durable);
}

std::vector<std::uint8_t> encode_image(ConstImageView image, const std::string& name, const WriteOptions& options) {
    detail::validate_view(image, "output");
    return detail::encode_as(image, detail::output_format_for(name, image.format), options);
}

namespace detail {

namespace {

// The checks every encode makes, and straight alpha for a format that cannot say its alpha is premultiplied
// (its colours divided out first); then `code` of the pixels and options.
template <typename Result, typename Code>
Result encode_checked(ConstImageView image, const FormatRow& row, const WriteOptions& options, const Code& code) {
    validate_view(image, "output");
    if (image.width < 1 || image.height < 1) {
        throw Error(ErrorCode::usage, "output image is " + std::to_string(image.width) + "x" + std::to_string(image.height) + ": no pixels");
    }
    if (options.quality < 1 || options.quality > 100) {
        throw Error(ErrorCode::usage, "quality " + std::to_string(options.quality) + " is outside 1..100");
    }
    if (options.metadata && options.metadata->associated_alpha && !row.premultiplied_alpha && (image.format.channels == 2 || image.format.channels == 4)) {
        const Image straight = unpremultiplied(image);
        WriteOptions unassociated = options;
        ImageMetadata metadata = *options.metadata;
        metadata.associated_alpha = false;
        unassociated.metadata = &metadata;
        return encode_checked<Result>(straight.view(), row, unassociated, code);
    }
    return code(image, options);
}

}  // namespace

std::vector<std::uint8_t> encode_as(ConstImageView image, const FormatRow& row, const WriteOptions& options) {
    return encode_checked<std::vector<std::uint8_t>>(image, row, options, row.encode);
}

void encode_as_into(ConstImageView image, const FormatRow& row, const WriteOptions& options, int fd) {
    encode_checked<void>(image, row, options, [&](ConstImageView pixels, const WriteOptions& o) { row.encode_into(pixels, o, fd); });
}

Error named_for_output(const Error& e, const std::string& path) {
    if (e.code() != ErrorCode::output) return e;
    return Error(ErrorCode::output, "cannot write '" + path + "': " + e.what());
}

}  // namespace detail

ImageMetadata read_metadata(const std::string& path) { return detail::metadata_of(detail::read_file_bytes(path)); }

int exif_orientation(const ImageMetadata& metadata) { return detail::exif_orientation(metadata.exif).value_or(0); }

Orientation orientation_from_exif(int tag) {
    static constexpr Orientation upright[] = {Orientation::identity,  Orientation::flip_h,    Orientation::rot180, Orientation::flip_v,
                                              Orientation::transpose, Orientation::rot90,     Orientation::transverse, Orientation::rot270};
    return tag >= 1 && tag <= 8 ? upright[tag - 1] : Orientation::identity;
}

ImageMetadata metadata_after(const ImageMetadata& metadata, Orientation element, int orientation_tag) {
    return detail::metadata_after(metadata, element, orientation_tag, nullptr, detail::turn_jpeg_thumbnail);
}

std::vector<FormatInfo> output_formats() {
    std::vector<FormatInfo> formats;
    for (const auto& row : detail::format_rows()) {
        if (row.written() && row.compiled_in()) formats.push_back({row.name, row.extensions, detail::describe_capacity(row), row.writer()});
    }
    return formats;
}

}  // namespace gpurotate
