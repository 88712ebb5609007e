#include "augment/run_notices.hpp"

namespace gpurotate::augment {

using convert::Notice;

void OncePerRun::notice(const std::string& path, Notice kind, const std::string& text) {
    if (kind == Notice::reencoded) ++reencoded_;
    // What the single-image command says per file or for -v only: an edge kept or trimmed is in the manifest's
    // sizes, and -i is not augment's.
    if (kind == Notice::edge_kept || kind == Notice::edge_trimmed || kind == Notice::left_as_is) return;
    if (kind != Notice::gpu_failed_image) {  // that one is said for every image the CPU redoes
        std::lock_guard<std::mutex> lock(mutex_);
        if (!said_.insert(kind).second) return;
    }
    if (convert::is_about_gpu(kind)) {
        progress_.message("gpurotate: warning: " + text);
        return;
    }
    const std::string who = std::string("gpurotate: ") + (convert::is_warning(kind) ? "warning" : "note") + ": '" + path + "' (and perhaps others)";
    if (convert::is_plan_warning(kind)) {
        progress_.message(who + " " + text);
    } else if (kind == Notice::png_output) {
        progress_.message(who + ": PNG " + text);
    } else if (kind == Notice::reencoded) {
        progress_.message(who + ": JPEG variants re-encoded, not transformed losslessly: " + text);
    } else {
        progress_.message(who + ": " + text);
    }
}

}  // namespace gpurotate::augment
