// An EXIF thumbnail's lossless turn, as the metadata floor asks for it (metadata/metadata.hpp's JpegTurner):
// here, on the JPEG floor, so that metadata/ names no codec.

#include "jpeg/jpeg_lossless.hpp"
#include "jpeg/jpeg_work_limits.hpp"

namespace gpurotate::detail {

std::vector<std::optional<std::vector<std::uint8_t>>> turn_jpeg_thumbnail(const std::vector<std::uint8_t>& jpeg, Orientation element,
                                                                          std::int64_t max_pixels) {
    check_jpeg_work(jpeg, "the EXIF thumbnail", default_max_jpeg_scans);
    std::vector<LosslessJpegReport> reports;
    return transform_jpeg_lossless_variants(jpeg, "the EXIF thumbnail", {LosslessJpegVariant{element, nullptr}}, JpegEdge::trim, false,
                                            ReadOptions{HostMemory::pageable, max_pixels, false, default_max_jpeg_scans}, reports);
}

}  // namespace gpurotate::detail
