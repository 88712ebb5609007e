#include "codecs/output_format.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cctype>

namespace gpurotate::detail {
namespace {

std::string lower_extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::string sample_name(SampleType t) {
    return t == SampleType::u8 ? "8-bit" : t == SampleType::u16 ? "16-bit" : "32-bit float";
}

template <class T, class F>
std::string join(const std::vector<T>& items, F&& to_text, const char* separator) {
    std::string out;
    for (const T& item : items) out += (out.empty() ? "" : separator) + to_text(item);
    return out;
}

}  // namespace

const std::vector<OutputFormatSpec>& output_format_table() {
    using S = SampleType;
    static const std::vector<OutputFormatSpec> table = {
        {OutputFormat::png, "PNG", {".png"}, {S::u8, S::u16}, {1, 2, 3, 4}, false},
        // stb's JPEG encoder writes three components; a grey image is stored as three equal channels.
        {OutputFormat::jpeg, "JPEG", {".jpg", ".jpeg"}, {S::u8}, {1, 3}, false},
        {OutputFormat::bmp, "BMP", {".bmp"}, {S::u8}, {3, 4}, false},
        {OutputFormat::tga, "TGA", {".tga"}, {S::u8}, {1, 2, 3, 4}, false},
        {OutputFormat::hdr, "Radiance HDR", {".hdr"}, {S::f32}, {3}, false},
        {OutputFormat::tiff, "TIFF", {".tif", ".tiff"}, {S::u8, S::u16, S::f32}, {1, 2, 3, 4}, true},
        {OutputFormat::webp, "WebP", {".webp"}, {S::u8}, {3, 4}, true},
        {OutputFormat::exr, "OpenEXR", {".exr"}, {S::f32}, {1, 3, 4}, true},
    };
    return table;
}

std::string describe_capacity(const OutputFormatSpec& spec) {
    return join(spec.samples, sample_name, "/") + " with " +
           join(spec.channels, [](int c) { return std::to_string(c); }, ", ") + " channel(s)";
}

const OutputFormatSpec& output_format_named_by(const std::string& path) {
    return output_format_of_extension(lower_extension(path), "cannot write '" + path + "'", ErrorCode::output);
}

const OutputFormatSpec& output_format_of_extension(const std::string& ext, const std::string& subject, ErrorCode code) {
    const auto& table = output_format_table();
    const auto spec = std::find_if(table.begin(), table.end(), [&](const OutputFormatSpec& s) {
        return std::find(s.extensions.begin(), s.extensions.end(), ext) != s.extensions.end();
    });
    if (ext.empty() || spec == table.end()) {
        std::string known;
        for (const auto& s : table) {
            if (!s.needs_opencv || opencv_codecs_available()) known += (known.empty() ? "" : " ") + join(s.extensions, [](const std::string& e) { return e; }, " ");
        }
        throw Error(code, subject + ": unknown output extension '" + ext + "' (known: " + known + ")");
    }
    if (spec->needs_opencv && !opencv_codecs_available()) {
        throw Error(code, subject + ": " + spec->name + " output needs OpenCV, which this build does not have");
    }
    return *spec;
}

namespace {

bool holds(const OutputFormatSpec& spec, PixelFormat pixels) {
    return std::find(spec.samples.begin(), spec.samples.end(), pixels.sample) != spec.samples.end() &&
           std::find(spec.channels.begin(), spec.channels.end(), pixels.channels) != spec.channels.end();
}

// The extensions of this build's formats that hold `pixels`, for the refusal's advice.
std::string formats_holding(PixelFormat pixels) {
    std::string list;
    for (const auto& s : output_format_table()) {
        if (holds(s, pixels) && (!s.needs_opencv || opencv_codecs_available())) list += (list.empty() ? "" : " or ") + s.extensions.front();
    }
    return list.empty() ? "none of this build's formats does" : "e.g. " + list;
}

}  // namespace

const OutputFormatSpec& output_format_for(const std::string& path, PixelFormat pixels) {
    const OutputFormatSpec* spec = &output_format_named_by(path);
    if (!holds(*spec, pixels)) {
        throw Error(ErrorCode::output, "cannot write '" + path + "': " + spec->name + " cannot hold " +
                                           sample_name(pixels.sample) + " " + std::to_string(pixels.channels) +
                                           "-channel pixels exactly (it holds " + describe_capacity(*spec) +
                                           "); choose another extension: " + formats_holding(pixels));
    }
    return *spec;
}

}  // namespace gpurotate::detail
