#pragma once
// The pixel limit every decoder applies to the size a file declares, before it allocates pixel memory.

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include <cstdint>
#include <string>

namespace gpurotate::detail {

/// Throws Error (input) naming `path` when the declared size is not positive or exceeds the limit.
inline void check_declared_size(const std::string& path, std::int64_t width, std::int64_t height, const ReadOptions& options) {
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    if (width <= 0 || height <= 0) throw Error(ErrorCode::input, "cannot decode '" + path + "': it declares an image of " + size);
    if (options.max_pixels > 0 && width > options.max_pixels / height) {
        // The product in unsigned 64 bits: sides of 32 bits (any format read here) cannot overflow it.
        const auto pixels = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
        throw Error(ErrorCode::input, "cannot decode '" + path + "': it declares " + size + " = " + std::to_string(pixels) +
                                          " pixels, over the limit of " + std::to_string(options.max_pixels) +
                                          " (--max-pixels, or ReadOptions::max_pixels, raises it)");
    }
}

}  // namespace gpurotate::detail
