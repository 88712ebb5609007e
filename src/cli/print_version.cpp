#include "cli/run.hpp"

#include "cli/driver_gpus.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include "formats/format_registry.hpp"
#include "jpeg/nvjpeg_codec.hpp"

#include <iomanip>
#include <ostream>

namespace gpurotate::cli {

void print_version(std::ostream& out, bool query_cuda) {
    out << "gpurotate " << version() << "\n";
    out << "backends: cpu";
    if (cuda_compiled_in()) out << ", cuda (runtime " << cuda_runtime_version() << ")";
    out << "\n";
    if (!cuda_compiled_in()) {
        out << "gpu: not supported by this build (built without CUDA)\n";
    } else if (!query_cuda) {
        // The driver's own list: starting CUDA to ask it would take longer than everything else here.
        const DriverGpus driver = driver_gpus();
        if (driver.models.empty()) out << "gpu: none listed by an NVIDIA driver (/proc/driver/nvidia); the CPU backend will be used\n";
        for (std::size_t i = 0; i < driver.models.size(); ++i) out << "gpu " << i << ": " << driver.models[i] << "\n";
        if (!driver.models.empty()) out << "driver: " << driver.driver_version << " (--version -v asks CUDA for memory and compute capability)\n";
    } else {
        std::string problem;
        const auto gpus = cuda_devices(&problem);
        if (gpus.empty()) out << "gpu: none (" << problem << "); the CPU backend will be used\n";
        for (const auto& g : gpus) {
            out << "gpu " << g.index << ": " << g.name << ", " << std::fixed << std::setprecision(1)
                << static_cast<double>(g.total_memory_bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB, compute capability "
                << g.compute_major << "." << g.compute_minor << "\n";
        }
    }
    out << "output formats:\n";
    for (const auto& f : output_formats()) {
        std::string extensions;
        for (const auto& e : f.extensions) extensions += (extensions.empty() ? "" : " ") + e;
        out << "  " << std::left << std::setw(13) << f.name << std::setw(12) << extensions << f.holds << " [" << f.codec << "]\n";
    }
    if (detail::nvjpeg_available()) out << "JPEG to JPEG on the GPU: nvJPEG (--nvjpeg)\n";
    out << "input formats: " << detail::input_formats_line() << "\n";
}

}  // namespace gpurotate::cli
