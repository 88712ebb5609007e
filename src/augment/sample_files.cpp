#include "augment/sample_files.hpp"
#include "augment/input_list.hpp"

#include "core/path_names.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>

#include <dirent.h>
#include <sys/stat.h>

namespace gpurotate::augment {
namespace {

std::string without_extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == (slash == std::string::npos ? 0 : slash + 1)) return path;
    return path.substr(0, dot);
}

// `path` with its last "/images/" made "/labels/" (a relative path is read as if it began with "/").
std::optional<std::string> images_to_labels(const std::string& path) {
    const std::string padded = path[0] == '/' ? path : "/" + path;
    const auto at = padded.rfind("/images/");
    if (at == std::string::npos) return std::nullopt;
    std::string out = padded.substr(0, at) + "/labels/" + padded.substr(at + 8);
    if (path[0] != '/') out.erase(0, 1);
    return without_extension(out) + ".txt";
}

// `path` with its folder made Annotations/ beside it: "a/JPEGImages/x.jpg" -> "a/Annotations/x.xml".
std::optional<std::string> beside_annotations(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return std::nullopt;
    const std::string folder = path.substr(0, slash);
    const auto above = folder.find_last_of('/');
    const std::string parent = above == std::string::npos ? "" : folder.substr(0, above + 1);
    if (folder.empty() || folder == "." || folder == "..") return std::nullopt;
    return parent + "Annotations/" + detail::stem_of(detail::file_name_of(path)) + ".xml";
}

bool is_file(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

}  // namespace

std::optional<std::string> label_input_path(LabelOptions::Format format, const std::string& image_path) {
    if (format == LabelOptions::Format::yolo) return images_to_labels(normal_absolute(image_path));
    if (format == LabelOptions::Format::voc) return beside_annotations(normal_absolute(image_path));
    return std::nullopt;
}

std::optional<std::string> label_output_relative(LabelOptions::Format format, const std::string& image_relative) {
    if (format == LabelOptions::Format::yolo) return images_to_labels(image_relative);
    if (format == LabelOptions::Format::voc) return beside_annotations(image_relative);
    return std::nullopt;
}

// A path below a dataset's root that begins with its images' folder: the part after it (else "").
std::string below_images_folder(const std::string& relative) {
    for (const char* folder : {"images/", "JPEGImages/"}) {
        if (relative.rfind(folder, 0) == 0) return relative.substr(std::char_traits<char>::length(folder));
    }
    return "";
}

std::string mask_output_relative(const std::string& image_relative, const std::string& mask_extension) {
    const std::string below = below_images_folder(image_relative);
    return "masks/" + without_extension(below.empty() ? image_relative : below) + mask_extension;
}

std::optional<std::string> MaskFinder::find(const std::string& relative) {
    if (auto found = find_at(relative)) return found;
    const std::string below = below_images_folder(relative);
    if (!below.empty()) return find_at(below);
    return std::nullopt;
}

std::optional<std::string> MaskFinder::find_at(const std::string& relative) {
    const auto slash = relative.find_last_of('/');
    const std::string sub = slash == std::string::npos ? "" : relative.substr(0, slash);
    auto listed = listed_.find(sub);
    if (listed == listed_.end()) {
        std::vector<std::string> names;
        if (DIR* dir = ::opendir((dir_ + (sub.empty() ? "" : "/" + sub)).c_str())) {
            while (const dirent* entry = ::readdir(dir)) {
                const std::string name = entry->d_name;
                if (name[0] != '.' && has_image_extension(name)) names.push_back(name);
            }
            ::closedir(dir);
        }
        std::sort(names.begin(), names.end());
        listed = listed_.emplace(sub, std::move(names)).first;
    }
    const std::string stem = detail::stem_of(detail::file_name_of(relative));
    std::vector<std::string> found;
    for (const std::string& name : listed->second) {
        if (detail::stem_of(name) == stem) found.push_back(dir_ + "/" + (sub.empty() ? "" : sub + "/") + name);
    }
    if (found.size() > 1) {
        throw Error(ErrorCode::input, "'" + found[0] + "' and '" + found[1] + "' are both masks of '" + relative + "' (keep one)");
    }
    if (found.empty()) return std::nullopt;
    return found[0];
}

std::string find_yolo_yaml(const std::string& folder) {
    const std::string dir = normal_absolute(folder);
    std::vector<std::string> candidates{dir};
    // A folder at or below images/ ("data/images/train"): the dataset's root is the folder holding images/.
    const std::string padded = dir + "/";
    if (const auto at = padded.rfind("/images/"); at != std::string::npos && at > 0) candidates.push_back(dir.substr(0, at));
    for (const std::string& root : candidates) {
        for (const char* name : {"data.yaml", "dataset.yaml"}) {
            if (is_file(root + "/" + name)) return root + "/" + name;
        }
        // Ultralytics' own datasets name theirs after the dataset (coco8-pose.yaml): the one YAML file there.
        std::vector<std::string> yamls;
        if (DIR* listing = ::opendir(root.c_str())) {
            while (const dirent* entry = ::readdir(listing)) {
                const std::string name = entry->d_name;
                if (name[0] != '.' && name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0 && is_file(root + "/" + name)) yamls.push_back(name);
            }
            ::closedir(listing);
        }
        if (yamls.size() == 1) return root + "/" + yamls[0];
    }
    return "";
}

}  // namespace gpurotate::augment
