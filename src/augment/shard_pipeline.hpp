#pragma once
// The workers of `augment` over WebDataset shards: each takes the next shard and streams it, one sample at a
// time, into OUTDIR/NAME.tar (a temporary file renamed into place when the shard is done: complete or
// absent). A sample's image members get its variants' elements through the planner and conversion the
// folder mode runs (pipeline.hpp); its other members travel with each variant, a YOLO .txt turned with
// --labels yolo. A bad sample is left out of the output alone, named with its shard; a damaged shard is
// not written.

#include "augment/augment_options.hpp"
#include "augment/manifest.hpp"
#include "augment/output_plan.hpp"
#include "augment/pipeline.hpp"
#include "augment/progress.hpp"
#include "labels/yolo_labels.hpp"

#include <optional>
#include <vector>

namespace gpurotate::augment {

/// Runs every shard job (plan_shard_jobs) until a stop is requested. `options` names the variants (--name,
/// --ops, --random, --format); `yolo`: --labels yolo's rows, which turn each sample's .txt member. Throws Error
/// when the manifest cannot be written.
PipelineTotals run_shard_pipeline(const std::vector<Job>& shards, const PipelineSettings& settings, const AugmentOptions& options,
                                  const std::optional<labels::YoloSchema>& yolo, ManifestWriter& manifest, Progress& progress);

}  // namespace gpurotate::augment
