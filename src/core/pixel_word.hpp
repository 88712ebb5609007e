#pragma once
// Moving pixels does not care what they mean, only how wide they are: both backends are templated on a
// storage word of the pixel's width, and this header is the one list of those words. Each word has the
// natural alignment of its width so that the GPU moves it in one access (8 and 16 bytes as 64- and
// 128-bit loads); an image whose pointer or pitch breaks that alignment gets the byte-aligned twin.

#include <gpurotate/error.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>

namespace gpurotate::detail {

template <std::size_t Bytes, std::size_t Align>
struct alignas(Align) PixelWord {
    unsigned char bytes[Bytes];
};

/// The widths every backend instantiates, as `--type` and the tests enumerate them: the one list. The CPU
/// backend's dispatch (visit_pixel_word), the CUDA launchers' (cuda/pixel_width_dispatch.cuh) and the CUDA
/// instantiation list (CMakeLists.txt reads GPUROTATE_PIXEL_WIDTHS from this line) are made from it.
inline constexpr std::size_t pixel_word_widths[] = {1, 2, 3, 4, 6, 8, 12, 16};

/// Whether `bytes` is in pixel_word_widths.
constexpr bool is_pixel_word_width(std::size_t bytes) {
    for (std::size_t w : pixel_word_widths) {
        if (w == bytes) return true;
    }
    return false;
}

/// Natural alignment of a word: the largest power of two dividing its width.
constexpr std::size_t natural_alignment(std::size_t bytes) { return bytes & (~bytes + 1); }

template <std::size_t Bytes>
using AlignedWord = PixelWord<Bytes, natural_alignment(Bytes)>;
template <std::size_t Bytes>
using UnalignedWord = PixelWord<Bytes, 1>;

/// Whether `pointer` and `pitch` allow the naturally aligned word of `bytes`.
inline bool allows_aligned_word(const void* pointer, std::size_t pitch, std::size_t bytes) {
    const std::size_t align = natural_alignment(bytes);
    return reinterpret_cast<std::uintptr_t>(pointer) % align == 0 && pitch % align == 0;
}

/// The usage error for a pixel width no backend is instantiated for.
[[noreturn]] inline void throw_unsupported_width(std::size_t bytes) {
    std::string supported;
    for (std::size_t w : pixel_word_widths) supported += (supported.empty() ? "" : ", ") + std::to_string(w);
    throw Error(ErrorCode::usage, "unsupported pixel width of " + std::to_string(bytes) + " bytes (supported: " + supported + ")");
}

/// Calls `f(word)` with a value-initialised word type of `bytes` width: the aligned one if `aligned`,
/// else the byte-aligned one. Throws `Error` (usage) for an unsupported width. (`I`: where in
/// pixel_word_widths the search is; callers leave it out.)
template <std::size_t I = 0, class F>
decltype(auto) visit_pixel_word(std::size_t bytes, bool aligned, F&& f) {
    constexpr std::size_t width = pixel_word_widths[I];
    if constexpr (I + 1 < std::size(pixel_word_widths)) {
        if (bytes != width) return visit_pixel_word<I + 1>(bytes, aligned, f);
    } else if (bytes != width) {
        throw_unsupported_width(bytes);
    }
    return aligned ? f(AlignedWord<width>{}) : f(UnalignedWord<width>{});
}

}  // namespace gpurotate::detail
