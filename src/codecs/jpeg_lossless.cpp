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

std::vector<std::optional<std::vector<std::uint8_t>>> transform_jpeg_lossless_variants(const std::vector<std::uint8_t>& jpeg, const std::string& path,
                                                                                       const std::vector<LosslessJpegVariant>& variants, JpegEdge edge,
                                                                                       bool strip, const ReadOptions& options,
                                                                                       std::vector<LosslessJpegReport>& reports) {
    std::vector<std::optional<std::vector<std::uint8_t>>> results;
    reports.assign(variants.size(), LosslessJpegReport{});
    if (!is_jpeg(jpeg)) return results;
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

    // The variants this call writes: the perfect ones, and with trim the others too.
    std::vector<tjtransform> transforms;
    std::vector<std::size_t> written;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        LosslessJpegReport& report = reports[i];
        report = LosslessJpegReport{width, height, width, height, tjMCUWidth[subsampling], tjMCUHeight[subsampling]};
        report.perfect = jpeg_transform_is_perfect(variants[i].element, width, height, report.mcu_width, report.mcu_height);
        if (!report.perfect && edge != JpegEdge::trim) continue;
        tjtransform t{};
        t.op = tj_operation(variants[i].element);
        t.options = (report.perfect ? TJXOPT_PERFECT : TJXOPT_TRIM) | (strip ? TJXOPT_COPYNONE : 0);
        transforms.push_back(t);
        written.push_back(i);
    }
    results.resize(variants.size());
    if (transforms.empty()) return results;
    std::vector<unsigned char*> out(transforms.size(), nullptr);
    std::vector<unsigned long> out_size(transforms.size(), 0);
    std::vector<TurboJpegBuffer> owned;  // freed however this function leaves: a failed transform may have filled some
    owned.reserve(transforms.size());
    const int status = tjTransform(handle.get(), jpeg.data(), static_cast<unsigned long>(jpeg.size()), static_cast<int>(transforms.size()), out.data(),
                                   out_size.data(), transforms.data(), 0);
    for (unsigned char* buffer : out) owned.emplace_back(buffer);
    if (status != 0) throw damaged();
    for (std::size_t k = 0; k < written.size(); ++k) results[written[k]] = std::vector<std::uint8_t>(out[k], out[k] + out_size[k]);
    for (std::size_t i : written) {
        std::vector<std::uint8_t>& result = *results[i];
        const ImageMetadata* metadata = variants[i].metadata;
        if (!strip && metadata && !metadata->exif.empty()) replace_jpeg_exif(result, metadata->exif);
        int out_width = 0, out_height = 0;
        if (tjDecompressHeader3(handle.get(), result.data(), static_cast<unsigned long>(result.size()), &out_width, &out_height, &subsampling,
                                &colorspace) != 0) {
            throw damaged();
        }
        reports[i].out_width = out_width;
        reports[i].out_height = out_height;
        reports[i].trimmed = !reports[i].perfect;
    }
    return results;
}

}  // namespace gpurotate::detail
