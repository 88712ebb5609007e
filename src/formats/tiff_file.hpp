#pragma once
// libtiff over gpurotate's own I/O: a file that is read from a buffer, written into a growing vector, or written
// into an open descriptor as libtiff codes it (the output's temporary file: the TIFF is never whole in memory),
// with libtiff's messages kept per handle (the last error, for the one-line message gpurotate prints) instead of
// printed on stderr.

#include <tiffio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// What one libtiff handle reads or writes. Reading: `data` and `size`; writing: `out`, or the descriptor `fd`.
struct TiffFile {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::vector<std::uint8_t>* out = nullptr;
    toff_t position = 0;
    std::string message;  ///< libtiff's last error on this handle
    int fd = -1;          ///< written with pwrite where `out` is null: a regular file, new and empty
    toff_t written = 0;   ///< the end of what was written to `fd`
    toff_t handed_to_disk = 0;  ///< where the writes to `fd` were last given to the disk (write-behind)
    std::string write_failure;  ///< why a write to `fd` failed, as the system says ("No space left on device")

    /// A file read from the `size` bytes at `data`.
    static TiffFile reading(const std::uint8_t* data, std::size_t size) {
        TiffFile f;
        f.data = data;
        f.size = size;
        return f;
    }
    /// A file written into `out`.
    static TiffFile writing(std::vector<std::uint8_t>& out) {
        TiffFile f;
        f.out = &out;
        return f;
    }
    /// A file written into the descriptor `fd`.
    static TiffFile writing_into(int fd) {
        TiffFile f;
        f.fd = fd;
        return f;
    }

    std::size_t length() const { return out ? out->size() : fd >= 0 ? static_cast<std::size_t>(written) : size; }
};

struct TiffCloser {
    void operator()(TIFF* t) const { TIFFClose(t); }
};
using TiffHandle = std::unique_ptr<TIFF, TiffCloser>;

/// Writes `n` bytes at `file.position` and moves past them, as libtiff's writes do; `n`, or -1 on failure
/// (a descriptor's reason in file.write_failure).
tmsize_t write_into(TiffFile& file, const void* bytes, tmsize_t n);

/// A handle on `file` in libtiff's `mode` ("rm" reads without mapping, "w" writes a classic TIFF); null where
/// libtiff refuses it, with its reason in file.message. `file` must outlive the handle.
TiffHandle open_tiff(TiffFile& file, const char* mode);

}  // namespace gpurotate::detail
