#pragma once
/// \file io.hpp
/// Reading and writing image files. The input format is recognised from the file's contents; the output
/// format from the output file's extension (an unknown extension is an error, never a guess).

#include <gpurotate/image.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate {

/// Options for encoding.
struct WriteOptions {
    int quality = 95;        ///< JPEG/WebP quality, 1..100
    bool overwrite = false;  ///< replace an existing file
    int png_level = 1;       ///< PNG deflate: 0 stores; 1 matches runs only (fastest, and smallest on photographs);
                             ///< 2..9 zlib levels (smaller on drawings and screenshots, slower)
    bool durable = true;     ///< flush the file to disk (fsync) before it takes its name; a batch that syncs
                             ///< once at the end (`gpurotate augment`) turns this off
};

/// The most pixels an input may declare unless the caller says otherwise: 2^30 (32768 x 32768, OpenCV's
/// limit too). Every camera's photograph passes (the largest sensors have about 400 million pixels); a
/// decompression bomb, a small file that declares 100000 x 100000 pixels, is refused from its header,
/// before any pixel memory is allocated.
inline constexpr std::int64_t default_max_pixels = std::int64_t{1} << 30;

/// Options for decoding.
struct ReadOptions {
    HostMemory memory = HostMemory::pageable;      ///< pinned when the pixels go to the GPU next
    std::int64_t max_pixels = default_max_pixels;  ///< refuse larger images from their header; 0: no limit
};

/// Decodes the image file at `path`. Throws `Error` (input) naming the file and the cause, including an
/// image that declares more than `options.max_pixels` pixels.
Image read_image(const std::string& path, const ReadOptions& options);

/// Decodes the image file at `path` into `memory`, with the default pixel limit.
Image read_image(const std::string& path, HostMemory memory = HostMemory::pageable);

/// Decodes an image file's bytes already in memory; `name` stands for the file in error messages.
Image decode_image(const std::vector<std::uint8_t>& bytes, const ReadOptions& options = {}, const std::string& name = "(memory)");

/// Encodes `image` into the format named by `path`'s extension and writes it atomically: to a temporary
/// file in the same directory, then renamed over `path`, so no partial file is ever left at `path`.
/// Throws `Error` (output) if the extension is unknown, the format cannot hold the pixel format exactly,
/// the directory is missing or not writable, or `path` exists and `options.overwrite` is false.
void write_image(const std::string& path, ConstImageView image, const WriteOptions& options = {});

/// Encodes `image` into the format named by the extension of `name` (a path or just ".png"), in memory.
/// Throws `Error` (output) if the extension is unknown or the format cannot hold the pixel format exactly.
std::vector<std::uint8_t> encode_image(ConstImageView image, const std::string& name, const WriteOptions& options = {});

/// Throws `Error` (output) unless a file could be created at `path`: its directory exists and is writable,
/// `path` is not a directory, and it does not exist unless `overwrite`. `write_image` checks this too.
void check_output_writable(const std::string& path, bool overwrite);

/// A supported output format, as `--version` and the README list them.
struct FormatInfo {
    std::string name;                     ///< "PNG"
    std::vector<std::string> extensions;  ///< {".png"}
    std::string holds;                    ///< which pixel formats it stores exactly, in words
    std::string codec;                    ///< the library doing the work: "stb", "opencv", "gpurotate"
};

/// The output formats compiled into this build.
std::vector<FormatInfo> output_formats();

/// Throws `Error` (output) unless `path`'s extension names a format this build writes; lets a caller
/// reject a bad output name before decoding anything.
void check_output_format(const std::string& path);

/// Throws `Error` (output) unless `path`'s extension names a format this build writes that holds `format` exactly.
void check_output_format(const std::string& path, PixelFormat format);

}  // namespace gpurotate
