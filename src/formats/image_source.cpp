#include "formats/image_source.hpp"


#include "formats/decoder_losses.hpp"
#include "formats/stb_codec.hpp"

#include "metadata/container_walks.hpp"
#include "formats/file_bytes.hpp"
#include "formats/image_end.hpp"
#include "metadata/jpeg_segments.hpp"
#include "jpeg/jpeg_signature.hpp"
#include "jpeg/jpeg_work_limits.hpp"
#include "metadata/metadata.hpp"
#include "metadata/photoshop_resources.hpp"

#include <algorithm>

namespace gpurotate::detail {

ImageSource::ImageSource(std::string path, int max_jpeg_scans, std::size_t max_input_bytes)
    : ImageSource(path, read_file_bytes(path, max_input_bytes), max_jpeg_scans) {}

ImageSource::ImageSource(std::string name, std::vector<std::uint8_t> bytes, int max_jpeg_scans)
    : path_(std::move(name)), max_jpeg_scans_(max_jpeg_scans), bytes_(std::move(bytes)) {
    // Before anything parses the file: a JPEG's work is bounded by one walk over its markers, which also finds
    // where its image ends.
    const std::size_t jpeg_end = check_jpeg_work(bytes_, path_, max_jpeg_scans);
    if (detail::is_jpeg(bytes_)) {
        bytes_after_image_ = jpeg_end > 0 ? bytes_.size() - jpeg_end : 0;
    } else {
        bytes_after_image_ = detail::bytes_after_image(bytes_.data(), bytes_.size());
    }
    metadata_ = metadata_of(bytes_);
    orientation_tag_ = exif_orientation(metadata_);
}

bool ImageSource::is_jpeg() const { return detail::is_jpeg(bytes_); }

bool ImageSource::is_lossless_webp() const {
    // A VP8L chunk, first or after VP8X and its metadata chunks, holds the image. An animation's ANMF frames are
    // not looked into.
    for (const RiffChunk& chunk : webp_chunks(bytes_)) {
        if (chunk.fourcc == "VP8L") return true;
        if (chunk.fourcc == "VP8 ") return false;
    }
    return false;
}

Image ImageSource::decode(std::int64_t max_pixels, bool stored_format) const {
    // Pageable memory even for the GPU: page-locked memory would need a CUDA context, which another thread
    // may still be making.
    return decode_image(bytes_, ReadOptions{HostMemory::pageable, max_pixels, stored_format && is_png(), max_jpeg_scans_}, path_);
}

ImageMetadata ImageSource::metadata_for(Orientation element, bool strip, bool oriented, std::string* thumbnail_left_out) const {
    return strip ? stripped_metadata(metadata_) : metadata_after(metadata_, element, oriented && orientation_tag_ ? 1 : 0, thumbnail_left_out,
                                                                      turn_jpeg_thumbnail);
}

std::vector<std::optional<std::vector<std::uint8_t>>> ImageSource::transform_losslessly(const std::vector<LosslessJpegVariant>& variants,
                                                                                        JpegEdge edge, bool strip, std::int64_t max_pixels,
                                                                                        std::vector<LosslessJpegReport>& reports,
                                                                                        JpegScanCoder* coder, unsigned cpu_threads) const {
    return transform_jpeg_lossless_variants(bytes_, path_, variants, edge, strip, ReadOptions{HostMemory::pageable, max_pixels, false, max_jpeg_scans_},
                                            reports, coder, cpu_threads);
}

std::optional<JpegCharacter> ImageSource::jpeg_character() const { return is_jpeg() ? detail::jpeg_character(bytes_) : std::nullopt; }

int ImageSource::frame_count() const { return std::max(1, gif_layout(bytes_).frames); }

std::string ImageSource::decoder_losses(PixelFormat decoded, bool strip) const {
    return losses_warning(detail::decoder_losses(bytes_, decoded), strip);
}

std::string ImageSource::other_jpeg_markers() const {
    const auto starts_with = [&](const JpegSegment& s, const char* text, std::size_t size) {
        return s.size >= size && std::equal(text, text + size, bytes_.begin() + static_cast<std::ptrdiff_t>(s.payload));
    };
    int extended_xmp = 0;
    std::string others;
    for (const JpegSegment& s : jpeg_segments(bytes_)) {
        // APP0 (JFIF) and APP14 (Adobe) describe the coding, which every encode writes anew; APP1 "Exif", APP1
        // XMP (the main packet) and APP2 "ICC_PROFILE" are the metadata that travels (metadata()).
        if (s.marker == 0xe0 || s.marker == 0xee || (s.marker == 0xe1 && starts_with(s, "Exif\0", 5)) ||
            (s.marker == 0xe2 && starts_with(s, "ICC_PROFILE", 11)) || (s.marker == 0xe1 && starts_with(s, "http://ns.adobe.com/xap/1.0/\0", 29))) {
            continue;
        }
        if (s.marker == 0xed) {  // APP13: its IPTC travels (metadata()); other Photoshop resources do not
            const auto resources = photoshop_resources(bytes_, s.payload, s.size);
            if (resources && !resources->others) continue;
            const std::string name = resources && resources->iptc ? "APP13's Photoshop resources other than IPTC" : "APP13";
            if (others.find(name) == std::string::npos) others += (others.empty() ? "" : ", ") + name;
        } else if (s.marker == 0xe1 && starts_with(s, "http://ns.adobe.com/xmp/extension/", 34)) {
            ++extended_xmp;
        } else if (s.marker == 0xfe) {
            continue;  // comments travel (metadata()), into JPEG outputs; the sink says where they cannot
        } else if (s.marker >= 0xe0 && s.marker <= 0xef) {
            const std::string name = "APP" + std::to_string(s.marker - 0xe0);
            if (others.find(name) == std::string::npos) others += (others.empty() ? "" : ", ") + name;
        }
    }
    std::string words = extended_xmp ? "extended XMP" : "";
    if (!others.empty()) words += (words.empty() ? "" : ", ") + others;
    return words;
}

}  // namespace gpurotate::detail
