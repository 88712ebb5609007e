#include "labels/coco_labels.hpp"

#include "labels/angle_map.hpp"
#include "labels/coco_annotation_check.hpp"
#include "labels/coco_annotation_rotate.hpp"
#include "labels/coco_annotation_turn.hpp"
#include "labels/coco_json_text.hpp"

#include <gpurotate/error.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace gpurotate::labels {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::int64_t largest_side = std::numeric_limits<std::int32_t>::max();  // keeps W * H and E - x exact

Json parse_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::input, "'" + path + "' cannot be read");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        return Json::parse(text);
    } catch (const Json::exception& e) {  // a syntax error, or a number past a double's range (out_of_range)
        throw Error(ErrorCode::input, "'" + path + "' is not JSON: " + e.what());
    }
}

// "annotation id N" where the annotation has an integer id, else its place in the list.
std::string annotation_name(const Json& annotation, std::size_t index) {
    if (annotation.is_object()) {
        if (const auto id = annotation.find("id"); id != annotation.end() && id->is_number_integer()) {
            return "annotation id " + id->dump();
        }
    }
    return "annotations[" + std::to_string(index) + "] (no integer id)";
}

std::string file_name_part(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

struct CocoLabels::Data {
    std::string path;
    Json document;                                             // as read; "images" entry i is images[i]
    std::vector<Image> images;
    std::unordered_map<std::int64_t, std::size_t> image_index;  // by id
    std::vector<std::vector<std::size_t>> image_annotations;    // "annotations" indices of each image, in order
    std::map<std::int64_t, std::vector<std::string>> keypoint_names;  // by category id
    std::unordered_map<std::string, std::size_t> by_file_name;  // SIZE_MAX: more than one entry has it
    std::vector<std::string> unattached;

    void read_images();
    void read_categories();
    void read_annotations();
    const std::vector<std::string>& names_of(const Json& annotation) const;
};

void CocoLabels::Data::read_images() {
    const auto list = document.find("images");
    if (list == document.end() || !list->is_array()) throw Error(ErrorCode::input, "'" + path + "' has no \"images\" list");
    for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& entry = (*list)[i];
        const std::string where = "'" + path + "' images[" + std::to_string(i) + "]";
        const auto integer = [&](const char* key) {
            const auto found = entry.find(key);
            if (found == entry.end() || !found->is_number_integer()) {
                throw Error(ErrorCode::input, where + ": \"" + key + "\" is not an integer");
            }
            return found->get<std::int64_t>();
        };
        if (!entry.is_object()) throw Error(ErrorCode::input, where + " is not an object");
        Image image;
        image.id = integer("id");
        image.size = {integer("width"), integer("height")};
        if (image.size.width < 1 || image.size.height < 1 || image.size.width > largest_side || image.size.height > largest_side) {
            throw Error(ErrorCode::input, where + ": width and height must be 1 to " + std::to_string(largest_side));
        }
        const auto file_name = entry.find("file_name");
        if (file_name == entry.end() || !file_name->is_string()) throw Error(ErrorCode::input, where + ": \"file_name\" is not a string");
        image.file_name = file_name->get<std::string>();
        if (!image_index.emplace(image.id, images.size()).second) {
            throw Error(ErrorCode::input, where + ": image id " + std::to_string(image.id) + " comes twice");
        }
        const auto [named, inserted] = by_file_name.emplace(image.file_name, images.size());
        if (!inserted) named->second = SIZE_MAX;
        images.push_back(std::move(image));
    }
    image_annotations.resize(images.size());
}

void CocoLabels::Data::read_categories() {
    const auto list = document.find("categories");
    if (list == document.end()) return;
    if (!list->is_array()) throw Error(ErrorCode::input, "'" + path + "' \"categories\" is not a list");
    for (const Json& category : *list) {
        if (!category.is_object()) continue;
        const auto id = category.find("id");
        const auto names = category.find("keypoints");
        if (id == category.end() || !id->is_number_integer() || names == category.end() || !names->is_array()) continue;
        std::vector<std::string>& out = keypoint_names[id->get<std::int64_t>()];
        for (const Json& name : *names) out.push_back(name.is_string() ? name.get<std::string>() : name.dump());
    }
}

const std::vector<std::string>& CocoLabels::Data::names_of(const Json& annotation) const {
    static const std::vector<std::string> none;
    const auto category = annotation.find("category_id");
    if (category == annotation.end() || !category->is_number_integer()) return none;
    const auto found = keypoint_names.find(category->get<std::int64_t>());
    return found == keypoint_names.end() ? none : found->second;
}

void CocoLabels::Data::read_annotations() {
    const auto list = document.find("annotations");
    if (list == document.end()) return;
    if (!list->is_array()) throw Error(ErrorCode::input, "'" + path + "' \"annotations\" is not a list");
    for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& annotation = (*list)[i];
        const std::string where = "'" + path + "' " + annotation_name(annotation, i);
        if (!annotation.is_object()) {
            unattached.push_back(where + ": not an object");
            continue;
        }
        const auto image_id = annotation.find("image_id");
        if (image_id == annotation.end() || !image_id->is_number_integer()) {
            unattached.push_back(where + ": \"image_id\" is not an integer");
            continue;
        }
        const auto image = image_index.find(image_id->get<std::int64_t>());
        if (image == image_index.end()) {
            unattached.push_back(where + ": image_id " + image_id->dump() + " is not in \"images\"");
            continue;
        }
        Image& owner = images[image->second];
        ++owner.annotations;
        image_annotations[image->second].push_back(i);
        if (!owner.error.empty()) continue;  // the first problem is the one reported
        const std::string why = annotation_problem(annotation, owner.size, names_of(annotation));
        if (!why.empty()) owner.error = where + ": " + why;
    }
}

CocoLabels::CocoLabels() : data_(std::make_unique<Data>()) {}
CocoLabels::~CocoLabels() = default;
CocoLabels::CocoLabels(CocoLabels&&) noexcept = default;
CocoLabels& CocoLabels::operator=(CocoLabels&&) noexcept = default;

CocoLabels CocoLabels::load(const std::string& path) {
    CocoLabels labels;
    Data& d = *labels.data_;
    d.path = path;
    d.document = parse_file(path);
    if (!d.document.is_object()) throw Error(ErrorCode::input, "'" + path + "' is not a JSON object with an \"images\" list");
    d.read_images();
    d.read_categories();
    d.read_annotations();
    return labels;
}

const CocoLabels::Image* CocoLabels::find(const std::string& relative) const {
    // A file that names its images without their folder ("000123.jpg") still serves a folder of folders;
    // a name that two entries share is nobody's, rather than the first one's.
    for (const std::string& name : {relative, file_name_part(relative)}) {
        const auto found = data_->by_file_name.find(name);
        if (found != data_->by_file_name.end()) return found->second == SIZE_MAX ? nullptr : &data_->images[found->second];
    }
    return nullptr;
}

const std::vector<std::string>& CocoLabels::unattached_errors() const { return data_->unattached; }

std::string CocoLabels::turned_json(const std::vector<Variant>& variants, double min_visibility) const {
    const Data& d = *data_;
    Json images = Json::array();
    Json annotations = Json::array();
    std::int64_t next_annotation_id = 1;
    for (const Variant& variant : variants) {
        const auto index = d.image_index.find(variant.source_image_id);
        if (index == d.image_index.end()) {
            throw Error(ErrorCode::internal, "'" + d.path + "' has no image id " + std::to_string(variant.source_image_id));
        }
        const Image& image = d.images[index->second];
        if (!image.error.empty()) throw Error(ErrorCode::input, image.error);
        const ImageSize turned = turned_size(image.size, variant.element);
        std::optional<AngleMap> angle;
        if (variant.degrees != 0) angle.emplace(turned, variant.degrees, variant.keep_size);
        const ImageSize written = angle ? angle->output() : turned;
        Json entry = d.document["images"][index->second];  // members replaced in place keep their order
        entry["id"] = variant.new_id;
        entry["file_name"] = variant.file_name;
        entry["width"] = written.width;
        entry["height"] = written.height;
        images.push_back(std::move(entry));
        for (const std::size_t a : d.image_annotations[index->second]) {
            const Json& source = d.document["annotations"][a];
            Json out = turn_annotation(source, image.size, variant.element, d.names_of(source));
            if (angle) {
                std::optional<Json> rotated = rotate_annotation(out, *angle, min_visibility);
                if (!rotated) continue;  // the canvas cut it off
                out = std::move(*rotated);
            }
            out["id"] = next_annotation_id++;
            out["image_id"] = variant.new_id;
            annotations.push_back(std::move(out));
        }
    }
    Json document = Json::object();
    for (auto member = d.document.begin(); member != d.document.end(); ++member) {
        if (member.key() == "images") {
            document["images"] = std::move(images);
            if (!d.document.contains("annotations")) document["annotations"] = std::move(annotations);
        } else if (member.key() == "annotations") {
            document["annotations"] = std::move(annotations);
        } else {
            document[member.key()] = member.value();
        }
    }
    return coco_json_text(document);
}

}  // namespace gpurotate::labels
