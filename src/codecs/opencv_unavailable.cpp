// The OpenCV codec entry points in a build without OpenCV.

#include "codecs/opencv_codec.hpp"

#include <gpurotate/error.hpp>

namespace gpurotate::detail {

bool opencv_codecs_available() { return false; }

std::optional<Image> opencv_decode(const std::vector<std::uint8_t>&, const std::string&, const ReadOptions&) { return std::nullopt; }

std::vector<std::uint8_t> opencv_encode(ConstImageView, OutputFormat, int) {
    throw Error(ErrorCode::output, "this gpurotate was built without OpenCV");
}

}  // namespace gpurotate::detail
