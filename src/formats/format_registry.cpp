#include "formats/format_registry.hpp"

#include "formats/content_signature.hpp"
#include "formats/tiff_declared_extent.hpp"
#include "formats/jpeg_codec.hpp"
#include "formats/opencv_codec.hpp"
#include "formats/png_codec.hpp"
#include "formats/pnm_codec.hpp"
#include "formats/stb_codec.hpp"
#include "formats/tiff_codec.hpp"
#include "formats/webp_codec.hpp"
#include "metadata/tiff_exif.hpp"
#include "jpeg/turbojpeg_codec.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cctype>

namespace gpurotate::detail {
namespace {

bool always() { return true; }
std::string by_stb() { return "stb"; }
std::string by_opencv() { return "opencv"; }

// OpenCV reads EXR and the other formats it knows in one call: one decoder for all their rows.
std::optional<Image> read_with_opencv(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options, std::string&) {
    return opencv_decode(bytes, path, options);
}

}  // namespace

const std::vector<FormatRow>& format_rows() {
    using S = SampleType;
    using M = MetadataKind;
    const auto exif_icc_xmp = M::exif | M::orientation | M::icc | M::xmp;
    // The order is the decoders': a decoder that takes files of another format by mistake comes after that
    // format's own (stb reads P5 and P6 Netpbm files wrong: PNM's comes first); OpenCV's, which takes many, last.
    static const std::vector<FormatRow> rows = {
        {FileFormat::png, "PNG", {".png"}, {}, {S::u8, S::u16}, {1, 2, 3, 4}, false, true, exif_icc_xmp | M::resolution | M::png_chunks, always,
         [](const std::vector<std::uint8_t>& b, const std::string& p, const ReadOptions& o, std::string&) { return decode_png(b, p, o); },
         png_declared_extent,
         [] { return std::string("libspng"); },
         [](ConstImageView i, const WriteOptions& o) { return encode_png(i, o.png_level, o.metadata); }, [] { return std::string("libspng"); },
         nullptr, starts_as_png},
        // stb's JPEG encoder writes three components; a grey image is stored as three equal channels.
        {FileFormat::jpeg, "JPEG", {".jpg", ".jpeg"}, {".jpe", ".jfif"}, {S::u8}, {1, 3}, false, false,
         exif_icc_xmp | M::iptc | M::resolution | M::jpeg_comments, always,
         [](const std::vector<std::uint8_t>& b, const std::string& p, const ReadOptions& o, std::string&) { return turbojpeg_decode(b, p, o); }, turbojpeg_declared_extent,
         jpeg_reader, encode_jpeg, jpeg_writer, nullptr, starts_as_jpeg, /*takes_quality*/ true},
        // Netpbm, read by gpurotate's own decoder (pnm_codec.hpp), never written.
        {FileFormat::pnm, "PNM PAM", {}, {".pnm", ".pbm", ".pgm", ".ppm", ".pam"}, {}, {}, false, false, {}, always,
         [](const std::vector<std::uint8_t>& b, const std::string& p, const ReadOptions& o, std::string&) { return decode_pnm(b, p, o); }, pnm_declared_extent,
         [] { return std::string("gpurotate"); }, nullptr, nullptr, nullptr, starts_as_pnm},
        {FileFormat::bmp, "BMP", {".bmp"}, {}, {S::u8}, {3, 4}, false, false, M::resolution, always, stb_decode, stb_declared_extent, by_stb,
         [](ConstImageView i, const WriteOptions& o) { return stb_encode_bmp(i, o.metadata ? o.metadata->resolution : std::nullopt); }, by_stb,
         nullptr, starts_as_bmp},
        {FileFormat::tga, "TGA", {".tga"}, {}, {S::u8}, {1, 2, 3, 4}, false, false, {}, always, stb_decode, stb_declared_extent, by_stb,
         [](ConstImageView i, const WriteOptions&) { return stb_encode_tga(i); }, by_stb, nullptr, starts_as_tga},
        {FileFormat::hdr, "Radiance HDR", {".hdr"}, {}, {S::f32}, {3}, false, false, {}, always, stb_decode, stb_declared_extent, by_stb,
         [](ConstImageView i, const WriteOptions&) { return stb_encode_hdr(i); }, by_stb, nullptr, starts_as_hdr},
        // libtiff, linked in: a TIFF carries the ICC profile, EXIF, XMP and its text tags, says whether the alpha is
        // premultiplied, and keeps a TIFF input's compression, predictor, planes and strips (tiff_coding.hpp).
        {FileFormat::tiff, "TIFF", {".tif", ".tiff"}, {}, {S::u8, S::u16, S::f32}, {1, 2, 3, 4}, true, false,
         exif_icc_xmp | M::iptc | M::resolution | M::tiff_text, always,
         [](const std::vector<std::uint8_t>& b, const std::string& p, const ReadOptions& o, std::string&) { return decode_tiff(b, p, o); }, tiff_declared_extent,
         tiff_library, encode_tiff, tiff_library,
         // the directories it takes from the EXIF block (tiff_exif.cpp)
         [](const ImageMetadata& m) {
             std::vector<std::string> parts = exif_left_out_of_tiff(m.exif);
             if (exif_has_thumbnail(m.exif)) parts.emplace_back("EXIF's thumbnail");
             return parts;
         }, starts_as_tiff, /*takes_quality*/ false, /*keeps_lossless_coding*/ false, encode_tiff_into},
        // libwebp, linked in: lossy at --quality, lossless in its exact mode; libwebpmux adds the ICC profile, EXIF and XMP.
        {FileFormat::webp, "WebP", {".webp"}, {}, {S::u8}, {3, 4}, false, false, exif_icc_xmp, always,
         [](const std::vector<std::uint8_t>& b, const std::string& p, const ReadOptions& o, std::string&) { return decode_webp(b, p, o); }, webp_declared_extent,
         webp_library, encode_webp, webp_library, nullptr, starts_as_webp, /*takes_quality*/ true, /*keeps_lossless_coding*/ true},
        {FileFormat::exr, "OpenEXR", {".exr"}, {}, {S::f32}, {1, 3, 4}, false, false, {}, opencv_codecs_available, read_with_opencv, nullptr, by_opencv,
         [](ConstImageView i, const WriteOptions& o) { return opencv_encode(i, FileFormat::exr, o.quality); }, by_opencv, nullptr, starts_as_exr},
        {FileFormat::gif, "GIF", {}, {".gif"}, {}, {}, false, false, {}, always, stb_decode, stb_declared_extent, by_stb, nullptr, nullptr, nullptr, starts_as_gif},
        {FileFormat::psd, "PSD", {}, {".psd"}, {}, {}, false, false, {}, always, stb_decode, stb_declared_extent, by_stb, nullptr, nullptr, nullptr, starts_as_psd},
        // Whatever else OpenCV reads (JPEG 2000, Sun raster, ...), by its contents.
        {FileFormat::opencv_others, "and more", {}, {}, {}, {}, false, false, {}, opencv_codecs_available, read_with_opencv, nullptr, by_opencv, nullptr,
         nullptr, nullptr, nullptr},
    };
    return rows;
}

namespace {

std::string lower_extension(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

bool contains(const std::vector<std::string>& names, const std::string& name) { return std::find(names.begin(), names.end(), name) != names.end(); }

std::string sample_name(SampleType t) {
    return t == SampleType::u8 ? "8-bit" : t == SampleType::u16 ? "16-bit" : "32-bit float";
}

template <class T, class F>
std::string join(const std::vector<T>& items, F&& to_text, const char* separator) {
    std::string out;
    for (const T& item : items) out += (out.empty() ? "" : separator) + to_text(item);
    return out;
}

bool writable_here(const FormatRow& row) { return row.written() && row.compiled_in(); }

// The extensions of this build's formats that hold `pixels`, for the refusal's advice: ".png" for a file's
// name, "png" for --format.
std::string formats_holding(PixelFormat pixels, FormatChoice choice) {
    std::string list;
    for (const auto& row : format_rows()) {
        if (!writable_here(row) || !row.holds(pixels)) continue;  // a read-only row has no extension to name
        const std::string& ext = row.extensions.front();
        list += (list.empty() ? "" : " or ") + (choice == FormatChoice::extension ? ext : ext.substr(1));
    }
    return list.empty() ? "none of this build's formats does" : "e.g. " + list;
}

}  // namespace

bool FormatRow::holds(PixelFormat pixels) const {
    return std::find(samples.begin(), samples.end(), pixels.sample) != samples.end() &&
           std::find(channels.begin(), channels.end(), pixels.channels) != channels.end();
}

const FormatRow* format_for_path(const std::string& path) {
    const std::string ext = lower_extension(path);
    if (ext.empty()) return nullptr;
    for (const auto& row : format_rows()) {
        if (contains(row.extensions, ext) || contains(row.other_extensions, ext)) return &row;
    }
    return nullptr;
}

const FormatRow* format_of_content(const std::uint8_t* bytes, std::size_t size) {
    for (const auto& row : format_rows()) {
        if (row.starts_like && row.starts_like(bytes, size)) return &row;
    }
    return nullptr;
}

bool is_read_path(const std::string& path) {
    const FormatRow* row = format_for_path(path);
    return row && row->decode;
}

bool is_jpeg_path(const std::string& path) {
    const FormatRow* row = format_for_path(path);
    return row && row->format == FileFormat::jpeg;
}

Image decode_any_format(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    std::vector<DecodeFunction> tried;
    std::string why_not;
    for (const auto& row : format_rows()) {
        if (!row.decode || !row.compiled_in() || std::find(tried.begin(), tried.end(), row.decode) != tried.end()) continue;
        tried.push_back(row.decode);
        if (auto image = row.decode(bytes, path, options, why_not)) return std::move(*image);
    }
    throw Error(ErrorCode::input, "cannot decode '" + path + "': not an image in a supported format (" + why_not + ")");
}

std::optional<Extent> declared_extent_of_any_format(const std::vector<std::uint8_t>& bytes) {
    const FormatRow* row = format_of_content(bytes.data(), bytes.size());
    if (!row || !row->declared_extent || !row->compiled_in()) return std::nullopt;
    return row->declared_extent(bytes);
}

std::string describe_capacity(const FormatRow& row) {
    return join(row.samples, sample_name, "/") + " with " + join(row.channels, [](int c) { return std::to_string(c); }, ", ") + " channel(s)";
}

std::string input_formats_line() {
    // Grouped by library, in the order of each library's first row.
    std::vector<std::pair<std::string, std::string>> groups;  // library, format names
    for (const auto& row : format_rows()) {
        if (!row.decode || !row.compiled_in()) continue;
        const std::string library = row.reader();
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == library; });
        if (group == groups.end()) group = groups.insert(groups.end(), {library, ""});
        group->second += (group->second.empty() ? "" : " ") + std::string(row.name);
    }
    return join(groups, [](const auto& g) { return g.second + " [" + g.first + "]"; }, ", ");
}

const FormatRow& output_format_named_by(const std::string& path) {
    return output_format_of_extension(lower_extension(path), "cannot write '" + path + "'", ErrorCode::output);
}

namespace {

// The row whose written extensions include `ext`, compiled in or not.
const FormatRow* row_written_as(const std::string& ext) {
    const auto& rows = format_rows();
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const FormatRow& r) { return contains(r.extensions, ext); });
    return ext.empty() || row == rows.end() ? nullptr : &*row;
}

}  // namespace

const FormatRow* writable_format_of_extension(const std::string& ext) {
    const FormatRow* row = row_written_as(ext);
    return row && row->compiled_in() ? row : nullptr;
}

const FormatRow& output_format_of_extension(const std::string& ext, const std::string& subject, ErrorCode code) {
    const FormatRow* row = row_written_as(ext);
    if (!row) {
        std::string known;
        for (const auto& r : format_rows()) {
            if (writable_here(r)) known += (known.empty() ? "" : " ") + join(r.extensions, [](const std::string& e) { return e; }, " ");
        }
        throw Error(code, subject + ": unknown output extension '" + ext + "' (known: " + known + ")");
    }
    if (!row->compiled_in()) {
        throw Error(code, subject + ": " + row->name + " output needs " + row->writer() + ", which this build does not have");
    }
    return *row;
}

const FormatRow& output_format_for(const std::string& path, PixelFormat pixels) { return checked_row(output_format_named_by(path), path, pixels); }

const FormatRow& checked_row(const FormatRow& row, const std::string& path, PixelFormat pixels, FormatChoice choice) {
    if (!row.holds(pixels)) {
        throw Error(ErrorCode::output, "cannot write '" + path + "': " + row.name + " cannot hold " + sample_name(pixels.sample) + " " +
                                           std::to_string(pixels.channels) + "-channel pixels exactly (it holds " + describe_capacity(row) +
                                           "); choose another " + (choice == FormatChoice::extension ? "extension" : "--format") + ": " + formats_holding(pixels, choice));
    }
    return row;
}

}  // namespace gpurotate::detail
