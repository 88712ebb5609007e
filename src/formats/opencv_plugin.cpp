// libgpurotate-opencv.so: TIFF through libtiff (tiff_plugin_codec.hpp), and OpenCV's codecs for WebP, EXR and
// the TIFFs libtiff's plain reading does not cover, behind the plain interface of opencv_plugin_abi.hpp.
// OpenCV keeps colour pixels in BGR(A) order; the plugin converts, so that gpurotate always sees RGB(A).

#include "formats/opencv_plugin_abi.hpp"
#include "formats/tiff_plugin_codec.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <webp/encode.h>
#include <webp/mux.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace {

int cv_depth(int sample) { return sample == gpurotate_cv_u8 ? CV_8U : sample == gpurotate_cv_u16 ? CV_16U : CV_32F; }

int sample_of(int depth) {
    switch (depth) {
        case CV_8U: return gpurotate_cv_u8;
        case CV_16U: return gpurotate_cv_u16;
        case CV_32F: return gpurotate_cv_f32;
        default: return -1;
    }
}

// Swapping R and B is its own inverse.
void swap_red_blue(cv::Mat& m) {
    if (m.channels() == 3) cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
    if (m.channels() == 4) cv::cvtColor(m, m, cv::COLOR_BGRA2RGBA);
}

// OpenCV logs a decoder's failure on stderr ("imdecode_(''): can't read header: ...", "[ WARN:0@...]"),
// before gpurotate's own one-line message: its log is silenced, since every failure is reported anyway.
void silence_opencv_log() {
    static const bool silenced = [] {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        return true;
    }();
    (void)silenced;
}

int decode(const unsigned char* bytes, std::size_t size, GpurotateCvImage* out, char* error, std::size_t error_size) {
    silence_opencv_log();
    if (error_size > 0) error[0] = '\0';
    try {
        switch (gpurotate_plugin::tiff_decode(bytes, size, out, error, error_size)) {
            case gpurotate_plugin::TiffRead::decoded: return 1;
            case gpurotate_plugin::TiffRead::damaged: return 0;
            case gpurotate_plugin::TiffRead::not_handled: break;
        }
        auto decoded = std::make_unique<cv::Mat>(
            cv::imdecode(cv::Mat(1, static_cast<int>(size), CV_8U, const_cast<unsigned char*>(bytes)), cv::IMREAD_UNCHANGED));
        const int sample = decoded->empty() ? -1 : sample_of(decoded->depth());
        if (sample < 0 || decoded->channels() > 4) return 0;
        swap_red_blue(*decoded);
        *out = GpurotateCvImage{decoded->cols, decoded->rows, decoded->channels(), sample, decoded->data, decoded->step[0], decoded.get(), 0, 1, nullptr, 0, nullptr, 0, 0, 0, 1, nullptr, 0, nullptr, 0, 0, nullptr, 0};
        decoded.release();
        return 1;
    } catch (const std::exception&) {  // cv::Exception, std::bad_alloc: not decoded
        return 0;
    }
}

void release(void* owner) { delete static_cast<cv::Mat*>(owner); }

// The ICC profile, EXIF and XMP into a WebP OpenCV wrote (which writes none): libwebpmux adds the ICCP,
// EXIF and XMP chunks and the VP8X header that announces them.
bool with_webp_metadata(std::vector<unsigned char>& webp, const GpurotateCvImage* image, char* error, std::size_t error_size) {
    if (image->icc_size == 0 && image->exif_size == 0 && image->xmp_size == 0) return true;
    const WebPData in{webp.data(), webp.size()};
    const std::unique_ptr<WebPMux, void (*)(WebPMux*)> mux(WebPMuxCreate(&in, 1), WebPMuxDelete);
    const WebPData icc{image->icc, image->icc_size}, exif{image->exif, image->exif_size};
    const WebPData xmp{reinterpret_cast<const std::uint8_t*>(image->xmp), image->xmp_size};
    if (!mux || (image->icc_size > 0 && WebPMuxSetChunk(mux.get(), "ICCP", &icc, 1) != WEBP_MUX_OK) ||
        (image->exif_size > 0 && WebPMuxSetChunk(mux.get(), "EXIF", &exif, 1) != WEBP_MUX_OK) ||
        (image->xmp_size > 0 && WebPMuxSetChunk(mux.get(), "XMP ", &xmp, 1) != WEBP_MUX_OK)) {
        std::snprintf(error, error_size, "libwebpmux could not add the metadata to the WebP");
        return false;
    }
    WebPData out{nullptr, 0};
    if (WebPMuxAssemble(mux.get(), &out) != WEBP_MUX_OK) {
        std::snprintf(error, error_size, "libwebpmux could not assemble the WebP");
        return false;
    }
    webp.assign(out.bytes, out.bytes + out.size);
    WebPDataClear(&out);
    return true;
}

// A lossless WebP through libwebp itself, in its "exact" mode: OpenCV's lossless WebP lets the encoder change
// the colour of fully transparent pixels, which a lossless copy of a lossless file must keep.
bool encode_lossless_webp(const GpurotateCvImage* image, std::vector<unsigned char>& bytes, char* error, std::size_t error_size) {
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) {
        std::snprintf(error, error_size, "libwebp could not start an encoder");
        return false;
    }
    config.lossless = 1;
    config.exact = 1;
    picture.use_argb = 1;
    picture.width = image->width;
    picture.height = image->height;
    const int stride = static_cast<int>(image->pitch);
    const int imported = image->channels == 4 ? WebPPictureImportRGBA(&picture, image->data, stride) : WebPPictureImportRGB(&picture, image->data, stride);
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    const bool encoded = imported && WebPEncode(&config, &picture);
    if (encoded) bytes.assign(writer.mem, writer.mem + writer.size);
    WebPPictureFree(&picture);
    WebPMemoryWriterClear(&writer);
    if (!encoded) std::snprintf(error, error_size, "libwebp could not encode the WebP (error %d)", static_cast<int>(picture.error_code));
    return encoded;
}

int encode(const GpurotateCvImage* image, const char* extension, int quality, GpurotateCvBytes* out, char* error, std::size_t error_size) {
    silence_opencv_log();
    try {
        if (std::string(extension) == ".tif") return gpurotate_plugin::tiff_encode(image, out, error, error_size);
        if (std::string(extension) == ".webp" && quality > 100 && image->sample == gpurotate_cv_u8 && (image->channels == 3 || image->channels == 4)) {
            auto bytes = std::make_unique<std::vector<unsigned char>>();
            if (!encode_lossless_webp(image, *bytes, error, error_size) || !with_webp_metadata(*bytes, image, error, error_size)) return 0;
            *out = GpurotateCvBytes{bytes->data(), bytes->size(), bytes.get()};
            bytes.release();
            return 1;
        }
        const cv::Mat view(image->height, image->width, CV_MAKETYPE(cv_depth(image->sample), image->channels),
                           const_cast<unsigned char*>(image->data), image->pitch);
        cv::Mat bgr = view.clone();
        swap_red_blue(bgr);
        std::vector<int> params;
        const std::string ext = extension;
        if (ext == ".jpg") params = {cv::IMWRITE_JPEG_QUALITY, quality};
        if (ext == ".webp") params = {cv::IMWRITE_WEBP_QUALITY, quality};
        auto bytes = std::make_unique<std::vector<unsigned char>>();
        if (!cv::imencode(ext, bgr, *bytes, params)) {
            std::snprintf(error, error_size, "OpenCV could not encode %s", extension);
            return 0;
        }
        if (ext == ".webp" && !with_webp_metadata(*bytes, image, error, error_size)) return 0;
        *out = GpurotateCvBytes{bytes->data(), bytes->size(), bytes.get()};
        bytes.release();
        return 1;
    } catch (const cv::Exception& e) {
        std::snprintf(error, error_size, "OpenCV could not encode %s: %s", extension, e.err.c_str());
    } catch (const std::exception& e) {
        std::snprintf(error, error_size, "OpenCV could not encode %s: %s", extension, e.what());
    }
    return 0;
}

void release_bytes(void* owner) { delete static_cast<std::vector<unsigned char>*>(owner); }

constexpr GpurotateCvPlugin plugin{gpurotate_cv_abi_version, decode, release, encode, release_bytes};

}  // namespace

extern "C" __attribute__((visibility("default"))) const GpurotateCvPlugin* gpurotate_opencv_plugin() { return &plugin; }
