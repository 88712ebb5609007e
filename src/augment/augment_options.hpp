#pragma once
// `gpurotate augment`'s command line, parsed into plain data.

#include "jpeg/jpeg_lossless.hpp"
#include "jpeg/nvjpeg_codec.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/transform.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::augment {

/// A deterministic part of the inputs: those whose relative path hashes to `index` modulo `count`.
struct Shard {
    unsigned index = 0;
    unsigned count = 1;
};

struct AugmentOptions {
    std::vector<std::string> inputs;          ///< files, folders and @list files
    std::string output_dir;                   ///< OUTDIR
    std::vector<Orientation> operations;      ///< distinct, in the order given
    bool recursive = false;
    std::string format = "same";              ///< "same" or an output extension without the dot
    int quality = 95;
    bool quality_given = false;               ///< --quality: JPEGs from JPEGs are re-encoded at it
    detail::JpegEdge jpeg_edge = detail::JpegEdge::reencode;  ///< JPEG variants the lossless transform cannot make
    int png_level = 1;
    std::int64_t max_pixels = default_max_pixels;  ///< inputs declaring more are refused unread; 0: no limit
    int max_jpeg_scans = default_max_jpeg_scans;   ///< JPEG inputs with more scans are refused unread; 0: no limit
    bool auto_orient = false;                      ///< each input made upright by its EXIF orientation first
    bool strip = false;                            ///< outputs without EXIF or ICC profile
    bool nvjpeg = false;                           ///< JPEG to JPEG with nvJPEG encoding on the GPU
    detail::NvjpegDecode nvjpeg_decode = detail::NvjpegDecode::cpu;  ///< with nvjpeg: who decodes
    std::size_t gpu_memory = 0;                    ///< device bytes per GPU; an image over it goes to the CPU
    std::size_t host_memory = 0;                   ///< host bytes for the images in flight; 0: half the machine's memory
                                                   ///< (--device auto) or fails (--device cuda); 0: no limit
    std::string name_template = "{stem}_{op}.{ext}";
    unsigned jobs = 0;                        ///< CPU threads; 0: all cores
    Backend device = Backend::automatic;
    std::vector<int> devices;                 ///< GPUs to use; empty: GPU 0
    Shard shard;
    bool resume = false;
    bool overwrite = false;
    std::string manifest_path;                ///< empty: OUTDIR/manifest.jsonl
    bool dry_run = false;
    bool quiet = false;
};

/// Parses "--ops rot90,flip-h" or "all" (the 7 elements other than identity). Throws Error (usage).
std::vector<Orientation> parse_operation_list(const std::string& text);

/// Parses "--shard K/N" with 0 <= K < N. Throws Error (usage).
Shard parse_shard(const std::string& text);

/// Parses "--devices 0,1" (or "all": every visible GPU, resolved later). Throws Error (usage).
std::vector<int> parse_device_list(const std::string& text);

/// Runs the job; returns the process exit status (0, or the documented codes for partial failure and
/// interruption). Throws Error for failures found before any work starts.
int run_augment(const AugmentOptions& options);

}  // namespace gpurotate::augment
