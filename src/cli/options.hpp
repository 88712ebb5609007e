#pragma once
// The command line of `gpurotate INPUT [OPERATION ...] -o OUTPUT`, parsed into plain data.

#include "augment/augment_options.hpp"
#include "jpeg/jpeg_lossless.hpp"

#include <gpurotate/io.hpp>
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
    std::string input;
    std::string output;
    std::vector<Orientation> operations;  ///< in the order given on the command line
    Backend device = Backend::automatic;
    CudaKernel kernel = CudaKernel::automatic;
    int quality = 95;
    bool quality_given = false;  ///< --quality on the command line: a JPEG is re-encoded at it, not transformed losslessly
    detail::JpegEdge jpeg_edge = detail::JpegEdge::reencode;  ///< a JPEG whose lossless transform is not perfect
    int png_level = WriteOptions{}.png_level;
    std::int64_t max_pixels = default_max_pixels;  ///< 0: no limit
    int max_jpeg_scans = default_max_jpeg_scans;   ///< a JPEG with more is refused; 0: no limit
    std::size_t gpu_memory = 0;                    ///< device bytes for one image; 0: 90% of the free memory
    bool overwrite = false;
    bool auto_orient = false;  ///< apply the EXIF orientation first, write the tag as 1
    bool nvjpeg = false;       ///< JPEG to JPEG decoded and encoded on the GPU
    detail::NvjpegDecode nvjpeg_decode = detail::NvjpegDecode::cpu;  ///< with nvjpeg: who decodes
    bool strip = false;        ///< write no EXIF or ICC profile
    bool verbose = false;
    bool quiet = false;        ///< no notes on stderr (warnings and errors still)
    bool show_version = false;
    std::optional<augment::AugmentOptions> augment;  ///< set for `gpurotate augment ...`
};

/// Parses argv. Returns nothing when the parser already handled the request (--help) and the program
/// should exit with `exit_status`; throws Error (usage) for a bad command line.
std::optional<Options> parse_options(int argc, char** argv, int& exit_status);

}  // namespace gpurotate::cli
