#include "labels/yolo_angle.hpp"

#include "labels/canvas_clip.hpp"
#include "labels/yolo_words.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

namespace gpurotate::labels {
namespace {

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& why) {
    throw Error(ErrorCode::input, "'" + path + "' line " + std::to_string(line) + ": " + why);
}

std::vector<std::string_view> words_of(std::string_view line) {
    std::vector<std::string_view> words;
    for (const YoloWord& w : yolo_words(line)) words.push_back(w.text);
    return words;
}

// One row on the rotated canvas: normalised values in, pixel edges in between, normalised values out.
class RotatedRow {
public:
    RotatedRow(const AngleMap& angle, double min_visibility) : angle_(angle), min_visibility_(min_visibility) {}

    Point source_point(double x, double y) const {
        return {x * static_cast<double>(angle_.source().width), y * static_cast<double>(angle_.source().height)};
    }
    void write_x(double x) { write(x / static_cast<double>(angle_.output().width)); }
    void write_y(double y) { write(y / static_cast<double>(angle_.output().height)); }
    void write_point(Point p) {
        write_x(p.x);
        write_y(p.y);
    }
    void write(double normalised) { out_ += " " + rotated_number_text(normalised); }
    void write_text(std::string_view text) { out_ += " " + std::string(text); }

    // A detect or pose row's box (centre, size): its corners rotated, re-boxed and clipped. False: dropped.
    bool box(const double* v) {
        const Bounds source{v[0] - v[2] / 2, v[1] - v[3] / 2, v[0] + v[2] / 2, v[1] + v[3] / 2};
        Polygon corners;
        for (const Point& c : corners_of(source)) corners.push_back(angle_.map(source_point(c.x, c.y)));
        const Bounds rotated = bounds_of(corners);
        const Bounds kept = clip_to_canvas(rotated, angle_.output());
        if (!stays(rotated.area(), kept.area(), !kept.empty(), min_visibility_)) return false;
        write_x((kept.x0 + kept.x1) / 2);
        write_y((kept.y0 + kept.y1) / 2);
        write_x(kept.x1 - kept.x0);
        write_y(kept.y1 - kept.y0);
        return true;
    }

    Polygon polygon(const double* v, std::size_t n) const {
        Polygon p;
        for (std::size_t i = 0; i + 1 < n; i += 2) p.push_back(angle_.map(source_point(v[i], v[i + 1])));
        return p;
    }

    const AngleMap& angle() const { return angle_; }
    double min_visibility() const { return min_visibility_; }
    const std::string& text() const { return out_; }

private:
    const AngleMap& angle_;
    double min_visibility_;
    std::string out_;
};

bool rotate_segment(RotatedRow& row, const double* v, std::size_t n) {
    const Polygon rotated = row.polygon(v, n);
    const Polygon kept = clip_to_canvas(rotated, row.angle().output());
    if (!stays(polygon_area(rotated), polygon_area(kept), !kept.empty(), row.min_visibility())) return false;
    for (const Point& p : kept) row.write_point(p);
    // A polygon cut down to one or two points is still written as three, as a segment row needs.
    for (std::size_t i = kept.size(); i < 3; ++i) row.write_point(kept.back());
    return true;
}

bool rotate_oriented_box(RotatedRow& row, const double* v) {
    const Polygon rotated = row.polygon(v, 8);
    const Polygon kept = clip_to_canvas(rotated, row.angle().output());
    if (!stays(polygon_area(rotated), polygon_area(kept), !kept.empty(), row.min_visibility())) return false;
    const double w = static_cast<double>(row.angle().output().width), h = static_cast<double>(row.angle().output().height);
    for (const Point& p : rotated) row.write_point({std::clamp(p.x, 0.0, w), std::clamp(p.y, 0.0, h)});
    return true;
}

bool rotate_pose(RotatedRow& row, const double* v, const std::vector<std::string_view>& words, const YoloSchema& schema) {
    if (!row.box(v)) return false;
    const auto d = static_cast<std::size_t>(schema.keypoint_values);
    for (std::size_t k = 0; k < static_cast<std::size_t>(schema.keypoints); ++k) {
        const double* kp = v + 4 + k * d;
        const bool unlabelled = kp[0] == 0 && kp[1] == 0 && (d == 2 || kp[2] == 0);
        const Point p = row.angle().map(row.source_point(kp[0], kp[1]));
        if (unlabelled || !on_canvas(p, row.angle().output())) {
            row.write_text("0");
            row.write_text("0");
            if (d == 3) row.write_text("0");
            continue;
        }
        row.write_point(p);
        if (d == 3) row.write_text(words[1 + 4 + k * d + 2]);  // its visibility, as written
    }
    return true;
}

// One row: its text on the rotated canvas, or none where its instance is left out.
std::optional<std::string> rotate_row(const std::vector<std::string_view>& words, const AngleMap& angle, const YoloSchema& schema,
                                      double min_visibility, const std::string& path, std::size_t number) {
    std::vector<double> v;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string word(words[i]);
        char* end = nullptr;
        v.push_back(std::strtod(word.c_str(), &end));
        if (end != word.c_str() + word.size()) fail(path, number, "value '" + word + "' is not a number");
    }
    RotatedRow row(angle, min_visibility);
    const std::size_t n = v.size();
    bool kept = false;
    if (schema.keypoints > 0) {
        const auto needed = 4 + static_cast<std::size_t>(schema.keypoints) * static_cast<std::size_t>(schema.keypoint_values);
        if (n != needed) fail(path, number, std::to_string(n) + " values after the class; kpt_shape needs " + std::to_string(needed));
        kept = rotate_pose(row, v.data(), words, schema);
    } else if (n == 4) {
        kept = row.box(v.data());
    } else if (n == 8) {
        kept = rotate_oriented_box(row, v.data());
    } else if (n >= 6 && n % 2 == 0) {
        kept = rotate_segment(row, v.data(), n);
    } else {
        fail(path, number, std::to_string(n) + " values after the class: not a box (4), an oriented box (8) or a polygon (an even number, 6 or more)");
    }
    if (!kept) return std::nullopt;
    return std::string(words[0]) + row.text();
}

}  // namespace

std::string rotate_yolo_labels(std::string_view text, const AngleMap& angle, const YoloSchema& schema, double min_visibility, const std::string& path) {
    std::string out;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        out.append(text.substr(0, 3));
        text.remove_prefix(3);
    }
    std::size_t number = 1;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        const std::string_view end = nl == std::string_view::npos ? "" : !line.empty() && line.back() == '\r' ? "\r\n" : "\n";
        const std::vector<std::string_view> words = words_of(line);
        if (words.empty()) {
            out.append(line).append(nl == std::string_view::npos ? "" : "\n");
        } else if (const auto row = rotate_row(words, angle, schema, min_visibility, path, number)) {
            out.append(*row).append(end);
        }
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
        ++number;
    }
    return out;
}

}  // namespace gpurotate::labels
