#include "formats/tiff_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace gpurotate::detail {
namespace {

TiffFile& file_of(thandle_t handle) { return *static_cast<TiffFile*>(handle); }

tmsize_t read_proc(thandle_t handle, void* buffer, tmsize_t n) {
    TiffFile& f = file_of(handle);
    if (!f.out && f.fd >= 0) {
        const ssize_t got = n > 0 ? ::pread(f.fd, buffer, static_cast<std::size_t>(n), static_cast<off_t>(f.position)) : 0;
        if (got > 0) f.position += static_cast<toff_t>(got);
        return static_cast<tmsize_t>(got);
    }
    const std::uint8_t* base = f.out ? f.out->data() : f.data;
    if (f.position >= f.length() || n <= 0) return 0;
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(n), f.length() - f.position);
    std::memcpy(buffer, base + f.position, count);
    f.position += count;
    return static_cast<tmsize_t>(count);
}

// What is written is given to the disk every 8 MiB as the strips are coded (sync_file_range starts the writeback and
// does not wait for it), so that the flush before a run reports success (an fsync of the file, or the one syncfs of
// augment and of many files) finds it written: an 88 MB LZW TIFF's fsync took 35-42 ms after the last strip without
// it, 2 ms with it (2-core VM). Where nothing flushes (a library caller's WriteOptions::durable off), the writeback
// only starts sooner than the kernel's own would.
void hand_to_disk(TiffFile& f) {
#if defined(__linux__)
    constexpr toff_t every = toff_t{8} << 20;
    if (f.written - f.handed_to_disk < every) return;
    ::sync_file_range(f.fd, static_cast<off64_t>(f.handed_to_disk), static_cast<off64_t>(f.written - f.handed_to_disk), SYNC_FILE_RANGE_WRITE);
    f.handed_to_disk = f.written;
#else
    static_cast<void>(f);
#endif
}

// `n` bytes at the descriptor's `position`, whole: a write cut short by a signal or a full pipe goes on.
tmsize_t write_to_descriptor(TiffFile& f, const std::uint8_t* bytes, tmsize_t n) {
    for (tmsize_t done = 0; done < n;) {
        const ssize_t put = ::pwrite(f.fd, bytes + done, static_cast<std::size_t>(n - done), static_cast<off_t>(f.position + static_cast<toff_t>(done)));
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) {
            f.write_failure = std::strerror(put < 0 ? errno : ENOSPC);
            return -1;
        }
        done += put;
    }
    f.position += static_cast<toff_t>(n);
    f.written = std::max(f.written, f.position);
    hand_to_disk(f);
    return n;
}

}  // namespace

tmsize_t write_into(TiffFile& f, const void* buffer, tmsize_t n) {
    if (n < 0) return -1;
    if (!f.out && f.fd >= 0) return write_to_descriptor(f, static_cast<const std::uint8_t*>(buffer), n);
    if (!f.out) return -1;
    const auto* bytes = static_cast<const std::uint8_t*>(buffer);
    std::vector<std::uint8_t>& out = *f.out;
    // The part past the end appended, not zeroed by a resize and then copied over: a strip's bytes are written
    // once (a 88 MB TIFF spent an eighth of its run zeroing).
    const std::size_t overlap = f.position < out.size() ? std::min<std::size_t>(out.size() - f.position, static_cast<std::size_t>(n)) : 0;
    if (f.position > out.size()) out.resize(f.position);  // a seek past the end: the gap reads as zeros
    if (overlap > 0) std::memcpy(out.data() + f.position, bytes, overlap);
    out.insert(out.end(), bytes + overlap, bytes + n);
    f.position += static_cast<toff_t>(n);
    return n;
}

namespace {

tmsize_t write_proc(thandle_t handle, void* buffer, tmsize_t n) { return write_into(file_of(handle), buffer, n); }

toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    TiffFile& f = file_of(handle);
    const toff_t base = whence == SEEK_CUR ? f.position : whence == SEEK_END ? f.length() : 0;
    f.position = base + offset;
    return f.position;
}

int close_proc(thandle_t) { return 0; }
toff_t size_proc(thandle_t handle) { return file_of(handle).length(); }
int map_proc(thandle_t, void**, toff_t*) { return 0; }
void unmap_proc(thandle_t, void*, toff_t) {}

// Per-handle handlers (libtiff 4.5's open options): the process-wide ones print on stderr, and a library
// must not replace a program's.
int keep_message(TIFF*, void* file, const char* module, const char* format, va_list args) {
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    static_cast<TiffFile*>(file)->message = (module ? std::string(module) + ": " : std::string()) + text;
    return 1;  // handled: not passed on to the process-wide handler
}
int ignore_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

TiffHandle open_tiff(TiffFile& file, const char* mode) {
    const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> options(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), keep_message, &file);
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), ignore_warning, &file);
    return TiffHandle(
        TIFFClientOpenExt("tiff", mode, &file, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc, unmap_proc, options.get()));
}

}  // namespace gpurotate::detail
