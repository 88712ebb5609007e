#include "cli/run.hpp"

#include "cli/driver_gpus.hpp"
#include "cli/gpu_startup.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include "formats/format_registry.hpp"
#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"
#include "formats/file_bytes.hpp"
#include "core/path_names.hpp"
#include "core/text.hpp"
#include "metadata/metadata.hpp"
#include "jpeg/nvjpeg_codec.hpp"
#include "formats/png_codec.hpp"
#include "convert/conversion_plan.hpp"
#include "convert/output_fit.hpp"
#include "core/nvtx.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>

#include <sys/stat.h>

namespace gpurotate::cli {
namespace {

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

class StageClock {
public:
    double lap_ms() {
        const auto now = std::chrono::steady_clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
        last_ = now;
        return ms;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

std::string fixed_ms(double ms) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << ms << " ms";
    return text.str();
}

std::string startup_text(GpuStartup& gpu) {
    std::ostringstream text;
    const double seconds = gpu.wait().seconds;
    text << std::fixed << std::setprecision(1) << "CUDA start-up " << seconds * 1e3 << " ms on its own thread, "
         << std::max(0.0, seconds - gpu.waited_seconds()) * 1e3 << " ms of it hidden behind reading and decoding";
    return text.str();
}

// The route nvJPEG runs (convert::Route::gpu_jpeg): transformed and encoded in device memory, from `decoded`
// (libjpeg-turbo's pixels, uploaded) or, without it, from nvJPEG's decode. False where nvJPEG declines the
// file; the caller then takes the pixels' route.
bool transcode_on_gpu(const Options& options, const detail::ImageSource& source, const detail::ImageSink& sink, const Image* decoded,
                      const convert::ConversionPlan& plan, GpuStartup& gpu, StageClock& clock, std::ostream& log) {
    detail::GpuJpegReport report;
    std::optional<std::vector<std::vector<std::uint8_t>>> encoded;
    try {
        detail::NvjpegCoder& coder = *gpu.wait().coder;
        encoded = coder.variants(source.bytes(), source.path(), {plan.element}, plan.encoding.quality, options.convert.read_options(), report, decoded);
    } catch (const Error& e) {
        throw Error(e.code(), std::string(e.what()) + " (without --nvjpeg the CPU codecs do this)");
    }
    if (!encoded) return false;
    const double gpu_ms = clock.lap_ms();
    {
        detail::NvtxRange range("write");
        sink.write_encoded(detail::with_metadata(std::move(encoded->front()), plan.metadata));
    }
    const double write_ms = clock.lap_ms();
    if (options.verbose) {
        const auto gpus = cuda_devices();
        log << std::fixed << std::setprecision(1) << "gpurotate: " << source.path() << " -> " << name(plan.element) << " -> " << sink.path()
            << " (" << report.width << "x" << report.height << ", " << (report.channels == 1 ? "grey" : "RGB") << ", " << report.subsampling
            << ")\n"
            << "gpurotate: backend cuda (" << (gpus.empty() ? std::string("?") : gpus.front().name) << "), decoded by " << report.decoder
            << ", encoded on the GPU by nvJPEG; " << startup_text(gpu) << "\n"
            << "gpurotate: " << (decoded ? "upload" : "decode") << " + transform + encode " << gpu_ms << " ms (with the wait for the GPU), write "
            << write_ms << " ms\n";
    }
    return true;
}

// The line that says a JPEG written from a JPEG got new pixels, once it is written: the user asked for a
// rotation, which is lossless by default, so it is said without -v (--quiet silences notes, not warnings,
// as augment's does).
void say_reencoded(const Options& options, const detail::ImageSource& source, const std::string& why, std::ostream& log) {
    if (!options.quiet && !why.empty()) log << "gpurotate: note: '" << source.path() << "': JPEG re-encoded, not transformed losslessly: " << why << "\n";
}

// The route of a JPEG's coefficients (convert::Route::lossless_jpeg). False where the transform is not
// perfect and --jpeg-edge allows a re-encode, with `why_not` set; the caller then takes the pixels' route.
bool transform_jpeg_losslessly(const Options& options, const detail::ImageSource& source, const detail::ImageSink& sink,
                               const convert::ConversionPlan& plan, StageClock& clock, std::string& why_not, std::ostream& log) {
    const convert::ConversionOptions& convert = options.convert;
    std::vector<detail::LosslessJpegReport> reports;
    std::vector<std::optional<std::vector<std::uint8_t>>> transformed;
    {
        detail::NvtxRange range("lossless JPEG transform");
        transformed = source.transform_losslessly({detail::LosslessJpegVariant{plan.element, &plan.metadata}}, convert.jpeg_edge, convert.strip,
                                                  convert.max_pixels, reports);
    }
    // The plan chose this route for a JPEG with libjpeg-turbo's transcoding API, which answers every variant.
    if (transformed.empty()) throw Error(ErrorCode::internal, "'" + source.path() + "': the lossless JPEG transform answered nothing");
    const detail::LosslessJpegReport& report = reports.front();
    if (!transformed.front()) {
        if (convert.jpeg_edge == detail::JpegEdge::error) throw detail::imperfect_transform_error(source.path(), plan.element, report);
        why_not = convert::why_not_lossless(report, plan.element, convert.jpeg_edge);
        return false;
    }
    const double transform_ms = clock.lap_ms();
    {
        detail::NvtxRange range("write");
        sink.write_encoded(*transformed.front());
    }
    const double write_ms = clock.lap_ms();
    if (report.edge_kept && !options.quiet) {
        log << "gpurotate: note: '" << source.path() << "': " << report.width << "x" << report.height << " is not whole " << report.mcu_width << "x"
            << report.mcu_height << " blocks: the partial edge blocks stay where they are, unturned (--jpeg-edge keep, as exiftran -i; "
            << "--jpeg-edge trim drops them, reencode turns every pixel)\n";
    }
    if (report.trimmed && !options.quiet) {
        log << "gpurotate: note: '" << source.path() << "': --jpeg-edge trim dropped the partial edge blocks: " << report.out_width << "x"
            << report.out_height << " written where the whole image is " << (swaps_axes(plan.element) ? report.height : report.width) << "x"
            << (swaps_axes(plan.element) ? report.width : report.height) << "\n";
    }
    if (options.verbose) {
        log << std::fixed << std::setprecision(1) << "gpurotate: " << source.path() << " (" << report.width << "x" << report.height << " JPEG, "
            << report.mcu_width << "x" << report.mcu_height << " MCUs) -> " << name(plan.element) << " -> " << sink.path() << " ("
            << report.out_width << "x" << report.out_height << ")\n"
            << "gpurotate: lossless JPEG transform of the DCT coefficients (no decode, no re-encode" << (report.trimmed ? ", trimmed" : "")
            << "): transform " << transform_ms << " ms, write " << write_ms << " ms\n";
    }
    return true;
}

// The bytes of standard output, where -o - sends them.
class StandardOutput final : public detail::ContainingFolder {
public:
    void write_file(const std::string&, const std::vector<std::uint8_t>& bytes, bool, bool) const override { detail::write_standard_output(bytes); }
};

detail::ImageSource open_source(const Options& options, std::ostream& log) {
    if (options.input != "-") return detail::ImageSource(options.input, options.convert.max_jpeg_scans, options.max_input_bytes);
    detail::StreamImage stream = detail::read_standard_input(options.max_input_bytes);
    if (stream.more_followed) {
        log << "gpurotate: warning: standard input goes on after the end of its " << stream.format << " image; the rest was not read\n";
    }
    return detail::ImageSource("standard input", std::move(stream.bytes), options.convert.max_jpeg_scans);
}

// -i keeps each file's format as its content says, whatever its name: a PNG named x.jpg stays a PNG.
const detail::FormatRow& format_kept_in_place(const detail::ImageSource& source) {
    const detail::FormatRow* row = detail::format_of_content(source.bytes().data(), source.bytes().size());
    if (!row) throw Error(ErrorCode::output, "'" + source.path() + "': -i keeps each file's format, and its content names none this build writes (write it elsewhere: -o OUTPUT)");
    if (!row->written()) {
        throw Error(ErrorCode::output, "'" + source.path() + "' is a " + row->name + " file, which gpurotate reads but does not write: -i cannot keep its format (write it elsewhere: -o OUTPUT.png)");
    }
    if (!row->compiled_in()) throw Error(ErrorCode::output, "'" + source.path() + "' is a " + row->name + " file: " + row->name + " output needs " + row->writer() + ", which this build does not have");
    return *row;
}

// Whether -i has nothing to do: the element is the identity and nothing else would change the file
// (--auto-orient of an upright image, --rot90 --rot270). The file is left as it is, bytes and times.
bool leaves_file_as_it_is(const Options& options, const detail::ImageSource& source, const convert::ConversionPlan& plan) {
    const convert::ConversionOptions& c = options.convert;
    return options.in_place && plan.element == Orientation::identity && !(c.auto_orient && source.orientation_tag() > 1) && !c.strip &&
           !c.quality_given && !c.nvjpeg && c.depth == 0 && !c.flatten && c.background.empty();
}

// The output: a file in the format its extension names, or the one --format (or EXT:PATH) names; standard
// output in that format, or else in the input's (`source`, read first for it).
detail::ImageSink make_sink(const Options& options, const detail::ImageSource* source) {
    const auto format_of = [](const std::string& ext, const std::string& subject) {
        return &detail::output_format_of_extension("." + detail::lowercase(ext), subject, ErrorCode::usage);
    };
    const detail::FormatRow* named = options.output_format.empty() ? nullptr : format_of(options.output_format, "--format " + options.output_format);
    if (options.output == "-") {
        static const StandardOutput standard_output;
        if (!named && source && source->is_jpeg()) named = format_of("jpg", "standard output");
        if (!named && source && source->is_png()) named = format_of("png", "standard output");
        if (!named) throw Error(ErrorCode::usage, "-o -: name the format of standard output with --format EXT, or as EXT:- (png:-)");
        return detail::ImageSink("standard output", *named, true, false, &standard_output, "-");
    }
    if (options.in_place && source) named = &format_kept_in_place(*source);
    const std::string name = detail::file_name_of(options.output);
    if (!named && detail::stem_of(name) == name) {  // the registry would say "unknown output extension ''"
        throw Error(ErrorCode::output, "cannot write '" + options.output + "': its name has no extension to pick the format by: add one (" + name +
                                           ".png), or name the format with --format EXT or as EXT:PATH (png:" + options.output + ")");
    }
    detail::ImageSink sink = named ? detail::ImageSink(options.output, *named, options.overwrite, true) : detail::ImageSink(options.output, options.overwrite, true);
    // -i replaces a symbolic link by the new file and leaves its target alone, as sed -i does.
    if (options.in_place && !options.follow_symlinks) sink.set_links(detail::LinkPolicy::replace);
    return sink;
}

}  // namespace

void run_single_image(const Options& options, std::ostream& log) {
    Orientation requested = Orientation::identity;
    for (Orientation o : options.operations) requested = then(requested, o);
    const convert::ConversionOptions& convert = options.convert;

    // Everything that can be refused is refused before the decoding work starts.
    if (options.input != "-" && same_file(options.input, options.output) && !options.overwrite) {
        throw Error(ErrorCode::output, "input and output are the same file '" + options.output +
                                           "' (use --overwrite to replace the input)");
    }
    // Standard output without a format named takes the input's: the input is read first, before the sink.
    std::optional<detail::ImageSource> read_early;
    if ((options.output == "-" && options.output_format.empty()) || options.in_place) read_early.emplace(open_source(options, log));
    const detail::ImageSink sink = make_sink(options, read_early ? &*read_early : nullptr);
    sink.check_writable();
    if (convert.nvjpeg && !detail::nvjpeg_available()) throw Error(ErrorCode::usage, "--nvjpeg: this build has no nvJPEG");
    if (convert.nvjpeg && options.device == Backend::cpu) throw Error(ErrorCode::usage, "--nvjpeg runs on the GPU: it cannot go with --device cpu");
    // One image from a file: the CPU was faster at every size measured (bench/RESULTS.md: CUDA start-up
    // takes 0.3 s and the transfers as long as the CPU's transform), so --device auto means the CPU here.
    // The GPU is for --device cuda, --nvjpeg, datasets (augment) and pixels already on the device.
    const Backend backend = convert.nvjpeg || options.device == Backend::cuda ? Backend::cuda : Backend::cpu;
    // It starts now, on a thread of its own, while this one reads and decodes; with nvJPEG's coder only where
    // the output is a JPEG (its handle alone takes 0.3 s).
    std::optional<GpuStartup> gpu;
    if (backend == Backend::cuda) gpu.emplace(convert.nvjpeg && sink.is_jpeg(), convert.nvjpeg_decode == detail::NvjpegDecode::gpu, options.gpu_memory);

    // One read of the file: its bytes, its metadata and its header, from which the plan is made.
    StageClock clock;  // "decode" in -v counts the file's read too
    const detail::ImageSource source = [&] {
        detail::NvtxRange range("read");
        return read_early ? std::move(*read_early) : open_source(options, log);
    }();
    const convert::ConversionPlan plan = convert::plan_conversion(source, sink, requested, convert, convert::Executor{backend, false});
    for (const convert::PlanWarning& warning : plan.warnings) log << "gpurotate: warning: '" << source.path() << "' " << warning.text << "\n";
    if (leaves_file_as_it_is(options, source, plan)) {
        if (options.verbose) log << "gpurotate: " << source.path() << ": the operations make the identity; the file is left as it is\n";
        return;
    }

    std::string why_reencoded = plan.why_reencoded;  // said once the re-encoded JPEG is written
    if (plan.route == convert::Route::lossless_jpeg && transform_jpeg_losslessly(options, source, sink, plan, clock, why_reencoded, log)) return;
    const bool jpeg_on_gpu = plan.route == convert::Route::gpu_jpeg;
    if (jpeg_on_gpu && convert.nvjpeg_decode == detail::NvjpegDecode::gpu && transcode_on_gpu(options, source, sink, nullptr, plan, *gpu, clock, log)) {
        say_reencoded(options, source, why_reencoded, log);
        return;
    }
    Image input = [&] {
        detail::NvtxRange range("decode");
        return source.decode(convert.max_pixels, plan.keep_stored_png);
    }();
    // Also where nvJPEG declined to decode a file that libjpeg-turbo takes.
    if (jpeg_on_gpu && transcode_on_gpu(options, source, sink, &input, plan, *gpu, clock, log)) {
        say_reencoded(options, source, why_reencoded, log);
        return;
    }
    const double decode_ms = clock.lap_ms();
    if (const std::string losses = source.decoder_losses(input.format(), convert.strip); !losses.empty()) {
        log << "gpurotate: warning: '" << source.path() << "': " << losses << "\n";
    }
    // --depth 8 and --flatten/--background; a refusal where the format still cannot hold the pixels.
    input = convert::fit_to_output(std::move(input), convert, sink);
    if (gpu) gpu->wait();
    const double gpu_wait_ms = clock.lap_ms();

    const Image output = [&] {
        detail::NvtxRange range("transform");
        return transform(input, plan.element, TransformOptions{backend, options.kernel, options.gpu_memory});
    }();
    const double transform_ms = clock.lap_ms();

    const WriteOptions write = plan.write_options();
    {
        detail::NvtxRange range("encode");
        sink.write(output.view(), write);
    }
    const double encode_ms = clock.lap_ms();
    say_reencoded(options, source, why_reencoded, log);

    if (options.verbose) {
        std::string device = "cpu";
        if (backend == Backend::cuda) {
            const auto gpus = cuda_devices();
            device = "cuda (" + (gpus.empty() ? std::string("?") : gpus.front().name) + ", kernel " + to_string(options.kernel) + "); " +
                     startup_text(*gpu);
        }
        log << std::fixed << std::setprecision(1) << "gpurotate: " << source.path() << " (" << input.width() << "x"
            << input.height() << " " << to_string(input.format()) << ") -> " << name(plan.element) << " -> " << sink.path() << " ("
            << output.width() << "x" << output.height() << ")\n"
            << "gpurotate: backend " << device << "\n"
            << "gpurotate: decode " << decode_ms << " ms, " << (gpu ? "wait for the GPU " + fixed_ms(gpu_wait_ms) + ", " : "") << "transform " << transform_ms << " ms (with transfers), encode "
            << encode_ms << " ms\n";
        if (sink.is_jpeg() && source.jpeg_character()) {
            log << "gpurotate: JPEG encoded at quality " << write.quality
                << (plan.quality_from_input ? " (the input's, from its quantization tables)" : " (--quality)") << ", chroma " << to_string(write.chroma) << "\n";
        }
        if (write.lossless) log << "gpurotate: WebP encoded losslessly, as the input is coded (--quality makes it lossy)\n";
        const std::string unwritten = sink.unwritten(source, plan.metadata, convert.strip);
        if (!unwritten.empty()) log << "gpurotate: " << unwritten << "\n";
        if (plan.keep_stored_png) {
            const PngStorage& stored = *source.metadata().png_storage;
            log << "gpurotate: PNG written as the input stores it: colour type " << stored.color_type << ", " << stored.bit_depth << "-bit"
                << (stored.palette.empty() ? "" : ", PLTE") << (stored.transparency.empty() ? "" : ", tRNS") << "\n";
            const std::string notes = detail::png_output_notes(plan.metadata, output.format());
            if (!notes.empty()) log << "gpurotate: PNG: " << notes << "\n";
        }
    }
}

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
