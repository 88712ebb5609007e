#include "codecs/xmp_geometry.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <vector>

namespace gpurotate::detail {
namespace {

// Where one value of a property sits in the packet.
struct ValueSpan {
    std::size_t pos, size;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Every value of the property `name` (prefix and local name): attributes `name="v"` or `name='v'`, and simple
// elements `<name>v</name>`. A match must stand alone: `xtiff:Orientation` or `tiff:OrientationX` is another name.
std::vector<ValueSpan> values_of(const std::string& xmp, std::string_view name) {
    std::vector<ValueSpan> values;
    for (std::size_t at = xmp.find(name); at != std::string::npos; at = xmp.find(name, at + 1)) {
        if (at == 0) continue;
        const char before = xmp[at - 1];
        std::size_t pos = at + name.size();
        if (before == '<') {
            if (pos >= xmp.size() || xmp[pos] != '>') continue;  // attributes or a nested structure: not a plain value
            const std::size_t end = xmp.find('<', ++pos);
            if (end == std::string::npos || xmp.compare(end, 2, "</") != 0 || xmp.compare(end + 2, name.size(), name) != 0) continue;
            values.push_back({pos, end - pos});
            at = end;
        } else if (is_space(before)) {
            while (pos < xmp.size() && is_space(xmp[pos])) ++pos;
            if (pos >= xmp.size() || xmp[pos] != '=') continue;
            ++pos;
            while (pos < xmp.size() && is_space(xmp[pos])) ++pos;
            if (pos >= xmp.size() || (xmp[pos] != '"' && xmp[pos] != '\'')) continue;
            const std::size_t end = xmp.find(xmp[pos], pos + 1);
            if (end == std::string::npos) continue;
            values.push_back({pos + 1, end - pos - 1});
            at = end;  // the next match starts after this value, not inside it
        }
    }
    return values;
}

struct Replacement {
    ValueSpan span;
    std::string text;
};

// Applies the replacements from the last to the first, so that each span's offset holds. Spans that overlap (a
// name written inside another property's value) mean the packet is not what the search assumes: it is left whole.
void apply(std::string& xmp, std::vector<Replacement> replacements) {
    std::sort(replacements.begin(), replacements.end(), [](const Replacement& a, const Replacement& b) { return a.span.pos > b.span.pos; });
    for (std::size_t i = 1; i < replacements.size(); ++i) {
        if (replacements[i].span.pos + replacements[i].span.size > replacements[i - 1].span.pos) return;
    }
    for (const Replacement& r : replacements) xmp.replace(r.span.pos, r.span.size, r.text);
}

void set_all(std::string& xmp, std::string_view name, const std::string& text) {
    std::vector<Replacement> replacements;
    for (const ValueSpan& span : values_of(xmp, name)) replacements.push_back({span, text});
    apply(xmp, std::move(replacements));
}

constexpr std::string_view pixel_x = "exif:PixelXDimension", pixel_y = "exif:PixelYDimension";
constexpr std::string_view image_width = "tiff:ImageWidth", image_length = "tiff:ImageLength";

}  // namespace

void swap_xmp_axes(std::string& xmp) {
    static constexpr std::array<std::array<std::string_view, 2>, 3> pairs{{
        {pixel_x, pixel_y}, {image_width, image_length}, {"tiff:XResolution", "tiff:YResolution"}}};
    std::vector<Replacement> replacements;
    for (const auto& [x_name, y_name] : pairs) {
        const std::vector<ValueSpan> xs = values_of(xmp, x_name), ys = values_of(xmp, y_name);
        // Paired in order: one rdf:Description (or one per schema) gives each once. Counts that differ
        // leave the pair as it is, rather than guess which X goes with which Y.
        if (xs.size() != ys.size()) continue;
        for (std::size_t i = 0; i < xs.size(); ++i) {
            replacements.push_back({xs[i], xmp.substr(ys[i].pos, ys[i].size)});
            replacements.push_back({ys[i], xmp.substr(xs[i].pos, xs[i].size)});
        }
    }
    apply(xmp, std::move(replacements));
}

void set_xmp_orientation(std::string& xmp, int value) {
    if (value >= 1 && value <= 8) set_all(xmp, "tiff:Orientation", std::to_string(value));
}

void set_xmp_dimensions(std::string& xmp, std::int64_t width, std::int64_t height) {
    set_all(xmp, pixel_x, std::to_string(width));
    set_all(xmp, pixel_y, std::to_string(height));
    set_all(xmp, image_width, std::to_string(width));
    set_all(xmp, image_length, std::to_string(height));
}

}  // namespace gpurotate::detail
