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

}  // namespace gpurotate::detail
