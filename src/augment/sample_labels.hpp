#pragma once
// `augment --labels` and `--masks`: each image is a sample whose label file, annotations and mask get the
// image's own element, under --ops and --random alike. Planning finds every sample's files and their
// outputs; a worker checks and turns an input's labels before its image is touched (a bad label fails its
// sample alone, nothing written), and writes each variant's label beside its image; the run ends by writing
// what belongs to the whole dataset (the COCO file, data.yaml).

#include "augment/augment_options.hpp"
#include "augment/input_list.hpp"
#include "augment/output_folder.hpp"
#include "augment/output_plan.hpp"
#include "labels/coco_labels.hpp"
#include "labels/label_geometry.hpp"
#include "labels/yolo_labels.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpurotate::augment {

class SampleLabels {
public:
    /// Reads what the whole run needs (the COCO file, data.yaml's kpt_shape and flip_idx). Throws Error
    /// (input) naming the file, (usage) for a --labels that cannot apply.
    SampleLabels(const AugmentOptions& options);

    /// Gives each job its label file and mask, and each output the paths of its own below OUTDIR (and, for
    /// COCO, its image id: numbered over every planned output, so that --resume numbers them the same).
    /// Throws Error (usage) where the layout has no place for them (YOLO images outside images/, VOC images
    /// not in a folder of their own), (input) for an image with two masks.
    void attach(std::vector<Job>& jobs);

    /// One input's labels, read and checked: each output's label text (YOLO, VOC) or its COCO entry.
    struct Prepared {
        std::vector<std::string> texts;  ///< one per output (YOLO: turned already; VOC: the source's XML)
        const labels::CocoLabels::Image* coco = nullptr;
        bool background = false;         ///< no label file: empty labels written
    };
    /// Throws Error (input) naming the label file and line (or the COCO file and annotation id).
    Prepared prepare(const Job& job) const;

    /// Output `index`'s label file, for an image variant whose element gave `turned` size and which was written
    /// `written` in size (the two differ where an angle followed the element); empty for COCO (the file is
    /// written at the end), after checking the variant's size against the COCO entry. Throws Error (input).
    std::string label_text(const Prepared& prepared, const Job& job, std::size_t index, labels::ImageSize turned, labels::ImageSize written) const;

    /// What is written before the workers start: data.yaml for the new root. Throws Error (output).
    void write_dataset_files(const OutputFolder& folder, bool replace) const;

    /// The COCO file for every output the manifest records as written (`complete`: their paths below OUTDIR).
    /// Throws Error (output).
    void write_coco_file(const OutputFolder& folder, const std::set<std::string>& complete) const;

    /// The dataset files below OUTDIR this run writes (data.yaml, the COCO file), for the refusals of outputs
    /// that exist.
    std::vector<std::string> dataset_files() const;

    /// Label files in the labels' folders with no image among `inputs` (all of them, every shard's): their
    /// count and the first, for the summary.
    std::pair<std::size_t, std::string> orphan_labels(const std::vector<InputFile>& inputs) const;

    std::int64_t background_images() const { return background_.load(); }
    LabelOptions::Format format() const { return options_.format; }
    /// --labels coco: what the file holds for no image (annotations of a missing image_id), said by shard 0
    /// alone (every shard reads the same file).
    std::vector<std::string> unattached_errors() const {
        return coco_ && shard_.index == 0 ? coco_->unattached_errors() : std::vector<std::string>{};
    }
    /// --labels coco: the output's COCO file below OUTDIR.
    const std::string& coco_file() const { return coco_output_; }

private:
    LabelOptions options_;
    bool keep_size_ = false;  ///< --keep-size: the canvas of the angles --degrees draws
    Shard shard_;
    std::string out_dir_;
    labels::YoloSchema yolo_schema_;
    std::string yolo_yaml_;  ///< data.yaml's path; empty: none found
    std::optional<labels::CocoLabels> coco_;
    std::string coco_output_;  ///< the COCO file below OUTDIR
    std::vector<labels::CocoLabels::Variant> coco_variants_;  ///< every planned output's
    std::vector<std::string> coco_variant_files_;              ///< its image below OUTDIR, for write_coco_file
    mutable std::atomic<std::int64_t> background_{0};
};

}  // namespace gpurotate::augment
