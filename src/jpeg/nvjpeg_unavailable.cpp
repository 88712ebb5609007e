// Builds without nvJPEG: JPEG is decoded and encoded on the CPU.

#include "jpeg/nvjpeg_codec.hpp"

#include <gpurotate/error.hpp>

namespace gpurotate::detail {

bool nvjpeg_available() { return false; }

struct NvjpegCoder::State {};
struct NvjpegCoder::Handle {};

std::shared_ptr<NvjpegCoder::Handle> NvjpegCoder::open_handle(int, bool) { throw Error(ErrorCode::usage, "this build has no nvJPEG"); }

bool NvjpegCoder::has_hardware_decoder(const Handle&) { return false; }

NvjpegCoder::NvjpegCoder(std::shared_ptr<Handle>, std::size_t, bool) { throw Error(ErrorCode::usage, "this build has no nvJPEG"); }

NvjpegCoder::~NvjpegCoder() = default;

std::optional<std::vector<std::vector<std::uint8_t>>> NvjpegCoder::variants(const std::vector<std::uint8_t>&, const std::string&,
                                                                            const std::vector<Orientation>&, int, const ReadOptions&,
                                                                            GpuJpegReport&, const Image*) {
    return std::nullopt;
}

}  // namespace gpurotate::detail
