#include "formats/tiff_memory_file.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace gpurotate::detail {
namespace {

TiffMemoryFile& file_of(thandle_t handle) { return *static_cast<TiffMemoryFile*>(handle); }

tmsize_t read_proc(thandle_t handle, void* buffer, tmsize_t n) {
    TiffMemoryFile& f = file_of(handle);
    const std::uint8_t* base = f.out ? f.out->data() : f.data;
    if (f.position >= f.length() || n <= 0) return 0;
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(n), f.length() - f.position);
    std::memcpy(buffer, base + f.position, count);
    f.position += count;
    return static_cast<tmsize_t>(count);
}

tmsize_t write_proc(thandle_t handle, void* buffer, tmsize_t n) {
    TiffMemoryFile& f = file_of(handle);
    if (!f.out || n < 0) return -1;
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

toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    TiffMemoryFile& f = file_of(handle);
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
    static_cast<TiffMemoryFile*>(file)->message = (module ? std::string(module) + ": " : std::string()) + text;
    return 1;  // handled: not passed on to the process-wide handler
}
int ignore_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

TiffHandle open_tiff(TiffMemoryFile& file, const char* mode) {
    const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> options(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), keep_message, &file);
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), ignore_warning, &file);
    return TiffHandle(
        TIFFClientOpenExt("tiff", mode, &file, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc, unmap_proc, options.get()));
}

}  // namespace gpurotate::detail
