#pragma once
// The format registry: one row per file format says what its files hold (sample types, channel counts,
// alpha, palette, metadata kinds), which function decodes it and which encodes it. The decoder chain, the
// encode dispatch, the sink's checks and --version's lists all read the rows, and name no format
// themselves: adding a format is one row (its FileFormat and its line in format_rows) plus its codec files.

#include <gpurotate/error.hpp>
#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// Every format a row of the registry describes, read or written.
enum class FileFormat { png, jpeg, pnm, bmp, tga, hdr, tiff, webp, exr, gif, psd, opencv_others };

/// The name ImageSink::format() and its callers use: the written formats are FileFormats.
using OutputFormat = FileFormat;

/// Metadata a format's files carry (ImageMetadata's fields), as flags.
enum class MetadataKind : std::uint32_t {
    exif = 1u << 0,           ///< an EXIF block
    orientation = 1u << 1,    ///< an EXIF orientation (in the EXIF block, or a TIFF's own Orientation tag)
    icc = 1u << 2,            ///< an ICC profile
    xmp = 1u << 3,            ///< an XMP packet
    iptc = 1u << 4,           ///< IPTC records
    resolution = 1u << 5,     ///< the pixel density
    jpeg_comments = 1u << 6,  ///< JPEG COM segments
    png_chunks = 1u << 7,     ///< a PNG's ancillary chunks
    tiff_text = 1u << 8,      ///< a TIFF's text tags
};

/// A set of MetadataKinds.
class MetadataKinds {
public:
    constexpr MetadataKinds() = default;
    constexpr MetadataKinds(MetadataKind kind) : bits_(static_cast<std::uint32_t>(kind)) {}  // NOLINT: a kind is a set of one
    constexpr MetadataKinds operator|(MetadataKinds other) const { return MetadataKinds(bits_ | other.bits_); }
    constexpr bool has(MetadataKind kind) const { return (bits_ & static_cast<std::uint32_t>(kind)) != 0; }

private:
    constexpr explicit MetadataKinds(std::uint32_t bits) : bits_(bits) {}
    std::uint32_t bits_ = 0;
};

constexpr MetadataKinds operator|(MetadataKind a, MetadataKind b) { return MetadataKinds(a) | b; }

/// A decoder: the image, or nothing where `bytes` are not its format (`why_not` may say why, for the message
/// when no decoder takes a file). Throws Error (input) naming `path` for a file of its format it finds
/// damaged or over `options.max_pixels`.
using DecodeFunction = std::optional<Image> (*)(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options,
                                                std::string& why_not);

/// The width and height a file's header declares, read as its decoder reads them, without decoding; nothing where
/// `bytes` are not its format or the header is too damaged to say (its decoder then names the damage).
using DeclaredExtentFunction = std::optional<Extent> (*)(const std::vector<std::uint8_t>& bytes);

/// An encoder: `image` (one of the pixel formats its row holds) as a file, with what of `options.metadata`
/// the format carries. Throws Error (output).
using EncodeFunction = std::vector<std::uint8_t> (*)(ConstImageView image, const WriteOptions& options);

/// An encoder that writes the file into `fd` (a new, empty regular file) as it codes it, never holding it whole.
/// Throws Error (output).
using EncodeIntoFunction = void (*)(ConstImageView image, const WriteOptions& options, int fd);

/// One format: what it holds and its codec functions.
struct FormatRow {
    FileFormat format;
    const char* name;                             ///< "PNG", as messages and --version name it
    std::vector<std::string> extensions;          ///< written under these (lower case, with the dot), the usual one first
    std::vector<std::string> other_extensions;    ///< further names its files carry, recognised but not written (".jpe")
    std::vector<SampleType> samples;              ///< sample types stored exactly
    std::vector<int> channels;                    ///< channel counts stored exactly (2 and 4 with alpha)
    bool premultiplied_alpha;                     ///< says whether alpha is premultiplied; the others store straight alpha
    bool palette;                                 ///< keeps a PNG input's stored format (palette, tRNS, 1-, 2- and 4-bit samples)
    MetadataKinds metadata;                       ///< what of ImageMetadata an output of it carries
    bool (*compiled_in)();                        ///< whether this build (with its plugin) has the codecs
    DecodeFunction decode;                        ///< nothing: not read, or read by an earlier row's decoder
    DeclaredExtentFunction declared_extent;       ///< its decoder's header read; nothing: none without decoding
    std::string (*reader)();                      ///< the library that decodes it, for --version
    EncodeFunction encode;                        ///< nothing: read only
    std::string (*writer)();                      ///< the library that encodes it, for --version
    /// What of the metadata an output of it leaves out beyond `metadata`'s kinds, in words; nothing: all of them.
    std::vector<std::string> (*left_out)(const ImageMetadata& metadata);
    /// Whether bytes begin as its files do (content_signature.hpp); nothing: not told by content.
    bool (*starts_like)(const std::uint8_t* bytes, std::size_t size) = nullptr;
    /// Whether its encoder takes a quality (--quality; JPEG's and WebP's); the others have no quality setting.
    bool takes_quality = false;
    /// Whether an input coded losslessly in it stays lossless when written to it again (a lossless WebP), unless a
    /// quality is asked for.
    bool keeps_lossless_coding = false;
    /// Writes its files into a descriptor as it codes them (a TIFF's strips, which a 12-megapixel 16-bit image has
    /// 88 MB of); nothing: `encode`'s bytes are written.
    EncodeIntoFunction encode_into = nullptr;

    bool written() const { return encode != nullptr; }
    bool holds(MetadataKind kind) const { return metadata.has(kind); }
    /// Whether it stores `pixels` exactly (HDR: at RGBE's precision).
    bool holds(PixelFormat pixels) const;
};

/// Every format this program knows, compiled in or not, in the order their decoders try a file (each
/// decoder once, at its first row).
const std::vector<FormatRow>& format_rows();

/// The format whose extensions, written or read only, include `path`'s (case-insensitive), compiled in or
/// not; nothing for an unknown or missing extension.
const FormatRow* format_for_path(const std::string& path);

/// The format whose files begin as `bytes` (at least content_signature_bytes of them where the input has
/// as many), compiled in or not; nothing where no row's signature matches.
const FormatRow* format_of_content(const std::uint8_t* bytes, std::size_t size);

/// Whether `path`'s extension (any case) names a format this program reads, written or read only (.png ...
/// .jfif ... .psd): augment lists such files in a folder. Compiled in or not: a TIFF in a build without the
/// OpenCV plugin is listed and reported as unreadable, not passed over without a word.
bool is_read_path(const std::string& path);

/// Whether `path` is named as a JPEG (.jpg .jpeg .jpe .jfif, any case).
bool is_jpeg_path(const std::string& path);

/// The image in `bytes`, decoded by the first row's decoder that takes it. Throws Error (input) naming `path`
/// where none does, or where one finds the file damaged.
Image decode_any_format(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options);

/// The width and height `bytes`' header declares, read by the codec of the format its content signature names,
/// before anything is decoded or allocated; nothing where that format has no such read (EXR and OpenCV's others),
/// no format's signature matches, or the header is damaged.
std::optional<Extent> declared_extent_of_any_format(const std::vector<std::uint8_t>& bytes);

/// "8-bit/16-bit with 1, 2, 3, 4 channel(s)"
std::string describe_capacity(const FormatRow& row);

/// The formats this build reads, grouped by the library that reads them, for --version: "PNG [libspng],
/// JPEG [libjpeg-turbo 2.1.5 (libjpeg ABI 62)], ...".
std::string input_formats_line();

/// The written format `path`'s extension names, usable in this build. Throws Error (output) for an unknown
/// extension or a format this build lacks.
const FormatRow& output_format_named_by(const std::string& path);

/// The written format extension `ext` (lower case, with its dot: ".png") names, usable in this build; nothing
/// otherwise (output_format_of_extension's test, without its error).
const FormatRow* writable_format_of_extension(const std::string& ext);

/// The written format extension `ext` (lower case, with its dot: ".png") names, usable in this build; an Error
/// with `code` whose message starts with `subject` ("--format xyz") otherwise.
const FormatRow& output_format_of_extension(const std::string& ext, const std::string& subject, ErrorCode code);

/// The written format `path`'s extension names, usable in this build. Throws Error (output) for an unknown
/// extension, a format this build lacks, or one that cannot hold `pixels` exactly.
const FormatRow& output_format_for(const std::string& path, PixelFormat pixels);

/// What chose an output's format, for the remedy a refusal names: its extension (the file command's -o), or
/// augment's --format.
enum class FormatChoice { extension, format_option };

/// `row`, where it holds `pixels` exactly; Error (output) naming `path` and the formats that do otherwise,
/// as `choice` picks them.
const FormatRow& checked_row(const FormatRow& row, const std::string& path, PixelFormat pixels, FormatChoice choice = FormatChoice::extension);

/// `image` encoded as `row`'s format (io.cpp, as encode_image after its choice of format).
std::vector<std::uint8_t> encode_as(ConstImageView image, const FormatRow& row, const WriteOptions& options);

/// The same file written into `fd` (a new, empty regular file) by `row.encode_into`, which the row must have.
void encode_as_into(ConstImageView image, const FormatRow& row, const WriteOptions& options, int fd);

/// An encoder's Error (output), which knows the pixels and not the file, as the failure to write `path`
/// ("cannot write 'PATH': ..."); any other Error as it is.
Error named_for_output(const Error& e, const std::string& path);

}  // namespace gpurotate::detail
