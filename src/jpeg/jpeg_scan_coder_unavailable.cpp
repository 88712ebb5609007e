// The GPU's JPEG scan coder in a build without CUDA: there is none, and libjpeg codes every scan.

#include "jpeg/jpeg_scan_coder.hpp"

namespace gpurotate::detail {

std::unique_ptr<JpegScanCoder> open_gpu_jpeg_scan_coder(int, std::size_t) { return nullptr; }

}  // namespace gpurotate::detail
