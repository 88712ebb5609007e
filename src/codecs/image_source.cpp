#include "codecs/image_source.hpp"

#include "codecs/file_bytes.hpp"
#include "codecs/jpeg_signature.hpp"
#include "codecs/metadata.hpp"

namespace gpurotate::detail {

ImageSource::ImageSource(std::string path)
    : path_(std::move(path)), bytes_(read_file_bytes(path_)), metadata_(metadata_of(bytes_)), orientation_tag_(exif_orientation(metadata_)) {}

bool ImageSource::is_jpeg() const { return detail::is_jpeg(bytes_); }

Image ImageSource::decode(std::int64_t max_pixels, bool stored_format) const {
    // Pageable memory even for the GPU: page-locked memory would need a CUDA context, which another thread
    // may still be making.
    return decode_image(bytes_, ReadOptions{HostMemory::pageable, max_pixels, stored_format && is_png()}, path_);
}

ImageMetadata ImageSource::metadata_for(Orientation element, bool strip, bool oriented) const {
    return strip ? stripped_metadata(metadata_) : metadata_after(metadata_, element, oriented && orientation_tag_ ? 1 : 0);
}

std::vector<std::optional<std::vector<std::uint8_t>>> ImageSource::transform_losslessly(const std::vector<LosslessJpegVariant>& variants,
                                                                                        JpegEdge edge, bool strip, std::int64_t max_pixels,
                                                                                        std::vector<LosslessJpegReport>& reports) const {
    return transform_jpeg_lossless_variants(bytes_, path_, variants, edge, strip, ReadOptions{HostMemory::pageable, max_pixels}, reports);
}

std::optional<JpegCharacter> ImageSource::jpeg_character() const { return is_jpeg() ? detail::jpeg_character(bytes_) : std::nullopt; }

}  // namespace gpurotate::detail
