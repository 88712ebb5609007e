#pragma once
// The command line of `gpurotate INPUT [OPERATION ...] -o OUTPUT`, parsed into plain data.

#include "augment/augment_options.hpp"
#include "convert/conversion_options.hpp"
#include "formats/file_bytes.hpp"

#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::cli {

/// What the user asked for.
struct Options {
    std::vector<std::string> inputs;      ///< as given; "-" is standard input
    std::string output;                   ///< a file, a folder (DIR/ or an existing one), or "-" (standard output)
    bool in_place = false;                ///< -i: each input replaced by its result
    unsigned jobs = 0;                    ///< -j: files converted at once (0: the cores this process may run on)
    unsigned cpu_threads = 0;             ///< one file's CPU transform threads (0: every core; file_jobs.hpp: 1 beside other files)
    bool follow_symlinks = false;         ///< -i: a symbolic link's target is replaced, not the link (sed -i's flag)
    std::size_t max_input_bytes = detail::default_max_input_bytes;  ///< --max-input-bytes: a larger stream or file is refused
    std::string format;                   ///< --format: the outputs' format, whatever their names
    std::string input;                    ///< the one file a run_single_image call converts (file_jobs.hpp sets it)
    std::string output_format;            ///< its output's format where the name does not give it (file_jobs.hpp)
    bool flush_each_file = true;          ///< fsync its output before the rename (file_jobs.hpp: off for many files into a folder)
    std::vector<Orientation> operations;  ///< in the order given on the command line
    Backend device = Backend::automatic;
    CudaKernel kernel = CudaKernel::automatic;
    convert::ConversionOptions convert;  ///< quality, JPEG edges, limits, orientation, metadata, nvJPEG
    std::size_t gpu_memory = 0;          ///< device bytes for one image; 0: 90% of the free memory
    bool overwrite = false;
    bool verbose = false;
    bool quiet = false;        ///< no notes on stderr (warnings and errors still)
    bool show_version = false;
    bool rotation_options_unused = false;  ///< --interpolate or --keep-size without an angle to interpolate (a warning)
    std::optional<augment::AugmentOptions> augment;  ///< set for `gpurotate augment ...`
};

/// Parses argv. Returns nothing when the parser already handled the request (--help) and the program
/// should exit with `exit_status`; throws Error (usage) for a bad command line.
std::optional<Options> parse_options(int argc, char** argv, int& exit_status);

}  // namespace gpurotate::cli
