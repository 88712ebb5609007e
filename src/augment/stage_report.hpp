#pragma once
// augment -v's stage account: where the run's wall time and the workers' time went, one line a stage.

#include "augment/pipeline.hpp"

#include <ostream>

namespace gpurotate::augment {

/// The run's parts on the main thread, in seconds: before the pipeline, after it, and its last flush.
struct RunWall {
    double total = 0;      ///< from the command's start to the flush's end
    double listing = 0;    ///< listing, planning and checking the outputs, making their folders, the manifest opened
    double finishing = 0;  ///< after the workers: the COCO file
    double flush = 0;      ///< the one syncfs that makes the outputs durable
};

/// Prints the account: a head line with the run's wall time and its parts, one line per worker stage
/// ("gpurotate: stage NAME: S worker-s, P% of the workers' time, ~W s of the pipeline's wall"), the workers'
/// idle time, the listing and the flush as wall time, and what the account cannot separate.
void print_stage_account(const PipelineTotals& totals, const RunWall& wall, std::ostream& err);

}  // namespace gpurotate::augment
