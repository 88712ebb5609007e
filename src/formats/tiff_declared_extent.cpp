#include "formats/tiff_declared_extent.hpp"

#include "metadata/tiff_directory.hpp"

namespace gpurotate::detail {

std::optional<Extent> tiff_declared_extent(const std::vector<std::uint8_t>& bytes) {
    const auto directory = read_tiff_directory(bytes);
    const auto width = directory ? directory->value(256) : std::nullopt;
    const auto height = directory ? directory->value(257) : std::nullopt;
    if (!width || !height) return std::nullopt;
    // A side beyond 2^31 is as refusable as any huge size: saturate rather than wrap.
    constexpr std::uint64_t cap = std::uint64_t{1} << 31;
    return Extent{static_cast<std::int64_t>(*width < cap ? *width : cap), static_cast<std::int64_t>(*height < cap ? *height : cap)};
}

}  // namespace gpurotate::detail
