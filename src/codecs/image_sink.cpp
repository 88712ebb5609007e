#include "codecs/image_sink.hpp"

#include "codecs/file_bytes.hpp"

namespace gpurotate::detail {

ImageSink::ImageSink(std::string path, bool overwrite, bool durable)
    : path_(std::move(path)), spec_(&output_format_named_by(path_)), overwrite_(overwrite), durable_(durable) {}

void ImageSink::check_writable() const { check_output_path(path_, overwrite_); }

void ImageSink::check_holds(PixelFormat pixels) const { output_format_for(path_, pixels); }

void ImageSink::write(ConstImageView pixels, WriteOptions options) const {
    options.overwrite = overwrite_;
    options.durable = durable_;
    write_image(path_, pixels, options);
}

void ImageSink::write_encoded(const std::vector<std::uint8_t>& bytes) const { write_file_atomically(path_, bytes, overwrite_, durable_); }

std::string ImageSink::unwritten(const ImageSource& source, const ImageMetadata& metadata, bool strip) const {
    std::string lost;
    const auto add = [&](const std::string& words) { lost += (lost.empty() ? "" : ", ") + words; };
    // Every other format's alpha is unassociated: premultiplied colours go in as they are.
    if (metadata.associated_alpha && format() != OutputFormat::tiff) add("that the alpha is premultiplied (the colours are written as stored)");
    if (strip) return lost.empty() ? lost : std::string(spec_->name) + " output: not written: " + lost;
    if (!holds_exif() && !metadata.exif.empty()) add("EXIF");  // metadata.cpp, png_codec.cpp
    if (!holds_icc() && !metadata.icc.empty()) add("ICC profile");  // and the TIFF writer of the plugin
    if (!holds_icc() && !metadata.xmp.empty()) add("XMP");  // the same formats hold XMP
    if (metadata.resolution && !is_jpeg() && !is_png() && format() != OutputFormat::tiff) add("resolution");
    if (!is_png()) {
        std::string chunks;
        for (const PngChunk& chunk : metadata.png_chunks) {
            const bool carried = is_jpeg() && (chunk.type == "iCCP" || chunk.type == "eXIf");  // as the ICC profile and EXIF
            if (!carried && chunks.find(chunk.type) == std::string::npos) chunks += (chunks.empty() ? "" : " ") + chunk.type;
        }
        if (!chunks.empty()) add("the PNG chunks " + chunks);
    }
    const std::string markers = source.other_jpeg_markers();
    if (!markers.empty()) add("the input's JPEG markers (" + markers + "; only the lossless JPEG to JPEG transform copies them)");
    if (lost.empty()) return lost;
    return std::string(spec_->name) + " output: not written: " + lost;
}

}  // namespace gpurotate::detail
