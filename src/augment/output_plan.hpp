#pragma once
// Where each input's variants go: the name template, the output format, the mirrored folders, the shard,
// and the refusals that must come before any work (collisions, outputs that would replace inputs).

#include "augment/augment_options.hpp"
#include "augment/input_list.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::augment {

struct PlannedOutput {
    Orientation operation;
    std::string path;
    std::string relative;  ///< below OUTDIR, whatever OUTDIR's spelling: what --resume matches the manifest on
};

/// One input and the outputs still to write for it.
struct Job {
    InputFile input;
    std::vector<PlannedOutput> outputs;
};

/// The stable hash that assigns an input to a shard: FNV-1a (64-bit) of its relative path.
std::uint64_t shard_hash(const std::string& relative);

/// Throws Error (usage) unless `name_template` uses only {stem}, {op}, {ext}, names a file (not empty,
/// no absolute path, no ".." component) and, with more than one operation, contains {op}.
void check_name_template(const std::string& name_template, std::size_t operation_count);

/// The jobs for this shard, every output path under `output_dir`. Throws Error (usage) when two outputs
/// would get one name, (output) when the output format cannot be written.
std::vector<Job> plan_jobs(const std::vector<InputFile>& inputs, const AugmentOptions& options);

}  // namespace gpurotate::augment
