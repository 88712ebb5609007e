#include "jpeg/turbojpeg_codec.hpp"


#include "core/decode_limits.hpp"
#include "jpeg/jpeg_signature.hpp"
#include "jpeg/jpeg_work_limits.hpp"
#include "jpeg/turbojpeg_handle.hpp"

#include <gpurotate/error.hpp>

#include <turbojpeg.h>

#include <cstring>
#include <limits>
#include <memory>

namespace gpurotate::detail {
namespace {

using Handle = TurboJpegHandle;

// One compressor and one decompressor per thread, kept: creating them costs more than a small image.
Handle& thread_decompressor() {
    thread_local Handle handle;
    if (!handle) handle.reset(tjInitDecompress());
    if (!handle) throw Error(ErrorCode::internal, "TurboJPEG: cannot create a decompressor");
    return handle;
}

tjhandle compressor() {
    thread_local Handle handle(tjInitCompress());
    if (!handle) throw Error(ErrorCode::internal, "TurboJPEG: cannot create a compressor");
    return handle.get();
}

// The frame header's size and colour space, read by TurboJPEG into the thread's decompressor (false where it
// cannot: the handle is then left for the caller's message, and reset).
struct JpegHeader {
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
};

bool read_header(tjhandle h, const std::vector<std::uint8_t>& bytes, JpegHeader& header) {
    return tjDecompressHeader3(h, bytes.data(), bytes.size(), &header.width, &header.height, &header.subsampling, &header.colorspace) == 0;
}

}  // namespace

bool turbojpeg_available() { return true; }

std::optional<Extent> turbojpeg_declared_extent(const std::vector<std::uint8_t>& bytes) {
    if (!is_jpeg(bytes) || bytes.size() > std::numeric_limits<unsigned long>::max()) return std::nullopt;
    Handle& handle = thread_decompressor();
    JpegHeader header;
    if (!read_header(handle.get(), bytes, header)) {
        handle.reset();  // left mid-header (turbojpeg_decode says why)
        return std::nullopt;
    }
    if (header.width <= 0 || header.height <= 0) return std::nullopt;
    return Extent{header.width, header.height};
}

std::optional<Image> turbojpeg_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!is_jpeg(bytes)) return std::nullopt;
    Handle& handle = thread_decompressor();
    const auto corrupt = [&](tjhandle h) {
        Error error(ErrorCode::input, "cannot decode '" + path + "': corrupt JPEG: " + tjGetErrorStr2(h));
        // TurboJPEG leaves a handle mid-header after an error, and the next file would fail with "Bogus
        // marker length" (found by fuzz_roundtrip): the thread's next JPEG gets a fresh one.
        handle.reset();
        return error;
    };
    if (bytes.size() > std::numeric_limits<unsigned long>::max()) throw Error(ErrorCode::input, "cannot decode '" + path + "': file too large");
    check_jpeg_work(bytes, path, options.max_jpeg_scans);
    tjhandle h = handle.get();
    JpegHeader header;
    if (!read_header(h, bytes, header)) throw corrupt(h);
    const int width = header.width, height = header.height, colorspace = header.colorspace;
    if (width <= 0 || height <= 0) throw Error(ErrorCode::input, "cannot decode '" + path + "': corrupt JPEG: no image size");
    check_declared_size(path, width, height, options);
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
        throw Error(ErrorCode::input, "cannot decode '" + path + "': CMYK JPEGs are not supported (convert to RGB first)");
    }
    const bool grey = colorspace == TJCS_GRAY;
    Image image(width, height, PixelFormat{SampleType::u8, grey ? 1 : 3}, options.memory);
    if (tjDecompress2(h, bytes.data(), bytes.size(), reinterpret_cast<unsigned char*>(image.data()), width,
                      static_cast<int>(image.view().pitch), height, grey ? TJPF_GRAY : TJPF_RGB, TJFLAG_STOPONWARNING) != 0) {
        throw corrupt(h);
    }
    return image;
}

std::vector<std::uint8_t> turbojpeg_encode(ConstImageView image, int quality, ChromaSubsampling chroma) {
    const int channels = image.format.channels;
    if (image.format.sample != SampleType::u8 || (channels != 1 && channels != 3)) {
        throw Error(ErrorCode::output, "JPEG holds 8-bit grey or RGB, not " + to_string(image.format));
    }
    tjhandle h = compressor();
    unsigned char* jpeg = nullptr;
    unsigned long size = 0;
    int subsampling = quality >= 90 ? TJSAMP_444 : TJSAMP_420;
    switch (chroma) {
        case ChromaSubsampling::s444: subsampling = TJSAMP_444; break;
        case ChromaSubsampling::s422: subsampling = TJSAMP_422; break;
        case ChromaSubsampling::s420: subsampling = TJSAMP_420; break;
        case ChromaSubsampling::s440: subsampling = TJSAMP_440; break;
        case ChromaSubsampling::grey:
        case ChromaSubsampling::automatic: break;
    }
    if (channels == 1) subsampling = TJSAMP_GRAY;
    const int status = tjCompress2(h, reinterpret_cast<const unsigned char*>(image.data), static_cast<int>(image.width),
                                   static_cast<int>(image.pitch), static_cast<int>(image.height), channels == 1 ? TJPF_GRAY : TJPF_RGB,
                                   &jpeg, &size, subsampling, quality, 0);
    const TurboJpegBuffer owned(jpeg);
    if (status != 0) throw Error(ErrorCode::output, std::string("JPEG encoding failed: ") + tjGetErrorStr2(h));
    return std::vector<std::uint8_t>(jpeg, jpeg + size);
}

}  // namespace gpurotate::detail
