#pragma once
// The known-answer check a scan coder passes before it codes anything of the user's: it codes a few
// built-in JPEGs' lossless variants, and its files must be libjpeg's byte for byte. The coder reimplements
// part of libjpeg's encoder (jpeg_scan_coding.hpp), and libjpeg is whatever the system has (ABI 62, 70 or
// 80, libjpeg-turbo 2.x or 3.x): where the two ever disagree, libjpeg codes every scan and the user is told
// once, rather than given files that only look right.

#include "jpeg/jpeg_scan_coder.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The first difference between `coder`'s files and libjpeg's for the built-in JPEGs' variants (every
/// element, trimmed; standard and optimized tables; 4:2:0, 4:2:2 and grey; sides that are not whole MCUs),
/// or an empty string where every file is the same. A coder that throws or gives scans back uncoded is not
/// a difference: libjpeg then codes them, as it would for the user's files. libjpeg's own files must declare
/// each variant's sides. Throws Error where libjpeg cannot transform the built-in JPEGs at all.
std::string scan_coder_difference(JpegScanCoder& coder);

/// `coders` where each passes scan_coder_difference; none where one does not (or the check throws), with `why`
/// set to what differed.
std::vector<std::unique_ptr<JpegScanCoder>> trusted_scan_coders(std::vector<std::unique_ptr<JpegScanCoder>> coders, std::string& why);

}  // namespace gpurotate::detail
