#pragma once
/// \file metadata.hpp
/// The metadata that travels from an input file to its outputs (EXIF, ICC, XMP, IPTC, JPEG comments, TIFF text,
/// resolution, a PNG's stored format and chunks), as types. Reading it and editing it for an element are
/// io.hpp's (read_metadata, metadata_after); WriteOptions::metadata writes it.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpurotate {

/// How a PNG stores its pixels, so that a PNG written from it stores them the same way. With
/// `ReadOptions::png_storage` a PNG decodes to these samples, one byte or one 16-bit word each: palette
/// indices as u8c1, 1-, 2- and 4-bit grey as u8c1 values below 2^depth (not scaled), 16-bit samples as u16.
struct PngStorage {
    int color_type = 0;  ///< PNG's colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    int bit_depth = 8;   ///< bits per sample: 1, 2, 4, 8 or 16
    bool interlaced = false;                 ///< Adam7 in the input; outputs are written without interlacing
    std::vector<std::uint8_t> palette;       ///< the PLTE chunk's data (RGB triples); empty where there is none
    std::vector<std::uint8_t> transparency;  ///< the tRNS chunk's data; empty where there is none
};

/// Where an ancillary chunk stood in its PNG, which is where a PNG written from it puts it: before PLTE
/// and tRNS, after them (before IDAT), or after IDAT.
enum class PngChunkPlace { before_plte, before_idat, after_idat };

/// One ancillary chunk of a PNG, as it was in the file (its CRC checked when the file was decoded).
struct PngChunk {
    std::string type;                ///< four letters, e.g. "tEXt"
    std::vector<std::uint8_t> data;  ///< the chunk's data, without length, type and CRC
    PngChunkPlace place = PngChunkPlace::before_idat;  ///< before PLTE (and tRNS), between them and IDAT, or after IDAT
};

/// Pixel density: pixels per unit along x and y, or with `Unit::none` only their ratio (the pixel aspect).
struct Resolution {
    enum class Unit { none, inch, centimetre };
    double x = 0;
    double y = 0;
    Unit unit = Unit::none;
};

/// Metadata that travels from an input to its outputs.
struct ImageMetadata {
    /// EXIF: the TIFF structure, as in a JPEG's APP1 segment after "Exif\0\0" or a PNG's eXIf chunk.
    std::vector<std::uint8_t> exif;
    /// The ICC colour profile's bytes (uncompressed): from a JPEG, PNG or TIFF; written into JPEG, PNG and TIFF.
    std::vector<std::uint8_t> icc;
    /// The XMP packet (XML): from a JPEG's APP1, a PNG's iTXt "XML:com.adobe.xmp", a TIFF's tag 700, a WebP's
    /// XMP chunk; written into JPEG, PNG (in the input's own iTXt where a PNG had one), TIFF and WebP outputs.
    /// metadata_after edits its geometry fields as the EXIF's (tiff:Orientation, the pixel dimensions, the
    /// resolution); the rest of the packet is kept as read.
    std::string xmp;
    /// A TIFF's text tags (ImageDescription 270, Make 271, Model 272, Software 305, DateTime 306, Artist 315,
    /// HostComputer 316, Copyright 33432), each once, in ascending tag order; written into TIFF outputs. Reading a
    /// TIFF also puts them into `exif`'s IFD0 (where they take at most 16 KiB), which carries them into JPEG, PNG
    /// and WebP outputs.
    std::vector<std::pair<std::uint16_t, std::string>> tiff_text;
    /// A JPEG's comments (COM segments), in file order; written into JPEG outputs.
    std::vector<std::string> jpeg_comments;
    /// IPTC-IIM records (captions, keywords, credits, as news photo archives keep them): from a JPEG's APP13 Photoshop
    /// resource 0x0404 or a TIFF's tag 33723; written into JPEG (an APP13 of that one resource) and TIFF outputs.
    std::vector<std::uint8_t> iptc;
    /// The pixel density: from a JPEG's JFIF header, a PNG's pHYs, a TIFF's XResolution and YResolution, a
    /// BMP's pixels per metre; written into JPEG (JFIF), PNG (pHYs, where no pHYs chunk is copied) and TIFF
    /// outputs. x and y swap with the axes. A JFIF header's default 1:1 with no unit is no resolution.
    std::optional<Resolution> resolution;
    /// The pixels' alpha is premultiplied (a TIFF's ExtraSamples 1), which a TIFF output says again; alpha
    /// is unassociated in every other format read and written here.
    bool associated_alpha = false;
    /// The extra sample is unspecified data, not alpha (a TIFF's ExtraSamples 0), which a TIFF output says again;
    /// in other formats it becomes alpha, and the run says so.
    bool unspecified_extra_sample = false;
    /// A PNG input's stored format (colour type, bit depth, PLTE, tRNS); a PNG output of the same pixel format
    /// is written that way where its samples fit (1-, 2- and 4-bit values below 2^depth; 8-bit otherwise).
    /// Pixel data rather than metadata: `--strip` keeps it (`stripped_metadata`).
    std::optional<PngStorage> png_storage;
    /// A PNG input's ancillary chunks in file order, other than tRNS (in `png_storage`). A PNG output gets
    /// gAMA cHRM sRGB iCCP sBIT bKGD hIST sPLT tEXt zTXt iTXt tIME eXIf pHYs and every other chunk
    /// that is safe to copy (lowercase fourth letter); not the other ones that are unsafe to copy, nor
    /// sBIT, bKGD and hIST unless it is written in `png_storage`'s format. iCCP and eXIf are written only
    /// where `icc` and `exif` are not empty, eXIf with `exif`'s bytes.
    std::vector<PngChunk> png_chunks;
    /// No EXIF, ICC profile, XMP, IPTC, JPEG comments, PNG chunks, TIFF text tags or resolution: nothing that
    /// `--strip` drops (`png_storage` describes the pixels).
    bool empty() const {
        return exif.empty() && icc.empty() && xmp.empty() && iptc.empty() && jpeg_comments.empty() && png_chunks.empty() && tiff_text.empty() &&
               !resolution;
    }
};

}  // namespace gpurotate
