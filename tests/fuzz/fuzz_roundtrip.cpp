// The whole job in memory: decode whatever the bytes are, apply an element chosen by the input, encode to
// every format that holds the pixels, decode that again. A lossless format must give back exactly the
// transformed pixels; any difference aborts, and so does any crash.

#include "fuzz_limits.hpp"
#include "same_pixels.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>

#include <cstdlib>
#include <cstring>

namespace {

// Its own, smaller pixel limit: this harness encodes every input five times and decodes it six, so an input
// at the shared limit costs it six times what it costs the others (at the old 4 MP limit it ran at 45
// executions a second). What the limit itself does is fuzz_header's and the decoders' job.
constexpr std::int64_t roundtrip_max_pixels = std::int64_t{1} << 16;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    gpurotate::Image input;
    try {
        input = gpurotate::decode_image(std::vector<std::uint8_t>(data, data + size),
                                        gpurotate::ReadOptions{gpurotate::HostMemory::pageable, roundtrip_max_pixels}, "fuzz");
    } catch (const gpurotate::Error&) {
        return 0;
    }
    const auto element = static_cast<gpurotate::Orientation>(size % 8);
    const gpurotate::Image output = gpurotate::transform(input, element, gpurotate::Backend::cpu);
    for (const char* name : {".png", ".jpg", ".bmp", ".tga", ".hdr"}) {
        std::vector<std::uint8_t> encoded;
        try {
            encoded = gpurotate::encode_image(output.view(), name);
        } catch (const gpurotate::Error& e) {
            if (e.code() != gpurotate::ErrorCode::output) std::abort();  // only "cannot hold these pixels" is expected
            continue;
        }
        const gpurotate::Image back = gpurotate::decode_image(encoded, gpurotate::fuzz::read_options(), name);  // our own output must decode
        if (back.width() != output.width() || back.height() != output.height()) std::abort();
        if (std::strcmp(name, ".png") == 0 && !gpurotate::fuzz::same_pixels(back.view(), output.view())) std::abort();
    }
    return 0;
}
