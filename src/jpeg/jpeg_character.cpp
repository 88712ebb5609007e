#include "jpeg/jpeg_character.hpp"

#include "metadata/jpeg_segments.hpp"

#include <array>
#include <cstdlib>
#include <limits>

namespace gpurotate::detail {
namespace {

// The standard tables of the JPEG specification's Annex K, in natural (row-major) order, as libjpeg scales them.
constexpr std::array<int, 64> standard_luminance = {
    16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,  14, 13, 16, 24, 40,  57,  69,  56,
    14, 17, 22, 29, 51,  87,  80,  62,  18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
constexpr std::array<int, 64> standard_chrominance = {
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

// The zigzag order in which DQT segments store a table: entry k is natural position zigzag[k].
constexpr std::array<int, 64> zigzag = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
                                        41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
                                        30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// libjpeg's jpeg_quality_scaling and jpeg_add_quant_table (baseline: entries capped at 255).
int scaled(int standard, int quality) {
    const int scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
    const int q = (standard * scale + 50) / 100;
    return q < 1 ? 1 : q > 255 ? 255 : q;
}

struct Tables {
    std::array<int, 64> table[4]{};
    bool present[4]{};
};

// The start-of-frame's sampling factors: the first component's, and whether the others are all 1x1.
struct Sampling {
    int components = 0;
    int h0 = 0, v0 = 0;
    bool others_one = true;
};

}  // namespace

std::optional<JpegCharacter> jpeg_character(const std::vector<std::uint8_t>& jpeg) {
    Tables tables;
    Sampling sampling;
    for (const JpegSegment& segment : jpeg_segments(jpeg)) {
        const std::uint8_t* p = jpeg.data() + segment.payload;
        const std::uint8_t* const end = p + segment.size;
        const int marker = segment.marker;
        if (marker == 0xdb) {  // DQT: one or more tables, each a precision and id byte and 64 entries
            while (p < end) {
                const int precision = *p >> 4, id = *p & 15;
                const std::size_t bytes = precision ? 128 : 64;
                if (id > 3 || static_cast<std::size_t>(end - p) < 1 + bytes) return std::nullopt;
                for (int k = 0; k < 64; ++k) tables.table[id][zigzag[k]] = precision ? (p[1 + 2 * k] << 8 | p[2 + 2 * k]) : p[1 + k];
                tables.present[id] = true;
                p += 1 + bytes;
            }
        } else if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {  // SOFn
            if (end - p < 6) return std::nullopt;
            sampling.components = p[5];
            if (end - p < 6 + 3 * sampling.components || sampling.components < 1) return std::nullopt;
            for (int c = 0; c < sampling.components; ++c) {
                const int h = p[7 + 3 * c] >> 4, v = p[7 + 3 * c] & 15;
                if (c == 0) sampling.h0 = h, sampling.v0 = v;
                else sampling.others_one = sampling.others_one && h == 1 && v == 1;
            }
        }
    }
    if (!tables.present[0]) return std::nullopt;
    JpegCharacter character;
    long best = std::numeric_limits<long>::max();
    for (int quality = 1; quality <= 100; ++quality) {
        long distance = 0;
        for (int i = 0; i < 64; ++i) {
            distance += std::labs(tables.table[0][i] - scaled(standard_luminance[i], quality));
            if (tables.present[1]) distance += std::labs(tables.table[1][i] - scaled(standard_chrominance[i], quality));
        }
        if (distance < best) best = distance, character.quality = quality;
    }
    if (sampling.components == 1) {
        character.chroma = ChromaSubsampling::grey;
    } else if (sampling.components == 3 && sampling.others_one) {
        const int h = sampling.h0, v = sampling.v0;
        character.chroma = h == 1 && v == 1   ? ChromaSubsampling::s444
                           : h == 2 && v == 1 ? ChromaSubsampling::s422
                           : h == 2 && v == 2 ? ChromaSubsampling::s420
                           : h == 1 && v == 2 ? ChromaSubsampling::s440
                                              : ChromaSubsampling::automatic;
    }
    return character;
}

ChromaSubsampling chroma_after(ChromaSubsampling chroma, bool swaps_axes) {
    if (!swaps_axes) return chroma;
    return chroma == ChromaSubsampling::s422 ? ChromaSubsampling::s440 : chroma == ChromaSubsampling::s440 ? ChromaSubsampling::s422 : chroma;
}

}  // namespace gpurotate::detail

namespace gpurotate {

const char* to_string(ChromaSubsampling chroma) {
    switch (chroma) {
        case ChromaSubsampling::s444: return "4:4:4";
        case ChromaSubsampling::s422: return "4:2:2";
        case ChromaSubsampling::s420: return "4:2:0";
        case ChromaSubsampling::s440: return "4:4:0";
        case ChromaSubsampling::grey: return "grey";
        case ChromaSubsampling::automatic: break;
    }
    return "automatic";
}

}  // namespace gpurotate
