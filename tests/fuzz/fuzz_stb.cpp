// stb_image, whose own documentation says it is not meant for untrusted input: JPEG (in builds without
// libjpeg-turbo), BMP (run-length coded ones expanded by our code first), TGA, HDR, GIF, PSD, behind
// gpurotate's size and truncation checks; and our binary Netpbm reader before it. Inputs reach them as in
// read_image: after the PNG decoder (libspng), which takes every PNG. Then the warning of what the decoder
// left behind, which parses the file's header again.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "formats/decoder_losses.hpp"
#include "formats/png_codec.hpp"
#include "formats/pnm_codec.hpp"
#include "formats/stb_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    std::string why;
    try {
        if (gpurotate::detail::decode_png(bytes, "fuzz.img", gpurotate::fuzz::read_options())) return 0;
        auto image = gpurotate::detail::decode_pnm(bytes, "fuzz.img", gpurotate::fuzz::read_options());
        if (!image) image = gpurotate::detail::stb_decode(bytes, "fuzz.img", gpurotate::fuzz::read_options(), why);
        if (image) gpurotate::detail::decoder_losses(bytes, image->format());
    } catch (const gpurotate::Error&) {
    }
    return 0;
}
