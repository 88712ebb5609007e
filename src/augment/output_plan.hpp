#pragma once
// Where each input's variants go: the name template, the output format, the mirrored folders, the shard,
// and the refusals that must come before any work (collisions, outputs that would replace inputs).

#include "augment/augment_options.hpp"
#include "augment/input_list.hpp"
#include "augment/manifest.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::augment {

/// Where a random output came from: the run's seed, the draw's index (0 to N-1 for `--random N`) and the
/// run's other draw parameters (one copy for all its outputs).
struct RandomDraw {
    std::uint64_t seed = 0;
    unsigned index = 0;
    std::shared_ptr<const DrawParameters> parameters = nullptr;
};

struct PlannedOutput {
    Orientation operation;
    std::string path;
    std::string relative;  ///< below OUTDIR, whatever OUTDIR's spelling: what --resume matches the manifest on
    std::optional<RandomDraw> draw = std::nullopt;  ///< with --random
    std::string label_relative = "";  ///< --labels yolo or voc: its label file below OUTDIR
    std::string mask_relative = "";   ///< --masks: its mask below OUTDIR
    std::int64_t image_id = 0;        ///< --labels coco: its image's id in the output file
    double angle = 0;                 ///< --degrees: the angle drawn after `operation`, clockwise (0: none)
};

/// One input and the outputs still to write for it.
struct Job {
    InputFile input;
    std::vector<PlannedOutput> outputs;
    std::string label_path = "";  ///< --labels yolo or voc: the input's label file (which may not exist: a background image)
    std::string mask_path = "";   ///< --masks: the input's mask
};

/// The stable hash that assigns an input to a shard: FNV-1a (64-bit) of its relative path.
std::uint64_t shard_hash(const std::string& relative);

/// Throws Error (usage) unless `name_template` uses only {stem}, {op}, {ext}, {dir}, {parent}, {index} and
/// (with --random) {draw}, names a file (not empty, no absolute path, no "." or ".." component) and can
/// give each input's outputs names of their own: with more than one operation and no --random it contains
/// {op}; with `random_draws` over 1 it contains {draw}.
void check_name_template(const std::string& name_template, std::size_t operation_count, unsigned random_draws = 0);

/// The draw parameters of a --random run (`options.random.draws` > 0), as its manifest records them.
DrawParameters draw_parameters(const AugmentOptions& options);

/// The jobs for this shard, every output path under `output_dir`: every element of --ops for each input,
/// or with --random (options.random.draws > 0, options.random.seed set) the elements drawn for it. Throws
/// Error (usage) when two outputs would get one name, when --random N asks for more distinct elements than its
/// model can draw (without --with-replacement), (output) when the output format cannot be written.
std::vector<Job> plan_jobs(const std::vector<InputFile>& inputs, const AugmentOptions& options);

}  // namespace gpurotate::augment
