// Builds without nvJPEG: JPEG is decoded and encoded on the CPU.

#include "codecs/nvjpeg_codec.hpp"

namespace gpurotate::detail {

bool nvjpeg_available() { return false; }

std::optional<std::vector<std::uint8_t>> nvjpeg_transcode(const std::vector<std::uint8_t>&, const std::string&, Orientation, int,
                                                          const ReadOptions&, std::size_t, GpuJpegReport&) {
    return std::nullopt;
}

}  // namespace gpurotate::detail
