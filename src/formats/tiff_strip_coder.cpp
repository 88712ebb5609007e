#include "formats/tiff_strip_coder.hpp"

#include "core/huge_pages.hpp"
#include "core/parallel_for.hpp"
#include "formats/tiff_memory_file.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

namespace gpurotate::detail {
namespace {

// Below this many bytes of pixels the strips are coded on one thread.
constexpr std::size_t parallel_code_bytes = std::size_t{4} << 20;

struct StripGeometry {
    std::uint32_t rows_per_strip = 0;
    std::uint32_t per_plane = 0;  ///< strips in one plane
    bool separate = false;
};

StripGeometry geometry_of(TIFF* t, ConstImageView image) {
    StripGeometry g;
    TIFFGetFieldDefaulted(t, TIFFTAG_ROWSPERSTRIP, &g.rows_per_strip);
    g.rows_per_strip = std::min(std::max<std::uint32_t>(g.rows_per_strip, 1), static_cast<std::uint32_t>(image.height));
    std::uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &planar);
    g.separate = planar == PLANARCONFIG_SEPARATE && image.format.channels > 1;
    g.per_plane = static_cast<std::uint32_t>((image.height + g.rows_per_strip - 1) / g.rows_per_strip);
    return g;
}

// Strip `strip`'s samples as libtiff takes them: its rows packed, of one channel where the planes are separate.
// A copy in any case: libtiff's predictor works in the buffer it is given.
std::size_t pack_strip(ConstImageView image, const StripGeometry& g, std::uint32_t strip, std::vector<std::uint8_t>& buffer) {
    const std::uint32_t plane = strip / g.per_plane;
    const std::uint32_t y0 = strip % g.per_plane * g.rows_per_strip;
    const std::uint32_t rows = std::min<std::uint32_t>(g.rows_per_strip, static_cast<std::uint32_t>(image.height) - y0);
    const std::size_t sample = sample_bytes(image.format.sample), pixel = image.format.pixel_bytes();
    const std::size_t row_bytes = g.separate ? static_cast<std::size_t>(image.width) * sample : image.row_bytes();
    buffer.resize(row_bytes * rows);
    for (std::uint32_t r = 0; r < rows; ++r) {
        const auto* in = reinterpret_cast<const std::uint8_t*>(image.row(y0 + r));
        std::uint8_t* out = buffer.data() + r * row_bytes;
        if (!g.separate) {
            std::memcpy(out, in, row_bytes);
            continue;
        }
        for (std::int64_t x = 0; x < image.width; ++x) std::memcpy(out + x * sample, in + x * pixel + plane * sample, sample);
    }
    return buffer.size();
}

bool write_encoded(TIFF* t, ConstImageView image, const StripGeometry& g, std::uint32_t first, std::uint32_t last) {
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
    std::vector<std::uint8_t> buffer;
    for (std::uint32_t s = first; s < last; ++s) {
        const std::size_t size = pack_strip(image, g, s, buffer);
        // Uncompressed strips are the packed samples themselves (in the machine's byte order, which libtiff writes):
        // written raw, without libtiff's copy through its coding buffer.
        const tmsize_t written = compression == COMPRESSION_NONE ? TIFFWriteRawStrip(t, s, buffer.data(), static_cast<tmsize_t>(size))
                                                                 : TIFFWriteEncodedStrip(t, s, buffer.data(), static_cast<tmsize_t>(size));
        if (written < 0) return false;
    }
    return true;
}

}  // namespace

bool write_strips(TIFF* t, TiffMemoryFile& file, ConstImageView image, bool parallel, const std::function<void(TIFF*)>& set_fields) {
    const StripGeometry g = geometry_of(t, image);
    const std::uint32_t strips = g.per_plane * (g.separate ? static_cast<std::uint32_t>(image.format.channels) : 1u);
    const std::size_t bytes = image.row_bytes() * static_cast<std::size_t>(image.height);
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
    if (!parallel || compression == COMPRESSION_NONE || bytes < parallel_code_bytes || strips < 2 || usable_cores() < 2) return write_encoded(t, image, g, 0, strips);
    // Each run of strips coded in a scratch TIFF of its own, kept whole (where each strip's bytes lie noted, not
    // copied out); then copied in order.
    struct CodedStrip {
        std::uint32_t run = 0;  ///< the first strip of its run, which names the run's scratch file
        std::uint64_t at = 0, size = 0;
    };
    std::vector<std::vector<std::uint8_t>> scratch_of(strips);
    std::vector<CodedStrip> coded(strips);
    std::atomic<bool> failed{false};
    const std::size_t strip_bytes = bytes / strips + 1;
    const auto min_chunk = static_cast<std::int64_t>(std::max<std::size_t>(1, (std::size_t{1} << 20) / strip_bytes));
    parallel_for(strips, min_chunk, [&](std::int64_t first, std::int64_t last) {
        std::vector<std::uint8_t>& scratch_bytes = scratch_of[static_cast<std::size_t>(first)];
        // Room for the run at LZW's worst (12 bits a byte, more than noisy 16-bit samples take), asked for in huge
        // pages: grown by doubling instead, a run's file is copied and faulted in 4 KiB pages several times over.
        // Room not written is address space only.
        scratch_bytes.reserve(strip_bytes * static_cast<std::size_t>(last - first) * 3 / 2 + (std::size_t{1} << 16));
        if (scratch_bytes.capacity() >= huge_page_worthy_bytes) ask_for_huge_pages(scratch_bytes.data(), scratch_bytes.data() + scratch_bytes.capacity());
        TiffMemoryFile scratch{nullptr, 0, &scratch_bytes, 0, {}};
        const TiffHandle s = open_tiff(scratch, "w");
        if (!s) {
            failed = true;
            return;
        }
        set_fields(s.get());
        if (!write_encoded(s.get(), image, g, static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(last))) {
            failed = true;
            return;
        }
        for (std::int64_t i = first; i < last; ++i) {
            const auto strip = static_cast<std::uint32_t>(i);
            const std::uint64_t at = TIFFGetStrileOffset(s.get(), strip), size = TIFFGetStrileByteCount(s.get(), strip);
            if (at + size > scratch_bytes.size()) {
                failed = true;
                return;
            }
            coded[strip] = {static_cast<std::uint32_t>(first), at, size};
        }
    });
    if (failed) return write_encoded(t, image, g, 0, strips);  // one thread, whose failure libtiff names on `t`
    std::uint64_t total = 0;
    for (const CodedStrip& c : coded) total += c.size;
    // The output's room for every coded strip at once, in huge pages: a compression that grows the samples (LZW
    // of noisy 16-bit ones does) would otherwise pass the room reserved for them uncompressed and copy the file.
    std::vector<std::uint8_t>& out = *file.out;
    const std::size_t needed = out.size() + static_cast<std::size_t>(total) + (std::size_t{1} << 16);
    if (needed > out.capacity()) {
        out.reserve(needed);
        if (out.capacity() >= huge_page_worthy_bytes) ask_for_huge_pages(out.data() + out.size(), out.data() + out.capacity());
    }
    for (std::uint32_t s = 0; s < strips; ++s) {
        std::uint8_t* strip = scratch_of[coded[s].run].data() + coded[s].at;
        if (TIFFWriteRawStrip(t, s, strip, static_cast<tmsize_t>(coded[s].size)) < 0) return false;
    }
    return true;
}

}  // namespace gpurotate::detail
