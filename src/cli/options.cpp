#include "cli/options.hpp"

#include <gpurotate/error.hpp>

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

namespace gpurotate::cli {
namespace {

// Flags as ImageMagick users know the operations; the table in the README is this list.
struct OperationFlag {
    const char* flag;
    Orientation orientation;
    const char* help;
};

constexpr OperationFlag operation_flags[] = {
    {"--rot90", Orientation::rot90, "rotate 90 degrees clockwise (ImageMagick -rotate 90)"},
    {"--rot180", Orientation::rot180, "rotate 180 degrees (-rotate 180)"},
    {"--rot270", Orientation::rot270, "rotate 90 degrees counter-clockwise (-rotate 270)"},
    {"--flip-h", Orientation::flip_h, "mirror left-right (-flop)"},
    {"--flip-v", Orientation::flip_v, "mirror top-bottom (-flip)"},
    {"--transpose", Orientation::transpose, "mirror across the main diagonal (-transpose)"},
    {"--transverse", Orientation::transverse, "mirror across the anti-diagonal (-transverse)"},
};

}  // namespace

std::optional<Options> parse_options(int argc, char** argv, int& exit_status) {
    Options options;
    CLI::App app{"gpurotate: rotate, flip and transpose images on the GPU (or the CPU).\n"
                 "Several operations apply in the order given and run as one pass over the pixels.",
                 "gpurotate"};
    app.add_option("input", options.input, "input image (PNG, JPEG, BMP, TGA, HDR, PNM, GIF, PSD; TIFF, WebP, EXR with OpenCV)");
    app.add_option("-o,--output", options.output, "output image; its extension picks the format");
    std::map<const CLI::Option*, Orientation> flag_orientation;
    for (const auto& f : operation_flags) {
        // A flag may be given more than once (--rot90 --rot90); the parse order records every occurrence.
        CLI::Option* opt = app.add_flag(f.flag, f.help)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        opt->group("Operations");
        flag_orientation[opt] = f.orientation;
    }
    const std::map<std::string, Backend> devices{{"auto", Backend::automatic}, {"cuda", Backend::cuda}, {"cpu", Backend::cpu}};
    app.add_option("--device", options.device, "auto (GPU if present, else CPU), cuda, or cpu")
        ->transform(CLI::CheckedTransformer(devices, CLI::ignore_case))
        ->default_str("auto");
    const std::map<std::string, CudaKernel> kernels{{"auto", CudaKernel::automatic},
                                                    {"vectorized", CudaKernel::vectorized},
                                                    {"tile32-padded", CudaKernel::tile32_padded},
                                                    {"tile16-skiplines", CudaKernel::tile16_skiplines}};
    app.add_option("--kernel", options.kernel, "CUDA kernel: auto, vectorized, tile32-padded or tile16-skiplines")
        ->transform(CLI::CheckedTransformer(kernels))
        ->default_str("auto");
    app.add_option("--quality", options.quality, "JPEG/WebP quality")->check(CLI::Range(1, 100))->default_str("95");
    app.add_flag("--overwrite", options.overwrite, "replace an existing output file (also the input)");
    app.add_flag("-v,--verbose", options.verbose, "say which backend ran and how long each stage took");
    app.add_flag("--version", options.show_version, "print version, backends, GPU and codecs, and exit");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        exit_status = app.exit(e);
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        throw Error(ErrorCode::usage, std::string(e.what()) + " (see gpurotate --help)");
    }
    if (options.show_version) return options;
    if (options.input.empty()) throw Error(ErrorCode::usage, "no input file given (see gpurotate --help)");
    if (options.output.empty()) throw Error(ErrorCode::usage, "no output file given: use -o OUTPUT (see gpurotate --help)");
    for (const CLI::Option* opt : app.parse_order()) {
        const auto it = flag_orientation.find(opt);
        if (it != flag_orientation.end()) options.operations.push_back(it->second);
    }
    return options;
}

}  // namespace gpurotate::cli
