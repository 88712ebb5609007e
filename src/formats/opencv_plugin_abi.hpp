#pragma once
// The interface between gpurotate and its codec plugin (libgpurotate-opencv.so: TIFF through libtiff, WebP
// and EXR through OpenCV), which is loaded with dlopen only when a file needs it, so that a PNG or JPEG run
// never maps OpenCV, libtiff and their dozens of libraries. Plain C types only: the plugin links nothing
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
    int alpha_associated;  ///< the last channel is premultiplied alpha (a TIFF's ExtraSamples 1); else unassociated
    int orientation;       ///< decode: a TIFF's Orientation tag (1-8), not applied to the pixels (gpurotate reads it from the file); 1 otherwise.
                           ///< encode: the Orientation tag a TIFF output gets (2-8; 1: none written)
    const unsigned char* icc;  ///< encode: an ICC profile for a TIFF or WebP output, or null
    std::size_t icc_size;
    const unsigned char* exif;  ///< encode: EXIF (the TIFF structure) for a WebP output, or null (a TIFF's: tiff_exif_pointers)
    std::size_t exif_size;
    double x_resolution;  ///< encode: a TIFF output's pixels per unit along x and y; 0: none
    double y_resolution;
    int resolution_unit;  ///< TIFF's ResolutionUnit: 1 none (the ratio), 2 inch, 3 centimetre
    const char* xmp;      ///< encode: an XMP packet for a TIFF or WebP output, or null
    std::size_t xmp_size;
    /// encode: a TIFF's text tags, each a 2-byte little-endian tag and its NUL-ended value, one after another
    const char* tiff_text;
    std::size_t tiff_text_size;
    /// encode: the pointers a TIFF output's first directory gets with the value 0, which gpurotate sets once it has
    /// appended the directories: gpurotate_cv_tiff_exif and gpurotate_cv_tiff_gps, or'ed
    int tiff_exif_pointers;
    const unsigned char* iptc;  ///< encode: IPTC-IIM records for a TIFF output (tag 33723), or null
    std::size_t iptc_size;
};

/// The bits of GpurotateCvImage::tiff_exif_pointers.
enum GpurotateCvTiffPointer { gpurotate_cv_tiff_exif = 1, gpurotate_cv_tiff_gps = 2 };

/// Encoded bytes, owned by the plugin until `release_bytes`.
struct GpurotateCvBytes {
    unsigned char* data;
    std::size_t size;
    void* owner;
};

struct GpurotateCvPlugin {
    int abi_version;  ///< gpurotate_cv_abi_version
    /// 1 and `out` filled when the plugin decodes `bytes` into 1-4 channels of u8, u16 or f32; else 0, nothing
    /// held, with the reason in `error` where the file is one it reads and is damaged (else left empty).
    int (*decode)(const unsigned char* bytes, std::size_t size, GpurotateCvImage* out, char* error, std::size_t error_size);
    void (*release)(void* owner);
    /// 1 and `out` filled on success; else 0 with a message in `error`. `extension` is ".tif", ".webp",
    /// ".exr" or ".jpg"; `quality` applies to JPEG and WebP (above 100: lossless WebP).
    int (*encode)(const GpurotateCvImage* image, const char* extension, int quality, GpurotateCvBytes* out, char* error,
                  std::size_t error_size);
    void (*release_bytes)(void* owner);
};

/// The one symbol the plugin exports.
const GpurotateCvPlugin* gpurotate_opencv_plugin();
}

inline constexpr int gpurotate_cv_abi_version = 9;
inline constexpr const char* gpurotate_cv_plugin_file = "libgpurotate-opencv.so";
