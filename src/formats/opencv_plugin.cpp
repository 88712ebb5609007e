// libgpurotate-opencv.so: OpenCV's codecs for OpenEXR and the rarer formats it reads, behind the plain
// interface of opencv_plugin_abi.hpp.
// OpenCV keeps colour pixels in BGR(A) order; the plugin converts, so that gpurotate always sees RGB(A).

#include "formats/opencv_plugin_abi.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

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
        auto decoded = std::make_unique<cv::Mat>(
            cv::imdecode(cv::Mat(1, static_cast<int>(size), CV_8U, const_cast<unsigned char*>(bytes)), cv::IMREAD_UNCHANGED));
        const int sample = decoded->empty() ? -1 : sample_of(decoded->depth());
        if (sample < 0 || decoded->channels() > 4) return 0;
        swap_red_blue(*decoded);
        *out = GpurotateCvImage{decoded->cols, decoded->rows, decoded->channels(), sample, decoded->data, decoded->step[0], decoded.get()};
        decoded.release();
        return 1;
    } catch (const std::exception&) {  // cv::Exception, std::bad_alloc: not decoded
        return 0;
    }
}

void release(void* owner) { delete static_cast<cv::Mat*>(owner); }

int encode(const GpurotateCvImage* image, const char* extension, int quality, GpurotateCvBytes* out, char* error, std::size_t error_size) {
    silence_opencv_log();
    try {
        const cv::Mat view(image->height, image->width, CV_MAKETYPE(cv_depth(image->sample), image->channels),
                           const_cast<unsigned char*>(image->data), image->pitch);
        cv::Mat bgr = view.clone();
        swap_red_blue(bgr);
        std::vector<int> params;
        const std::string ext = extension;
        if (ext == ".jpg") params = {cv::IMWRITE_JPEG_QUALITY, quality};
        auto bytes = std::make_unique<std::vector<unsigned char>>();
        if (!cv::imencode(ext, bgr, *bytes, params)) {
            std::snprintf(error, error_size, "OpenCV could not encode %s", extension);
            return 0;
        }
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
