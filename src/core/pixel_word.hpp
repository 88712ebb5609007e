#pragma once
// Moving pixels does not care what they mean, only how wide they are: both backends are templated on a
// storage word of the pixel's width, and this header is the one list of those words. Each word has the
// natural alignment of its width so that the GPU moves it in one access (8 and 16 bytes as 64- and
// 128-bit loads); an image whose pointer or pitch breaks that alignment gets the byte-aligned twin.

#include <gpurotate/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace gpurotate::detail {

template <std::size_t Bytes, std::size_t Align>
struct alignas(Align) PixelWord {
    unsigned char bytes[Bytes];
};

/// The widths every backend instantiates, as `--type` and the tests enumerate them.
inline constexpr std::size_t pixel_word_widths[] = {1, 2, 3, 4, 6, 8, 12, 16};

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
    throw Error(ErrorCode::usage, "unsupported pixel width of " + std::to_string(bytes) +
                                      " bytes (supported: 1, 2, 3, 4, 6, 8, 12, 16)");
}

/// Calls `f(word)` with a value-initialised word type of `bytes` width: the aligned one if `aligned`,
/// else the byte-aligned one. Throws `Error` (usage) for an unsupported width.
template <class F>
decltype(auto) visit_pixel_word(std::size_t bytes, bool aligned, F&& f) {
    auto pick = [&](auto aligned_word, auto unaligned_word) -> decltype(auto) {
        return aligned ? f(aligned_word) : f(unaligned_word);
    };
    switch (bytes) {
        case 1: return pick(AlignedWord<1>{}, UnalignedWord<1>{});
        case 2: return pick(AlignedWord<2>{}, UnalignedWord<2>{});
        case 3: return pick(AlignedWord<3>{}, UnalignedWord<3>{});
        case 4: return pick(AlignedWord<4>{}, UnalignedWord<4>{});
        case 6: return pick(AlignedWord<6>{}, UnalignedWord<6>{});
        case 8: return pick(AlignedWord<8>{}, UnalignedWord<8>{});
        case 12: return pick(AlignedWord<12>{}, UnalignedWord<12>{});
        case 16: return pick(AlignedWord<16>{}, UnalignedWord<16>{});
        default: break;
    }
    throw_unsupported_width(bytes);
}

}  // namespace gpurotate::detail
