// The OpenCV codecs through the plugin libgpurotate-opencv.so (opencv_plugin_abi.hpp), found beside the
// executable (or in the build tree it was built in) and loaded on first use. GPUROTATE_PLUGIN_DIR, where
// set, is the only folder looked in: an installation can be pointed elsewhere, and the fuzzers point it at
// nothing, so that they fuzz our decoders and not OpenCV's.

#include "formats/opencv_codec.hpp"

#include "formats/alpha_channel.hpp"
#include "formats/declared_extent.hpp"
#include "formats/decoder_losses.hpp"
#include "core/decode_limits.hpp"
#include "formats/opencv_plugin_abi.hpp"
#include "metadata/tiff_directory.hpp"
#include "metadata/tiff_exif.hpp"
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
        case OutputFormat::webp: return ".webp";
        case OutputFormat::exr: return ".exr";
        case OutputFormat::tiff: return ".tif";
        default: throw Error(ErrorCode::internal, "OpenCV asked for a format it does not encode here");
    }
}

}  // namespace

bool opencv_codecs_available() { return !plugin_path().empty(); }

std::optional<Image> opencv_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!opencv_codecs_available()) return std::nullopt;
    if (const auto declared = declared_extent(bytes)) check_declared_size(path, declared->width, declared->height, options);
    // OpenCV reads an EXR without R, G, B or Y as zeros.
    if (const auto channels = exr_channels(bytes)) {
        const bool colour = std::any_of(channels->begin(), channels->end(), [](const std::string& c) { return c == "R" || c == "G" || c == "B" || c == "Y"; });
        if (!colour) throw Error(ErrorCode::input, "cannot decode '" + path + "': an OpenEXR image with no R, G, B or Y channel (OpenCV reads those)");
    }
    // An animated WebP, which OpenCV 4.6 cannot read: said so, not "not an image".
    if (bytes.size() >= 21 && std::memcmp(bytes.data(), "RIFF", 4) == 0 && std::memcmp(bytes.data() + 8, "WEBPVP8X", 8) == 0 && (bytes[20] & 0x02)) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': an animated WebP (OpenCV reads still WebPs only; extract a frame with webpmux -get frame 1)");
    }
    const GpurotateCvPlugin& cv = plugin(ErrorCode::input);
    // A TIFF's pixels as stored: OpenCV's reader (the plugin's fallback for palette, CMYK and bilevel TIFFs) would
    // apply the Orientation tag, so it reads a copy whose tag says 1. The tag travels as an EXIF orientation
    // (tiff_exif.cpp), applied by --auto-orient as every format's is.
    const auto tiff = read_tiff_directory(bytes);
    std::vector<std::uint8_t> as_stored;
    if (tiff && tiff->value(274).value_or(1) != 1 && tiff->entries.at(274).type == 3) {
        as_stored = bytes;
        const std::uint64_t at = tiff->entries.at(274).at;
        as_stored[at] = tiff->big_endian ? 0 : 1, as_stored[at + 1] = tiff->big_endian ? 1 : 0;
    }
    const std::vector<std::uint8_t>& input = as_stored.empty() ? bytes : as_stored;
    GpurotateCvImage decoded{};
    char error[512] = "";
    if (!cv.decode(input.data(), input.size(), &decoded, error, sizeof error)) {
        if (error[0] != '\0') throw Error(ErrorCode::input, "cannot decode '" + path + "': " + error);  // a TIFF libtiff read and found damaged
        return std::nullopt;
    }
    const std::unique_ptr<void, void (*)(void*)> owner(decoded.owner, cv.release);
    const auto sample = sample_of(decoded.sample);
    if (!sample) return std::nullopt;
    check_declared_size(path, decoded.width, decoded.height, options);  // formats without a header probe
    Image image(decoded.width, decoded.height, PixelFormat{*sample, decoded.channels}, options.memory);
    for (int y = 0; y < decoded.height; ++y) {
        std::memcpy(image.view().row(y), decoded.data + static_cast<std::size_t>(y) * decoded.pitch, image.view().row_bytes());
    }
    // OpenCV reads a CMYK TIFF as RGB with an opaque alpha channel: the colours alone, so that a JPEG takes them.
    if (tiff && tiff->value(262) == 5u) {
        if (auto opaque = without_opaque_alpha(image.view(), options.memory)) image = std::move(*opaque);
    }
    // A TIFF's Orientation tag is not applied: its pixels arrive as stored, as every format's do, and the tag
    // travels as an EXIF orientation (metadata.cpp), applied by --auto-orient.
    return image;
}

std::vector<std::uint8_t> opencv_encode(ConstImageView image, OutputFormat format, int quality, const ImageMetadata* metadata) {
    if (!opencv_codecs_available()) throw Error(ErrorCode::output, "this gpurotate has no OpenCV codecs (" + std::string(gpurotate_cv_plugin_file) + ")");
    const char* extension = extension_of(format);
    const GpurotateCvPlugin& cv = plugin(ErrorCode::output);
    const bool icc = metadata && !metadata->icc.empty(), exif = metadata && !metadata->exif.empty();
    const Resolution* resolution = metadata && metadata->resolution ? &*metadata->resolution : nullptr;
    // A TIFF's text tags, or for a TIFF output from another format those of its EXIF's IFD0 (Make, Model, ...),
    // which a TIFF holds in its own first directory.
    const bool tiff = format == OutputFormat::tiff;
    std::vector<std::pair<std::uint16_t, std::string>> text_tags;
    if (metadata) text_tags = metadata->tiff_text;
    if (metadata && tiff && text_tags.empty()) {
        if (const auto ifd0 = read_tiff_directory(metadata->exif)) text_tags = ifd0->text_tags(metadata->exif);
    }
    const ExifPointers pointers = metadata && tiff ? exif_pointers_for_tiff(metadata->exif) : ExifPointers{};
    std::string tiff_text;  // the text tags as the plugin takes them: tag (2 bytes, little-endian), value, NUL
    for (const auto& [tag, value] : text_tags) {
        tiff_text += static_cast<char>(tag & 0xff);
        tiff_text += static_cast<char>(tag >> 8);
        tiff_text += value.substr(0, value.find('\0'));
        tiff_text += '\0';
    }
    // A TIFF's own Orientation tag says what EXIF's did: the input as displayed.
    const int orientation = metadata ? std::max(1, gpurotate::exif_orientation(*metadata)) : 1;
    const GpurotateCvImage view{static_cast<int>(image.width), static_cast<int>(image.height), image.format.channels,
                                cv_sample(image.format.sample), reinterpret_cast<const unsigned char*>(image.data), image.pitch, nullptr,
                                metadata && metadata->associated_alpha ? 1 : 0, orientation, icc ? metadata->icc.data() : nullptr, icc ? metadata->icc.size() : 0,
                                exif ? metadata->exif.data() : nullptr, exif ? metadata->exif.size() : 0,
                                resolution ? resolution->x : 0, resolution ? resolution->y : 0,
                                !resolution                                  ? 1
                                : resolution->unit == Resolution::Unit::inch ? 2
                                : resolution->unit == Resolution::Unit::centimetre ? 3
                                                                                    : 1,
                                metadata && !metadata->xmp.empty() ? metadata->xmp.data() : nullptr, metadata ? metadata->xmp.size() : 0,
                                tiff_text.empty() ? nullptr : tiff_text.data(), tiff_text.size(),
                                (pointers.exif ? gpurotate_cv_tiff_exif : 0) | (pointers.gps ? gpurotate_cv_tiff_gps : 0),
                                metadata && tiff && !metadata->iptc.empty() ? metadata->iptc.data() : nullptr, metadata && tiff ? metadata->iptc.size() : 0};
    GpurotateCvBytes encoded{};
    char error[512] = "";
    if (!cv.encode(&view, extension, quality, &encoded, error, sizeof error)) throw Error(ErrorCode::output, error);
    const std::unique_ptr<void, void (*)(void*)> owner(encoded.owner, cv.release_bytes);
    std::vector<std::uint8_t> bytes(encoded.data, encoded.data + encoded.size);
    if ((pointers.exif || pointers.gps) && !place_exif_in_tiff(bytes, metadata->exif)) {
        throw Error(ErrorCode::output, "cannot add the EXIF and GPS directories to the TIFF: it passes 4 GiB with them, or " +
                                           std::string(gpurotate_cv_plugin_file) + " left them no place (out of date?); --strip writes none");
    }
    return bytes;
}

}  // namespace gpurotate::detail
