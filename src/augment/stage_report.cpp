#include "augment/stage_report.hpp"

#include <algorithm>
#include <cstdio>

namespace gpurotate::augment {

void print_stage_account(const PipelineTotals& t, const RunWall& wall, std::ostream& err) {
    // The workers' average count over the pipelines (the shards' pipeline may have fewer): a stage's worker-seconds
    // over it is the pipeline wall time it stands for.
    const double workers = t.pipeline_seconds > 0 ? t.worker_seconds_available / t.pipeline_seconds : 1;
    const double available = t.worker_seconds_available;
    char line[512];
    std::snprintf(line, sizeof line,
                  "gpurotate: stage account: %.3f s wall = listing %.3f s + pipeline %.3f s + finishing %.3f s + final flush %.3f s; "
                  "%.3f worker-s in the stages of %.3f the workers had (%.3g workers x %.3f s)\n",
                  wall.total, wall.listing, t.pipeline_seconds, wall.finishing, wall.flush, t.stage_seconds.total(), available, workers,
                  t.pipeline_seconds);
    err << line;
    const auto run_share = [&](double s) { return wall.total > 0 ? 100.0 * s / wall.total : 0.0; };
    const auto wall_line = [&](const char* name, double s) {
        std::snprintf(line, sizeof line, "gpurotate: stage %s: %.6f s wall, %.1f%% of the run\n", name, s, run_share(s));
        err << line;
    };
    const auto worker_line = [&](const std::string& name, double s) {
        std::snprintf(line, sizeof line, "gpurotate: stage %s: %.6f worker-s, %.1f%% of the workers' time, ~%.6f s of the pipeline's wall\n",
                      name.c_str(), s, available > 0 ? 100.0 * s / available : 0.0, workers > 0 ? s / workers : 0.0);
        err << line;
    };
    wall_line("listing", wall.listing);
    for (std::size_t i = 0; i < detail::work_stage_count; ++i) {
        const auto stage = static_cast<detail::WorkStage>(i);
        worker_line(std::string(detail::stage_name(stage)), t.stage_seconds[stage]);
    }
    // Clock reads a few nanoseconds apart can make the stages' sum a hair over what the workers had.
    worker_line("idle", std::max(0.0, available - t.stage_seconds.total()));
    wall_line("final flush", wall.flush);
    err << "gpurotate: stage account: not separable today: nvJPEG's decode, kernels and encodes (one call); on the GPU, a session's upload, "
           "kernels and downloads (kernels) and the scan coder's upload, coding and download (scan coding (GPU)), each with its wait "
           "for a free one; libjpeg's headers beside its scan coding; the read with its metadata parse; planning, labels and masks (other)\n";
}

}  // namespace gpurotate::augment
