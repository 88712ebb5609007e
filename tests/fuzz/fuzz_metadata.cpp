// EXIF, ICC and PNG metadata from untrusted files: JPEG segments, PNG chunks (and a PNG's stored format),
// the iCCP zlib stream, the TIFF structure inside EXIF, XMP; then the edits a rotation and --auto-orient make, the
// insertion into a new PNG and JPEG, which must still decode, and EXIF's directories into a TIFF's.

#include "fuzz_limits.hpp"

#include <gpurotate/error.hpp>

#include "metadata/metadata.hpp"
#include "formats/png_codec.hpp"
#include "metadata/tiff_exif.hpp"
#include "metadata/xmp_geometry.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    gpurotate::ImageMetadata meta = gpurotate::detail::metadata_of(bytes);
    // A PNG's stored format and chunks reach an output only from a file that decodes, as in the CLI and augment.
    try {
        gpurotate::detail::decode_png(bytes, "fuzz.png", gpurotate::fuzz::read_options());
    } catch (const gpurotate::Error&) {
        meta.png_storage.reset();
        meta.png_chunks.clear();
    }
    const int tag = gpurotate::exif_orientation(meta);
    if (tag < 0 || tag > 8) std::abort();
    {  // The thumbnail left out (an angle no thumbnail follows): the block still reads, its tag unchanged.
        gpurotate::ImageMetadata without = meta;
        gpurotate::detail::leave_out_exif_thumbnail(without.exif, "fuzz");
        if (gpurotate::exif_orientation(without) != tag) std::abort();
    }
    meta = gpurotate::metadata_after(meta, gpurotate::Orientation::rot90, 1);  // EXIF and XMP edited
    gpurotate::detail::set_xmp_dimensions(meta.xmp, 2, 3);  // a trimmed JPEG's
    static const gpurotate::Image pixels(3, 2, {gpurotate::SampleType::u8, 3});
    gpurotate::WriteOptions options;
    options.metadata = &meta;
    for (const char* name : {".png", ".jpg"}) {
        const auto encoded = gpurotate::encode_image(pixels.view(), name, options);
        const gpurotate::Image back = gpurotate::decode_image(encoded, gpurotate::fuzz::read_options(), name);  // throws, and so aborts, if broken
        if (back.width() != 3 || back.height() != 2) std::abort();
        const auto kept = gpurotate::detail::metadata_of(encoded);
        if (kept.icc != meta.icc) std::abort();  // a profile that went in must come out whole
    }
    // Its EXIF and GPS directories into a TIFF's (a first directory with both pointers as placeholders, as the
    // plugin writes them), which must read back.
    std::vector<std::uint8_t> tiff = {'I', 'I', 42, 0, 8, 0, 0, 0, 2, 0};
    for (const unsigned tag : {34665u, 34853u}) {
        const std::uint8_t entry[12] = {static_cast<std::uint8_t>(tag), static_cast<std::uint8_t>(tag >> 8), 13, 0, 1, 0, 0, 0, 0, 0, 0, 0};
        tiff.insert(tiff.end(), entry, entry + 12);
    }
    tiff.insert(tiff.end(), 4, 0);
    const auto pointers = gpurotate::detail::exif_pointers_for_tiff(meta.exif);
    if (!gpurotate::detail::place_exif_in_tiff(tiff, meta.exif) && (pointers.exif || pointers.gps)) std::abort();
    const auto placed = gpurotate::detail::metadata_of(tiff);
    if (pointers.exif != (gpurotate::detail::exif_pointers_for_tiff(placed.exif).exif)) std::abort();
    return 0;
}
