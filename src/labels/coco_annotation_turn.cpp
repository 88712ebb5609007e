#include "labels/coco_annotation_turn.hpp"

#include "labels/coco_values.hpp"

#include <string_view>

namespace gpurotate::labels {
namespace {

using Json = nlohmann::ordered_json;

// The corners (x, y) and (x + w, y + h) turned; the box written from the new top-left corner with the
// width and height it had (swapped with the axes), copied rather than recomputed so they stay exact.
Json turn_bbox(const Json& bbox, ImageSize size, Orientation element) {
    const Coordinate x = *read_coordinate(bbox[0]), y = *read_coordinate(bbox[1]);
    const Coordinate w = *read_coordinate(bbox[2]), h = *read_coordinate(bbox[3]);
    const auto [ax, ay] = turn_coordinates(x, y, size, element);
    const auto [bx, by] = turn_coordinates(add(x, w), add(y, h), size, element);
    const Coordinate& left = bx.value < ax.value ? bx : ax;
    const Coordinate& top = by.value < ay.value ? by : ay;
    const bool swap = axis_map(element).swap_axes;
    return Json::array({write_coordinate(left), write_coordinate(top), swap ? bbox[3] : bbox[2], swap ? bbox[2] : bbox[3]});
}

// Vertices in their order: COCO does not care which way round a polygon runs, so a reflection leaves
// the order as it was and the file stays comparable vertex by vertex.
Json turn_polygon(const Json& polygon, ImageSize size, Orientation element) {
    Json out = Json::array();
    for (std::size_t i = 0; i < polygon.size(); i += 2) {
        const auto [x, y] = turn_coordinates(*read_coordinate(polygon[i]), *read_coordinate(polygon[i + 1]), size, element);
        out.push_back(write_coordinate(x));
        out.push_back(write_coordinate(y));
    }
    return out;
}

// The same form out as in: a string stays pycocotools' string, a list stays a list.
Json turn_rle(const Json& rle, ImageSize size, Orientation element) {
    Json out = rle;
    const ImageSize turned = turned_size(size, element);
    out["size"] = Json::array({turned.height, turned.width});
    const RunCounts runs = turn_runs(*read_run_counts(rle["counts"]), size, element);
    if (rle["counts"].is_string()) {
        out["counts"] = encode_rle_string(runs);
    } else {
        out["counts"] = runs;
    }
    return out;
}

Json turn_segmentation(const Json& segmentation, ImageSize size, Orientation element) {
    if (segmentation.is_object()) return turn_rle(segmentation, size, element);
    Json out = Json::array();
    for (const auto& polygon : segmentation) out.push_back(turn_polygon(polygon, size, element));
    return out;
}

// Which source keypoint each output keypoint is: itself, or under a reflection its mirror twin (left_X
// for right_X and back), since what was the left eye is on the right of the reflected image.
std::size_t source_keypoint(std::size_t i, const std::vector<std::string>& names, bool reflected) {
    if (!reflected || i >= names.size()) return i;
    const std::string_view name = names[i];
    std::string twin;
    if (name.compare(0, 5, "left_") == 0) twin = "right_" + std::string(name.substr(5));
    else if (name.compare(0, 6, "right_") == 0) twin = "left_" + std::string(name.substr(6));
    else return i;
    for (std::size_t j = 0; j < names.size(); ++j) {
        if (names[j] == twin) return j;
    }
    return i;
}

bool is_unlabelled(const Json& x, const Json& y, const Json& v) {
    const Decimal zero = Decimal::integer(0);
    return read_coordinate(v)->value == zero && read_coordinate(x)->value == zero && read_coordinate(y)->value == zero;
}

Json turn_keypoints(const Json& keypoints, ImageSize size, Orientation element, const std::vector<std::string>& names) {
    Json out = Json::array();
    const bool reflected = reflects(element);
    for (std::size_t i = 0; i < keypoints.size() / 3; ++i) {
        const std::size_t s = 3 * source_keypoint(i, names, reflected);
        const Json& x = keypoints[s];
        const Json& y = keypoints[s + 1];
        const Json& v = keypoints[s + 2];
        if (is_unlabelled(x, y, v)) {  // 0, 0, 0 marks a keypoint not labelled: no place to move
            out.push_back(x);
            out.push_back(y);
        } else {
            const auto [tx, ty] = turn_coordinates(*read_coordinate(x), *read_coordinate(y), size, element);
            out.push_back(write_coordinate(tx));
            out.push_back(write_coordinate(ty));
        }
        out.push_back(v);
    }
    return out;
}

}  // namespace

Json turn_annotation(const Json& annotation, ImageSize size, Orientation element, const std::vector<std::string>& keypoint_names) {
    Json out = annotation;
    if (const auto bbox = annotation.find("bbox"); bbox != annotation.end()) out["bbox"] = turn_bbox(*bbox, size, element);
    if (const auto seg = annotation.find("segmentation"); seg != annotation.end()) {
        out["segmentation"] = turn_segmentation(*seg, size, element);
    }
    if (const auto keypoints = annotation.find("keypoints"); keypoints != annotation.end()) {
        out["keypoints"] = turn_keypoints(*keypoints, size, element, keypoint_names);
    }
    return out;
}

}  // namespace gpurotate::labels
