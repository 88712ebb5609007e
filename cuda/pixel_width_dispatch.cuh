#pragma once
// The pixel widths the vectorized kernels are instantiated for, as one dispatch shared by the launchers.

#include "core/pixel_word.hpp"

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace gpurotate::detail {

/// Calls f(std::integral_constant<int, S>{}) for the pixel width S = `bytes`: the vectorized kernels'
/// instantiation list, pixel_word_widths (core/pixel_word.hpp). Widths outside the list call nothing and return
/// false. (`I`: where in the list the search is; callers leave it out.) Each generated unit of the instantiation
/// list (CMakeLists.txt's GPUROTATE_PIXEL_WIDTHS, read from the same list) asserts is_pixel_word_width of its
/// width.
template <std::size_t I = 0, class F>
bool with_pixel_width(std::size_t bytes, F&& f) {
    if constexpr (I == std::size(pixel_word_widths)) {
        return false;
    } else {
        constexpr std::size_t width = pixel_word_widths[I];
        if (bytes != width) return with_pixel_width<I + 1>(bytes, f);
        f(std::integral_constant<int, static_cast<int>(width)>{});
        return true;
    }
}

}  // namespace gpurotate::detail
