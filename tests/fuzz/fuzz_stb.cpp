// stb_image, whose own documentation says it is not meant for untrusted input: PNG (palettes, low depths,
// interlacing), JPEG, BMP, TGA, HDR, PNM, GIF, PSD, behind gpurotate's size and truncation checks.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "codecs/stb_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    std::string why;
    try {
        gpurotate::detail::stb_decode(bytes, "fuzz.img", gpurotate::fuzz::read_options(), why);
    } catch (const gpurotate::Error&) {
    }
    return 0;
}
