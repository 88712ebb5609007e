#include "metadata/xmp_geometry.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <vector>

namespace gpurotate::detail {
namespace {

// Where one value of a property sits in the packet.
struct ValueSpan {
    std::size_t pos, size;
};

constexpr std::string_view pixel_x = "exif:PixelXDimension", pixel_y = "exif:PixelYDimension";
constexpr std::string_view image_width = "tiff:ImageWidth", image_length = "tiff:ImageLength";
constexpr std::string_view x_resolution = "tiff:XResolution", y_resolution = "tiff:YResolution";
constexpr std::string_view orientation = "tiff:Orientation";
constexpr std::array<std::string_view, 7> geometry_names{pixel_x, pixel_y, image_width, image_length, x_resolution, y_resolution, orientation};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool ends_name(char c) { return is_space(c) || c == '=' || c == '>' || c == '/'; }

// The values of the geometry properties, by name, in packet order: attributes of start tags (`name="v"` or
// `name='v'`) and simple elements (`<name>v</name>`). One pass over the packet as XML's lexical structure has it,
// so that a name inside an attribute's value, an element's text, a comment or a CDATA section is not a property.
std::map<std::string_view, std::vector<ValueSpan>> geometry_values(const std::string& xmp) {
    std::map<std::string_view, std::vector<ValueSpan>> found;
    const auto geometry_name = [&](std::size_t from, std::size_t to) -> std::string_view {
        const std::string_view name(xmp.data() + from, to - from);
        const auto it = std::find(geometry_names.begin(), geometry_names.end(), name);
        return it == geometry_names.end() ? std::string_view() : *it;
    };
    const auto skip_past = [&](std::size_t from, std::string_view end) {
        const std::size_t at = xmp.find(end, from);
        return at == std::string::npos ? xmp.size() : at + end.size();
    };
    std::size_t i = 0;
    while (i < xmp.size()) {
        if (xmp[i] != '<') {
            i = xmp.find('<', i);
            if (i == std::string::npos) break;
            continue;
        }
        if (xmp.compare(i, 4, "<!--") == 0) {
            i = skip_past(i + 4, "-->");
        } else if (xmp.compare(i, 9, "<![CDATA[") == 0) {
            i = skip_past(i + 9, "]]>");
        } else if (xmp.compare(i, 2, "<?") == 0 || xmp.compare(i, 2, "<!") == 0 || xmp.compare(i, 2, "</") == 0) {
            i = skip_past(i + 2, ">");
        } else {
            // A start tag: its name, then attributes until '>' (a quoted value may hold '>').
            std::size_t end = i + 1;
            while (end < xmp.size() && !ends_name(xmp[end])) ++end;
            const std::string_view element = geometry_name(i + 1, end);
            i = end;
            while (i < xmp.size() && xmp[i] != '>') {
                if (is_space(xmp[i]) || xmp[i] == '/') {
                    ++i;
                    continue;
                }
                const std::size_t name_begin = i;
                while (i < xmp.size() && !ends_name(xmp[i])) ++i;
                const std::string_view attribute = geometry_name(name_begin, i);
                while (i < xmp.size() && is_space(xmp[i])) ++i;
                if (i >= xmp.size() || xmp[i] != '=') continue;  // not an attribute: read on to the tag's end
                ++i;
                while (i < xmp.size() && is_space(xmp[i])) ++i;
                if (i >= xmp.size() || (xmp[i] != '"' && xmp[i] != '\'')) continue;
                const std::size_t close = xmp.find(xmp[i], i + 1);
                if (close == std::string::npos) return found;  // a value that never ends: the packet is torn
                if (!attribute.empty()) found[attribute].push_back({i + 1, close - i - 1});
                i = close + 1;
            }
            if (i >= xmp.size()) break;
            const bool empty_element = xmp[i - 1] == '/';
            ++i;
            if (!element.empty() && !empty_element) {
                // A simple element: text, then its own end tag at once.
                const std::size_t text_end = xmp.find('<', i);
                if (text_end == std::string::npos) break;
                const std::size_t name_end = text_end + 2 + element.size();
                if (xmp.compare(text_end, 2, "</") == 0 && xmp.compare(text_end + 2, element.size(), element) == 0 && name_end < xmp.size() &&
                    (xmp[name_end] == '>' || is_space(xmp[name_end]))) {
                    found[element].push_back({i, text_end - i});
                }
                i = text_end;
            }
        }
    }
    return found;
}

// A value without the white space around it: an element's text may have line breaks that an attribute's value
// must not take (nor a number have).
std::string trimmed(const std::string& xmp, ValueSpan v) {
    std::size_t begin = v.pos, end = v.pos + v.size;
    while (begin < end && is_space(xmp[begin])) ++begin;
    while (end > begin && is_space(xmp[end - 1])) --end;
    return xmp.substr(begin, end - begin);
}

struct Replacement {
    ValueSpan span;
    std::string text;
};

// The packet with each span replaced, built in one pass (replacing in place would move the rest of the packet
// once per value). The spans come from one lexical pass, so they never overlap.
void apply(std::string& xmp, std::vector<Replacement> replacements) {
    if (replacements.empty()) return;
    std::sort(replacements.begin(), replacements.end(), [](const Replacement& a, const Replacement& b) { return a.span.pos < b.span.pos; });
    std::string out;
    out.reserve(xmp.size());
    std::size_t copied = 0;
    for (const Replacement& r : replacements) {
        out.append(xmp, copied, r.span.pos - copied);
        out += r.text;
        copied = r.span.pos + r.span.size;
    }
    out.append(xmp, copied, std::string::npos);
    xmp = std::move(out);
}

std::vector<Replacement> set_all(const std::string& xmp, const std::map<std::string_view, std::vector<ValueSpan>>& values, std::string_view name,
                                 const std::string& text) {
    std::vector<Replacement> replacements;
    const auto it = values.find(name);
    if (it != values.end()) {
        for (const ValueSpan& span : it->second) {
            if (xmp.compare(span.pos, span.size, text) != 0) replacements.push_back({span, text});
        }
    }
    return replacements;
}

}  // namespace

void swap_xmp_axes(std::string& xmp) {
    static constexpr std::array<std::array<std::string_view, 2>, 3> pairs{{{pixel_x, pixel_y}, {image_width, image_length}, {x_resolution, y_resolution}}};
    const auto values = geometry_values(xmp);
    std::vector<Replacement> replacements;
    for (const auto& [x_name, y_name] : pairs) {
        const auto xs = values.find(x_name), ys = values.find(y_name);
        // Paired in order: one rdf:Description (or one per schema) gives each once. Counts that differ leave the
        // pair as it is, rather than guess which X goes with which Y.
        if (xs == values.end() || ys == values.end() || xs->second.size() != ys->second.size()) continue;
        for (std::size_t i = 0; i < xs->second.size(); ++i) {
            const ValueSpan x = xs->second[i], y = ys->second[i];
            // A value with a quote in it may sit in the other quote: moved into another attribute, it could end
            // that attribute early.
            const auto quoted = [&](ValueSpan v) { return xmp.substr(v.pos, v.size).find_first_of("\"'") != std::string::npos; };
            if (quoted(x) || quoted(y)) continue;
            replacements.push_back({x, trimmed(xmp, y)});
            replacements.push_back({y, trimmed(xmp, x)});
        }
    }
    apply(xmp, std::move(replacements));
}

void set_xmp_orientation(std::string& xmp, int value) {
    if (value < 1 || value > 8) return;
    apply(xmp, set_all(xmp, geometry_values(xmp), orientation, std::to_string(value)));
}

void set_xmp_dimensions(std::string& xmp, std::int64_t width, std::int64_t height) {
    const auto values = geometry_values(xmp);
    std::vector<Replacement> replacements;
    for (const auto& [name, value] : {std::pair{pixel_x, width}, std::pair{pixel_y, height}, std::pair{image_width, width}, std::pair{image_length, height}}) {
        auto more = set_all(xmp, values, name, std::to_string(value));
        replacements.insert(replacements.end(), more.begin(), more.end());
    }
    apply(xmp, std::move(replacements));
}

}  // namespace gpurotate::detail
