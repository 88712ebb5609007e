#pragma once
// The output formats: which extension names which format, what each holds exactly, and who encodes it.

#include <gpurotate/error.hpp>
#include <gpurotate/image.hpp>

#include <string>
#include <vector>

namespace gpurotate::detail {

enum class OutputFormat { png, jpeg, bmp, tga, hdr, tiff, webp, exr };

/// One output format and its capabilities.
struct OutputFormatSpec {
    OutputFormat format;
    const char* name;
    std::vector<std::string> extensions;
    std::vector<SampleType> samples;  ///< sample types stored exactly
    std::vector<int> channels;        ///< channel counts stored exactly
    bool needs_opencv;
};

/// Every format this program knows, compiled in or not.
const std::vector<OutputFormatSpec>& output_format_table();

/// Whether the OpenCV codecs are compiled in.
bool opencv_codecs_available();

/// "8-bit/16-bit with 1, 2, 3, 4 channel(s)"
std::string describe_capacity(const OutputFormatSpec& spec);

/// The format `path`'s extension names, usable in this build. Throws Error (output) for an unknown
/// extension or a format this build lacks.
const OutputFormatSpec& output_format_named_by(const std::string& path);

/// The format extension `ext` (lower case, with its dot: ".png") names, usable in this build; an Error with `code` whose
/// message starts with `subject` ("--format xyz") otherwise.
const OutputFormatSpec& output_format_of_extension(const std::string& ext, const std::string& subject, ErrorCode code);

/// The format `path`'s extension names, usable in this build. Throws Error (output) for an unknown
/// extension, a format this build lacks, or one that cannot hold `pixels` exactly.
const OutputFormatSpec& output_format_for(const std::string& path, PixelFormat pixels);

}  // namespace gpurotate::detail
