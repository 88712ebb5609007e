#include "formats/image_sink.hpp"

#include "core/stage_account.hpp"
#include "formats/file_bytes.hpp"
#include "metadata/tiff_exif.hpp"

namespace gpurotate::detail {

ImageSink::ImageSink(std::string path, bool overwrite, bool durable, const ContainingFolder* folder, std::string relative)
    : path_(std::move(path)), row_(&output_format_named_by(path_)), overwrite_(overwrite), durable_(durable), folder_(folder),
      relative_(std::move(relative)) {}

ImageSink::ImageSink(std::string path, const FormatRow& format, bool overwrite, bool durable, const ContainingFolder* folder, std::string relative)
    : path_(std::move(path)), row_(&format), overwrite_(overwrite), durable_(durable), folder_(folder), relative_(std::move(relative)) {}

void ImageSink::check_writable() const {
    if (!folder_) check_output_path(path_, overwrite_, links_);  // a folder checks its own names as it writes them
}

void ImageSink::check_holds(PixelFormat pixels) const { checked_row(*row_, path_, pixels, choice_); }

void ImageSink::write(ConstImageView pixels, WriteOptions options) const {
    options.overwrite = overwrite_;
    options.durable = durable_;
    check_holds(pixels.format);  // the view itself: encode_as
    if (!folder_) check_output_path(path_, overwrite_, links_);  // fail before the encoding work, not after
    if (row_->encode_into && write_streamed(pixels, options)) return;
    std::vector<std::uint8_t> bytes;
    try {
        StageScope account(WorkStage::encode);
        bytes = encode_as(pixels, *row_, options);
    } catch (const Error& e) {
        throw named_for_output(e, path_);  // the encoders know the pixels, not the file
    }
    write_encoded(bytes);
}

bool ImageSink::write_streamed(ConstImageView pixels, const WriteOptions& options) const {
    const auto fill = [&](int fd) {
        StageScope account(WorkStage::encode);  // the strips' writes with their coding
        try {
            encode_as_into(pixels, *row_, options, fd);
        } catch (const Error& e) {
            throw named_for_output(e, path_);
        }
    };
    StageScope account(WorkStage::write);  // the flush; its rename is a stage of its own (file_bytes.cpp)
    if (folder_) return folder_->write_file_streamed(relative_, fill, overwrite_, durable_);
    if (is_stream_output(path_)) return false;
    write_file_streamed(path_, fill, overwrite_, durable_, links_);
    return true;
}

void ImageSink::write_encoded(const std::vector<std::uint8_t>& bytes) const {
    StageScope account(WorkStage::write);  // its rename is a stage of its own (file_bytes.cpp)
    if (folder_) {
        folder_->write_file(relative_, bytes, overwrite_, durable_);
    } else {
        write_file_atomically(path_, bytes, overwrite_, durable_, links_);
    }
}

std::string ImageSink::unwritten(const ImageSource& source, const ImageMetadata& metadata, bool strip) const {
    std::string lost;
    const auto add = [&](const std::string& words) { lost += (lost.empty() ? "" : ", ") + words; };
    if (strip) return lost;
    if (!holds_exif() && !metadata.exif.empty() && !exif_holds_only_text_tags(metadata.exif)) add("EXIF");  // metadata.cpp, png_codec.cpp
    if (row_->left_out) {
        for (const std::string& part : row_->left_out(metadata)) add(part);
    }
    if (!holds_icc() && !metadata.icc.empty()) add("ICC profile");  // and the TIFF writer of the plugin
    if (!row_->holds(MetadataKind::xmp) && !metadata.xmp.empty()) add("XMP");
    if (!holds_iptc() && !metadata.iptc.empty()) add("IPTC");
    if (!row_->holds(MetadataKind::jpeg_comments) && !metadata.jpeg_comments.empty()) {
        const std::size_t n = metadata.jpeg_comments.size();
        add(n == 1 ? std::string("the input's JPEG comment") : "the input's " + std::to_string(n) + " JPEG comments");
    }
    // A TIFF's text tags travel in its EXIF block's IFD0 too, where they fit (tiff_exif.cpp).
    const bool text_in_exif = holds_exif() && exif_has_text_tags(metadata.exif);
    if (!row_->holds(MetadataKind::tiff_text) && !metadata.tiff_text.empty() && !text_in_exif) {
        add("the TIFF's text tags (ImageDescription, Artist, Copyright and the like)");
    }
    if (metadata.resolution && !holds_resolution()) add("resolution");
    // Only TIFF, the one format that says its alpha is premultiplied, says its extra sample is not alpha at all.
    if (metadata.unspecified_extra_sample && !row_->premultiplied_alpha) add("that the extra sample is not alpha (the TIFF's ExtraSamples 0: it is written as alpha)");
    if (!row_->holds(MetadataKind::png_chunks)) {
        std::string chunks;
        for (const PngChunk& chunk : metadata.png_chunks) {
            // What travels as the metadata's own fields where the format has a place for them.
            const bool xmp = chunk.type == "iTXt" && chunk.data.size() >= 18 && std::equal(chunk.data.begin(), chunk.data.begin() + 18, "XML:com.adobe.xmp");
            const bool carried = (chunk.type == "iCCP" && holds_icc()) || (chunk.type == "eXIf" && holds_exif()) || (xmp && row_->holds(MetadataKind::xmp)) ||
                                 (chunk.type == "pHYs" && holds_resolution());
            if (!carried && chunks.find(chunk.type) == std::string::npos) chunks += (chunks.empty() ? "" : " ") + chunk.type;
        }
        if (!chunks.empty()) add("the PNG chunks " + chunks);
    }
    const std::string markers = source.other_jpeg_markers();
    if (!markers.empty()) add("the input's JPEG markers (" + markers + "; only the lossless JPEG to JPEG transform copies them)");
    if (lost.empty()) return lost;
    return std::string(row_->name) + " output: not written: " + lost;
}

}  // namespace gpurotate::detail
