#include "cli/options.hpp"

#include "cli/quantities.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

namespace gpurotate::cli {
namespace {

using detail::split_commas;

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

// "WIDTHxHEIGHT", both positive; `option` names the flag in the message.
Extent parse_extent(const std::string& text, const std::string& option) {
    const auto x = text.find('x');
    try {
        if (x == std::string::npos) throw std::invalid_argument(text);
        std::size_t used_w = 0, used_h = 0;
        const Extent e{std::stoll(text.substr(0, x), &used_w), std::stoll(text.substr(x + 1), &used_h)};
        if (used_w != x || used_h != text.size() - x - 1 || e.width <= 0 || e.height <= 0) throw std::invalid_argument(text);
        return e;
    } catch (const std::exception&) {
        throw Error(ErrorCode::usage, option + " " + text + ": expected WIDTHxHEIGHT, e.g. 8192x8192");
    }
}

void parse_bench_lists(const std::string& size, const std::string& grouped_sizes, const std::string& types, const std::string& ops,
                       const std::string& kernels, bench::BenchOptions& o) {
    if (!size.empty()) {
        const Extent e = parse_extent(size, "--size");
        o.width = e.width;
        o.height = e.height;
    }
    for (const std::string& text : split_commas(grouped_sizes)) o.grouped_sizes.push_back(parse_extent(text, "--grouped-sizes"));
    for (const std::string& t : split_commas(types)) {
        if (t == "all") continue;
        bool found = false;
        for (const auto& [name, format] : bench::bench_types()) {
            if (name == t) {
                o.types.push_back(format);
                found = true;
            }
        }
        if (!found) throw Error(ErrorCode::usage, "--type " + t + ": unknown (u8c1 u8c2 u8c3 u8c4 u16c1 u16c3 u16c4 f32c1 f32c3 f32c4)");
    }
    for (const std::string& name : split_commas(ops)) {
        if (name == "all") continue;
        const auto o_parsed = parse_orientation(name);
        if (!o_parsed) throw Error(ErrorCode::usage, "--op " + name + ": unknown element");
        o.operations.push_back(*o_parsed);
    }
    o.kernels = split_commas(kernels);
}

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
        ->option_text("auto|cuda|cpu (default auto)");
    const std::map<std::string, CudaKernel> kernels{{"auto", CudaKernel::automatic},
                                                    {"vectorized", CudaKernel::vectorized},
                                                    {"tile32-padded", CudaKernel::tile32_padded},
                                                    {"tile16-skiplines", CudaKernel::tile16_skiplines}};
    app.add_option("--kernel", options.kernel, "CUDA kernel: auto, vectorized, tile32-padded or tile16-skiplines")
        ->transform(CLI::CheckedTransformer(kernels))
        ->option_text("auto|vectorized|tile32-padded|tile16-skiplines (default auto)");
    app.add_option("--quality", options.quality, "JPEG/WebP quality")->check(CLI::Range(1, 100))->default_str("95");
    app.add_option("--png-level", options.png_level, "PNG compression level, 0 (fastest) to 9 (smallest)")
        ->check(CLI::Range(0, 9))
        ->default_str(std::to_string(WriteOptions{}.png_level));
    const std::string max_pixels_help = "refuse inputs that declare more pixels: a count (100M), WxH, or none";
    const std::string max_pixels_default = std::to_string(default_max_pixels) + " (32768x32768)";
    std::string max_pixels_text, gpu_memory_text;
    app.add_option("--max-pixels", max_pixels_text, max_pixels_help)->default_str(max_pixels_default);
    app.add_option("--gpu-memory", gpu_memory_text, "device memory for one image (e.g. 2G); larger images stream through in bands")
        ->default_str("90% of the free memory");
    const std::string auto_orient_help = "first make the image upright by its EXIF orientation (JPEG, PNG), and write the tag as 1";
    const std::string strip_help = "write no EXIF and no ICC profile (by default JPEG and PNG keep them)";
    app.add_flag("--auto-orient", options.auto_orient, auto_orient_help);
    CLI::Option* nvjpeg = app.add_flag("--nvjpeg", options.nvjpeg, "JPEG to JPEG: transform and encode on the GPU with nvJPEG (implies --device cuda)");
    using detail::NvjpegDecode;
    const std::map<std::string, NvjpegDecode> decoders{{"cpu", NvjpegDecode::cpu}, {"gpu", NvjpegDecode::gpu}};
    app.add_option("--nvjpeg-decode", options.nvjpeg_decode,
                   "with --nvjpeg, who decodes: cpu (libjpeg-turbo while the GPU starts, then one upload) or gpu (nvJPEG: the "
                   "hardware decoder where the GPU has one)")
        ->transform(CLI::CheckedTransformer(decoders))
        ->needs(nvjpeg)
        ->option_text("cpu|gpu (default cpu)");
    app.add_flag("--strip", options.strip, strip_help);
    app.add_flag("--overwrite", options.overwrite, "replace an existing output file (also the input)");
    app.add_flag("-v,--verbose", options.verbose, "say which backend ran and how long each stage took");
    app.add_flag("--version", options.show_version, "print version, backends, GPU and codecs, and exit");

    bench::BenchOptions bench_options;
    std::string size_text, grouped_sizes_text, types_text, ops_text, kernels_text;
    CLI::App* bench_cmd = app.add_subcommand("bench", "measure every kernel against device copy, NPP and cuBLAS on this GPU");
    bench_cmd->add_option("--size", size_text, "image size WxH (default 8192x8192)");
    bench_cmd->add_option("--type", types_text, "comma-separated: u8c1,u8c2,u8c3,u8c4,u16c1,u16c3,u16c4,f32c1,f32c3,f32c4 (default all)");
    bench_cmd->add_option("--op", ops_text, "comma-separated elements: rot90,rot180,rot270,flip-h,flip-v,transpose,transverse (default all)");
    bench_cmd->add_option("--kernel", kernels_text, "comma-separated kernel names (default all; --list shows them)");
    bench_cmd->add_option("--batch", bench_options.batch, "images of that size per launch")->check(CLI::Range(1, 65535));
    bench_cmd->add_option("--grouped", bench_options.grouped, "N images of mixed sizes (64x64 to 1024x768) in one grouped launch")
        ->check(CLI::Range(1, 100000));
    bench_cmd->add_option("--grouped-sizes", grouped_sizes_text,
                          "with --grouped, the sizes the images cycle through, comma-separated WxH (default 64x64,128x96,256x256,320x240,"
                          "512x384,640x480,800x600,1024x768)");
    bench_cmd->add_option("--reps", bench_options.reps, "timed samples per kernel (median)")->check(CLI::Range(1, 100000));
    bench_cmd->add_option("--json", bench_options.json_path, "also write every row to this JSON file");
    bench_cmd->add_flag("--list", bench_options.list_kernels, "list the kernels and exit");
    bench_cmd->add_flag("--no-ceilings", bench_options.no_ceilings,
                        "run only the kernels --kernel names, not the copy ceilings too (for profilers; no shares of copy)");

    augment::AugmentOptions augment_options;
    std::string augment_ops = "all", augment_shard, augment_devices;
    CLI::App* augment_cmd = app.add_subcommand(
        "augment", "write rotated and flipped variants of many images (files, folders, @lists) into OUTDIR, streaming through the GPU");
    augment_cmd->add_option("inputs", augment_options.inputs, "image files, folders and @list.txt files (one path per line)")->required();
    augment_cmd->add_option("-o,--output", augment_options.output_dir, "output folder; input folders are mirrored below it")->required();
    augment_cmd->add_option("--ops", augment_ops, "comma-separated operations, or all (the 7 besides identity)")->default_str("all");
    augment_cmd->add_flag("-r,--recursive", augment_options.recursive, "read subfolders of input folders too");
    augment_cmd->add_option("--format", augment_options.format, "output format: same (as the input) or an extension: png, jpg, ...")
        ->default_str("same");
    augment_cmd->add_option("--quality", augment_options.quality, "JPEG/WebP quality")->check(CLI::Range(1, 100))->default_str("95");
    augment_cmd->add_option("--png-level", augment_options.png_level, "PNG compression level, 0 (fastest) to 9 (smallest)")
        ->check(CLI::Range(0, 9))
        ->default_str(std::to_string(WriteOptions{}.png_level));
    std::string augment_max_pixels, augment_gpu_memory;
    augment_cmd->add_flag("--auto-orient", augment_options.auto_orient, auto_orient_help);
    augment_cmd->add_flag("--strip", augment_options.strip, strip_help);
    CLI::Option* augment_nvjpeg = augment_cmd->add_flag("--nvjpeg", augment_options.nvjpeg,
                          "JPEG inputs with JPEG outputs: encode every variant on the GPU with nvJPEG (implies --device cuda)");
    augment_cmd->add_option("--nvjpeg-decode", augment_options.nvjpeg_decode,
                            "with --nvjpeg, who decodes: cpu (libjpeg-turbo on the workers, then one upload) or gpu (nvJPEG: the hardware "
                            "decoder where the GPU has one)")
        ->transform(CLI::CheckedTransformer(decoders))
        ->needs(augment_nvjpeg)
        ->option_text("cpu|gpu (default cpu)");
    augment_cmd->add_option("--max-pixels", augment_max_pixels, max_pixels_help)->default_str(max_pixels_default);
    augment_cmd->add_option("--gpu-memory", augment_gpu_memory,
                            "device memory per GPU for its 4 streams; an image that does not fit goes to the CPU (--device auto) or fails");
    augment_cmd->add_option("--name", augment_options.name_template, "output file name: {stem}, {op}, {ext}; may contain folders")
        ->default_str("{stem}_{op}.{ext}");
    augment_cmd->add_option("-j,--jobs", augment_options.jobs, "CPU worker threads (default: all cores)")->check(CLI::Range(1, 4096));
    augment_cmd->add_option("--device", augment_options.device, "auto (GPU if present, else CPU), cuda, or cpu")
        ->transform(CLI::CheckedTransformer(devices, CLI::ignore_case))
        ->option_text("auto|cuda|cpu (default auto)");
    augment_cmd->add_option("--devices", augment_devices, "GPUs to spread the work over: 0,1,... or all (default 0)");
    augment_cmd->add_option("--shard", augment_shard, "process only part K of N (0 <= K < N), chosen by a hash of each relative path");
    auto* resume_flag = augment_cmd->add_flag("--resume", augment_options.resume, "skip outputs the manifest records as complete; redo the rest");
    augment_cmd->add_flag("--overwrite", augment_options.overwrite, "replace existing outputs and start a new manifest")->excludes(resume_flag);
    augment_cmd->add_option("--manifest", augment_options.manifest_path, "JSON Lines record of every output (default OUTDIR/manifest.jsonl)");
    augment_cmd->add_flag("-n,--dry-run", augment_options.dry_run, "print what would be written, write nothing");
    augment_cmd->add_flag("-q,--quiet", augment_options.quiet, "no progress and no summary (errors are still printed)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        exit_status = app.exit(e);
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        throw Error(ErrorCode::usage, std::string(e.what()) + " (see gpurotate --help)");
    }
    if (options.show_version) return options;
    if (*bench_cmd) {
        parse_bench_lists(size_text, grouped_sizes_text, types_text, ops_text, kernels_text, bench_options);
        options.bench = bench_options;
        return options;
    }
    if (*augment_cmd) {
        augment_options.operations = augment::parse_operation_list(augment_ops);
        if (!augment_shard.empty()) augment_options.shard = augment::parse_shard(augment_shard);
        if (!augment_devices.empty()) augment_options.devices = augment::parse_device_list(augment_devices);
        if (!augment_max_pixels.empty()) augment_options.max_pixels = parse_pixel_count(augment_max_pixels, "--max-pixels");
        if (!augment_gpu_memory.empty()) augment_options.gpu_memory = static_cast<std::size_t>(parse_byte_count(augment_gpu_memory, "--gpu-memory"));
        options.augment = augment_options;
        return options;
    }
    if (!max_pixels_text.empty()) options.max_pixels = parse_pixel_count(max_pixels_text, "--max-pixels");
    if (!gpu_memory_text.empty()) options.gpu_memory = static_cast<std::size_t>(parse_byte_count(gpu_memory_text, "--gpu-memory"));
    if (options.input.empty()) throw Error(ErrorCode::usage, "no input file given (see gpurotate --help)");
    if (options.output.empty()) throw Error(ErrorCode::usage, "no output file given: use -o OUTPUT (see gpurotate --help)");
    for (const CLI::Option* opt : app.parse_order()) {
        const auto it = flag_orientation.find(opt);
        if (it != flag_orientation.end()) options.operations.push_back(it->second);
    }
    return options;
}

}  // namespace gpurotate::cli
