// The CPU's scan coder (open_cpu_jpeg_scan_coder): segments of MCUs coded on several threads and spliced,
// against libjpeg's own coding of the same lossless variants, byte for byte. Segments are made small (down to
// one MCU), so that small images are spliced at every bit offset; every element, subsampling, edge, table
// kind and a restart interval in the input.

#include "jpeg_scan_support.hpp"

#include "jpeg/jpeg_scan_coder.hpp"

#include <doctest/doctest.h>

#include <memory>

namespace {

using namespace gpurotate;
using namespace gpurotate::detail;

// Counts the scans the coder gave back coded, so that a coder that refused everything cannot pass.
class CountingCoder final : public JpegScanCoder {
public:
    explicit CountingCoder(std::unique_ptr<JpegScanCoder> coder) : coder_(std::move(coder)) {}
    std::size_t coded = 0;
    std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts, const ScanCoding& coding) override {
        auto scans = coder_->code(source, layouts, coding);
        for (const auto& scan : scans) coded += scan ? 1 : 0;
        return scans;
    }

private:
    std::unique_ptr<JpegScanCoder> coder_;
};

// Every variant of `jpeg` through the CPU coder with segments of `mcus` MCUs (0: one a thread) on `threads`
// threads is libjpeg's, and the coder coded every lossless one.
void check_segments(const std::vector<std::uint8_t>& jpeg, unsigned threads, std::int64_t mcus) {
    CAPTURE(threads);
    CAPTURE(mcus);
    CountingCoder coder(open_cpu_jpeg_scan_coder(threads, mcus));
    const std::size_t lossless = jpeg_scan_support::check_coded_as_libjpeg(jpeg, coder);
    CHECK(coder.coded == lossless);
}

struct Size {
    int width, height;
};
constexpr Size sizes[] = {{64, 48}, {61, 45}, {33, 17}, {17, 40}, {1, 1}, {200, 9}, {9, 130}, {131, 97}};

}  // namespace

TEST_CASE("the CPU coder's spliced segments are libjpeg's scan, byte for byte, for every element, subsampling and edge") {
    std::uint32_t seed = 500;
    for (const ChromaSubsampling chroma : jpeg_scan_support::every_subsampling) {
        for (const Size size : sizes) {
            CAPTURE(static_cast<int>(chroma));
            CAPTURE(size.width);
            CAPTURE(size.height);
            const auto jpeg = jpeg_scan_support::make_jpeg(size.width, size.height, chroma, 90, seed++);
            for (const std::int64_t mcus : {1, 3, 7, 0}) check_segments(jpeg, 2, mcus);
        }
    }
}

TEST_CASE("the CPU coder makes a variant's own tables from every segment's symbol counts, as libjpeg's optimize_coding does") {
    struct Sampling {
        int channels, h, v;
    };
    std::uint32_t seed = 600;
    for (const Sampling sampling : {Sampling{3, 1, 1}, Sampling{3, 2, 1}, Sampling{3, 2, 2}, Sampling{3, 1, 2}, Sampling{1, 1, 1}}) {
        for (const Size size : sizes) {
            CAPTURE(sampling.channels);
            CAPTURE(sampling.h);
            CAPTURE(sampling.v);
            CAPTURE(size.width);
            CAPTURE(size.height);
            const auto jpeg = jpeg_scan_support::make_optimized_jpeg(size.width, size.height, sampling.channels, sampling.h, sampling.v, 85, seed++);
            for (const std::int64_t mcus : {1, 5, 0}) check_segments(jpeg, 3, mcus);
        }
    }
}

TEST_CASE("the CPU coder codes an input with restart markers (decoded away, as libjpeg writes none) and CMYK") {
    using jpeg_scan_support::LibjpegCoding;
    const LibjpegCoding codings[] = {
        {JCS_YCbCr, 3, {{2, 2}, {1, 1}, {1, 1}}, false, 3},
        {JCS_YCbCr, 3, {{1, 1}, {1, 1}, {1, 1}}, true, 1},
        {JCS_CMYK, 4, {}, true, 0},
    };
    std::uint32_t seed = 700;
    for (const LibjpegCoding& coding : codings) {
        for (const Size size : {Size{61, 45}, Size{48, 64}}) {
            CAPTURE(coding.restart_interval);
            CAPTURE(size.width);
            const auto jpeg = jpeg_scan_support::make_libjpeg_jpeg(size.width, size.height, coding, 80, seed++);
            for (const std::int64_t mcus : {1, 4, 0}) check_segments(jpeg, 2, mcus);
        }
    }
}

TEST_CASE("one thread, and more threads than segments, code the same bytes") {
    const auto jpeg = jpeg_scan_support::make_jpeg(97, 71, ChromaSubsampling::s420, 75, 800);
    for (const unsigned threads : {1u, 8u}) check_segments(jpeg, threads, 2);
}

TEST_CASE("a progressive input is left to libjpeg: the CPU coder is given nothing to code") {
    jpeg_scan_support::LibjpegCoding coding;
    coding.progressive = true;
    const auto jpeg = jpeg_scan_support::make_libjpeg_jpeg(61, 45, coding, 80, 900);
    CountingCoder coder(open_cpu_jpeg_scan_coder(2, 1));
    jpeg_scan_support::check_coded_as_libjpeg(jpeg, coder);
    CHECK(coder.coded == 0);
}
