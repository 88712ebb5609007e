// JPEG through libjpeg-turbo's TurboJPEG API (a no-op in builds without it) and the size checks around it.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "jpeg/turbojpeg_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    try {
        gpurotate::detail::turbojpeg_decode(bytes, "fuzz.jpg", gpurotate::fuzz::read_options());
    } catch (const gpurotate::Error&) {
    }
    return 0;
}
