// The command line of gpurotate-bench (also `gpurotate bench`, which runs it), parsed into BenchOptions.

#include "bench/bench_options.hpp"

#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/orientation.hpp>

#include "cli/parse_command_line.hpp"

#include <CLI/CLI.hpp>

#include <cctype>
#include <cmath>
#include <optional>

namespace gpurotate::bench {
namespace {

using detail::split_commas;

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

// "rotateDEG" (rotate30, rotate-12.5): DEG degrees clockwise, any finite number; nothing for another name.
std::optional<double> parse_rotation(const std::string& name) {
    const std::string prefix = "rotate";
    if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    const std::string text = name.substr(prefix.size());
    try {
        std::size_t used = 0;
        const double degrees = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(degrees) || std::isspace(static_cast<unsigned char>(text.front()))) throw std::invalid_argument(text);
        return degrees;
    } catch (const std::exception&) {
        throw Error(ErrorCode::usage, "--op " + name + ": expected rotateDEG, degrees clockwise, e.g. rotate30");
    }
}

void parse_bench_lists(const std::string& size, const std::string& grouped_sizes, const std::string& types, const std::string& ops,
                       const std::string& kernels, BenchOptions& o) {
    if (!size.empty()) {
        const Extent e = parse_extent(size, "--size");
        o.width = e.width;
        o.height = e.height;
        o.size_given = true;
    }
    for (const std::string& text : split_commas(grouped_sizes)) o.grouped_sizes.push_back(parse_extent(text, "--grouped-sizes"));
    for (const std::string& t : split_commas(types)) {
        if (t == "all") continue;
        bool found = false;
        for (const auto& [name, format] : bench_types()) {
            if (name == t) {
                o.types.push_back(format);
                found = true;
            }
        }
        if (!found) throw Error(ErrorCode::usage, "--type " + t + ": unknown (u8c1 u8c2 u8c3 u8c4 u16c1 u16c3 u16c4 f32c1 f32c3 f32c4)");
    }
    for (const std::string& name : split_commas(ops)) {
        if (name == "all") continue;
        if (const auto degrees = parse_rotation(name)) {
            o.rotations.push_back(*degrees);
            continue;
        }
        const auto o_parsed = parse_orientation(name);
        if (!o_parsed) throw Error(ErrorCode::usage, "--op " + name + ": unknown element");
        o.operations.push_back(*o_parsed);
    }
    o.kernels = split_commas(kernels);
}

}  // namespace

std::optional<BenchOptions> parse_bench_options(int argc, char** argv, int& exit_status) {
    BenchOptions bench_options;
    CLI::App app{"gpurotate bench: measure every kernel against device copy, NPP and cuBLAS on this GPU", "gpurotate bench"};
    std::string size_text, grouped_sizes_text, types_text, ops_text, kernels_text, interpolation_text = "bilinear";
    app.add_option("--size", size_text, "image size WxH (default 8192x8192)");
    app.add_option("--type", types_text, "comma-separated: u8c1,u8c2,u8c3,u8c4,u16c1,u16c3,u16c4,f32c1,f32c3,f32c4 (default all)");
    app.add_option("--op", ops_text,
                   "comma-separated elements: rot90,rot180,rot270,flip-h,flip-v,transpose,transverse (default all), and rotations by "
                   "any angle, rotateDEG (degrees clockwise, e.g. rotate30,rotate45): the product's rotate_device against NPP's "
                   "nppiRotate and a device copy of the same bytes");
    app.add_option("--interp,--interpolate", interpolation_text, "the rotateDEG rows' interpolation: nearest, bilinear or bicubic (default bilinear)")
        ->check(CLI::IsMember([] {
            std::vector<std::string> names;
            for (const auto& [name, interpolation] : bench_interpolations()) names.push_back(name);
            return names;
        }()));
    app.add_flag("--keep-size", bench_options.keep_size, "the rotateDEG rows keep the input's size, corners cut (default: the canvas grown to hold the image)");
    app.add_flag("--tight", bench_options.tight,
                 "the rotateDEG rows write outputs whose rows are packed, one after another (as a contiguous tensor's), where by default "
                 "each row starts on a 32-byte sector");
    app.add_option("--kernel", kernels_text, "comma-separated kernel names (default all; --list shows them)");
    app.add_option("--batch", bench_options.batch, "images of that size per launch")->check(CLI::Range(1, 65535));
    app.add_option("--grouped", bench_options.grouped, "N images of mixed sizes (64x64 to 1024x768) in one grouped launch")
        ->check(CLI::Range(1, 100000));
    app.add_option("--grouped-sizes", grouped_sizes_text,
                          "with --grouped, the sizes the images cycle through, comma-separated WxH (default 64x64,128x96,256x256,320x240,"
                          "512x384,640x480,800x600,1024x768)");
    std::string grouped_padding = "scratch";
    app.add_option("--grouped-padding", grouped_padding,
                   "with --grouped, whether rows may write their outputs' pitch padding up to the sector end: scratch (default, the "
                   "bench's own buffers) or kept (as for a caller's views)")
        ->check(CLI::IsMember({"scratch", "kept"}));
    app.add_option("--reps", bench_options.reps, "timed samples per kernel (median)")->check(CLI::Range(1, 100000));
    app.add_option("--json", bench_options.json_path, "also write every row to this JSON file");
    app.add_flag("--list", bench_options.list_kernels, "list the kernels and exit");
    app.add_flag("--cpu", bench_options.cpu,
                 "time the CPU backend against OpenCV and memcpy (default sizes 6000x4000 and 1920x1080, types u8c1,u8c3,u8c4,u16c3,f32c1)");
    app.add_option("--threads", bench_options.threads, "with --cpu, threads for gpurotate and OpenCV (default: the cores the process may run on)")
        ->check(CLI::Range(1, 1024));
    app.add_option("--cpu-kernels", bench_options.cpu_kernels, "with --cpu, the CPU kernels' instruction set: baseline or avx2 (default: the best)")
        ->check(CLI::IsMember({"baseline", "avx2"}));
    app.add_option("--cpu-stores", bench_options.cpu_stores,
                   "with --cpu, how the mirrors store: plain or streaming (default: streaming for outputs of 16 MiB, or half the L3 if less)")
        ->check(CLI::IsMember({"plain", "streaming"}));
    app.add_flag("--fused-sweep", bench_options.fused_sweep,
                 "the library's fused multi-output choice against the vectorized and tile32 fused kernels and auto-x7, all 7 "
                 "elements, for every --type at sizes 512x512 to 16384x16384 (or --size alone); rows over 1.03 of the fastest "
                 "are flagged SLOW; --json writes them");
    app.add_flag("--no-ceilings", bench_options.no_ceilings,
                        "run only the kernels --kernel names, not the copy ceilings too (for profilers; no shares of copy)");

    if (!cli::parse_command_line(app, argc, argv, exit_status, "gpurotate bench --help")) return std::nullopt;
    parse_bench_lists(size_text, grouped_sizes_text, types_text, ops_text, kernels_text, bench_options);
    bench_options.grouped_scratch_padding = grouped_padding == "scratch";
    for (const auto& [name, interpolation] : bench_interpolations()) {
        if (name == interpolation_text) bench_options.interpolation = interpolation;
    }
    if (!bench_options.rotations.empty() && (bench_options.cpu || bench_options.grouped > 0 || bench_options.batch > 1)) {
        throw Error(ErrorCode::usage, "--op rotateDEG: the GPU rows of one image only (not with --cpu, --grouped or --batch)");
    }
    const bool other_mode = bench_options.cpu || bench_options.grouped > 0 || bench_options.batch > 1 || !bench_options.rotations.empty() ||
                            !bench_options.kernels.empty();
    if (bench_options.fused_sweep && other_mode) {
        throw Error(ErrorCode::usage, "--fused-sweep: times its own four ways on one image of each size (not with --cpu, --grouped, --batch, "
                                      "--kernel or --op rotateDEG)");
    }
    if (bench_options.fused_sweep && bench_options.operations.size() == 1) {
        throw Error(ErrorCode::usage, "--fused-sweep: --op names one element; a fused launch makes two or more");
    }
    return bench_options;
}

}  // namespace gpurotate::bench
