// stb_image, whose own documentation says it is not meant for untrusted input: JPEG (in builds without
// libjpeg-turbo), BMP, TGA, HDR, PNM, GIF, PSD, behind gpurotate's size and truncation checks. Inputs reach
// it as in read_image: after the PNG decoder (libspng), which takes every PNG.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "codecs/png_codec.hpp"
#include "codecs/stb_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    std::string why;
    try {
        if (gpurotate::detail::decode_png(bytes, "fuzz.img", gpurotate::fuzz::read_options())) return 0;
        gpurotate::detail::stb_decode(bytes, "fuzz.img", gpurotate::fuzz::read_options(), why);
    } catch (const gpurotate::Error&) {
    }
    return 0;
}
