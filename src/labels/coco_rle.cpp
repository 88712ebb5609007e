#include "labels/coco_rle.hpp"

#include <algorithm>
#include <limits>

namespace gpurotate::labels {
namespace {

// pycocotools' alphabet: 6 bits a character, offset by '0' so every character is printable JSON text.
constexpr int char_offset = 48;
constexpr int more_bit = 0x20;   // another character of this number follows
constexpr int sign_bit = 0x10;   // in the last character: the number is negative
constexpr int value_bits = 0x1f;

}  // namespace

std::optional<RunCounts> decode_rle_string(std::string_view text) {
    RunCounts counts;
    std::size_t p = 0;
    while (p < text.size()) {
        std::int64_t x = 0;
        int shift = 0;
        bool more = true;
        while (more) {
            if (p == text.size()) return std::nullopt;  // the last character asked for another
            const int c = static_cast<unsigned char>(text[p++]) - char_offset;
            if (c < 0 || c > 63 || shift > 55) return std::nullopt;
            x |= static_cast<std::int64_t>(c & value_bits) << shift;
            shift += 5;
            more = (c & more_bit) != 0;
            if (!more && (c & sign_bit) != 0) x |= -(std::int64_t{1} << shift);  // sign-extended: every bit from here up
        }
        // From the third count on the text holds the difference against the count two before (runs of
        // the same value tend to have similar lengths, so the differences are short).
        if (counts.size() > 2) {
            const std::uint64_t before = counts[counts.size() - 2];
            if (x < 0 && static_cast<std::uint64_t>(-x) > before) return std::nullopt;
            if (x > 0 && static_cast<std::uint64_t>(x) > std::numeric_limits<std::uint64_t>::max() - before) return std::nullopt;
            counts.push_back(x < 0 ? before - static_cast<std::uint64_t>(-x) : before + static_cast<std::uint64_t>(x));
        } else {
            if (x < 0) return std::nullopt;
            counts.push_back(static_cast<std::uint64_t>(x));
        }
    }
    return counts;
}

std::string encode_rle_string(const RunCounts& counts) {
    std::string text;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        std::int64_t x = static_cast<std::int64_t>(counts[i]);
        if (i > 2) x -= static_cast<std::int64_t>(counts[i - 2]);
        bool more = true;
        while (more) {
            int c = static_cast<int>(x & value_bits);
            x >>= 5;  // arithmetic: a negative difference ends in a run of sign bits
            // Done once the rest is all copies of the sign bit this character carries.
            more = (c & sign_bit) != 0 ? x != -1 : x != 0;
            if (more) c |= more_bit;
            text.push_back(static_cast<char>(c + char_offset));
        }
    }
    return text;
}

std::uint64_t run_total(const RunCounts& counts) {
    std::uint64_t total = 0;
    for (const std::uint64_t c : counts) {
        if (c > std::numeric_limits<std::uint64_t>::max() - total) return std::numeric_limits<std::uint64_t>::max();
        total += c;
    }
    return total;
}

std::vector<std::uint8_t> mask_from_runs(const RunCounts& counts, ImageSize size) {
    std::vector<std::uint8_t> mask(static_cast<std::size_t>(size.width * size.height), 0);
    std::size_t at = 0;
    std::uint8_t value = 0;
    for (const std::uint64_t c : counts) {
        const std::size_t end = std::min(mask.size(), at + static_cast<std::size_t>(c));
        for (; at < end; ++at) mask[at] = value;
        value ^= 1;
    }
    return mask;
}

RunCounts runs_from_mask(const std::vector<std::uint8_t>& mask) {
    RunCounts counts;
    std::uint8_t value = 0;
    std::uint64_t run = 0;
    for (const std::uint8_t m : mask) {
        if (m != value) {
            counts.push_back(run);
            run = 0;
            value = m;
        }
        ++run;
    }
    counts.push_back(run);
    return counts;
}

RunCounts turn_runs(const RunCounts& counts, ImageSize size, Orientation element) {
    const std::vector<std::uint8_t> source = mask_from_runs(counts, size);
    const ImageSize out = turned_size(size, element);
    const AxisMap map = axis_map(element);
    const gpurotate::Extent extent{size.width, size.height};
    std::vector<std::uint8_t> turned(source.size());
    std::size_t i = 0;
    for (std::int64_t x = 0; x < out.width; ++x) {
        for (std::int64_t y = 0; y < out.height; ++y) {
            const SourcePoint s = source_of(map, extent, x, y);
            turned[i++] = source[static_cast<std::size_t>(s.x * size.height + s.y)];
        }
    }
    return runs_from_mask(turned);
}

}  // namespace gpurotate::labels
