#pragma once
/// \file io.hpp
/// Reading and writing image files. The input format is recognised from the file's contents; the output
/// format from the output file's extension (an unknown extension is an error, never a guess).

#include <gpurotate/image.hpp>
#include <gpurotate/metadata.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate {

/// The EXIF and ICC profile of the JPEG or PNG at `path`, and a PNG's stored format and ancillary chunks
/// (empty for other formats, or where absent or damaged). Throws `Error` (input) if the file cannot be read.
ImageMetadata read_metadata(const std::string& path);

/// The EXIF Orientation tag (1-8), or 0 where there is none.
int exif_orientation(const ImageMetadata& metadata);

/// The element that makes upright an image stored with EXIF Orientation `tag`: 1 identity, 2 flip-h,
/// 3 rot180, 4 flip-v, 5 transpose, 6 rot90, 7 transverse, 8 rot270 (anything else: identity).
Orientation orientation_from_exif(int tag);

/// `metadata` as it belongs on the output of `element`: the EXIF pixel dimensions and PNG pHYs's pixels
/// per unit x and y swapped when the axes swap, the Orientation tag set to `orientation_tag` when it
/// is not 0, and the EXIF's JPEG thumbnail turned by `element` as exiftran turns it (left out where it cannot be).
ImageMetadata metadata_after(const ImageMetadata& metadata, Orientation element, int orientation_tag = 0);

/// Options for encoding.
/// The chroma subsampling of a JPEG (horizontal x vertical): 4:4:4 full resolution, 4:2:2 halved across,
/// 4:2:0 halved both ways, 4:4:0 halved down; grey has no chroma.
enum class ChromaSubsampling { automatic, s444, s422, s420, s440, grey };

/// "4:2:0", ..., "grey", "automatic".
const char* to_string(ChromaSubsampling chroma);

/// A TIFF output's compression, each by libtiff's codec: the lossless ones, and JPEG (8-bit samples, at
/// WriteOptions::quality).
enum class TiffCompression { none, lzw, deflate, packbits, zstd, lzma, jpeg };

/// "none", "lzw", "deflate", "packbits", "zstd", "lzma", "jpeg": --tiff-compression's words.
const char* to_string(TiffCompression compression);

/// The difference coding before a TIFF's lossless compression (TIFF's Predictor tag).
enum class TiffPredictor {
    suited,          ///< horizontal differences for integers, floating-point ones for floats
    none,            ///< 1: the samples as they are
    horizontal,      ///< 2: each sample less its left neighbour's
    floating_point,  ///< 3: floats' bytes split and differenced (floats only)
};

/// How a TIFF output is coded. The default is what a TIFF gets from a non-TIFF input: LZW with the suited
/// predictor, samples interleaved, strips of libtiff's default size (about 8 KiB). The CLI and augment keep
/// a TIFF input's instead (docs/fidelity.md).
struct TiffCoding {
    TiffCompression compression = TiffCompression::lzw;
    TiffPredictor predictor = TiffPredictor::suited;  ///< used with LZW, Deflate, Zstandard and LZMA only
    bool separate_planes = false;                     ///< one plane per channel (PlanarConfiguration 2)
    /// 0: libtiff's default; the height or more: one strip, the tag written as given (0xffffffff: as the height)
    std::uint32_t rows_per_strip = 0;
};

struct WriteOptions {
    int quality = 95;        ///< JPEG/WebP quality, 1..100
    bool overwrite = false;  ///< replace an existing file
    int png_level = 1;       ///< PNG deflate: 0 stores; 1 matches runs only (fastest, and smallest on photographs);
                             ///< 2..9 zlib levels (smaller on drawings and screenshots, slower)
    bool durable = true;     ///< flush the file to disk (fsync) before it takes its name; a batch that syncs
                             ///< once at the end (`gpurotate augment`) turns this off
    const ImageMetadata* metadata = nullptr;  ///< written where the format has a place for it (the README's table): JPEG,
                                              ///< PNG (its stored format and chunks into PNG outputs only), TIFF, WebP,
                                              ///< and BMP's resolution; other formats drop it
    /// A JPEG's subsampling; automatic: 4:4:4 from quality 90 up and 4:2:0 below, as libvips does.
    ChromaSubsampling chroma = ChromaSubsampling::automatic;
    /// WebP: lossless coding (`quality` unused). The CLI and `augment` set it for a WebP written from a
    /// lossless WebP without --quality, so that such an image stays lossless.
    bool lossless = false;
    /// TIFF: compression, predictor, planes and strips.
    TiffCoding tiff;
};

/// The most pixels an input may declare unless the caller says otherwise: 2^30 (32768 x 32768, OpenCV's
/// limit too). Every camera's photograph passes (the largest sensors have about 400 million pixels); a
/// decompression bomb, a small file that declares 100000 x 100000 pixels, is refused from its header,
/// before any pixel memory is allocated.
inline constexpr std::int64_t default_max_pixels = std::int64_t{1} << 30;

/// The scans a JPEG may have by default. Each is a pass over the whole image: libjpeg's progressive files
/// have 6 to 10, a crafted one of a few hundred kilobytes can have hundreds, and takes minutes.
inline constexpr int default_max_jpeg_scans = 100;

/// Options for decoding.
struct ReadOptions {
    HostMemory memory = HostMemory::pageable;      ///< pinned when the pixels go to the GPU next
    std::int64_t max_pixels = default_max_pixels;  ///< refuse larger images from their header; 0: no limit
    /// A PNG decodes to its stored samples (see `PngStorage`), for a PNG output that keeps its palette, bit
    /// depth and transparency; otherwise palettes become RGB (RGBA with tRNS), grey and RGB with a tRNS
    /// colour key gain the alpha channel it means, and 1-, 2- and 4-bit grey becomes 8-bit, which every
    /// output format can take. Other formats ignore it.
    bool png_storage = false;
    int max_jpeg_scans = default_max_jpeg_scans;  ///< refuse JPEGs with more scans, before decoding; 0: no limit
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
/// Throws `Error` (output) if the extension is unknown, the format cannot hold the pixel format (HDR: at
/// RGBE's precision, 8 bits of mantissa a pixel; every other format exactly), the directory is missing or
/// not writable, or `path` exists and `options.overwrite` is false; `Error` (usage) for a view without
/// pixels (no memory, a side of 0, a pitch smaller than a row). A process that may meet a file-size limit
/// (ulimit -f) should ignore SIGXFSZ, as the gpurotate CLI does: the write then fails with an `Error` and
/// removes its temporary file, where the signal would end the process and leave it.
void write_image(const std::string& path, ConstImageView image, const WriteOptions& options = {});

/// Encodes `image` into the format named by the extension of `name` (a path or just ".png"), in memory.
/// Throws `Error` (output) if the extension is unknown or the format cannot hold the pixel format (as
/// write_image); `Error` (usage) for a view without pixels.
std::vector<std::uint8_t> encode_image(ConstImageView image, const std::string& name, const WriteOptions& options = {});

/// Throws `Error` (output) unless a file could be created at `path`: its directory exists and is writable,
/// `path` is not a directory, and it does not exist unless `overwrite`. `write_image` checks this too.
void check_output_writable(const std::string& path, bool overwrite);

/// A supported output format, as `--version` and the README list them.
struct FormatInfo {
    std::string name;                     ///< "PNG"
    std::vector<std::string> extensions;  ///< {".png"}
    std::string holds;                    ///< which pixel formats it stores exactly, in words
    std::string codec;                    ///< the library doing the work: "libspng", "stb", "opencv", "libjpeg-turbo"
};

/// The output formats compiled into this build.
std::vector<FormatInfo> output_formats();

/// Throws `Error` (output) unless `path`'s extension names a format this build writes; lets a caller
/// reject a bad output name before decoding anything.
void check_output_format(const std::string& path);

/// Throws `Error` (output) unless `path`'s extension names a format this build writes that holds `format`
/// (exactly, but for HDR's RGBE precision).
void check_output_format(const std::string& path, PixelFormat format);

}  // namespace gpurotate
