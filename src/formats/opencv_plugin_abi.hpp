#pragma once
// The interface between gpurotate and its codec plugin (libgpurotate-opencv.so: OpenEXR and the rarer formats
// OpenCV reads, through OpenCV), which is loaded with dlopen only when a file needs it, so that no other run
// maps OpenCV and its dozens of libraries. TIFF and WebP are linked in (tiff_codec.hpp, webp_codec.hpp). Plain C types only: the plugin links nothing
// of gpurotate's.

#include <cstddef>

extern "C" {

/// Sample types across the interface.
enum GpurotateCvSample { gpurotate_cv_u8 = 0, gpurotate_cv_u16 = 1, gpurotate_cv_f32 = 2 };

/// Pixels in RGB(A) order, rows `pitch` bytes apart. `owner` is the plugin's, released by `release`.
struct GpurotateCvImage {
    int width;
    int height;
    int channels;
    int sample;  ///< a GpurotateCvSample
    const unsigned char* data;
    std::size_t pitch;
    void* owner;
};

/// Encoded bytes, owned by the plugin until `release_bytes`.
struct GpurotateCvBytes {
    unsigned char* data;
    std::size_t size;
    void* owner;
};

struct GpurotateCvPlugin {
    int abi_version;  ///< gpurotate_cv_abi_version
    /// 1 and `out` filled when the plugin decodes `bytes` into 1-4 channels of u8, u16 or f32; else 0, nothing
    /// held (`error` left empty).
    int (*decode)(const unsigned char* bytes, std::size_t size, GpurotateCvImage* out, char* error, std::size_t error_size);
    void (*release)(void* owner);
    /// 1 and `out` filled on success; else 0 with a message in `error`. `extension` is ".exr" or ".jpg";
    /// `quality` applies to JPEG.
    int (*encode)(const GpurotateCvImage* image, const char* extension, int quality, GpurotateCvBytes* out, char* error,
                  std::size_t error_size);
    void (*release_bytes)(void* owner);
};

/// The one symbol the plugin exports.
const GpurotateCvPlugin* gpurotate_opencv_plugin();
}

inline constexpr int gpurotate_cv_abi_version = 10;
inline constexpr const char* gpurotate_cv_plugin_file = "libgpurotate-opencv.so";
