#include "convert/encoded_conversion.hpp"

#include "convert/conversion_plan.hpp"
#include "convert/run_conversion.hpp"
#include "convert/staging_buffer.hpp"
#include "core/text.hpp"
#include "formats/format_registry.hpp"
#include "formats/image_sink.hpp"
#include "formats/image_source.hpp"

#include <gpurotate/error.hpp>

#include <utility>

namespace gpurotate::convert {
namespace {

// The sink's one file, kept in memory: the seam the CLI's standard output takes too (cli/run.cpp).
class MemoryOutput final : public detail::ContainingFolder {
public:
    void write_file(const std::string&, const std::vector<std::uint8_t>& bytes, bool, bool) const override { bytes_ = bytes; }
    std::vector<std::uint8_t> take() { return std::move(bytes_); }

private:
    mutable std::vector<std::uint8_t> bytes_;
};

// What the CLI's single-image command does with what the run tells: warnings kept, failures thrown.
class EncodedObserver final : public ConversionObserver {
public:
    /// `rotated`: a JPEG's re-encoding is said too, as the CLI's note says it: by an angle that is not a multiple
    /// of 90 it is the rule, not a fallback, and the caller should know the output is not lossless.
    EncodedObserver(std::vector<std::string>& warnings, bool rotated, std::string at_quality)
        : warnings_(warnings), rotated_(rotated), at_quality_(std::move(at_quality)) {}
    void notice(const std::string& path, Notice kind, const std::string& text) override {
        if (kind == Notice::reencoded) {
            if (rotated_) warnings_.push_back("'" + path + "': JPEG re-encoded " + at_quality_ + ", not transformed losslessly: " + text);
        } else if (is_about_gpu(kind)) {
            warnings_.push_back(text);
        } else if (is_warning(kind)) {
            warnings_.push_back("'" + path + "'" + (is_plan_warning(kind) ? " " : ": ") + text);
        }
    }
    bool wants(Notice kind) const override { return kind != Notice::png_output && kind != Notice::unwritten; }
    void written(std::size_t, const OutputReport&) override {}
    void output_failed(std::size_t, const OutputReport&, const Error& error) override { throw error; }
    void input_failed(const Error& error, Step) override { throw error; }

private:
    std::vector<std::string>& warnings_;
    bool rotated_;
    std::string at_quality_;
};

// The format asked for, or the input's own (as -i keeps it: by content, whatever the name).
const detail::FormatRow& output_format(const detail::ImageSource& source, const std::string& format) {
    if (!format.empty()) return detail::output_format_of_extension("." + detail::lowercase(format), "format " + format, ErrorCode::usage);
    const detail::FormatRow* row = detail::format_of_content(source.bytes().data(), source.bytes().size());
    if (!row) {
        (void)source.decode(default_max_pixels, false);  // the decoders' own message, as the CLI gives it (Error, input)
        throw Error(ErrorCode::input, "'" + source.path() + "': not an image this build reads (its first bytes name no format)");
    }
    if (!row->written()) {
        throw Error(ErrorCode::output, "'" + source.path() + "' is a " + row->name +
                                           " image, which gpurotate reads but does not write: name the output's format (format=\"png\")");
    }
    if (!row->compiled_in()) {
        throw Error(ErrorCode::output, "'" + source.path() + "' is a " + row->name + " image: " + row->name + " output needs " + row->writer() +
                                           ", which this build does not have: name another format (format=\"png\")");
    }
    return *row;
}

}  // namespace

EncodedResult convert_encoded(std::vector<std::uint8_t> bytes, const std::string& name, Orientation element, const std::string& format,
                              const ConversionOptions& options, Backend backend, GpuResources* gpu) {
    if (backend == Backend::cuda && !gpu) throw Error(ErrorCode::internal, "convert_encoded: the CUDA backend without its GPU resources");
    // As the CLI reads an empty file (formats/file_bytes.cpp's read_file).
    if (bytes.empty()) throw Error(ErrorCode::input, "cannot read '" + name + "': file is empty");
    EncodedResult result;
    const detail::ImageSource source(name, std::move(bytes), options.max_jpeg_scans);
    MemoryOutput memory;
    detail::ImageSink sink(name, output_format(source, format), true, false, &memory, name);
    if (!format.empty()) sink.chosen_by(detail::FormatChoice::format_option);
    ConversionRun run;
    run.backend = backend;
    run.gpu = backend == Backend::cuda ? gpu : nullptr;
    StagingBuffer staging(false);
    run.staging = &staging;
    EncodedObserver observer(result.warnings, options.rotation.has_value(),
                             options.quality_given ? "at quality " + std::to_string(options.quality) : "at the input's quality");
    // On a GPU whose resources code JPEG scans (a Python Session's, as augment's workers'), a JPEG stays a
    // lossless transform, its scan coded there; without them the GPU moves pixels, as the CLI's --device cuda.
    const bool scans_on_gpu = backend == Backend::cuda && gpu->policy().scan_coders;
    const std::vector<ConversionOutput> outputs{{sink, plan_conversion(source, sink, element, options, Executor{backend, scans_on_gpu})}};
    run_conversion(source, outputs, options, run, observer);
    result.bytes = memory.take();
    return result;
}

}  // namespace gpurotate::convert
