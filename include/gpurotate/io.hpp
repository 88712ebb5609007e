#pragma once
/// \file io.hpp
/// Reading and writing image files. The input format is recognised from the file's contents; the output
/// format from the output file's extension (an unknown extension is an error, never a guess).

#include <gpurotate/image.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate {

/// Metadata that travels from an input to its outputs: EXIF (the TIFF structure, as in a JPEG's APP1
/// segment after "Exif\0\0" or a PNG's eXIf chunk) and the ICC colour profile (the profile's bytes).
struct ImageMetadata {
    std::vector<std::uint8_t> exif;
    std::vector<std::uint8_t> icc;
    bool empty() const { return exif.empty() && icc.empty(); }
};

/// The EXIF and ICC profile of the JPEG or PNG at `path` (empty for other formats, or where absent or
/// damaged). Throws `Error` (input) if the file cannot be read.
ImageMetadata read_metadata(const std::string& path);

/// The EXIF Orientation tag (1-8), or 0 where there is none.
int exif_orientation(const ImageMetadata& metadata);

/// The element that makes upright an image stored with EXIF Orientation `tag`: 1 identity, 2 flip-h,
/// 3 rot180, 4 flip-v, 5 transpose, 6 rot90, 7 transverse, 8 rot270 (anything else: identity).
Orientation orientation_from_exif(int tag);

/// `metadata` as it belongs on the output of `element`: the EXIF pixel dimensions swapped when the axes
/// swap, and the Orientation tag set to `orientation_tag` when it is not 0.
ImageMetadata metadata_after(const ImageMetadata& metadata, Orientation element, int orientation_tag = 0);

/// Options for encoding.
/// The chroma subsampling of a JPEG (horizontal x vertical): 4:4:4 full resolution, 4:2:2 halved across,
/// 4:2:0 halved both ways, 4:4:0 halved down; grey has no chroma.
enum class ChromaSubsampling { automatic, s444, s422, s420, s440, grey };

/// "4:2:0", ..., "grey", "automatic".
const char* to_string(ChromaSubsampling chroma);

struct WriteOptions {
    int quality = 95;        ///< JPEG/WebP quality, 1..100
    bool overwrite = false;  ///< replace an existing file
    int png_level = 1;       ///< PNG deflate: 0 stores; 1 matches runs only (fastest, and smallest on photographs);
                             ///< 2..9 zlib levels (smaller on drawings and screenshots, slower)
    bool durable = true;     ///< flush the file to disk (fsync) before it takes its name; a batch that syncs
                             ///< once at the end (`gpurotate augment`) turns this off
    const ImageMetadata* metadata = nullptr;  ///< written into JPEG and PNG outputs; other formats drop it
    /// A JPEG's subsampling; automatic: 4:4:4 from quality 90 up and 4:2:0 below, as libvips does.
    ChromaSubsampling chroma = ChromaSubsampling::automatic;
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
