#include "formats/png_codec.hpp"

#include "metadata/byte_order.hpp"
#include "core/decode_limits.hpp"
#include "formats/alpha_channel.hpp"
#include "metadata/metadata.hpp"
#include "metadata/png_chunks.hpp"

#include <gpurotate/error.hpp>

#include <spng.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace gpurotate::detail {
namespace {

struct SpngFree {
    void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};
using SpngContext = std::unique_ptr<spng_ctx, SpngFree>;

SpngContext new_context(int flags) {
    SpngContext ctx(spng_ctx_new(flags));
    if (!ctx) throw Error(ErrorCode::internal, "PNG: libspng could not make a context (out of memory)");
    return ctx;
}

// Limits on what a file may make libspng hold besides the pixels: chunks are streamed, but text, iCCP,
// sPLT and unknown chunks are kept (decompressed) until the end. Real files hold kilobytes to a few
// megabytes of them (an XMP packet, a profile); a small file that inflates zTXt to gigabytes is refused.
constexpr std::size_t chunk_size_limit = std::size_t{64} << 20;
constexpr std::size_t chunk_cache_limit = std::size_t{256} << 20;
constexpr int chunk_count_limit = 100000;

std::string describe(int code) {
    switch (code) {
        case SPNG_IO_EOF:
        case SPNG_IO_ERROR:
        case SPNG_EOF: return "file is truncated";
        case SPNG_ECHUNK_CRC: return "a chunk's checksum (CRC) does not match";
        case SPNG_EZLIB:
        case SPNG_EIDAT_STREAM:
        case SPNG_EIDAT_TOO_SHORT:
        case SPNG_EFILTER: return std::string("damaged image data (") + spng_strerror(code) + ")";
        default: return spng_strerror(code);
    }
}

// The libspng format an expanded decode asks for; SPNG_FMT_PNG is the stored one (16-bit host-endian).
struct Target {
    int spng_format;
    int flags;
    PixelFormat pixels;
};

Target target_for(const spng_ihdr& ihdr, bool has_transparency, bool stored) {
    PngStorage storage;
    storage.color_type = ihdr.color_type;
    storage.bit_depth = ihdr.bit_depth;
    const PixelFormat as_stored = png_stored_pixel_format(storage);
    // A grey or RGB image's tRNS is a colour key: in every other format it is an alpha channel.
    if (!stored && has_transparency && ihdr.color_type == SPNG_COLOR_TYPE_TRUECOLOR) {
        return ihdr.bit_depth == 16 ? Target{SPNG_FMT_RGBA16, SPNG_DECODE_TRNS, {SampleType::u16, 4}} : Target{SPNG_FMT_RGBA8, SPNG_DECODE_TRNS, {SampleType::u8, 4}};
    }
    if (!stored && has_transparency && ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE) {
        return ihdr.bit_depth == 16 ? Target{SPNG_FMT_GA16, SPNG_DECODE_TRNS, {SampleType::u16, 2}} : Target{SPNG_FMT_GA8, SPNG_DECODE_TRNS, {SampleType::u8, 2}};
    }
    if (stored || (ihdr.color_type != SPNG_COLOR_TYPE_INDEXED && ihdr.bit_depth >= 8)) return {SPNG_FMT_PNG, 0, as_stored};
    if (ihdr.color_type != SPNG_COLOR_TYPE_INDEXED) return {SPNG_FMT_G8, 0, {SampleType::u8, 1}};  // scaled to 0..255
    if (has_transparency) return {SPNG_FMT_RGBA8, SPNG_DECODE_TRNS, {SampleType::u8, 4}};
    return {SPNG_FMT_RGB8, 0, {SampleType::u8, 3}};
}

// One byte per sample from rows of 1-, 2- or 4-bit samples, most significant first, and back.
void unpack_samples(const std::uint8_t* packed, std::uint8_t* out, std::size_t samples, int depth) {
    const int per_byte = 8 / depth;
    const unsigned mask = (1u << depth) - 1;
    for (std::size_t i = 0; i < samples; ++i) {
        const int shift = 8 - depth * (static_cast<int>(i % per_byte) + 1);
        out[i] = static_cast<std::uint8_t>((packed[i / per_byte] >> shift) & mask);
    }
}

void pack_samples(const std::uint8_t* samples, std::uint8_t* packed, std::size_t count, int depth) {
    const int per_byte = 8 / depth;
    const unsigned mask = (1u << depth) - 1;
    std::fill(packed, packed + (count + per_byte - 1) / per_byte, 0);
    for (std::size_t i = 0; i < count; ++i) {
        const int shift = 8 - depth * (static_cast<int>(i % per_byte) + 1);
        packed[i / per_byte] = static_cast<std::uint8_t>(packed[i / per_byte] | (samples[i] & mask) << shift);
    }
}

// Whether `image` holds samples stored as `storage` says: its pixel format and, below 8 bits, every value
// below 2^depth. 1-, 2- and 4-bit grey decoded to 8 bits (ReadOptions without png_storage) has the same
// pixel format but values up to 255, and is written as 8-bit. Palette indices past PLTE's end are kept as
// the input had them.
bool stored_samples_fit(ConstImageView image, const PngStorage& storage) {
    if (png_stored_pixel_format(storage) != image.format) return false;
    if (storage.bit_depth >= 8) return true;
    const unsigned limit = 1u << storage.bit_depth;
    for (std::int64_t y = 0; y < image.height; ++y) {
        const auto* row = reinterpret_cast<const std::uint8_t*>(image.row(y));
        if (std::any_of(row, row + image.row_bytes(), [&](std::uint8_t v) { return v >= limit; })) return false;
    }
    return true;
}

int write_to_vector(spng_ctx*, void* user, void* data, std::size_t length) {
    auto& out = *static_cast<std::vector<std::uint8_t>*>(user);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    out.insert(out.end(), bytes, bytes + length);
    return 0;
}

spng_location location_of(PngChunkPlace place) {
    switch (place) {
        case PngChunkPlace::before_plte: return SPNG_AFTER_IHDR;
        case PngChunkPlace::before_idat: return SPNG_AFTER_PLTE;
        case PngChunkPlace::after_idat: return SPNG_AFTER_IDAT;
    }
    return SPNG_AFTER_IHDR;
}

std::uint16_t be16(const std::vector<std::uint8_t>& b, std::size_t pos) { return static_cast<std::uint16_t>(b[pos] << 8 | b[pos + 1]); }

// PLTE and tRNS of `storage` into the encoder; libspng checks them against the colour type and depth.
void set_palette_and_transparency(spng_ctx* ctx, const PngStorage& storage) {
    if (!storage.palette.empty()) {
        spng_plte plte{};
        plte.n_entries = static_cast<std::uint32_t>(std::min<std::size_t>(storage.palette.size() / 3, 256));
        for (std::uint32_t i = 0; i < plte.n_entries; ++i) {
            plte.entries[i] = {storage.palette[3 * i], storage.palette[3 * i + 1], storage.palette[3 * i + 2], 255};
        }
        if (const int ret = spng_set_plte(ctx, &plte)) throw Error(ErrorCode::output, std::string("PNG: the palette: ") + spng_strerror(ret));
    }
    const auto& t = storage.transparency;
    if (t.empty()) return;
    spng_trns trns{};
    if (storage.color_type == SPNG_COLOR_TYPE_GRAYSCALE && t.size() == 2) {
        trns.gray = be16(t, 0);
    } else if (storage.color_type == SPNG_COLOR_TYPE_TRUECOLOR && t.size() == 6) {
        trns.red = be16(t, 0), trns.green = be16(t, 2), trns.blue = be16(t, 4);
    } else if (storage.color_type == SPNG_COLOR_TYPE_INDEXED && t.size() <= 256) {
        trns.n_type3_entries = static_cast<std::uint32_t>(t.size());
        std::copy(t.begin(), t.end(), trns.type3_alpha);
    } else {
        return;  // a tRNS that libspng would have refused in the input
    }
    if (const int ret = spng_set_trns(ctx, &trns)) throw Error(ErrorCode::output, std::string("PNG: the tRNS chunk: ") + spng_strerror(ret));
}

// --png-level onto libspng's options. Level 1 filters every row with Paeth and matches runs only (Z_RLE):
// on photographs that is both the fastest and about the smallest (bench/RESULTS.md); 2-9 let libspng pick
// each row's filter and search for repeated strings, which pays on drawings and screenshots.
void set_compression(spng_ctx* ctx, int level) {
    constexpr int z_default_strategy = 0, z_rle = 3;  // zlib.h's Z_DEFAULT_STRATEGY and Z_RLE
    const int filters = level == 0 ? SPNG_DISABLE_FILTERING : level == 1 ? SPNG_FILTER_CHOICE_PAETH : SPNG_FILTER_CHOICE_ALL;
    spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, level);
    spng_set_option(ctx, SPNG_IMG_COMPRESSION_STRATEGY, level == 1 ? z_rle : z_default_strategy);
    spng_set_option(ctx, SPNG_FILTER_CHOICE, filters);
}

}  // namespace

std::optional<Extent> png_declared_extent(const std::vector<std::uint8_t>& bytes) {
    if (!is_png(bytes) || bytes.size() < 24 || std::memcmp(&bytes[12], "IHDR", 4) != 0) return std::nullopt;
    const Extent extent{static_cast<std::int64_t>(*read_unsigned(bytes, 16, 4, true)), static_cast<std::int64_t>(*read_unsigned(bytes, 20, 4, true))};
    // PNG's sides are at most 2^31 - 1: a header past that is damage, which the decoder names as such.
    constexpr std::int64_t png_most_side = 0x7fffffff;
    if (extent.width > png_most_side || extent.height > png_most_side) return std::nullopt;
    return extent;
}

std::optional<Image> decode_png(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!is_png(bytes)) return std::nullopt;
    const auto fail = [&](int code) {
        if (code == SPNG_ECHUNK_LIMITS) {
            return Error(ErrorCode::input, "cannot decode '" + path + "': its ancillary chunks would hold more than " +
                                               std::to_string(chunk_cache_limit >> 20) + " MiB (libspng: " + spng_strerror(code) + ")");
        }
        return Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNG: " + describe(code));
    };
    const SpngContext ctx = new_context(0);
    spng_set_crc_action(ctx.get(), SPNG_CRC_ERROR, SPNG_CRC_ERROR);
    spng_set_chunk_limits(ctx.get(), chunk_size_limit, chunk_cache_limit);
    spng_set_option(ctx.get(), SPNG_CHUNK_COUNT_LIMIT, chunk_count_limit);
    if (const int ret = spng_set_png_buffer(ctx.get(), bytes.data(), bytes.size())) throw fail(ret);
    // The declared size is checked from IHDR's bytes, before libspng reads them: it refuses some huge sizes
    // as an arithmetic overflow, which would not say what the file declares.
    if (const auto declared = png_declared_extent(bytes)) {
        const std::int64_t width = declared->width, height = declared->height;
        // PNG allows 2^31 - 1 per side, which also keeps the product inside 64 bits (found by fuzz_png).
        constexpr std::int64_t side_limit = 0x7fffffff;
        if (width > side_limit || height > side_limit) {
            throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNG: image size " + std::to_string(width) + "x" + std::to_string(height) +
                                              " (PNG allows at most 2147483647 per side)");
        }
        check_declared_size(path, width, height, options);
    }
    spng_ihdr ihdr{};
    if (const int ret = spng_get_ihdr(ctx.get(), &ihdr)) throw fail(ret);
    spng_trns trns{};
    const int trns_ret = spng_get_trns(ctx.get(), &trns);  // reads every chunk before IDAT
    if (trns_ret != 0 && trns_ret != SPNG_ECHUNKAVAIL) throw fail(trns_ret);
    const bool has_transparency = trns_ret == 0;
    const Target target = target_for(ihdr, has_transparency, options.png_storage);
    try {
        checked_image_bytes(ihdr.width, ihdr.height, target.pixels);
    } catch (const Error&) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': " + std::to_string(ihdr.width) + "x" + std::to_string(ihdr.height) + " is too large");
    }

    Image image(ihdr.width, ihdr.height, target.pixels, options.memory);
    if (const int ret = spng_decode_image(ctx.get(), nullptr, 0, target.spng_format, target.flags | SPNG_DECODE_PROGRESSIVE)) throw fail(ret);
    std::size_t row_bytes = 0;  // as libspng writes it: packed for depths below 8
    if (const int ret = spng_decoded_image_size(ctx.get(), target.spng_format, &row_bytes)) throw fail(ret);
    row_bytes /= ihdr.height;
    const bool packed = target.spng_format == SPNG_FMT_PNG && ihdr.bit_depth < 8;
    // Interlaced rows come back once per pass, each filling in its pixels: packed samples are gathered whole first.
    std::vector<std::uint8_t> packed_rows(packed ? row_bytes * ihdr.height : 0);
    int ret = 0;
    do {
        spng_row_info row{};
        if ((ret = spng_get_row_info(ctx.get(), &row)) != 0) break;
        auto* out = packed ? packed_rows.data() + row_bytes * row.row_num : reinterpret_cast<std::uint8_t*>(image.view().row(row.row_num));
        ret = spng_decode_row(ctx.get(), out, row_bytes);
    } while (ret == 0);
    if (ret != SPNG_EOI) throw fail(ret);
    // The chunks after the image data, their CRCs and IEND.
    if ((ret = spng_decode_chunks(ctx.get())) != 0) throw fail(ret);
    if (packed) {
        const std::size_t samples = static_cast<std::size_t>(ihdr.width) * static_cast<std::size_t>(target.pixels.channels);
        for (std::uint32_t y = 0; y < ihdr.height; ++y) {
            unpack_samples(packed_rows.data() + row_bytes * y, reinterpret_cast<std::uint8_t*>(image.view().row(y)), samples, ihdr.bit_depth);
        }
    }
    // A grey or RGB colour key that no pixel has adds nothing: the image stays without alpha.
    const bool keyed = (target.flags & SPNG_DECODE_TRNS) && ihdr.color_type != SPNG_COLOR_TYPE_INDEXED;
    if (keyed) {
        if (auto opaque = without_opaque_alpha(image.view(), options.memory)) return std::move(*opaque);
    }
    return image;
}

std::vector<std::uint8_t> encode_png(ConstImageView image, int level, const ImageMetadata* metadata) {
    if (level < 0 || level > 9) throw Error(ErrorCode::usage, "PNG compression level " + std::to_string(level) + " is outside 0..9");
    const auto fail = [](const char* what, int code) { return Error(ErrorCode::output, std::string("PNG: libspng ") + what + ": " + spng_strerror(code)); };
    const PngStorage* storage = metadata && metadata->png_storage && stored_samples_fit(image, *metadata->png_storage) ? &*metadata->png_storage : nullptr;
    static constexpr std::uint8_t color_type_of_channels[] = {0, 0, 4, 2, 6};  // grey, grey+alpha, RGB, RGBA
    spng_ihdr ihdr{};
    ihdr.width = static_cast<std::uint32_t>(image.width);
    ihdr.height = static_cast<std::uint32_t>(image.height);
    ihdr.bit_depth = static_cast<std::uint8_t>(storage ? storage->bit_depth : image.format.sample == SampleType::u16 ? 16 : 8);
    ihdr.color_type = storage ? static_cast<std::uint8_t>(storage->color_type) : color_type_of_channels[image.format.channels];

    const SpngContext ctx = new_context(SPNG_CTX_ENCODER);
    std::vector<std::uint8_t> png;
    // Room for the stored rows (and their filter bytes) up front: a PNG seldom outgrows them. Appending
    // libspng's 8 KiB pieces to an empty vector reallocated it a dozen times, copying and page-faulting the
    // output about twice over: 2-4 ms of a 1080p photo's 90 at level 1. Room never written costs no memory.
    const std::size_t stored_row_bytes = (static_cast<std::size_t>(image.width) * image.format.channels * ihdr.bit_depth + 7) / 8;
    png.reserve((stored_row_bytes + 1) * static_cast<std::size_t>(image.height) + 4096);
    spng_set_png_stream(ctx.get(), write_to_vector, &png);
    if (const int ret = spng_set_ihdr(ctx.get(), &ihdr)) throw fail("header", ret);
    if (storage) set_palette_and_transparency(ctx.get(), *storage);
    set_compression(ctx.get(), level);

    // The chunks go out as libspng's "unknown" chunks, byte for byte, at the place they had.
    std::vector<spng_unknown_chunk> chunks;
    const auto add = [&](const std::string& type, const std::vector<std::uint8_t>& data, PngChunkPlace place) {
        spng_unknown_chunk c{};
        std::memcpy(c.type, type.data(), 4);
        c.length = data.size();
        c.data = const_cast<std::uint8_t*>(data.data());
        c.location = location_of(place);
        chunks.push_back(c);
    };
    bool exif_written = false, icc_written = false, xmp_seen = false;
    std::vector<std::uint8_t> xmp_chunk;  // outlives the call that hands `chunks` to libspng
    if (metadata) {
        for (const PngChunk& chunk : metadata->png_chunks) {
            if (chunk.type.size() != 4 || !png_chunk_copied(chunk, storage != nullptr)) continue;
            const auto xmp_packet = !xmp_seen && !metadata->xmp.empty() ? png_xmp_packet(chunk) : std::nullopt;
            xmp_seen = xmp_seen || is_png_xmp(chunk);
            if (xmp_packet) {
                // The packet read from this chunk, as edited for the output (metadata_after), after the chunk's own
                // keyword, flags, language and translated keyword.
                xmp_chunk.assign(chunk.data.begin(), chunk.data.begin() + static_cast<std::ptrdiff_t>(*xmp_packet));
                xmp_chunk.insert(xmp_chunk.end(), metadata->xmp.begin(), metadata->xmp.end());
                add(chunk.type, xmp_chunk, chunk.place);
            } else if (chunk.type == "eXIf") {
                if (metadata->exif.empty() || exif_written) continue;
                add(chunk.type, metadata->exif, chunk.place);
                exif_written = true;
            } else if (chunk.type == "iCCP") {
                if (metadata->icc.empty() || icc_written) continue;
                add(chunk.type, chunk.data, chunk.place);
                icc_written = true;
            } else {
                add(chunk.type, chunk.data, chunk.place);
            }
        }
        if (!metadata->exif.empty() && !exif_written) add("eXIf", metadata->exif, PngChunkPlace::before_plte);
        // The XMP of another format's input (a PNG's own iTXt is among the chunks, written above): an iTXt,
        // uncompressed, no language, as the XMP specification puts it in a PNG.
        if (!metadata->xmp.empty() && !xmp_seen) {
            static constexpr char header[] = "XML:com.adobe.xmp\0\0\0\0\0";  // keyword, NUL, flag 0, method 0, empty language and translation
            xmp_chunk.assign(header, header + sizeof header - 1);
            xmp_chunk.insert(xmp_chunk.end(), metadata->xmp.begin(), metadata->xmp.end());
            add("iTXt", xmp_chunk, PngChunkPlace::before_plte);
        }
        // The resolution of another format's input (a PNG's own pHYs is among the chunks, copied above).
        const bool has_phys = std::any_of(metadata->png_chunks.begin(), metadata->png_chunks.end(), [](const PngChunk& c) { return c.type == "pHYs"; });
        if (metadata->resolution && !has_phys) {
            const Resolution& r = *metadata->resolution;
            spng_phys phys{};
            phys.ppu_x = pixels_per_metre(r.x, r.unit);
            phys.ppu_y = pixels_per_metre(r.y, r.unit);
            phys.unit_specifier = r.unit == Resolution::Unit::none ? 0 : 1;
            if (const int ret = spng_set_phys(ctx.get(), &phys)) throw fail("pHYs", ret);
        }
        if (!metadata->icc.empty() && !icc_written) {
            spng_iccp iccp{};
            std::strcpy(iccp.profile_name, "ICC profile");
            iccp.profile_len = metadata->icc.size();
            iccp.profile = const_cast<char*>(reinterpret_cast<const char*>(metadata->icc.data()));
            if (const int ret = spng_set_iccp(ctx.get(), &iccp)) throw fail("ICC profile", ret);
        }
    }
    if (!chunks.empty()) {
        if (const int ret = spng_set_unknown_chunks(ctx.get(), chunks.data(), static_cast<std::uint32_t>(chunks.size()))) throw fail("chunks", ret);
    }

    if (const int ret = spng_encode_image(ctx.get(), nullptr, 0, SPNG_FMT_PNG, SPNG_ENCODE_PROGRESSIVE | SPNG_ENCODE_FINALIZE)) throw fail("encoder", ret);
    const bool packed = ihdr.bit_depth < 8;
    const std::size_t samples = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.format.channels);
    std::vector<std::uint8_t> packed_row(packed ? (samples * ihdr.bit_depth + 7) / 8 : 0);
    int ret = 0;
    for (std::int64_t y = 0; y < image.height && ret == 0; ++y) {
        const auto* row = reinterpret_cast<const std::uint8_t*>(image.row(y));
        if (packed) pack_samples(row, packed_row.data(), samples, ihdr.bit_depth);
        ret = packed ? spng_encode_row(ctx.get(), packed_row.data(), packed_row.size()) : spng_encode_row(ctx.get(), row, image.row_bytes());
    }
    if (ret != SPNG_EOI) throw fail("encoding", ret);
    return png;
}

std::string png_output_notes(const ImageMetadata& metadata, PixelFormat format) {
    const bool stored = metadata.png_storage && png_stored_pixel_format(*metadata.png_storage) == format;  // as decoded with png_storage
    std::string dropped;
    for (const PngChunk& chunk : metadata.png_chunks) {
        if (!png_chunk_copied(chunk, stored)) dropped += (dropped.empty() ? "" : ", ") + chunk.type;
    }
    std::string notes;
    if (metadata.png_storage && metadata.png_storage->interlaced) notes = "interlaced input written without interlacing";
    if (!dropped.empty()) {
        notes += (notes.empty() ? "" : "; ") + std::string("chunks dropped: ") + dropped +
                 (stored ? " (unsafe to copy into a changed image)" : " (unsafe to copy, or tied to the input's colour type)");
    }
    return notes;
}

}  // namespace gpurotate::detail
