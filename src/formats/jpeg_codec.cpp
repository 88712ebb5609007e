#include "formats/jpeg_codec.hpp"

#include "metadata/metadata.hpp"
#include "formats/opencv_codec.hpp"
#include "formats/stb_codec.hpp"
#include "jpeg/turbojpeg_codec.hpp"

namespace gpurotate::detail {

std::vector<std::uint8_t> encode_jpeg(ConstImageView image, const WriteOptions& options) {
    // TurboJPEG and OpenCV's libjpeg write true greyscale; stb stores grey as three equal channels.
    std::vector<std::uint8_t> bytes = turbojpeg_available()       ? turbojpeg_encode(image, options.quality, options.chroma)
                                      : opencv_codecs_available() ? opencv_encode(image, OutputFormat::jpeg, options.quality)
                                                                  : stb_encode_jpeg(image, options.quality);
    if (options.metadata) bytes = with_metadata(std::move(bytes), *options.metadata);
    return bytes;
}

std::string jpeg_writer() { return turbojpeg_available() ? "libjpeg-turbo" : opencv_codecs_available() ? "opencv" : "stb"; }

std::string jpeg_reader() { return turbojpeg_available() ? libjpeg_description() : "stb"; }

}  // namespace gpurotate::detail
