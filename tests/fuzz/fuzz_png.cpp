// gpurotate's own PNG decoder: chunk walking and CRCs, IHDR checks, zlib inflate and Adler-32, unfiltering.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "codecs/png.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    try {
        if (!gpurotate::detail::decode_png(bytes, "fuzz.png", gpurotate::fuzz::read_options()) && gpurotate::detail::is_png(bytes)) {
            gpurotate::detail::verify_png_chunks(bytes, "fuzz.png");
        }
    } catch (const gpurotate::Error&) {  // a clean refusal is the expected outcome for most inputs
    }
    return 0;
}
