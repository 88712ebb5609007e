#pragma once
// libtiff over bytes in memory: a file that is read from a buffer or written into a growing vector, with
// libtiff's messages kept per handle (the last error, for the one-line message gpurotate prints) instead of
// printed on stderr.

#include <tiffio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// What one libtiff handle reads or writes. Reading: `data` and `size`; writing: `out`.
struct TiffMemoryFile {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::vector<std::uint8_t>* out = nullptr;
    toff_t position = 0;
    std::string message;  ///< libtiff's last error on this handle

    std::size_t length() const { return out ? out->size() : size; }
};

struct TiffCloser {
    void operator()(TIFF* t) const { TIFFClose(t); }
};
using TiffHandle = std::unique_ptr<TIFF, TiffCloser>;

/// A handle on `file` in libtiff's `mode` ("rm" reads without mapping, "w" writes a classic TIFF); null where
/// libtiff refuses it, with its reason in file.message. `file` must outlive the handle.
TiffHandle open_tiff(TiffMemoryFile& file, const char* mode);

}  // namespace gpurotate::detail
