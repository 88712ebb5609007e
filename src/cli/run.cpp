#include "cli/run.hpp"

#include "cli/single_image_report.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>

#include "convert/conversion_plan.hpp"
#include "convert/gpu_resources.hpp"
#include "convert/run_conversion.hpp"
#include "core/nvtx.hpp"
#include "core/text.hpp"
#include "formats/file_bytes.hpp"
#include "formats/format_registry.hpp"
#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"
#include "metadata/tiff_directory.hpp"
#include "core/path_names.hpp"

#include <chrono>
#include <optional>
#include <ostream>

#include <sys/stat.h>

namespace gpurotate::cli {
namespace {

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
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
    // Only a TIFF's first page is read: replacing the file would lose the others.
    if (row->format == detail::FileFormat::tiff) {
        if (const auto directory = detail::read_tiff_directory(source.bytes()); directory && directory->pages > 1) {
            throw Error(ErrorCode::output, "'" + source.path() + "' is a TIFF of " + std::to_string(directory->pages) +
                                               " pages, and only the first is read: -i would replace the file by it (write it elsewhere: -o OUTPUT.tif)");
        }
    }
    return *row;
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
    const bool durable = options.flush_each_file;
    detail::ImageSink sink = named ? detail::ImageSink(options.output, *named, options.overwrite, durable) : detail::ImageSink(options.output, options.overwrite, durable);
    // -i replaces a symbolic link by the new file and leaves its target alone, as sed -i does.
    if (options.in_place && !options.follow_symlinks) sink.set_links(detail::LinkPolicy::replace);
    return sink;
}

}  // namespace

bool converts_on_gpu(const Options& options) { return options.convert.nvjpeg || options.device == Backend::cuda; }

void run_single_image(const Options& options, std::ostream& log, convert::GpuResources* shared_gpu) {
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
    detail::ImageSink sink = make_sink(options, read_early ? &*read_early : nullptr);
    sink.check_writable();
    convert::check_nvjpeg_request(convert, options.device, "");
    // One image from a file: the CPU was faster at every size measured (bench/RESULTS.md: CUDA start-up
    // takes 0.3 s and the transfers as long as the CPU's transform), so --device auto means the CPU here.
    // The GPU is for --device cuda, --nvjpeg, datasets (augment) and pixels already on the device.
    convert::ConversionRun run;
    run.backend = converts_on_gpu(options) ? Backend::cuda : Backend::cpu;
    run.kernel = options.kernel;
    run.cpu_threads = options.cpu_threads;
    run.gpu_memory = options.gpu_memory;
    run.leave_identity_untouched = options.in_place;
    // The GPU starts now, on a thread of its own, while this one reads and decodes: a pool of one, with
    // nvJPEG's coder only where the output is a JPEG (its handle alone takes 0.3 s).
    const convert::GpuPolicy policy = convert::single_image_gpu_policy(convert, convert.nvjpeg && sink.is_jpeg(), options.gpu_memory);
    SingleImageReport report(options, run.backend, log);
    std::optional<convert::GpuResources> gpu;
    if (run.backend == Backend::cuda) run.gpu = shared_gpu ? shared_gpu : &gpu.emplace(policy, report);

    // One read of the file: its bytes, its metadata and its header, from which the plan is made.
    convert::StagingBuffer staging(false);
    run.staging = &staging;
    run.started = std::chrono::steady_clock::now();  // "decode" in -v counts the file's read too
    const detail::ImageSource source = [&] {
        detail::NvtxRange range("read");
        return read_early ? std::move(*read_early) : open_source(options, log);
    }();
    const std::vector<convert::ConversionOutput> outputs{
        {sink, convert::plan_conversion(source, sink, requested, convert, convert::Executor{run.backend, false})}};
    report.follow(source, outputs.front(), run.gpu);
    convert::run_conversion(source, outputs, convert, run, report);
}

}  // namespace gpurotate::cli
