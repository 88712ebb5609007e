#include "formats/tiff_strip_coder.hpp"

#include "core/huge_pages.hpp"
#include "core/parallel_for.hpp"
#include "formats/tiff_lzw.hpp"
#include "formats/tiff_file.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
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

// Where a strip's coded bytes lie: in the scratch file of its run of strips (named by the run's first strip).
struct CodedStrip {
    std::uint32_t run = 0;
    std::uint64_t at = 0, size = 0;
};

// Strips a thread codes at least: about 1 MiB of samples, so that a small image is not cut into tiny runs.
std::int64_t strips_per_run(std::size_t strip_bytes) {
    return static_cast<std::int64_t>(std::max<std::size_t>(1, (std::size_t{1} << 20) / std::max<std::size_t>(1, strip_bytes)));
}

// The coded strips written into `t` in strip order, each in the scratch file of its run. An output in memory has its
// room for all of them asked for at once, in huge pages: a compression that grows the samples (LZW of noisy 16-bit
// ones does) would otherwise pass the room reserved for them uncompressed and copy the file.
bool write_coded_strips(TIFF* t, TiffFile& file, const std::vector<CodedStrip>& coded, std::vector<std::vector<std::uint8_t>>& scratch_of) {
    std::uint64_t total = 0;
    for (const CodedStrip& c : coded) total += c.size;
    if (file.out) {
        std::vector<std::uint8_t>& out = *file.out;
        const std::size_t needed = out.size() + static_cast<std::size_t>(total) + (std::size_t{1} << 16);
        if (needed > out.capacity()) {
            out.reserve(needed);
            if (out.capacity() >= huge_page_worthy_bytes) ask_for_huge_pages(out.data() + out.size(), out.data() + out.capacity());
        }
    }
    for (std::uint32_t s = 0; s < coded.size(); ++s) {
        if (TIFFWriteRawStrip(t, s, scratch_of[coded[s].run].data() + coded[s].at, static_cast<tmsize_t>(coded[s].size)) < 0) return false;
    }
    return true;
}

// How gpurotate's own LZW coder (tiff_lzw.hpp) codes `t`'s strips, where it does: LZW without a predictor, or
// with the horizontal one over 8-, 16- or 32-bit samples, in the machine's byte order (the file's, as libtiff
// writes a new one). libtiff codes the rest (the floating-point predictor, other compressions).
struct OwnLzw {
    bool codes = false;
    bool differenced = false;
    std::size_t sample = 0;  ///< bytes a sample
    std::size_t stride = 0;  ///< samples from one to the one it is differenced from
};

OwnLzw own_lzw_of(TIFF* t, std::uint16_t compression, ConstImageView image, const StripGeometry& g) {
    std::uint16_t predictor = PREDICTOR_NONE;
    OwnLzw lzw;
    if (compression != COMPRESSION_LZW) return lzw;
    // Asked of LZW only: another codec has no predictor to give, and libtiff would leave an error on the handle.
    TIFFGetFieldDefaulted(t, TIFFTAG_PREDICTOR, &predictor);
    lzw.sample = sample_bytes(image.format.sample);
    lzw.differenced = predictor == PREDICTOR_HORIZONTAL;
    lzw.stride = g.separate ? 1 : static_cast<std::size_t>(image.format.channels);
    lzw.codes = !TIFFIsByteSwapped(t) && (predictor == PREDICTOR_NONE || (lzw.differenced && (lzw.sample == 1 || lzw.sample == 2 || lzw.sample == 4)));
    return lzw;
}

template <typename Sample>
void difference_strip(const std::vector<std::uint8_t>& packed, std::vector<std::uint8_t>& out, std::size_t row_bytes, std::size_t stride) {
    out.resize(packed.size());
    difference_rows(reinterpret_cast<const Sample*>(packed.data()), reinterpret_cast<Sample*>(out.data()), packed.size() / row_bytes,
                    row_bytes / sizeof(Sample), stride);
}

// The strips coded by the own LZW coder, on up to `threads` threads, and written in strip order as the runs are done.
// Each thread takes the next run of strips (about 1 MiB of samples) and codes it into a buffer of a small pool;
// whichever thread finds the next run in order done writes it (TIFFWriteRawStrip, one thread at a time) while
// the others code on, and its buffer goes back to the pool. While the writes keep up with the coding, the coded file
// is never held whole: written into the output's descriptor, a 12-megapixel 16-bit image took 4 buffers (6 MiB) for
// its 88 MB of strips. (The pool has no bound: where the disk falls behind, runs wait in memory, at worst all of
// them, as before.)
class OrderedLzwWriter {
public:
    OrderedLzwWriter(TIFF* t, ConstImageView image, const StripGeometry& g, const OwnLzw& lzw, std::uint32_t strips)
        : t_(t), image_(image), g_(g), lzw_(lzw), strips_(strips),
          row_bytes_(g.separate ? static_cast<std::size_t>(image.width) * lzw.sample : image.row_bytes()),
          strips_per_run_(static_cast<std::uint32_t>(strips_per_run(row_bytes_ * g.rows_per_strip))),
          runs_((strips + strips_per_run_ - 1) / strips_per_run_), coded_(runs_) {}

    bool write(unsigned threads) {
        parallel_for(std::min<std::int64_t>(runs_, threads == 0 ? usable_cores() : threads), 1, [&](std::int64_t, std::int64_t) {
            std::vector<std::uint8_t> packed, differenced;
            try {
                for (std::uint32_t run; !failed_ && (run = next_run_++) < runs_;) finish(run, code(run, packed, differenced));
            } catch (...) {
                failed_ = true;  // the other threads stop taking runs; parallel_for rethrows this once they have
                throw;
            }
        });
        return !failed_;
    }

private:
    struct CodedRun {
        std::unique_ptr<std::uint8_t[]> buffer;
        std::vector<std::uint64_t> sizes;  ///< each strip's coded bytes, one after the other in `buffer`
    };

    CodedRun code(std::uint32_t run, std::vector<std::uint8_t>& packed, std::vector<std::uint8_t>& differenced) {
        const std::uint32_t first = run * strips_per_run_, last = std::min(strips_, first + strips_per_run_);
        CodedRun coded{take_buffer(), {}};
        std::size_t at = 0;
        for (std::uint32_t strip = first; strip < last; ++strip) {
            const std::size_t size = pack_strip(image_, g_, strip, packed);
            const std::vector<std::uint8_t>* samples = &packed;
            if (lzw_.differenced) {
                if (lzw_.sample == 1) difference_strip<std::uint8_t>(packed, differenced, row_bytes_, lzw_.stride);
                if (lzw_.sample == 2) difference_strip<std::uint16_t>(packed, differenced, row_bytes_, lzw_.stride);
                if (lzw_.sample == 4) difference_strip<std::uint32_t>(packed, differenced, row_bytes_, lzw_.stride);
                samples = &differenced;
            }
            coded.sizes.push_back(encode_tiff_lzw(samples->data(), size, coded.buffer.get() + at));
            at += coded.sizes.back();
        }
        return coded;
    }

    // Room for a run at LZW's worst, never zeroed: only what is written is touched; a buffer written out is
    // taken again, its pages already there.
    std::unique_ptr<std::uint8_t[]> take_buffer() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (!pool_.empty()) {
                std::unique_ptr<std::uint8_t[]> buffer = std::move(pool_.back());
                pool_.pop_back();
                return buffer;
            }
        }
        return std::unique_ptr<std::uint8_t[]>(new std::uint8_t[tiff_lzw_bound(row_bytes_ * g_.rows_per_strip) * strips_per_run_]);
    }

    // `run` done; the thread that finds the next run in order done writes it and every done run after it.
    void finish(std::uint32_t run, CodedRun coded) {
        std::unique_lock<std::mutex> lock(mutex_);
        coded_[run] = std::move(coded);
        if (writing_) return;  // the writer finds it
        writing_ = true;
        while (!failed_ && next_written_ < runs_ && coded_[next_written_].buffer) {
            const std::uint32_t r = next_written_;
            CodedRun ready = std::move(coded_[r]);
            lock.unlock();
            bool ok = true;
            std::uint64_t at = 0;
            for (std::size_t i = 0; i < ready.sizes.size() && ok; ++i) {
                const auto strip = static_cast<std::uint32_t>(r * strips_per_run_ + i);
                ok = TIFFWriteRawStrip(t_, strip, ready.buffer.get() + at, static_cast<tmsize_t>(ready.sizes[i])) >= 0;
                at += ready.sizes[i];
            }
            lock.lock();
            if (!ok) failed_ = true;
            pool_.push_back(std::move(ready.buffer));
            ++next_written_;
        }
        writing_ = false;
    }

    TIFF* t_;
    ConstImageView image_;
    const StripGeometry& g_;
    const OwnLzw& lzw_;
    std::uint32_t strips_;
    std::size_t row_bytes_;
    std::uint32_t strips_per_run_, runs_;
    std::atomic<std::uint32_t> next_run_{0};
    std::atomic<bool> failed_{false};
    std::mutex mutex_;  // guards what follows
    std::vector<CodedRun> coded_;  ///< runs done and not yet written
    std::vector<std::unique_ptr<std::uint8_t[]>> pool_;
    std::uint32_t next_written_ = 0;
    bool writing_ = false;
};

}  // namespace

bool write_strips(TIFF* t, TiffFile& file, ConstImageView image, bool parallel, const std::function<void(TIFF*)>& set_fields) {
    const StripGeometry g = geometry_of(t, image);
    const std::uint32_t strips = g.per_plane * (g.separate ? static_cast<std::uint32_t>(image.format.channels) : 1u);
    const std::size_t bytes = image.row_bytes() * static_cast<std::size_t>(image.height);
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
    const bool threads_worth_it = bytes >= parallel_code_bytes && strips >= 2 && usable_cores() >= 2;
    if (const OwnLzw lzw = own_lzw_of(t, compression, image, g); lzw.codes) return OrderedLzwWriter(t, image, g, lzw, strips).write(parallel && threads_worth_it ? 0u : 1u);
    if (!parallel || compression == COMPRESSION_NONE || !threads_worth_it) return write_encoded(t, image, g, 0, strips);
    // Each run of strips coded in a scratch TIFF of its own, kept whole (where each strip's bytes lie noted, not
    // copied out); then copied in order.
    std::vector<std::vector<std::uint8_t>> scratch_of(strips);
    std::vector<CodedStrip> coded(strips);
    std::atomic<bool> failed{false};
    const std::size_t strip_bytes = bytes / strips + 1;
    parallel_for(strips, strips_per_run(strip_bytes), [&](std::int64_t first, std::int64_t last) {
        std::vector<std::uint8_t>& scratch_bytes = scratch_of[static_cast<std::size_t>(first)];
        // Room for the run at LZW's worst (12 bits a byte, more than noisy 16-bit samples take), asked for in huge
        // pages: grown by doubling instead, a run's file is copied and faulted in 4 KiB pages several times over.
        // Room not written is address space only.
        scratch_bytes.reserve(strip_bytes * static_cast<std::size_t>(last - first) * 3 / 2 + (std::size_t{1} << 16));
        if (scratch_bytes.capacity() >= huge_page_worthy_bytes) ask_for_huge_pages(scratch_bytes.data(), scratch_bytes.data() + scratch_bytes.capacity());
        TiffFile scratch = TiffFile::writing(scratch_bytes);
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
    return write_coded_strips(t, file, coded, scratch_of);
}

}  // namespace gpurotate::detail
