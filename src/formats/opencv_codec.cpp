// The OpenCV codecs through the plugin libgpurotate-opencv.so (opencv_plugin_abi.hpp), found beside the
// executable (or in the build tree it was built in) and loaded on first use. GPUROTATE_PLUGIN_DIR, where
// set, is the only folder looked in: an installation can be pointed elsewhere, and the fuzzers point it at
// nothing, so that they fuzz our decoders and not OpenCV's.

#include "formats/opencv_codec.hpp"

#include "formats/decoder_losses.hpp"
#include "core/decode_limits.hpp"
#include "formats/opencv_plugin_abi.hpp"
#include "core/executable_folder.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include <dlfcn.h>
#include <unistd.h>

namespace gpurotate::detail {
namespace {

// The plugin's path: the first of these folders that holds it, or empty.
const std::string& plugin_path() {
    static const std::string path = [] {
        std::string folders[2];
        if (const char* dir = std::getenv("GPUROTATE_PLUGIN_DIR")) {
            folders[0] = dir;
        } else {
            folders[0] = executable_folder();
#ifdef GPUROTATE_BUILD_PLUGIN_DIR
            folders[1] = GPUROTATE_BUILD_PLUGIN_DIR;
#endif
        }
        for (const std::string& folder : folders) {
            if (folder.empty()) continue;
            const std::string candidate = folder + "/" + gpurotate_cv_plugin_file;
            if (::access(candidate.c_str(), R_OK) == 0) return candidate;
        }
        return std::string();
    }();
    return path;
}

// The loaded plugin; throws Error (`code`) when it is there but does not load.
const GpurotateCvPlugin& plugin(ErrorCode code) {
    static std::once_flag once;
    static const GpurotateCvPlugin* loaded = nullptr;
    static std::string problem;
    std::call_once(once, [] {
        void* handle = ::dlopen(plugin_path().c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            problem = ::dlerror();
            return;
        }
        const auto entry = reinterpret_cast<const GpurotateCvPlugin* (*)()>(::dlsym(handle, "gpurotate_opencv_plugin"));
        const GpurotateCvPlugin* p = entry ? entry() : nullptr;
        if (!p || p->abi_version != gpurotate_cv_abi_version) {
            problem = "not a gpurotate OpenCV plugin of this version";
            return;
        }
        loaded = p;  // never unloaded: OpenCV keeps threads and state of its own
    });
    if (!loaded) throw Error(code, "cannot load the OpenCV codecs " + plugin_path() + ": " + problem);
    return *loaded;
}

std::optional<SampleType> sample_of(int sample) {
    switch (sample) {
        case gpurotate_cv_u8: return SampleType::u8;
        case gpurotate_cv_u16: return SampleType::u16;
        case gpurotate_cv_f32: return SampleType::f32;
        default: return std::nullopt;
    }
}

int cv_sample(SampleType s) { return s == SampleType::u8 ? gpurotate_cv_u8 : s == SampleType::u16 ? gpurotate_cv_u16 : gpurotate_cv_f32; }

const char* extension_of(OutputFormat format) {
    switch (format) {
        case OutputFormat::jpeg: return ".jpg";
        case OutputFormat::exr: return ".exr";
        default: throw Error(ErrorCode::internal, "OpenCV asked for a format it does not encode here");
    }
}

}  // namespace

bool opencv_codecs_available() { return !plugin_path().empty(); }

std::optional<Image> opencv_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!opencv_codecs_available()) return std::nullopt;
    // OpenCV reads an EXR without R, G, B or Y as zeros.
    if (const auto channels = exr_channels(bytes)) {
        const bool colour = std::any_of(channels->begin(), channels->end(), [](const std::string& c) { return c == "R" || c == "G" || c == "B" || c == "Y"; });
        if (!colour) throw Error(ErrorCode::input, "cannot decode '" + path + "': an OpenEXR image with no R, G, B or Y channel (OpenCV reads those)");
    }
    const GpurotateCvPlugin& cv = plugin(ErrorCode::input);
    GpurotateCvImage decoded{};
    char error[512] = "";
    if (!cv.decode(bytes.data(), bytes.size(), &decoded, error, sizeof error)) return std::nullopt;
    const std::unique_ptr<void, void (*)(void*)> owner(decoded.owner, cv.release);
    const auto sample = sample_of(decoded.sample);
    if (!sample) return std::nullopt;
    check_declared_size(path, decoded.width, decoded.height, options);  // these formats have no header probe here
    Image image(decoded.width, decoded.height, PixelFormat{*sample, decoded.channels}, options.memory);
    for (int y = 0; y < decoded.height; ++y) {
        std::memcpy(image.view().row(y), decoded.data + static_cast<std::size_t>(y) * decoded.pitch, image.view().row_bytes());
    }
    return image;
}

std::vector<std::uint8_t> opencv_encode(ConstImageView image, OutputFormat format, int quality) {
    if (!opencv_codecs_available()) throw Error(ErrorCode::output, "this gpurotate has no OpenCV codecs (" + std::string(gpurotate_cv_plugin_file) + ")");
    const char* extension = extension_of(format);
    const GpurotateCvPlugin& cv = plugin(ErrorCode::output);
    const GpurotateCvImage view{static_cast<int>(image.width), static_cast<int>(image.height), image.format.channels, cv_sample(image.format.sample),
                                reinterpret_cast<const unsigned char*>(image.data), image.pitch, nullptr};
    GpurotateCvBytes encoded{};
    char error[512] = "";
    if (!cv.encode(&view, extension, quality, &encoded, error, sizeof error)) throw Error(ErrorCode::output, error);
    const std::unique_ptr<void, void (*)(void*)> owner(encoded.owner, cv.release_bytes);
    return std::vector<std::uint8_t>(encoded.data, encoded.data + encoded.size);
}

}  // namespace gpurotate::detail
