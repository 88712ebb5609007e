#pragma once
// `gpurotate bench`: the seed papers' kernel study on this GPU, with the production kernels, the
// ceilings (device copy) and the peers (NPP, cuBLAS) measured in the same run.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/rotate.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace gpurotate::bench {

struct BenchOptions {
    std::int64_t width = 8192;
    std::int64_t height = 8192;
    std::vector<PixelFormat> types;        ///< empty: all
    std::vector<Orientation> operations;   ///< empty: the 7 non-identity elements (none where `rotations` is not empty)
    std::vector<double> rotations;         ///< --op rotateDEG: rotation by any angle, DEG degrees clockwise (rotate.hpp)
    Interpolation interpolation = Interpolation::bilinear;  ///< the rotations' interpolation
    bool keep_size = false;                ///< the rotations keep the input's size (default: the canvas grown to hold it)
    bool tight = false;                    ///< the rotations' outputs have rows packed (a contiguous tensor's), not whole sectors
    std::vector<std::string> kernels;      ///< empty: all that apply
    int batch = 1;                         ///< images of width x height per launch (production kernel only)
    int grouped = 0;                       ///< > 0: that many images of mixed sizes (64x64 to 1024x768), one launch
    std::vector<Extent> grouped_sizes;     ///< the sizes grouped images cycle through; empty: the 8 from 64x64 to 1024x768
    bool grouped_scratch_padding = true;   ///< the grouped images' output padding is scratch (the bench's own buffers)
    int reps = 20;                         ///< timed samples per kernel (median reported)
    std::string json_path;                 ///< write every row as JSON here, if set
    bool list_kernels = false;             ///< print the kernel names and exit
    bool no_ceilings = false;              ///< time only the named kernels, not the copies the shares of copy need
    bool fused_sweep = false;              ///< the fused multi-output choice against its three ways over sizes (fused_sweep.hpp)
    bool cpu = false;                      ///< time the CPU backend against OpenCV and memcpy instead of the GPU kernels
    bool size_given = false;               ///< --size was on the command line (the CPU rows default to two sizes otherwise)
    unsigned threads = 0;                  ///< CPU rows: threads for gpurotate and OpenCV (0: all cores)
    std::string cpu_kernels;               ///< CPU rows: "baseline" or "avx2" (empty: the best this CPU runs)
    std::string cpu_stores;                ///< CPU rows: "plain" or "streaming" for the mirrors (empty: by the output's size)
};

/// The `--type` names: u8c1 u8c2 u8c3 u8c4 u16c1 u16c3 u16c4 f32c1 f32c3 f32c4.
std::vector<std::pair<std::string, PixelFormat>> bench_types();

/// The `--interp` names: nearest bilinear bicubic.
std::vector<std::pair<std::string, Interpolation>> bench_interpolations();

/// Runs the benchmark, printing tables to `out`. Returns the process exit status (non-zero if a
/// kernel's output failed verification). Throws Error (device) without a usable GPU.
int run_bench(const BenchOptions& options, std::ostream& out);

/// `--cpu`: the CPU backend against OpenCV's rotate/flip/transpose (where built with OpenCV) and a memcpy of
/// the same bytes, every output verified. Returns non-zero if an output failed verification. Needs no GPU.
int run_cpu_bench(const BenchOptions& options, std::ostream& out);

}  // namespace gpurotate::bench
