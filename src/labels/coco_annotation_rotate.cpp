#include "labels/coco_annotation_rotate.hpp"

#include "labels/canvas_clip.hpp"
#include "labels/coco_rle.hpp"
#include "labels/coco_values.hpp"

#include <gpurotate/rotate.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace gpurotate::labels {
namespace {

using Json = nlohmann::ordered_json;

// A coordinate as JSON: the rounded double of rotated_number_text, so that the file has its short text.
Json coordinate(double value) { return std::strtod(rotated_number_text(value).c_str(), nullptr); }

// What an instance's outline is on the rotated canvas.
struct Outline {
    double before = 0;  // its area rotated, before the canvas cut it
    double after = 0;   // on the canvas
    Bounds box;         // its box on the canvas
};

Outline rotate_polygons(Json& segmentation, const AngleMap& angle) {
    Outline o;
    Polygon all;
    Json out = Json::array();
    for (const Json& part : segmentation) {
        Polygon p;
        for (std::size_t i = 0; i + 1 < part.size(); i += 2) p.push_back(angle.map({part[i].get<double>(), part[i + 1].get<double>()}));
        const Polygon kept = clip_to_canvas(p, angle.output());
        o.before += polygon_area(p);
        o.after += polygon_area(kept);
        if (kept.size() < 3) continue;  // nothing left of this part, or a sliver without area
        Json written = Json::array();
        for (const Point& v : kept) {
            written.push_back(coordinate(v.x));
            written.push_back(coordinate(v.y));
            all.push_back(v);
        }
        out.push_back(std::move(written));
    }
    segmentation = std::move(out);
    o.box = bounds_of(all);
    return o;
}

// The mask rotated as the pixels are (nearest, whatever --interpolate says; background 0).
Outline rotate_rle(Json& rle, const AngleMap& angle) {
    const ImageSize in = angle.source(), out_size = angle.output();
    const std::vector<std::uint8_t> columns = mask_from_runs(*read_run_counts(rle["counts"]), in);
    Image source(in.width, in.height, PixelFormat{SampleType::u8, 1});
    Outline o;
    for (std::int64_t y = 0; y < in.height; ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(source.view().row(y));
        for (std::int64_t x = 0; x < in.width; ++x) {
            row[x] = columns[static_cast<std::size_t>(x * in.height + y)];
            o.before += row[x];
        }
    }
    RotateOptions options;
    options.degrees = angle.degrees();
    options.interpolation = Interpolation::nearest;
    options.keep_size = angle.keep_size();
    const Image turned = rotate(source, options, Backend::cpu);
    std::vector<std::uint8_t> rotated(static_cast<std::size_t>(out_size.width * out_size.height));
    for (std::int64_t y = 0; y < out_size.height; ++y) {
        const auto* row = reinterpret_cast<const std::uint8_t*>(turned.view().row(y));
        for (std::int64_t x = 0; x < out_size.width; ++x) {
            const std::uint8_t v = row[x] ? 1 : 0;
            rotated[static_cast<std::size_t>(x * out_size.height + y)] = v;
            if (!v) continue;
            o.after += 1;
            const Bounds pixel{static_cast<double>(x), static_cast<double>(y), static_cast<double>(x + 1), static_cast<double>(y + 1)};
            o.box = o.box.empty() ? pixel : Bounds{std::min(o.box.x0, pixel.x0), std::min(o.box.y0, pixel.y0), std::max(o.box.x1, pixel.x1), std::max(o.box.y1, pixel.y1)};
        }
    }
    // The pixels a rotation with an expanded canvas keeps are all of them, in area: what the mask's sampling
    // moves is not the canvas's cut, so the count before is the rotated area, not the source's.
    if (!angle.keep_size()) o.before = o.after;
    const RunCounts runs = runs_from_mask(rotated);
    rle["size"] = Json::array({out_size.height, out_size.width});
    if (rle["counts"].is_string()) {
        rle["counts"] = encode_rle_string(runs);
    } else {
        rle["counts"] = runs;
    }
    return o;
}

Outline rotate_box(const Json& bbox, const AngleMap& angle) {
    const double x = bbox[0].get<double>(), y = bbox[1].get<double>(), w = bbox[2].get<double>(), h = bbox[3].get<double>();
    Polygon corners;
    for (const Point& c : corners_of({x, y, x + w, y + h})) corners.push_back(angle.map(c));
    const Bounds rotated = bounds_of(corners);
    Outline o;
    o.box = clip_to_canvas(rotated, angle.output());
    o.before = rotated.area();
    o.after = o.box.area();
    return o;
}

Json rotate_keypoints(const Json& keypoints, const AngleMap& angle, std::int64_t& labelled) {
    Json out = Json::array();
    labelled = 0;
    for (std::size_t i = 0; i + 2 < keypoints.size(); i += 3) {
        const double x = keypoints[i].get<double>(), y = keypoints[i + 1].get<double>(), v = keypoints[i + 2].get<double>();
        const Point p = angle.map({x, y});
        if ((x == 0 && y == 0 && v == 0) || !on_canvas(p, angle.output())) {
            out.push_back(0);
            out.push_back(0);
            out.push_back(0);
            continue;
        }
        out.push_back(coordinate(p.x));
        out.push_back(coordinate(p.y));
        out.push_back(keypoints[i + 2]);
        labelled += v > 0 ? 1 : 0;
    }
    return out;
}

}  // namespace

std::optional<Json> rotate_annotation(const Json& annotation, const AngleMap& angle, double min_visibility) {
    Json out = annotation;
    std::optional<Outline> outline;
    bool has_segmentation = false;
    if (const auto seg = out.find("segmentation"); seg != out.end() && (seg->is_object() || !seg->empty())) {
        has_segmentation = true;
        outline = seg->is_object() ? rotate_rle(*seg, angle) : rotate_polygons(*seg, angle);
    }
    if (const auto bbox = annotation.find("bbox"); bbox != annotation.end()) {
        const Outline box = rotate_box(*bbox, angle);
        if (!outline) outline = box;
    }
    if (outline) {
        if (!stays(outline->before, outline->after, !outline->box.empty(), min_visibility)) return std::nullopt;
        if (out.contains("bbox")) {
            const Bounds& b = outline->box;
            out["bbox"] = Json::array({coordinate(b.x0), coordinate(b.y0), coordinate(b.x1 - b.x0), coordinate(b.y1 - b.y0)});
        }
        if (out.contains("area")) out["area"] = coordinate(has_segmentation ? outline->after : outline->box.area());
    }
    if (const auto keypoints = annotation.find("keypoints"); keypoints != annotation.end()) {
        std::int64_t labelled = 0;
        out["keypoints"] = rotate_keypoints(*keypoints, angle, labelled);
        if (out.contains("num_keypoints")) out["num_keypoints"] = labelled;
    }
    return out;
}

}  // namespace gpurotate::labels
