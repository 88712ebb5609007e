#include "labels/coco_annotation_check.hpp"

#include "labels/coco_values.hpp"

#include <cstdint>

namespace gpurotate::labels {
namespace {

bool all_coordinates(const nlohmann::ordered_json& list) {
    for (const auto& value : list) {
        if (!read_coordinate(value)) return false;
    }
    return true;
}

std::string bbox_problem(const nlohmann::ordered_json& bbox) {
    if (!bbox.is_array() || bbox.size() != 4 || !all_coordinates(bbox)) return "bbox is not 4 numbers [x, y, w, h]";
    if (read_coordinate(bbox[2])->value < Decimal::integer(0) || read_coordinate(bbox[3])->value < Decimal::integer(0)) {
        return "bbox has a negative width or height";
    }
    return {};
}

std::string rle_problem(const nlohmann::ordered_json& rle, ImageSize size) {
    const std::string image_size = "[" + std::to_string(size.height) + ", " + std::to_string(size.width) + "]";
    const auto found = rle.find("size");
    if (found == rle.end() || !found->is_array() || found->size() != 2 || !(*found)[0].is_number_integer() ||
        !(*found)[1].is_number_integer() || (*found)[0].get<std::int64_t>() != size.height ||
        (*found)[1].get<std::int64_t>() != size.width) {
        return "segmentation RLE \"size\" " + (found == rle.end() ? std::string("is missing") : found->dump()) +
               " is not the image's [height, width] " + image_size;
    }
    const auto counts = rle.find("counts");
    if (counts == rle.end()) return "segmentation RLE has no \"counts\"";
    const std::optional<RunCounts> runs = read_run_counts(*counts);
    if (!runs) return "segmentation RLE \"counts\" is neither a pycocotools string nor a list of non-negative integers";
    const auto pixels = static_cast<std::uint64_t>(size.width * size.height);
    if (run_total(*runs) != pixels) {
        return "segmentation RLE counts total " + std::to_string(run_total(*runs)) + ", not the image's " +
               std::to_string(pixels) + " pixels";
    }
    return {};
}

std::string segmentation_problem(const nlohmann::ordered_json& segmentation, ImageSize size) {
    if (segmentation.is_object()) return rle_problem(segmentation, size);
    if (!segmentation.is_array()) return "segmentation is neither a list of polygons nor an RLE object";
    for (const auto& polygon : segmentation) {
        if (!polygon.is_array() || polygon.size() < 6 || polygon.size() % 2 != 0 || !all_coordinates(polygon)) {
            return "segmentation polygon is not an even count of at least 6 numbers (x, y of 3 or more points)";
        }
    }
    return {};
}

std::string keypoints_problem(const nlohmann::ordered_json& keypoints, const std::vector<std::string>& names) {
    if (!keypoints.is_array() || keypoints.size() % 3 != 0 || !all_coordinates(keypoints)) {
        return "keypoints is not a list of numbers x, y, v";
    }
    if (!names.empty() && keypoints.size() != 3 * names.size()) {
        return "keypoints has " + std::to_string(keypoints.size() / 3) + " points, its category names " +
               std::to_string(names.size());
    }
    return {};
}

}  // namespace

std::string annotation_problem(const nlohmann::ordered_json& annotation, ImageSize size,
                               const std::vector<std::string>& keypoint_names) {
    if (const auto bbox = annotation.find("bbox"); bbox != annotation.end()) {
        if (std::string why = bbox_problem(*bbox); !why.empty()) return why;
    }
    if (const auto segmentation = annotation.find("segmentation"); segmentation != annotation.end()) {
        if (std::string why = segmentation_problem(*segmentation, size); !why.empty()) return why;
    }
    if (const auto keypoints = annotation.find("keypoints"); keypoints != annotation.end()) {
        if (std::string why = keypoints_problem(*keypoints, keypoint_names); !why.empty()) return why;
    }
    return {};
}

}  // namespace gpurotate::labels
