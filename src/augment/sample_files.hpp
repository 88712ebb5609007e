#pragma once
// Where the files that travel with an image are, and where their variants go: a YOLO label file
// (labels/ beside images/), a VOC annotation (Annotations/ beside the image's folder), a mask (--masks DIR,
// mirroring the images' relative paths, any extension). Path rules only: nothing here reads a label.

#include "augment/augment_options.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::augment {

/// The label file of the image at `image_path` (as it is opened) under `format` (yolo or voc): Ultralytics'
/// rule, the last "/images/" of the path made "/labels/" and the extension ".txt"; VOC's, the image's folder's
/// sibling Annotations/ and ".xml". None where the path has no such folder (usage error, said by the caller).
std::optional<std::string> label_input_path(LabelOptions::Format format, const std::string& image_path);

/// Where a variant's label goes below OUTDIR, from its image's path below OUTDIR: the same rules, so the
/// output keeps the dataset's layout. None where `image_relative` has no images/ (YOLO) or no folder (VOC).
std::optional<std::string> label_output_relative(LabelOptions::Format format, const std::string& image_relative);

/// Where a variant's mask goes below OUTDIR: masks/ then the image variant's path (below images/ or
/// JPEGImages/ where it begins with one, so that OUTDIR keeps images/ and masks/ side by side), with the
/// mask's extension.
std::string mask_output_relative(const std::string& image_relative, const std::string& mask_extension);

/// Finds masks by an image's relative path (below its folder argument) in one folder, listing each of its
/// subfolders once.
class MaskFinder {
public:
    explicit MaskFinder(std::string masks_dir) : dir_(std::move(masks_dir)) {}
    /// The mask of the image at `relative`: the file of the same relative folder and stem with any image
    /// extension, or, for "images/train/a.jpg" (a dataset's root given), of "train/a". None where there is
    /// none; throws Error (input) where two files fit (a.png and a.bmp).
    std::optional<std::string> find(const std::string& relative);

private:
    std::optional<std::string> find_at(const std::string& relative);
    std::string dir_;
    std::map<std::string, std::vector<std::string>> listed_;  // subfolder -> its image files' names
};

/// The YOLO data.yaml of a folder argument: `folder`/data.yaml (dataset.yaml, or the one .yaml file there)
/// or, where the folder is images/ or a split below it, the one in the folder holding images/. Empty where
/// there is none.
std::string find_yolo_yaml(const std::string& folder);

}  // namespace gpurotate::augment
