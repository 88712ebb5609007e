#pragma once
// `gpurotate augment`'s command line, parsed into plain data.

#include "convert/conversion_options.hpp"

#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::augment {

/// A deterministic part of the inputs: those whose relative path hashes to `index` modulo `count`.
struct Shard {
    unsigned index = 0;
    unsigned count = 1;
};

/// `--random [N]`: N random elements per input instead of every element of --ops (docs/augment.md).
struct RandomOptions {
    unsigned draws = 0;                  ///< N; 0: not random (every element of --ops for every input)
    std::optional<std::uint64_t> seed;   ///< --seed; none: taken from the manifest on --resume, else chosen and printed
    std::vector<double> weights;         ///< one per element of --ops (--weights); empty: all 1
    double p_flip_h = 0;                 ///< --p-flip-h: then flip-h with this probability
    double p_flip_v = 0;                 ///< --p-flip-v: then flip-v with this probability
    bool with_replacement = false;       ///< --with-replacement: each draw on its own; else an input's draws are distinct
    double degrees = 0;                  ///< --degrees MAX: an angle uniform in [-MAX, MAX) after each draw's element; 0: none
    Interpolation interpolation = Interpolation::bilinear;  ///< --interpolate, for those angles
    bool keep_size = false;              ///< --keep-size, for those angles
};

/// `--labels FORMAT` and `--masks DIR`: what travels with each image (docs/augment.md, "Labelled datasets").
struct LabelOptions {
    enum class Format { none, yolo, coco, voc };
    Format format = Format::none;
    std::string file;       ///< coco=FILE: the annotation file; yolo=FILE: the data.yaml (else found beside images/)
    std::string masks_dir;  ///< --masks: a folder of masks mirroring the images' relative paths; empty: none
    /// --min-visibility F: under an angle, an instance keeping less than F of its area on the canvas is left
    /// out; 0: only one with nothing left
    double min_visibility = 0;
    bool any() const { return format != Format::none || !masks_dir.empty(); }
};

struct AugmentOptions {
    std::vector<std::string> inputs;          ///< files, folders and @list files
    std::string output_dir;                   ///< OUTDIR
    std::vector<Orientation> operations;      ///< distinct, in the order given
    bool recursive = false;
    std::string format = "same";              ///< "same" or an output extension without the dot
    convert::ConversionOptions convert;            ///< quality, JPEG edges, limits, orientation, metadata, nvJPEG
    std::size_t gpu_memory = 0;                    ///< device bytes per GPU; an image over it goes to the CPU
    std::size_t host_memory = 0;                   ///< host bytes for the images in flight; 0: half the machine's memory
                                                   ///< (--device auto) or fails (--device cuda); 0: no limit
    std::string name_template = "{stem}_{op}.{ext}";
    unsigned jobs = 0;                        ///< CPU threads; 0: all cores
    Backend device = Backend::automatic;
    std::vector<int> devices;                 ///< GPUs to use; empty: GPU 0
    Shard shard;
    RandomOptions random;
    LabelOptions labels;
    bool resume = false;
    bool overwrite = false;
    std::string manifest_path;                ///< empty: OUTDIR/manifest.jsonl
    bool dry_run = false;
    bool quiet = false;
    bool verbose = false;                     ///< -v: the summary ends with the stage account (stage_report.hpp)
};

/// Parses "--ops rot90,flip-h" or "all" (the 7 elements other than identity). Throws Error (usage).
std::vector<Orientation> parse_operation_list(const std::string& text);

/// Parses "--shard K/N" with 0 <= K < N. Throws Error (usage).
Shard parse_shard(const std::string& text);

/// Parses "--weights rot90=2,flip-h=1" (unnamed elements of `operations` weigh 1) or a bare list
/// "2,1,..." (one weight per element of `operations`, in order): one weight >= 0 per element, not all 0.
/// Throws Error (usage).
std::vector<double> parse_weights(const std::string& text, const std::vector<Orientation>& operations);

/// Parses "--seed S", a decimal from 0 to 2^64-1. Throws Error (usage).
std::uint64_t parse_seed(const std::string& text);

/// Parses a probability given to `option` ("--p-flip-h"): a number from 0 to 1 (not NaN). Throws Error (usage).
double parse_probability(const std::string& text, const std::string& option);

/// Parses "--degrees MAX": a finite number of degrees from 0 to 180. Throws Error (usage).
double parse_max_degrees(const std::string& text);

/// Parses "--labels yolo", "yolo=data.yaml", "coco=FILE" or "voc". Throws Error (usage).
LabelOptions parse_label_option(const std::string& text);

/// Parses "--devices 0,1" (or "all": every visible GPU, resolved later). Throws Error (usage).
std::vector<int> parse_device_list(const std::string& text);

/// Runs the job; returns the process exit status (0, or the documented codes for partial failure and
/// interruption). Throws Error for failures found before any work starts.
int run_augment(const AugmentOptions& options);

}  // namespace gpurotate::augment
