#include "codecs/opencv_codec.hpp"

#include "codecs/declared_extent.hpp"
#include "codecs/decode_limits.hpp"

#include <gpurotate/error.hpp>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstring>

namespace gpurotate::detail {
namespace {

int cv_depth(SampleType s) { return s == SampleType::u8 ? CV_8U : s == SampleType::u16 ? CV_16U : CV_32F; }

std::optional<SampleType> sample_of(int depth) {
    switch (depth) {
        case CV_8U: return SampleType::u8;
        case CV_16U: return SampleType::u16;
        case CV_32F: return SampleType::f32;
        default: return std::nullopt;
    }
}

// OpenCV's colour order is BGR(A); the file's and gpurotate's is RGB(A). Swapping R and B is its own inverse.
void swap_red_blue(cv::Mat& m) {
    if (m.channels() == 3) cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
    if (m.channels() == 4) cv::cvtColor(m, m, cv::COLOR_BGRA2RGBA);
}

}  // namespace

bool opencv_codecs_available() { return true; }

std::optional<Image> opencv_decode(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (const auto declared = declared_extent(bytes)) check_declared_size(path, declared->width, declared->height, options);
    cv::Mat decoded;
    try {
        decoded = cv::imdecode(cv::Mat(1, static_cast<int>(bytes.size()), CV_8U, const_cast<std::uint8_t*>(bytes.data())),
                               cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception&) {
        return std::nullopt;
    }
    if (decoded.empty() || decoded.channels() > 4) return std::nullopt;
    const auto sample = sample_of(decoded.depth());
    if (!sample) return std::nullopt;
    check_declared_size(path, decoded.cols, decoded.rows, options);  // formats without a header probe
    swap_red_blue(decoded);
    Image image(decoded.cols, decoded.rows, PixelFormat{*sample, decoded.channels()}, options.memory);
    for (int y = 0; y < decoded.rows; ++y) std::memcpy(image.view().row(y), decoded.ptr(y), image.view().row_bytes());
    return image;
}

std::vector<std::uint8_t> opencv_encode(ConstImageView image, OutputFormat format, int quality) {
    const cv::Mat view(static_cast<int>(image.height), static_cast<int>(image.width),
                       CV_MAKETYPE(cv_depth(image.format.sample), image.format.channels),
                       const_cast<std::byte*>(image.data), image.pitch);
    cv::Mat bgr = view.clone();
    swap_red_blue(bgr);
    std::vector<int> params;
    const char* extension = ".tif";
    switch (format) {
        case OutputFormat::jpeg: extension = ".jpg"; params = {cv::IMWRITE_JPEG_QUALITY, quality}; break;
        case OutputFormat::webp: extension = ".webp"; params = {cv::IMWRITE_WEBP_QUALITY, quality}; break;
        case OutputFormat::exr: extension = ".exr"; break;
        case OutputFormat::tiff:
            // LZW is lossless for every depth; OpenCV's default for 3-channel float is the lossy SGILOG.
            extension = ".tif";
            params = {cv::IMWRITE_TIFF_COMPRESSION, 5 /* COMPRESSION_LZW */};
            break;
        default: throw Error(ErrorCode::internal, "OpenCV asked for a format it does not encode here");
    }
    std::vector<std::uint8_t> out;
    try {
        if (!cv::imencode(extension, bgr, out, params)) throw Error(ErrorCode::output, std::string("OpenCV could not encode ") + extension);
    } catch (const cv::Exception& e) {
        throw Error(ErrorCode::output, std::string("OpenCV could not encode ") + extension + ": " + e.err);
    }
    return out;
}

}  // namespace gpurotate::detail
