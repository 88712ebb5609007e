// The TIFF header probe that applies the pixel limit before libtiff decodes.

#include "formats/tiff_declared_extent.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto extent = gpurotate::detail::tiff_declared_extent(std::vector<std::uint8_t>(data, data + size));
    // Sizes are saturated at 2^31; anything else is a bug.
    if (extent && (extent->width < 0 || extent->height < 0 || extent->width > (std::int64_t{1} << 31) ||
                   extent->height > (std::int64_t{1} << 31))) {
        std::abort();
    }
    return 0;
}
