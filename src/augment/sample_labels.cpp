#include "augment/sample_labels.hpp"
#include "augment/sample_files.hpp"
#include "labels/voc_annotation.hpp"
#include "labels/yolo_angle.hpp"

#include "core/path_names.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>

#include <dirent.h>
#include <sys/stat.h>

namespace gpurotate::augment {
namespace {

using Format = LabelOptions::Format;

constexpr std::size_t max_label_bytes = std::size_t{64} << 20;  // a label file is text; more is not one

// A label file's text; an empty one is a sample with no objects (read_file_bytes refuses it, as an image).
std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::input, "cannot read '" + path + "': " + std::strerror(errno));
    std::string text;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_label_bytes) throw Error(ErrorCode::input, "'" + path + "' is over 64 MiB: not a label file");
    }
    if (in.bad()) throw Error(ErrorCode::input, "cannot read '" + path + "': " + std::strerror(errno));
    return text;
}

bool exists(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0;
}

// Whether an image's label file is there. Only "no such file" makes a background image: a file that cannot
// be looked at (a folder without rights, a link to nothing) is an error of its sample, not empty labels.
bool label_file_exists(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) return true;
    const int error = errno;
    if (error == ENOENT && ::lstat(path.c_str(), &info) != 0 && errno == ENOENT) return false;
    if (error == ENOENT) throw Error(ErrorCode::input, "'" + path + "' is a symbolic link to nothing (an image's label file)");
    throw Error(ErrorCode::input, "cannot look at '" + path + "': " + std::strerror(error));
}

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

// A VOC image without an annotation: one with no objects, its size and file name filled in when turned.
constexpr const char* empty_voc_annotation = "<annotation>\n\t<filename></filename>\n\t<size>\n\t\t<width>0</width>\n\t\t<height>0</height>\n\t</size>\n</annotation>\n";

std::string extension_of(const std::string& path) {
    const std::string name = detail::file_name_of(path);
    const auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? "" : name.substr(dot);
}

}  // namespace

SampleLabels::SampleLabels(const AugmentOptions& options)
    : options_(options.labels), keep_size_(options.random.keep_size), shard_(options.shard), out_dir_(options.output_dir) {
    if (options_.format == Format::yolo) {
        yolo_yaml_ = options_.file;
        for (std::size_t i = 0; yolo_yaml_.empty() && i < options.inputs.size(); ++i) {
            struct stat info {};
            if (::stat(options.inputs[i].c_str(), &info) == 0 && S_ISDIR(info.st_mode)) yolo_yaml_ = find_yolo_yaml(options.inputs[i]);
        }
        if (!yolo_yaml_.empty()) {
            yolo_schema_ = labels::read_yolo_schema(yolo_yaml_);
        } else if (!options.quiet) {
            // Without kpt_shape a pose row would be read as a segment: said, as the remedy is one word.
            std::cerr << "gpurotate: note: --labels yolo: no data.yaml found in the folders given or the folder holding their images/; rows "
                         "are read as detect, oriented-box and segment rows (pose datasets: --labels yolo=DATA.yaml)\n";
        }
    }
    if (options_.format == Format::coco) {
        coco_.emplace(labels::CocoLabels::load(options_.file));
        const std::string name = detail::file_name_of(options_.file);
        coco_output_ = shard_.count > 1 ? detail::stem_of(name) + ".shard-" + std::to_string(shard_.index) + "-of-" + std::to_string(shard_.count) +
                                              extension_of(name)
                                        : name;
    }
}

void SampleLabels::attach(std::vector<Job>& jobs) {
    std::optional<MaskFinder> masks;
    if (!options_.masks_dir.empty()) masks.emplace(options_.masks_dir);
    const std::string layout = options_.format == Format::yolo ? "an images/ folder (Ultralytics keeps labels/ beside images/)"
                                                               : "a folder of its own (VOC keeps Annotations/ beside JPEGImages/)";
    std::int64_t next_image_id = 1;
    // Two variants given one label or mask file (a.jpg and a.png beside each other, a --name that puts
    // variants in folders of their own, a VOC tree's segmentation PNGs read as images) would leave one of
    // them with the other's labels: refused before any work, as two images given one name are.
    std::map<std::string, std::string> owner;  // image variants, labels and masks below OUTDIR -> who writes it
    for (const Job& job : jobs) {
        for (const PlannedOutput& out : job.outputs) owner.emplace(out.relative, job.input.path);
    }
    const auto claim = [&](const std::string& relative, const Job& job) {
        const auto [it, inserted] = owner.emplace(relative, job.input.path);
        if (!inserted) {
            throw Error(ErrorCode::usage, "'" + it->second + "' and '" + job.input.path + "' would both write '" + out_dir_ + "/" + relative +
                                              "' (an image, a label or a mask): give each image a name of its own, or give only the images' "
                                              "folder (JPEGImages/, images/) and its labels' layout");
        }
    };
    for (Job& job : jobs) {
        if (options_.format == Format::yolo || options_.format == Format::voc) {
            const auto path = label_input_path(options_.format, job.input.path);
            if (!path) throw Error(ErrorCode::usage, "--labels: '" + job.input.path + "' is not in " + layout);
            job.label_path = *path;
        }
        if (masks) {
            const auto mask = masks->find(job.input.relative);
            // A missing mask fails its sample alone, when its turn comes (prepare).
            job.mask_path = mask ? *mask : options_.masks_dir + "/" + job.input.relative;
        }
        for (PlannedOutput& out : job.outputs) {
            if (options_.format == Format::yolo || options_.format == Format::voc) {
                const auto relative = label_output_relative(options_.format, out.relative);
                if (!relative) {
                    throw Error(ErrorCode::usage, "--labels: the output '" + out.path + "' would not be in " + layout +
                                                      ": give the folder above it as the input, or a --name with a folder ('JPEGImages/{stem}_{op}.{ext}'), so that OUTDIR keeps the dataset's layout");
                }
                out.label_relative = *relative;
                claim(out.label_relative, job);
            }
            if (masks) {
                out.mask_relative = mask_output_relative(out.relative, extension_of(job.mask_path));
                claim(out.mask_relative, job);
            }
            if (coco_) {
                out.image_id = next_image_id++;
                const labels::CocoLabels::Image* image = coco_->find(job.input.relative);
                if (image) {
                    coco_variants_.push_back({image->id, out.operation, out.relative, out.image_id, out.angle, keep_size_});
                    coco_variant_files_.push_back(out.relative);
                }
            }
        }
    }
}

SampleLabels::Prepared SampleLabels::prepare(const Job& job) const {
    Prepared prepared;
    if (!job.mask_path.empty() && !exists(job.mask_path)) {
        throw Error(ErrorCode::input, "'" + job.input.path + "': no mask in '" + options_.masks_dir + "' (looked for '" + job.mask_path + "' with any image extension)");
    }
    if (options_.format == Format::none) return prepared;
    if (options_.format == Format::coco) {
        prepared.coco = coco_->find(job.input.relative);
        if (!prepared.coco) throw Error(ErrorCode::input, "'" + job.input.path + "' has no entry in the \"images\" of '" + options_.file + "'");
        if (!prepared.coco->error.empty()) throw Error(ErrorCode::input, prepared.coco->error);
        return prepared;
    }
    std::string text;
    if (label_file_exists(job.label_path)) {
        text = read_text(job.label_path);
    } else {
        prepared.background = true;
        ++background_;
        if (options_.format == Format::voc) text = empty_voc_annotation;
    }
    for (const PlannedOutput& out : job.outputs) {
        if (options_.format == Format::yolo) {
            prepared.texts.push_back(labels::turn_yolo_labels(text, out.operation, yolo_schema_, job.label_path));
        } else {
            prepared.texts.push_back(text);
        }
    }
    if (options_.format == Format::voc && !prepared.background) {
        // Parsed once now, so that a damaged file fails its sample before its image is touched; the size is
        // checked against the pixels when each variant is written.
        labels::check_voc_annotation(text, job.label_path);
    }
    return prepared;
}

std::string SampleLabels::label_text(const Prepared& prepared, const Job& job, std::size_t index, labels::ImageSize turned,
                                     labels::ImageSize written) const {
    if (options_.format == Format::none) return "";  // --masks alone
    const PlannedOutput& out = job.outputs[index];
    // The source's size, from its variant's: the axes swapped back.
    const labels::ImageSize source = labels::turned_size(turned, out.operation);
    std::optional<labels::AngleMap> angle;
    if (out.angle != 0) {
        angle.emplace(turned, out.angle, keep_size_);
        if (angle->output().width != written.width || angle->output().height != written.height) {
            throw Error(ErrorCode::internal, "'" + out.path + "' was written " + std::to_string(written.width) + "x" + std::to_string(written.height) +
                                                 ", and its labels' rotation gives " + std::to_string(angle->output().width) + "x" +
                                                 std::to_string(angle->output().height));
        }
    }
    if (options_.format == Format::coco) {
        const labels::ImageSize declared = prepared.coco->size;
        if (declared.width != source.width || declared.height != source.height) {
            throw Error(ErrorCode::input, "'" + options_.file + "' gives '" + job.input.relative + "' as " + std::to_string(declared.width) + "x" +
                                              std::to_string(declared.height) + ", and the image is " + std::to_string(source.width) + "x" +
                                              std::to_string(source.height));
        }
        return "";
    }
    if (options_.format == Format::voc) {
        return labels::turn_voc_annotation(prepared.texts[index], out.operation, source, detail::file_name_of(out.relative), normal_absolute(out.path),
                                           job.label_path, angle ? &*angle : nullptr, options_.min_visibility);
    }
    if (angle) return labels::rotate_yolo_labels(prepared.texts[index], *angle, yolo_schema_, options_.min_visibility, job.label_path);
    return prepared.texts[index];
}

void SampleLabels::write_dataset_files(const OutputFolder& folder, bool replace) const {
    if (yolo_yaml_.empty()) return;
    // Every shard writes the same data.yaml: each replaces it (atomically), none refuses the others'.
    folder.write_file(detail::file_name_of(yolo_yaml_), bytes_of(labels::yolo_yaml_for_root(read_text(yolo_yaml_), normal_absolute(out_dir_))),
                      replace || shard_.count > 1, false);
}

void SampleLabels::write_coco_file(const OutputFolder& folder, const std::set<std::string>& complete) const {
    if (!coco_) return;
    std::vector<labels::CocoLabels::Variant> written;
    for (std::size_t i = 0; i < coco_variants_.size(); ++i) {
        if (complete.count(coco_variant_files_[i])) written.push_back(coco_variants_[i]);
    }
    folder.write_file(coco_output_, bytes_of(coco_->turned_json(written, options_.min_visibility)), true, false);
}

std::vector<std::string> SampleLabels::dataset_files() const {
    std::vector<std::string> files;
    if (!yolo_yaml_.empty() && shard_.count == 1) files.push_back(detail::file_name_of(yolo_yaml_));
    if (coco_) files.push_back(coco_output_);
    return files;
}

std::pair<std::size_t, std::string> SampleLabels::orphan_labels(const std::vector<InputFile>& inputs) const {
    if (options_.format != Format::yolo && options_.format != Format::voc) return {0, ""};
    std::set<std::string> referenced, folders;
    for (const InputFile& input : inputs) {
        if (const auto path = label_input_path(options_.format, input.path)) {
            referenced.insert(*path);
            folders.insert(path->substr(0, path->find_last_of('/')));
        }
    }
    const std::string wanted = options_.format == Format::yolo ? ".txt" : ".xml";
    std::size_t count = 0;
    std::string first;
    for (const std::string& folder : folders) {
        DIR* dir = ::opendir(folder.c_str());
        if (!dir) continue;
        std::vector<std::string> names;
        while (const dirent* entry = ::readdir(dir)) names.push_back(entry->d_name);
        ::closedir(dir);
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) {
            if (name[0] == '.' || extension_of(name) != wanted || referenced.count(folder + "/" + name)) continue;
            if (count++ == 0) first = folder + "/" + name;
        }
    }
    return {count, first};
}

}  // namespace gpurotate::augment
