// The PNG decoder (libspng behind gpurotate's limits), both ways a file is decoded: expanded (palettes to
// RGB, low depths to 8 bits) and in its stored format (indices, unpacked 1/2/4-bit samples); then the
// chunk list a PNG output copies, which must write back into a PNG that decodes to the same stored pixels.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "metadata/metadata.hpp"
#include "formats/png_codec.hpp"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    try {
        gpurotate::detail::decode_png(bytes, "fuzz.png", gpurotate::fuzz::read_options());
    } catch (const gpurotate::Error&) {  // a clean refusal is the expected outcome for most inputs
    }
    gpurotate::ReadOptions stored_options = gpurotate::fuzz::read_options();
    stored_options.png_storage = true;
    std::optional<gpurotate::Image> stored;
    try {
        stored = gpurotate::detail::decode_png(bytes, "fuzz.png", stored_options);
    } catch (const gpurotate::Error&) {
        return 0;
    }
    if (!stored) return 0;
    const gpurotate::ImageMetadata meta = gpurotate::metadata_after(gpurotate::detail::metadata_of(bytes), gpurotate::Orientation::rot90);
    std::vector<std::uint8_t> again;
    try {
        again = gpurotate::detail::encode_png(stored->view(), 1, &meta);
    } catch (const gpurotate::Error&) {
        return 0;  // libspng declined what its decoder took (e.g. a palette index past PLTE's end): refused, not written
    }
    const auto back = gpurotate::detail::decode_png(again, "again.png", stored_options);  // throws, and so aborts, if broken
    if (!back || back->format() != stored->format() || back->size_bytes() != stored->size_bytes() ||
        std::memcmp(back->view().data, stored->view().data, stored->size_bytes()) != 0) {
        std::abort();
    }
    return 0;
}
