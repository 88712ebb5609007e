#pragma once
// The pixel widths the vectorized kernels are instantiated for, as one dispatch shared by the launchers.

#include "core/pixel_word.hpp"

#include <cstddef>
#include <type_traits>

namespace gpurotate::detail {

/// Calls f(std::integral_constant<int, S>{}) for the pixel width S = `bytes`: the vectorized kernels'
/// instantiation list. Widths outside the list call nothing and return false.
/// Whether `bytes` is in pixel_word_widths. Each generated unit of the instantiation list (CMakeLists.txt,
/// GPUROTATE_PIXEL_WIDTHS) asserts it of its width; a width the list leaves out fails the link.
constexpr bool is_pixel_word_width(std::size_t bytes) {
    for (std::size_t w : pixel_word_widths) {
        if (w == bytes) return true;
    }
    return false;
}

template <class F>
bool with_pixel_width(std::size_t bytes, F&& f) {
    switch (bytes) {
        case 1: f(std::integral_constant<int, 1>{}); return true;
        case 2: f(std::integral_constant<int, 2>{}); return true;
        case 3: f(std::integral_constant<int, 3>{}); return true;
        case 4: f(std::integral_constant<int, 4>{}); return true;
        case 6: f(std::integral_constant<int, 6>{}); return true;
        case 8: f(std::integral_constant<int, 8>{}); return true;
        case 12: f(std::integral_constant<int, 12>{}); return true;
        case 16: f(std::integral_constant<int, 16>{}); return true;
        default: return false;
    }
}

}  // namespace gpurotate::detail
