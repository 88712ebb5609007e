// The TurboJPEG entry points in a build without libjpeg-turbo: JPEG goes through OpenCV or stb instead.

#include "jpeg/jpeg_lossless.hpp"
#include "jpeg/jpeg_scan_coder_check.hpp"
#include "jpeg/turbojpeg_codec.hpp"

#include <gpurotate/error.hpp>

namespace gpurotate::detail {

bool turbojpeg_available() { return false; }

std::string libjpeg_description() { return "none"; }

std::optional<Image> turbojpeg_decode(const std::vector<std::uint8_t>&, const std::string&, const ReadOptions&) { return std::nullopt; }

std::optional<Extent> turbojpeg_declared_extent(const std::vector<std::uint8_t>&) { return std::nullopt; }

std::vector<std::uint8_t> turbojpeg_encode(ConstImageView, int, ChromaSubsampling) {
    throw Error(ErrorCode::internal, "built without TurboJPEG");
}

std::vector<std::optional<std::vector<std::uint8_t>>> transform_jpeg_lossless_variants(const std::vector<std::uint8_t>&, const std::string&,
                                                                                       const std::vector<LosslessJpegVariant>&, JpegEdge, bool,
                                                                                       const ReadOptions&, std::vector<LosslessJpegReport>&, JpegScanCoder*,
                                                                                       unsigned) {
    return {};  // the caller decodes and encodes instead
}

std::string scan_coder_difference(JpegScanCoder&) { return "no libjpeg in this build"; }

std::vector<std::unique_ptr<JpegScanCoder>> trusted_scan_coders(std::vector<std::unique_ptr<JpegScanCoder>>, std::string& why) {
    why = "this build has no libjpeg to check the coder against";
    return {};
}


}  // namespace gpurotate::detail
