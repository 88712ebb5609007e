// Builds without nvJPEG: JPEG is decoded and encoded on the CPU.

#include "codecs/nvjpeg_codec.hpp"

#include <gpurotate/error.hpp>

namespace gpurotate::detail {

bool nvjpeg_available() { return false; }

std::optional<std::vector<std::uint8_t>> nvjpeg_transcode(const std::vector<std::uint8_t>&, const std::string&, Orientation, int,
                                                          const ReadOptions&, std::size_t, GpuJpegReport&) {
    return std::nullopt;
}

struct NvjpegCoder::State {};
struct NvjpegCoder::Handle {};

std::shared_ptr<NvjpegCoder::Handle> NvjpegCoder::open_handle(int) { throw Error(ErrorCode::usage, "this build has no nvJPEG"); }

NvjpegCoder::NvjpegCoder(std::shared_ptr<Handle>, std::size_t, bool) { throw Error(ErrorCode::usage, "this build has no nvJPEG"); }

NvjpegCoder::~NvjpegCoder() = default;

std::optional<std::vector<std::vector<std::uint8_t>>> NvjpegCoder::variants(const std::vector<std::uint8_t>&, const std::string&,
                                                                            const std::vector<Orientation>&, int, const ReadOptions&,
                                                                            GpuJpegReport&, const Image*) {
    return std::nullopt;
}

}  // namespace gpurotate::detail
