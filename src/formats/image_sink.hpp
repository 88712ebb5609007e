#pragma once
// One output file: its path, the format its extension names, and its writing, atomic (to a temporary
// file in the same folder, renamed into place: complete or absent). The other half of source ->
// transform -> sink (image_source.hpp).

#include "formats/image_source.hpp"
#include "formats/file_bytes.hpp"
#include "formats/format_registry.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// A folder that writes the files named below it itself: augment's OUTDIR, which follows no link planted
/// inside it (augment/output_folder.hpp).
class ContainingFolder {
public:
    virtual ~ContainingFolder() = default;
    /// Writes `bytes` at `relative` atomically; throws Error (output).
    virtual void write_file(const std::string& relative, const std::vector<std::uint8_t>& bytes, bool replace, bool durable) const = 0;
    /// Writes the file at `relative` atomically from what `fill` writes into its descriptor, where the folder
    /// writes files; false, having done nothing, where it keeps bytes (a shard's member, standard output): the
    /// caller encodes them for write_file instead. Throws Error (output).
    virtual bool write_file_streamed(const std::string& relative, const std::function<void(int)>& fill, bool replace, bool durable) const {
        static_cast<void>(relative), static_cast<void>(fill), static_cast<void>(replace), static_cast<void>(durable);
        return false;
    }
};

class ImageSink {
public:
    /// Throws Error (output) for an extension that names no format this build writes. With `folder`, the file
    /// is written by it, at `relative` below it (`path` is the same file, for messages and the format).
    ImageSink(std::string path, bool overwrite, bool durable, const ContainingFolder* folder = nullptr, std::string relative = {});
    /// The same, in `format` whatever `path` is named (--format, png:-).
    ImageSink(std::string path, const FormatRow& format, bool overwrite, bool durable, const ContainingFolder* folder = nullptr,
              std::string relative = {});

    const std::string& path() const { return path_; }
    OutputFormat format() const { return row_->format; }
    /// "PNG", "TIFF", ...
    const char* format_name() const { return row_->name; }
    bool is_jpeg() const { return format() == OutputFormat::jpeg; }
    bool is_png() const { return format() == OutputFormat::png; }
    /// What the format holds, as its registry row says (format_registry.hpp).
    const FormatRow& row() const { return *row_; }
    /// Whether the format carries EXIF (JPEG's APP1, PNG's eXIf, WebP's EXIF chunk, a TIFF's EXIF and GPS
    /// directories and its first directory's own tags); the others do not.
    bool holds_exif() const { return row_->holds(MetadataKind::exif); }
    /// Whether the format carries an EXIF orientation (TIFF in its Orientation tag).
    bool holds_orientation() const { return row_->holds(MetadataKind::orientation); }
    /// Whether the format carries an ICC profile.
    bool holds_icc() const { return row_->holds(MetadataKind::icc); }
    /// Whether the format carries IPTC records: JPEG (APP13) and TIFF (tag 33723).
    bool holds_iptc() const { return row_->holds(MetadataKind::iptc); }
    /// Whether the format carries the resolution: JPEG (JFIF), PNG (pHYs), TIFF and BMP.
    bool holds_resolution() const { return row_->holds(MetadataKind::resolution); }
    /// Whether the format keeps a PNG input's stored format (palette, tRNS, 1-, 2- and 4-bit samples).
    bool holds_palette() const { return row_->palette; }

    /// What a write does with a symbolic link at the path (file_bytes.hpp); LinkPolicy::follow unless set.
    void set_links(LinkPolicy links) { links_ = links; }

    /// Throws Error (output) unless the file can be created: its folder exists and is writable, and it does
    /// not exist unless `overwrite`. Called before the work starts, and by the writes.
    void check_writable() const;
    /// Throws Error (output) unless the format holds `pixels` exactly, naming the remedy as `chosen_by` says.
    void check_holds(PixelFormat pixels) const;
    /// What chose the format (default: the path's extension), for check_holds' remedy.
    void chosen_by(FormatChoice choice) { choice_ = choice; }

    /// Encodes `pixels` in the sink's format with `options` (quality, subsampling, PNG level, metadata)
    /// and writes them.
    void write(ConstImageView pixels, WriteOptions options) const;
    /// Writes bytes already in the sink's format: a lossless transform's, nvJPEG's.
    void write_encoded(const std::vector<std::uint8_t>& bytes) const;

    /// What of `source`'s metadata an output encoded from pixels with `metadata` (as `metadata_for` gave it)
    /// cannot carry in this format, in words for -v ("TGA output: not written: EXIF, ICC profile"); empty
    /// when everything is kept, or with `strip` (dropping it all was asked for). A PNG output's own chunk
    /// rules are png_output_notes'.
    std::string unwritten(const ImageSource& source, const ImageMetadata& metadata, bool strip) const;

private:
    /// Codes `pixels` straight into the output's temporary file, where the format writes so and the output is a
    /// file; false, having done nothing, where it is not (a stream, a folder that keeps bytes).
    bool write_streamed(ConstImageView pixels, const WriteOptions& options) const;

    std::string path_;
    const FormatRow* row_;
    bool overwrite_;
    bool durable_;
    const ContainingFolder* folder_;
    std::string relative_;
    LinkPolicy links_ = LinkPolicy::follow;
    FormatChoice choice_ = FormatChoice::extension;
};

}  // namespace gpurotate::detail
