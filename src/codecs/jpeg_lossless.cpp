#include "codecs/jpeg_lossless.hpp"

#include "codecs/decode_limits.hpp"
#include "codecs/jpeg_signature.hpp"
#include "codecs/metadata.hpp"
#include "codecs/turbojpeg_handle.hpp"

#include <gpurotate/error.hpp>

#include <turbojpeg.h>

#include <limits>
#include <memory>

namespace gpurotate::detail {
namespace {

int tj_operation(Orientation element) {
    switch (element) {
        case Orientation::identity: return TJXOP_NONE;
        case Orientation::rot90: return TJXOP_ROT90;  // clockwise, as ours
        case Orientation::rot180: return TJXOP_ROT180;
        case Orientation::rot270: return TJXOP_ROT270;
        case Orientation::flip_h: return TJXOP_HFLIP;
        case Orientation::flip_v: return TJXOP_VFLIP;
        case Orientation::transpose: return TJXOP_TRANSPOSE;
        case Orientation::transverse: return TJXOP_TRANSVERSE;
    }
    return TJXOP_NONE;
}

}  // namespace

bool jpeg_transform_is_perfect(Orientation element, std::int64_t width, std::int64_t height, int mcu_width, int mcu_height) {
    const bool whole_columns = width % mcu_width == 0, whole_rows = height % mcu_height == 0;
    switch (element) {
        case Orientation::identity:
        case Orientation::transpose: return true;
        case Orientation::flip_h:
        case Orientation::rot270: return whole_columns;
        case Orientation::flip_v:
        case Orientation::rot90: return whole_rows;
        case Orientation::rot180:
        case Orientation::transverse: return whole_columns && whole_rows;
    }
    return false;
}

std::optional<std::vector<std::uint8_t>> transform_jpeg_lossless(const std::vector<std::uint8_t>& jpeg, const std::string& path, Orientation element,
                                                                 JpegEdge edge, bool strip, const ImageMetadata& output_metadata,
                                                                 const ReadOptions& options, LosslessJpegReport& report) {
    if (!is_jpeg(jpeg)) return std::nullopt;
    if (jpeg.size() > std::numeric_limits<unsigned long>::max()) throw Error(ErrorCode::input, "cannot read '" + path + "': file too large");
    const TurboJpegHandle handle(tjInitTransform());
    if (!handle) throw Error(ErrorCode::internal, "TurboJPEG: cannot create a transformer");
    const auto damaged = [&] { return Error(ErrorCode::input, "cannot transform '" + path + "': corrupt JPEG: " + tjGetErrorStr2(handle.get())); };
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(handle.get(), jpeg.data(), static_cast<unsigned long>(jpeg.size()), &width, &height, &subsampling, &colorspace) != 0) {
        throw damaged();
    }
    check_declared_size(path, width, height, options);
    if (subsampling < 0 || subsampling >= TJ_NUMSAMP) throw Error(ErrorCode::input, "cannot transform '" + path + "': unknown chroma subsampling");
    report = LosslessJpegReport{width, height, width, height, tjMCUWidth[subsampling], tjMCUHeight[subsampling]};
    report.perfect = jpeg_transform_is_perfect(element, width, height, report.mcu_width, report.mcu_height);
    if (!report.perfect && edge == JpegEdge::reencode) return std::nullopt;
    if (!report.perfect && edge == JpegEdge::error) {
        throw Error(ErrorCode::output, "'" + path + "' (" + std::to_string(width) + "x" + std::to_string(height) + ", " +
                                           std::to_string(report.mcu_width) + "x" + std::to_string(report.mcu_height) + " MCUs): " +
                                           std::string(name(element)) + " is not lossless, an edge of partial blocks would move (--jpeg-edge trim drops it, "
                                           "--jpeg-edge reencode re-encodes)");
    }
    tjtransform transform{};
    transform.op = tj_operation(element);
    transform.options = (report.perfect ? TJXOPT_PERFECT : TJXOPT_TRIM) | (strip ? TJXOPT_COPYNONE : 0);
    unsigned char* out = nullptr;
    unsigned long out_size = 0;
    if (tjTransform(handle.get(), jpeg.data(), static_cast<unsigned long>(jpeg.size()), 1, &out, &out_size, &transform, 0) != 0) {
        tjFree(out);
        throw damaged();
    }
    const std::unique_ptr<unsigned char, void (*)(void*)> owned(out, [](void* p) { tjFree(static_cast<unsigned char*>(p)); });
    std::vector<std::uint8_t> result(out, out + out_size);
    if (!strip && !output_metadata.exif.empty()) replace_jpeg_exif(result, output_metadata.exif);
    int out_width = 0, out_height = 0;
    if (tjDecompressHeader3(handle.get(), result.data(), static_cast<unsigned long>(result.size()), &out_width, &out_height, &subsampling, &colorspace) != 0) {
        throw damaged();
    }
    report.out_width = out_width;
    report.out_height = out_height;
    report.trimmed = !report.perfect;
    return result;
}

}  // namespace gpurotate::detail
