#include "labels/yolo_labels.hpp"
#include "labels/yolo_words.hpp"

#include <gpurotate/error.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <stdexcept>

namespace gpurotate::labels {
namespace {

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& why) {
    throw Error(ErrorCode::input, "'" + path + "' line " + std::to_string(line) + ": " + why);
}

// ---- data.yaml ----

// yaml-cpp counts lines from 0.
std::size_t line_of(const YAML::Node& node) { return static_cast<std::size_t>(node.Mark().line + 1); }

std::optional<int> int_of(const YAML::Node& node) {
    if (!node.IsScalar()) return std::nullopt;
    try {
        return node.as<int>();
    } catch (const YAML::Exception&) {
        return std::nullopt;
    }
}

// ---- label rows ----

using Token = YoloWord;
constexpr auto is_separator = is_yolo_separator;
constexpr auto tokens_of = yolo_words;

// One row being turned: its values parsed, and the error messages that name its file and line.
// Whether C's strtod reads all of `text` as a finite number (so that a value Decimal declines for its
// digits is told apart from one that is no number at all).
bool is_plain_number(std::string_view text) {
    const std::string copy(text);
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    return !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(value) && copy.find_first_of("xXnN") == std::string::npos;
}

class Row {
public:
    Row(std::vector<Token> values, const std::string& path, std::size_t line) : tokens_(std::move(values)), path_(path), line_(line) {
        for (const Token& t : tokens_) {
            const auto v = Decimal::parse(t.text);
            if (!v && is_plain_number(t.text)) fail("value '" + std::string(t.text) + "' has more digits than a label value can hold");
            if (!v) fail("value '" + std::string(t.text) + "' is not a number");
            values_.push_back(*v);
        }
        out_.assign(tokens_.size(), {});
    }

    [[noreturn]] void fail(const std::string& why) const { labels::fail(path_, line_, why); }

    std::size_t size() const { return values_.size(); }
    const Decimal& value(std::size_t i) const { return values_[i]; }
    std::string_view text(std::size_t i) const { return tokens_[i].text; }

    // Coordinates lie in [0, 1], give or take the 1e-6 that writers' rounding leaves.
    void check_coordinate(std::size_t i) const {
        static const Decimal low = *Decimal::parse("-0.000001");
        static const Decimal high = *Decimal::parse("1.000001");
        if (values_[i] < low || high < values_[i]) fail("value '" + std::string(tokens_[i].text) + "' lies outside [0, 1]");
    }

    // The text of a turned value that came from value `source`: its own text where the map left it as it
    // was (so "1e-05" and "+0.5" stay as written under identity and the axis swaps), else the digits.
    std::string text_for(const Decimal& turned, std::size_t source) const {
        if (turned == values_[source]) return std::string(tokens_[source].text);
        return turned.text();
    }

    // The point at values (ix, iy), turned, written to output slots (ox, oy).
    void turn_point_to(std::size_t ix, std::size_t iy, std::size_t ox, std::size_t oy, Orientation element) {
        check_coordinate(ix);
        check_coordinate(iy);
        const auto [x, y] = turn_point(values_[ix], values_[iy], normalised_extent(), element);
        const bool swaps = axis_map(element).swap_axes;
        out_[ox] = text_for(x, swaps ? iy : ix);
        out_[oy] = text_for(y, swaps ? ix : iy);
    }

    // A box's width and height at (iw, ih), swapped with the axes.
    void turn_size_at(std::size_t iw, std::size_t ih, Orientation element) {
        check_coordinate(iw);
        check_coordinate(ih);
        const bool swaps = axis_map(element).swap_axes;
        const auto [w, h] = turn_size(values_[iw], values_[ih], element);
        out_[iw] = text_for(w, swaps ? ih : iw);
        out_[ih] = text_for(h, swaps ? iw : ih);
    }

    void keep(std::size_t from, std::size_t to) { out_[to] = std::string(tokens_[from].text); }

    const std::vector<std::string>& output() const { return out_; }

private:
    std::vector<Token> tokens_;
    std::vector<Decimal> values_;
    std::vector<std::string> out_;
    const std::string& path_;
    std::size_t line_;
};

void turn_detect(Row& row, Orientation element) {
    row.turn_point_to(0, 1, 0, 1, element);
    row.turn_size_at(2, 3, element);
}

// Four corners. A reflection reverses their winding; the mapped corners in the order 2, 1, 4, 3 restore it,
// as torchvision orders a flipped XYXYXYXY box (and gpurotate.transform_boxes, so the two agree).
void turn_oriented_box(Row& row, Orientation element) {
    const bool reflect = reflects(element);
    for (std::size_t corner = 0; corner < 4; ++corner) {
        const std::size_t to = reflect ? corner ^ 1 : corner;
        row.turn_point_to(2 * corner, 2 * corner + 1, 2 * to, 2 * to + 1, element);
    }
}

void turn_segment(Row& row, Orientation element) {
    for (std::size_t i = 0; i < row.size(); i += 2) row.turn_point_to(i, i + 1, i, i + 1, element);
}

// Box, then K keypoints of D values. Under a reflection left and right trade names: output keypoint i is
// the source's keypoint flip_idx[i].
void turn_pose(Row& row, Orientation element, const YoloSchema& schema) {
    const auto k = static_cast<std::size_t>(schema.keypoints);
    const auto d = static_cast<std::size_t>(schema.keypoint_values);
    if (row.size() != 4 + k * d) {
        row.fail(std::to_string(row.size()) + " values after the class; kpt_shape [" + std::to_string(k) + ", " + std::to_string(d) +
                 "] needs " + std::to_string(4 + k * d));
    }
    const bool reflect = reflects(element);
    if (reflect && schema.flip_idx.empty()) row.fail("a reflection of a pose row needs flip_idx in data.yaml");
    if (reflect && schema.flip_idx.size() != k) row.fail("flip_idx has " + std::to_string(schema.flip_idx.size()) + " entries, not " + std::to_string(k));
    turn_detect(row, element);
    const Decimal zero = Decimal::integer(0);
    for (std::size_t i = 0; i < k; ++i) {
        const std::size_t source = reflect ? static_cast<std::size_t>(schema.flip_idx[i]) : i;
        const std::size_t from = 4 + source * d, to = 4 + i * d;
        // An unlabelled keypoint is written 0 0 0: no place in the image, so it stays 0 0 0.
        const bool unlabelled = d == 3 && row.value(from + 2) == zero && row.value(from) == zero && row.value(from + 1) == zero;
        if (unlabelled) {
            row.keep(from, to);
            row.keep(from + 1, to + 1);
        } else {
            row.turn_point_to(from, from + 1, to, to + 1, element);
        }
        if (d == 3) row.keep(from + 2, to + 2);
    }
}

void turn_row(Row& row, Orientation element, const YoloSchema& schema) {
    if (schema.keypoints > 0) return turn_pose(row, element, schema);
    const std::size_t n = row.size();
    if (n == 4) return turn_detect(row, element);
    if (n == 8) return turn_oriented_box(row, element);
    if (n >= 6 && n % 2 == 0) return turn_segment(row, element);
    row.fail(std::to_string(n) + " values after the class: not a box (4), an oriented box (8) or a polygon (an even number, 6 or more)");
}

bool is_class(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// One line, without its '\n' (a '\r' before it is a separator, kept like the others).
std::string turn_line(std::string_view line, Orientation element, const YoloSchema& schema, const std::string& path, std::size_t number) {
    std::vector<Token> tokens = tokens_of(line);
    if (tokens.empty()) return std::string(line);
    if (!is_class(tokens[0].text)) fail(path, number, "class '" + std::string(tokens[0].text) + "' is not a non-negative integer");
    Row row(std::vector<Token>(tokens.begin() + 1, tokens.end()), path, number);
    try {
        turn_row(row, element, schema);
    } catch (const std::overflow_error&) {
        row.fail("a value has more digits than a label value can hold");
    }
    std::string out;
    std::size_t at = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        out.append(line.substr(at, tokens[i].begin - at));
        out.append(i == 0 ? std::string(tokens[0].text) : row.output()[i - 1]);
        at = tokens[i].end;
    }
    out.append(line.substr(at));
    return out;
}

// ---- data.yaml's path: ----

// Whether `text` reads back as this string when written bare after "path: ". Conservative: anything that
// could be a number, a boolean, null, an indicator or a comment is quoted.
bool plain_is_safe(std::string_view text) {
    if (text.empty() || text.front() == ' ' || text.back() == ' ' || text.front() == '\t' || text.back() == '\t') return false;
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`~+.0123456789").find(text.front()) != std::string_view::npos) return false;
    if (text.back() == ':') return false;
    if (text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos || text.find(":\t") != std::string_view::npos ||
        text.find("\t#") != std::string_view::npos) {
        return false;
    }
    for (char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
    }
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    for (const char* word : {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}) {
        if (lower == word) return false;
    }
    return true;
}

// The root as a YAML scalar: bare where that is safe, else single-quoted ('' for '), or double-quoted with
// escapes where it holds control characters (which single quotes cannot carry).
std::string yaml_scalar(const std::string& text) {
    if (plain_is_safe(text)) return text;
    const bool controls = std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
    if (!controls) {
        std::string out = "'";
        for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'";
    }
    static const char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u == 0x7f) {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// A top-level "path:" key (column 0, optional spaces before the colon); the offset after the colon.
std::optional<std::size_t> path_key(std::string_view line) {
    if (line.substr(0, 4) != "path") return std::nullopt;
    std::size_t i = 4;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size() || line[i] != ':') return std::nullopt;
    ++i;
    if (i < line.size() && !is_separator(line[i])) return std::nullopt;  // "path:x" is not a key
    return i;
}

// What follows the old value on the key's line: its comment (with the spaces before it), kept.
std::string_view trailing_comment(std::string_view rest) {
    std::size_t i = 0;
    while (i < rest.size() && is_separator(rest[i])) ++i;
    if (i < rest.size() && (rest[i] == '\'' || rest[i] == '"')) {  // skip the quoted scalar
        const char quote = rest[i++];
        while (i < rest.size()) {
            if (quote == '"' && rest[i] == '\\') {
                i += 2;
                continue;
            }
            if (rest[i] == quote) {
                if (quote == '\'' && i + 1 < rest.size() && rest[i + 1] == '\'') {
                    i += 2;
                    continue;
                }
                ++i;
                break;
            }
            ++i;
        }
    }
    for (; i < rest.size(); ++i) {
        if (rest[i] == '#' && (i == 0 || is_separator(rest[i - 1]))) {
            std::size_t start = i;
            while (start > 0 && is_separator(rest[start - 1]) && rest[start - 1] != '\r') --start;
            return rest.substr(start);
        }
        if (rest[i] == '\r') return rest.substr(i);
    }
    return {};
}

struct Line {
    std::string_view body;  // without the line end
    std::string_view end;   // "\n", "\r\n" or "" (the last line)
};

std::vector<Line> lines_of(std::string_view text) {
    std::vector<Line> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        if (nl == std::string_view::npos) {
            lines.push_back({text.substr(at), {}});
            break;
        }
        std::size_t body_end = nl > at && text[nl - 1] == '\r' ? nl - 1 : nl;
        lines.push_back({text.substr(at, body_end - at), text.substr(body_end, nl + 1 - body_end)});
        at = nl + 1;
    }
    return lines;
}

bool is_blank(std::string_view s) { return std::all_of(s.begin(), s.end(), is_separator); }
bool is_indented(std::string_view s) { return !s.empty() && (s[0] == ' ' || s[0] == '\t'); }

}  // namespace

YoloSchema read_yolo_schema(const std::string& yaml_path) {
    YAML::Node root;
    try {
        root = YAML::LoadFile(yaml_path);
    } catch (const YAML::BadFile&) {
        throw Error(ErrorCode::input, "'" + yaml_path + "': cannot be read");
    } catch (const YAML::Exception& e) {
        fail(yaml_path, static_cast<std::size_t>(e.mark.line + 1), e.msg);
    }
    YoloSchema schema;
    if (!root || root.IsNull()) return schema;
    if (!root.IsMap()) fail(yaml_path, line_of(root), "data.yaml is not a mapping");
    const YAML::Node shape = root["kpt_shape"];
    if (shape && !shape.IsNull()) {
        const bool pair = shape.IsSequence() && shape.size() == 2;
        const int k = pair ? int_of(shape[0]).value_or(0) : 0;
        const int d = pair ? int_of(shape[1]).value_or(0) : 0;
        if (k < 1 || (d != 2 && d != 3)) fail(yaml_path, line_of(shape), "kpt_shape is not [K, 2] or [K, 3] with K >= 1");
        schema.keypoints = k;
        schema.keypoint_values = d;
    }
    const YAML::Node flip = root["flip_idx"];
    if (flip && !flip.IsNull()) {
        const auto k = static_cast<std::size_t>(schema.keypoints);
        if (!flip.IsSequence() || flip.size() != k) {
            fail(yaml_path, line_of(flip), "flip_idx is not a list of " + std::to_string(k) + " keypoint indices (kpt_shape's K)");
        }
        std::vector<bool> seen(k, false);
        for (const YAML::Node& entry : flip) {
            const auto i = int_of(entry);
            if (!i || *i < 0 || static_cast<std::size_t>(*i) >= k || seen[static_cast<std::size_t>(*i)]) {
                fail(yaml_path, line_of(entry), "flip_idx is not a permutation of 0.." + std::to_string(k - 1));
            }
            seen[static_cast<std::size_t>(*i)] = true;
            schema.flip_idx.push_back(*i);
        }
    }
    return schema;
}

std::string turn_yolo_labels(std::string_view text, Orientation element, const YoloSchema& schema, const std::string& path) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    // A UTF-8 byte order mark (some Windows editors write one) is kept, and not read as part of the class.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        out.append(text.substr(0, 3));
        text.remove_prefix(3);
    }
    std::size_t number = 1;
    while (true) {
        const std::size_t nl = text.find('\n');
        out += turn_line(text.substr(0, nl), element, schema, path, number);
        if (nl == std::string_view::npos) break;
        out += '\n';
        text.remove_prefix(nl + 1);
        ++number;
    }
    return out;
}

std::string yolo_yaml_for_root(std::string_view yaml_text, const std::string& new_root) {
    const std::vector<Line> lines = lines_of(yaml_text);
    const std::string value = "path: " + yaml_scalar(new_root);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto after_colon = path_key(lines[i].body);
        if (!after_colon) continue;
        for (std::size_t j = 0; j < i; ++j) out.append(lines[j].body).append(lines[j].end);
        out.append(value).append(trailing_comment(lines[i].body.substr(*after_colon))).append(lines[i].end);
        // The old value may go on over indented lines (a multi-line scalar, `|` or `>`): they go with it.
        std::size_t next = i + 1, last_value = i;
        for (; next < lines.size() && (is_blank(lines[next].body) || is_indented(lines[next].body)); ++next) {
            const std::string_view body = lines[next].body;
            const std::size_t first = body.find_first_not_of(" \t\r");
            if (first != std::string_view::npos && body[first] == '#') break;
            if (!is_blank(body)) last_value = next;
        }
        for (std::size_t j = last_value + 1; j < lines.size(); ++j) out.append(lines[j].body).append(lines[j].end);
        return out;
    }
    // No path: the key goes first, after a leading "---" if the document has one (before it, it would be
    // a document of its own). Its line end is the file's.
    const std::string_view end = !lines.empty() && lines[0].end == "\r\n" ? "\r\n" : "\n";
    std::size_t insert_at = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view body = lines[i].body;
        if (body.substr(0, 3) == "---" && (body.size() == 3 || is_separator(body[3]))) {
            insert_at = i + 1;
            break;
        }
        if (!(is_blank(body) || body.front() == '#' || body.front() == '%')) break;
    }
    for (std::size_t j = 0; j < insert_at; ++j) out.append(lines[j].body).append(lines[j].end);
    if (insert_at > 0 && lines[insert_at - 1].end.empty()) out.append(end);
    out.append(value).append(end);
    for (std::size_t j = insert_at; j < lines.size(); ++j) out.append(lines[j].body).append(lines[j].end);
    return out;
}

}  // namespace gpurotate::labels
