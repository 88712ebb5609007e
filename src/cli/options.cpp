#include "cli/options.hpp"

#include "cli/help_text.hpp"
#include "cli/manual.hpp"
#include "cli/near_miss.hpp"
#include "cli/quantities.hpp"
#include "convert/output_fit.hpp"
#include "convert/rotation_step.hpp"
#include "formats/tiff_coding.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include "cli/parse_command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>

#include <sys/stat.h>

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

// A choice among names, mapped to its value. CLI11's CheckedTransformer lists the map in its error and writes
// a 1-byte enum's values as characters, so the message stopped at the first zero ("Check tpu value in {auto->").
template <class T>
CLI::Validator one_of(const std::map<std::string, T>& choices, bool ignore_case = false) {
    std::string names;
    for (const auto& choice : choices) names += (names.empty() ? "" : ", ") + choice.first;
    return CLI::Validator(
        [choices, names, ignore_case](std::string& value) -> std::string {
            const auto found = choices.find(ignore_case ? detail::lowercase(value) : value);
            if (found == choices.end()) return "'" + value + "' is not one of " + names;
            value = std::to_string(static_cast<long long>(found->second));
            return {};
        },
        "", "");
}

// --interpolate's choices, by the names rotate.hpp gives them.
std::map<std::string, Interpolation> interpolation_names() {
    std::map<std::string, Interpolation> names;
    for (Interpolation i : all_interpolations) names.emplace(std::string(name(i)), i);
    return names;
}

// --rotate's DEG: any finite real number. Throws Error (usage) naming the option.
double parse_degrees(const std::string& text) {
    // A decimal number as written ("7.5", "-30", "1e2"): std::stod alone would take " 30" and hex ("0x10").
    const bool decimal = !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
    try {
        if (!decimal) throw std::invalid_argument(text);
        std::size_t used = 0;
        const double degrees = std::stod(text, &used);
        if (used == text.size() && std::isfinite(degrees)) return degrees;
    } catch (const std::exception&) {
    }
    throw Error(ErrorCode::usage, "--rotate " + text + ": expected a number of degrees (clockwise), such as 90 or -7.5");
}

// The conversion options (convert/conversion_options.hpp), the same flags for the single-image command and
// augment: one table, so that the two cannot drift.
class ConversionFlags {
public:
    /// `has_in_place`: the command has -i, whose --jpeg-edge default is keep.
    ConversionFlags(CLI::App& app, convert::ConversionOptions& options, bool has_in_place) : options_(options) {
        quality_ = app.add_option("--quality", options.quality, "JPEG/WebP quality (a JPEG from a JPEG is then re-encoded, not transformed losslessly)")
                       ->check(CLI::Range(1, 100))
                       ->default_str("95");
        const std::map<std::string, detail::JpegEdge> jpeg_edges{{"reencode", detail::JpegEdge::reencode},
                                                                 {"trim", detail::JpegEdge::trim},
                                                                 {"keep", detail::JpegEdge::keep},
                                                                 {"error", detail::JpegEdge::error}};
        jpeg_edge_ = app.add_option("--jpeg-edge", options.jpeg_edge,
                                    "JPEG to JPEG where the lossless transform would move a partial edge block: reencode (decode and encode "
                                    "again), trim (drop the partial blocks, as jpegtran -trim), keep (leave the partial blocks in place, "
                                    "unturned, as jpegtran without -trim and exiftran -i) or error")
                         ->transform(one_of(jpeg_edges))
                         ->option_text(has_in_place ? "reencode|trim|keep|error (default reencode; keep with -i)" : "reencode|trim|keep|error (default reencode)");
        app.add_option("--png-level", options.png_level, "PNG compression level, 0 (fastest) to 9 (smallest)")
            ->check(CLI::Range(0, 9))
            ->default_str(std::to_string(WriteOptions{}.png_level));
        std::map<std::string, TiffCompression> tiff_compressions;
        for (const TiffCompression c : detail::tiff_compressions) tiff_compressions.emplace(to_string(c), c);
        app.add_option("--tiff-compression", options.tiff_compression,
                       "a TIFF output's compression: none, lzw, deflate, packbits, zstd, lzma or jpeg (8-bit, at --quality); by default a "
                       "TIFF input's is kept (with its predictor, planes and rows per strip), and a TIFF from another format is LZW")
            ->transform(one_of(tiff_compressions))
            ->option_text("none|lzw|deflate|packbits|zstd|lzma|jpeg (default: the input's, else lzw)");
        app.add_option("--max-pixels", max_pixels_, "refuse inputs that declare more pixels: a count (100M), WxH, or none")
            ->default_str(std::to_string(default_max_pixels) + " (32768x32768)");
        app.add_option("--max-scans", max_scans_,
                       "refuse JPEGs with more scans (each is a pass over the whole image; a progressive file has 6-10): a count, or none")
            ->default_str(std::to_string(default_max_jpeg_scans));
        app.add_flag("--auto-orient", options.auto_orient,
                     "first make the image upright by its EXIF orientation (JPEG, PNG, WebP, TIFF), and write the tag (and XMP's) as 1");
        app.add_flag("--strip", options.strip,
                     "write no metadata (EXIF, ICC profile, XMP, IPTC, resolution, comments, PNG chunks, TIFF text tags; a lossless JPEG "
                     "keeps its JFIF density, as jpegtran -copy none does); by default every format that can hold them keeps them");
        app.add_option("--background", options.background,
                       "compose the alpha channel over COLOR (#rgb, #rrggbb, white, black) where the output format cannot hold alpha "
                       "(a JPEG from an RGBA PNG), as ImageMagick's -background COLOR -flatten")
            ->option_text("COLOR");
        app.add_flag("--flatten", options.flatten, "compose the alpha channel over the background (white unless --background) for every output");
        app.add_option("--depth", options.depth, "8: write 8-bit samples (16-bit and float inputs scaled, as ImageMagick's -depth 8)")
            ->check(CLI::IsMember({8}))
            ->option_text("8");
        CLI::Option* nvjpeg = app.add_flag("--nvjpeg", options.nvjpeg,
                                           "JPEG to JPEG: transform and encode on the GPU with nvJPEG (implies --device cuda)");
        using detail::NvjpegDecode;
        const std::map<std::string, NvjpegDecode> decoders{{"cpu", NvjpegDecode::cpu}, {"gpu", NvjpegDecode::gpu}};
        app.add_option("--nvjpeg-decode", options.nvjpeg_decode,
                       "with --nvjpeg, who decodes: cpu (libjpeg-turbo, then one upload) or gpu (nvJPEG: the hardware decoder "
                       "where the GPU has one)")
            ->transform(one_of(decoders))
            ->needs(nvjpeg)
            ->option_text("cpu|gpu (default cpu)");
    }

    /// What the parse leaves as text, read into the options. Throws Error (usage).
    void finish() const {
        options_.quality_given = quality_->count() > 0;
        options_.jpeg_edge_given = jpeg_edge_->count() > 0;
        if (!max_pixels_.empty()) options_.max_pixels = parse_pixel_count(max_pixels_, "--max-pixels");
        if (!max_scans_.empty()) options_.max_jpeg_scans = parse_scan_count(max_scans_);
        if (!options_.background.empty()) convert::parse_background(options_.background);  // refused now, not after the decode
    }

private:
    convert::ConversionOptions& options_;
    CLI::Option* quality_ = nullptr;
    CLI::Option* jpeg_edge_ = nullptr;
    std::string max_pixels_, max_scans_;
};

bool path_exists(const char* path) {
    struct stat info {};
    return ::lstat(path, &info) == 0;
}

/// The option names of `command` as typed: "--rot90", "-o".
std::vector<std::string> option_names(const CLI::App& command) {
    std::vector<std::string> names;
    for (const CLI::Option* option : command.get_options()) {
        for (const std::string& n : option->get_lnames()) names.push_back("--" + n);
        for (const std::string& n : option->get_snames()) names.push_back("-" + n);
    }
    return names;
}

}  // namespace

std::optional<Options> parse_options(int argc, char** argv, int& exit_status) {
    Options options;
    CLI::App app{"gpurotate: rotate, flip and transpose images on the GPU (or the CPU).\n"
                 "Several operations apply in the order given and run as one pass over the pixels.",
                 "gpurotate"};
    app.add_option("inputs", options.inputs,
                   "input images (PNG, JPEG, TIFF, WebP, BMP, TGA, HDR, PNM/PAM, GIF, PSD; EXR with the codec plugin); - reads standard input");
    app.add_option("-o,--output", options.output,
                   "output image, its extension picking the format; a folder (DIR/) for several inputs; - writes standard output");
    app.add_option("--format", options.format, "the output format, whatever the output's name: png, jpg, ...; needed for -o - where the input is neither")
        ->option_text("EXT");
    CLI::Option* in_place = app.add_flag("-i,--in-place", options.in_place,
                                         "replace each input with its result, atomically, in the format its content has (as exiftran -i and "
                                         "mogrify); a JPEG stays lossless (--jpeg-edge keep unless given)");
    app.add_flag("--follow-symlinks", options.follow_symlinks, "-i: replace the file a symbolic link names; by default the link itself is replaced, its target untouched (as sed -i)")
        ->needs(in_place);
    std::string max_input_text;
    app.add_option("--max-input-bytes", max_input_text, "refuse a file or standard input larger than this (e.g. 512M; K, M, G are powers of 1024)")
        ->default_str("2G");
    std::map<const CLI::Option*, Orientation> flag_orientation;
    for (const auto& f : operation_flags) {
        // A flag may be given more than once (--rot90 --rot90); the parse order records every occurrence.
        CLI::Option* opt = app.add_flag(f.flag, f.help)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        opt->group("Operations");
        flag_orientation[opt] = f.orientation;
    }
    // Any angle: one option value per occurrence, in the parse order beside the flags (a multiple of 90 is the
    // D4 element at its place; another angle is interpolated between the flags before it and after it).
    std::vector<std::string> rotate_values;
    CLI::Option* rotate_option = app.add_option("--rotate", rotate_values,
                                                "rotate DEG degrees clockwise (ImageMagick -rotate DEG), any real number: a multiple of 90 is exact "
                                                "(lossless for a JPEG); another angle is interpolated, the canvas grown to hold the image")
                                     ->option_text("DEG")
                                     ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
                                     ->allow_extra_args(false)
                                     ->group("Operations");
    Interpolation interpolation = Interpolation::bilinear;
    CLI::Option* interpolate_option = app.add_option("--interpolate", interpolation, "--rotate's interpolation: nearest, bilinear or bicubic (as OpenCV's warpAffine)")
                                          ->transform(one_of(interpolation_names()))
                                          ->option_text("nearest|bilinear|bicubic (default bilinear)")
                                          ->group("Operations");
    bool keep_size = false;
    CLI::Option* keep_size_option = app.add_flag("--keep-size", keep_size, "--rotate: keep the input's size, cutting the corners (default: grow the canvas)")
                                        ->group("Operations");
    const std::map<std::string, Backend> devices{{"auto", Backend::automatic}, {"cuda", Backend::cuda}, {"cpu", Backend::cpu}};
    app.add_option("--device", options.device, "auto (one image: the CPU, which finishes before a GPU has started), cuda, or cpu")
        ->transform(one_of(devices, true))
        ->option_text("auto|cuda|cpu (default auto)");
    const std::map<std::string, CudaKernel> kernels{{"auto", CudaKernel::automatic},
                                                    {"vectorized", CudaKernel::vectorized},
                                                    {"tile32-padded", CudaKernel::tile32_padded},
                                                    {"tile16-skiplines", CudaKernel::tile16_skiplines}};
    app.add_option("--kernel", options.kernel, "CUDA kernel: auto, vectorized, tile32-padded or tile16-skiplines")
        ->transform(one_of(kernels))
        ->option_text("auto|vectorized|tile32-padded|tile16-skiplines (default auto)");
    const ConversionFlags conversion(app, options.convert, true);
    std::string gpu_memory_text;
    app.add_option("--gpu-memory", gpu_memory_text, "device memory for one image (e.g. 2G); larger images stream through in bands")
        ->default_str("90% of the free memory");
    app.add_flag("--overwrite", options.overwrite, "replace an existing output file (also the input)");
    app.add_option("-j,--jobs", options.jobs, "several files: how many are converted at once (default: the cores this process may run on; 1 on the GPU with --gpu-memory)")
        ->check(CLI::Range(1, 4096));
    CLI::Option* verbose = app.add_flag("-v,--verbose", options.verbose, "say which backend ran and how long each stage took");
    app.add_flag("-q,--quiet", options.quiet, "no notes, such as a JPEG re-encoded rather than transformed losslessly (warnings and errors are still printed)")
        ->excludes(verbose);
    app.add_flag("-V,--version", options.show_version, "print version, backends, GPUs and codecs, and exit (with -v: each GPU's memory and compute capability, from CUDA)");

    // `gpurotate bench ...` runs gpurotate-bench (main.cpp forwards it before this parser); listed for --help.
    app.add_subcommand("bench", "measure every kernel against device copy, NPP and cuBLAS on this GPU (runs gpurotate-bench)");

    augment::AugmentOptions augment_options;
    std::string augment_ops = "all", augment_shard, augment_devices;
    CLI::App* augment_cmd = app.add_subcommand(
        "augment", "write rotated and flipped variants of many images (files, folders, @lists) into OUTDIR, streaming through the GPU");
    describe_usage(app, *augment_cmd);
    // Not ->required(): a bare --random takes the argument after it ("--random in/ -o out"), which goes back
    // to the inputs below; run_augment says when there are none.
    augment_cmd->add_option("inputs", augment_options.inputs, "image files, WebDataset shards (.tar, .tar.gz, .tgz), folders and @list.txt files (one path per line)");
    augment_cmd->add_option("-o,--output", augment_options.output_dir, "output folder; input folders are mirrored below it")->required();
    CLI::Option* ops_option = augment_cmd->add_option("--ops", augment_ops, "comma-separated operations: identity rot90 rot180 rot270 flip-h flip-v transpose transverse, or all (the 7 besides identity)")
                                  ->default_str("all (identity with --p-flip-h/--p-flip-v)");
    std::string augment_random, augment_seed, augment_weights;
    CLI::Option* random_option =
        augment_cmd
            ->add_option("--random", augment_random,
                         "write N random elements per input (default 1; distinct, unless --with-replacement) instead of every element of "
                         "--ops: an element of --ops by --weights, then flip-h with probability --p-flip-h, then flip-v with "
                         "--p-flip-v, composed into one. Each input's draws depend only on the seed and its relative path")
            ->expected(0, 1)
            ->option_text("[N]");
    augment_cmd->add_option("--seed", augment_seed, "--random's seed, for the same draws again (default: chosen at random, printed, and recorded in the manifest)")
        ->needs(random_option)
        ->option_text("S");
    augment_cmd->add_option("--weights", augment_weights, "--random: relative weights of --ops, as rot90=2,flip-h=1 (unnamed ones 1) or one number each in --ops' order (default all 1)")
        ->needs(random_option)
        ->option_text("OP=W,...");
    std::string augment_p_flip_h, augment_p_flip_v;
    CLI::Option* p_flip_h = augment_cmd->add_option("--p-flip-h", augment_p_flip_h, "--random: then mirror left-right with probability P (albumentations' HorizontalFlip(p))")
                                ->needs(random_option)
                                ->option_text("P (default 0)");
    CLI::Option* p_flip_v = augment_cmd->add_option("--p-flip-v", augment_p_flip_v, "--random: then mirror top-bottom with probability P (VerticalFlip(p))")
                                ->needs(random_option)
                                ->option_text("P (default 0)");
    augment_cmd->add_flag("--with-replacement", augment_options.random.with_replacement,
                          "--random N: draw each of an input's N elements on its own, so that two can be the same (default: N distinct elements)")
        ->needs(random_option);
    std::string augment_degrees;
    CLI::Option* degrees_option =
        augment_cmd->add_option("--degrees", augment_degrees, "--random: then rotate each draw by an angle uniform in [-MAX, MAX) degrees (interpolated; a JPEG is re-encoded)")
            ->option_text("MAX");
    augment_cmd->add_option("--interpolate", augment_options.random.interpolation, "--degrees' interpolation: nearest, bilinear or bicubic")
        ->transform(one_of(interpolation_names()))
        ->option_text("nearest|bilinear|bicubic (default bilinear)")
        ->needs(degrees_option);
    augment_cmd->add_flag("--keep-size", augment_options.random.keep_size, "--degrees: keep each image's size, cutting the corners (default: grow the canvas)")
        ->needs(degrees_option);
    augment_cmd->add_flag("-r,--recursive", augment_options.recursive, "read subfolders of input folders too");
    std::string augment_labels;
    CLI::Option* labels_option = augment_cmd->add_option("--labels", augment_labels,
                            "turn each image's labels with it: yolo (labels/ beside images/; data.yaml found, or yolo=data.yaml), coco=FILE.json "
                            "(one file in, one out), or voc (Annotations/ beside the images' folder)")
        ->option_text("yolo[=DATA.yaml]|coco=FILE|voc");
    augment_cmd->add_option("--masks", augment_options.labels.masks_dir,
                            "a folder of masks mirroring the images' relative paths (any extension), each turned with its image into OUTDIR/masks/")
        ->option_text("DIR");
    std::string augment_min_visibility;
    augment_cmd->add_option("--min-visibility", augment_min_visibility,
                            "--degrees with --labels: leave out an instance keeping less than this share of its area on the canvas (default 0: "
                            "only one with nothing left)")
        ->option_text("F")
        ->needs(degrees_option);
    augment_cmd->add_option("--format", augment_options.format, "output format: same (as the input) or an extension: png, jpg, ...")
        ->default_str("same");
    const ConversionFlags augment_conversion(*augment_cmd, augment_options.convert, false);
    std::string augment_gpu_memory, augment_host_memory;
    augment_cmd->add_option("--host-memory", augment_host_memory,
                            "host memory for the images in flight (e.g. 16G); an image whose variants do not fit its worker's share makes them a few at a time")
        ->default_str("half the machine's memory");
    augment_cmd->add_option("--gpu-memory", augment_gpu_memory,
                            "device memory per GPU for its 4 streams; an image that does not fit goes to the CPU (--device auto) or fails");
    CLI::Option* name_option =
        augment_cmd
            ->add_option("--name", augment_options.name_template,
                         "output file name: {stem}, {op}, {ext}, {dir} (the input's folder below its input root), {parent} (the name of the "
                         "folder it is in), {index} (its place in the sorted input list, from 0), {draw} (--random's draw, from 0); may contain "
                         "folders. Without {dir} and {parent} it goes into the input's mirrored folder; with either, where it says below OUTDIR")
            ->default_str("{stem}_{op}.{ext}; {stem}_{draw}_{op}.{ext} with --random N over 1");
    augment_cmd->add_option("-j,--jobs", augment_options.jobs, "CPU worker threads (default: the cores this process may run on)")->check(CLI::Range(1, 4096));
    augment_cmd->add_option("--device", augment_options.device, "auto (GPU if present, else CPU), cuda, or cpu")
        ->transform(one_of(devices, true))
        ->option_text("auto|cuda|cpu (default auto)");
    augment_cmd->add_option("--devices", augment_devices, "GPUs to spread the work over: 0,1,... or all (default 0)");
    augment_cmd->add_option("--shard", augment_shard, "process only part K of N (0 <= K < N), chosen by a hash of each relative path");
    auto* resume_flag = augment_cmd->add_flag("--resume", augment_options.resume, "skip outputs the manifest records as complete; redo the rest");
    augment_cmd->add_flag("--overwrite", augment_options.overwrite, "replace existing outputs and start a new manifest")->excludes(resume_flag);
    augment_cmd->add_option("--manifest", augment_options.manifest_path, "JSON Lines record of every output (default OUTDIR/manifest.jsonl)");
    augment_cmd->add_flag("-n,--dry-run", augment_options.dry_run, "print what would be written, write nothing");
    CLI::Option* augment_quiet = augment_cmd->add_flag("-q,--quiet", augment_options.quiet, "no progress and no summary (errors are still printed)");
    augment_cmd->add_flag("-v,--verbose", augment_options.verbose,
                          "end the summary with the stage account: each stage's worker-seconds and share, the listing and the final flush")
        ->excludes(augment_quiet);

    // The man pages and completions, from this table (manual.hpp); not in --help (no group).
    // A value of 0 or 1 words, so that a bare --generate is said here with its name (CLI11 names no option).
    std::string generate;
    CLI::Option* generate_option = app.add_option("--generate", generate, "write a man page or completion script")->expected(0, 1)->group("");

    // A mistake inside augment's command line is explained by augment's help and options.
    const bool augmenting = argc >= 2 && std::string(argv[1]) == "augment";
    const std::vector<std::string> args(argv + 1, argv + argc);
    const auto hint = [&] { return near_miss_hint(args, option_names(augmenting ? *augment_cmd : app)); };
    // `gpurotate augmnet in/ -o out`: a first word that is no file but nearly a subcommand is that subcommand
    // misspelt, said before the parser reads it as an input (and augment's options as unknown).
    if (argc >= 2 && !path_exists(argv[1])) {
        if (const std::string meant = near_subcommand(argv[1], {"augment", "bench"}); !meant.empty()) {
            throw Error(ErrorCode::usage, "'" + std::string(argv[1]) + "' is neither a file nor a command: did you mean gpurotate " + meant +
                                              "? (see gpurotate --help)");
        }
    }
    if (!parse_command_line(app, argc, argv, exit_status, augmenting ? "gpurotate augment --help" : "gpurotate --help", hint)) return std::nullopt;
    if (generate_option->count() > 0) {
        if (generate.empty()) throw Error(ErrorCode::usage, "--generate: name what to write: man, man-augment, bash or zsh (gpurotate --generate man > gpurotate.1)");
        const auto& given = app.parse_order();
        if (*augment_cmd || std::any_of(given.begin(), given.end(), [&](const CLI::Option* o) { return o != generate_option; })) {
            throw Error(ErrorCode::usage, "--generate " + generate + " prints its file and runs no job: give it alone (gpurotate --generate " +
                                              generate + " > FILE), and the job on a command line of its own");
        }
        std::cout << generated_file(generate, app, *augment_cmd);
        exit_status = 0;
        return std::nullopt;
    }
    if (options.show_version) return options;
    if (*augment_cmd) {
        if (ops_option->count() == 0 && (p_flip_h->count() > 0 || p_flip_v->count() > 0)) augment_ops = "identity";  // flips alone
        augment_options.operations = augment::parse_operation_list(augment_ops);
        if (random_option->count() > 0) {
            augment_options.random.draws = 1;
            const std::string& n = augment_random;
            if (!n.empty() && n.find_first_not_of("0123456789") == std::string::npos) {
                if (n.size() > 4 || std::stoul(n) < 1 || std::stoul(n) > 1000) throw Error(ErrorCode::usage, "--random " + n + ": N is 1 to 1000");
                augment_options.random.draws = static_cast<unsigned>(std::stoul(n));
            } else if (!n.empty()) {
                augment_options.inputs.insert(augment_options.inputs.begin(), n);  // a bare --random took the input after it
            }
            if (!augment_seed.empty()) augment_options.random.seed = augment::parse_seed(augment_seed);
            if (!augment_weights.empty()) augment_options.random.weights = augment::parse_weights(augment_weights, augment_options.operations);
            if (!augment_p_flip_h.empty()) augment_options.random.p_flip_h = augment::parse_probability(augment_p_flip_h, "--p-flip-h");
            if (!augment_p_flip_v.empty()) augment_options.random.p_flip_v = augment::parse_probability(augment_p_flip_v, "--p-flip-v");
            if (degrees_option->count() > 0) augment_options.random.degrees = augment::parse_max_degrees(augment_degrees);
            if (name_option->count() == 0 && augment_options.random.draws > 1) augment_options.name_template = "{stem}_{draw}_{op}.{ext}";
        }
        if (degrees_option->count() > 0 && augment_options.random.draws == 0) {
            throw Error(ErrorCode::usage, "--degrees " + augment_degrees + " draws an angle for each --random draw: it needs --random");
        }
        augment_conversion.finish();
        if (labels_option->count() > 0) {
            const std::string masks = augment_options.labels.masks_dir;
            augment_options.labels = augment::parse_label_option(augment_labels);
            augment_options.labels.masks_dir = masks;
        }
        if (!augment_min_visibility.empty()) {
            augment_options.labels.min_visibility = augment::parse_probability(augment_min_visibility, "--min-visibility");
        }
        if (!augment_shard.empty()) augment_options.shard = augment::parse_shard(augment_shard);
        if (!augment_devices.empty()) augment_options.devices = augment::parse_device_list(augment_devices);
        if (!augment_host_memory.empty()) augment_options.host_memory = static_cast<std::size_t>(parse_byte_count(augment_host_memory, "--host-memory"));
        if (!augment_gpu_memory.empty()) augment_options.gpu_memory = static_cast<std::size_t>(parse_byte_count(augment_gpu_memory, "--gpu-memory"));
        options.augment = augment_options;
        return options;
    }
    conversion.finish();
    if (!gpu_memory_text.empty()) options.gpu_memory = static_cast<std::size_t>(parse_byte_count(gpu_memory_text, "--gpu-memory"));
    if (!max_input_text.empty()) options.max_input_bytes = static_cast<std::size_t>(parse_byte_count(max_input_text, "--max-input-bytes"));
    // In place, a JPEG is never re-encoded unless asked: its partial edge blocks stay where they are, as
    // exiftran -i leaves them (docs/fidelity.md).
    if (options.in_place && !options.convert.jpeg_edge_given) options.convert.jpeg_edge = detail::JpegEdge::keep;
    if (options.inputs.empty()) throw Error(ErrorCode::usage, "no input file given (see gpurotate --help)");
    // CLI11 takes "-9" (exiftran's quarter turn) for a number, so a positional.
    for (const std::string& input : options.inputs) {
        if (input.size() > 1 && input[0] == '-') {
            if (const std::string spelled = near_miss_hint({input}, option_names(app)); !spelled.empty()) throw Error(ErrorCode::usage, spelled + " (see gpurotate --help)");
        }
    }
    if (options.in_place && !options.output.empty()) throw Error(ErrorCode::usage, "-i (in place) writes each input over itself: it takes no -o");
    if (options.in_place && !options.format.empty()) throw Error(ErrorCode::usage, "-i (in place) keeps each file's format: it takes no --format");
    if (!options.in_place && options.output.empty()) {
        throw Error(ErrorCode::usage, std::string("no output given: use ") +
                                          (options.inputs.size() > 1 ? "-o FOLDER/, or -i to replace each input" : "-o OUTPUT") + " (see gpurotate --help)");
    }
    std::size_t rotate_index = 0, rotation_at = 0;
    for (const CLI::Option* opt : app.parse_order()) {
        const auto it = flag_orientation.find(opt);
        if (it != flag_orientation.end()) options.operations.push_back(it->second);
        if (opt != rotate_option) continue;
        const std::string& text = rotate_values.at(rotate_index++);
        const double degrees = parse_degrees(text);
        if (const auto quarter = convert::quarter_turn(degrees)) {
            options.operations.push_back(*quarter);
            continue;
        }
        if (options.convert.rotation) {
            throw Error(ErrorCode::usage, "--rotate " + text + ": one angle that is not a multiple of 90 per command (this one has --rotate " +
                                              detail::number_text(options.convert.rotation->degrees) + " already; add them up)");
        }
        options.convert.rotation = convert::AnyAngle{degrees, interpolation, keep_size, Orientation::identity};
        rotation_at = options.operations.size();
    }
    if (options.convert.rotation && options.convert.jpeg_edge_given && options.convert.jpeg_edge == detail::JpegEdge::error) {
        throw Error(ErrorCode::usage, "--rotate " + detail::number_text(options.convert.rotation->degrees) +
                                          " gives a JPEG new pixels, which --jpeg-edge error refuses (leave --jpeg-edge error out, or turn by a multiple of 90)");
    }
    if (options.convert.rotation && options.convert.nvjpeg) {
        throw Error(ErrorCode::usage, "--nvjpeg encodes the D4 elements on the GPU; --rotate " + detail::number_text(options.convert.rotation->degrees) +
                                          " is not one of them (leave --nvjpeg out)");
    }
    if (options.convert.rotation) {
        // The flags after --rotate act on its result: their element, kept apart from those before it.
        Orientation after = Orientation::identity;
        for (std::size_t i = rotation_at; i < options.operations.size(); ++i) after = then(after, options.operations[i]);
        options.convert.rotation->after = after;
        options.operations.resize(rotation_at);
    } else if (interpolate_option->count() > 0 || keep_size_option->count() > 0) {
        options.rotation_options_unused = true;
    }
    return options;
}

}  // namespace gpurotate::cli
