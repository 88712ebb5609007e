// The GPU's JPEG scan coder (cuda/jpeg_scan_coder.cu) against libjpeg's coding of the same lossless
// variants, byte for byte: every subsampling, edges that are and are not whole MCUs, photographs large
// enough for many thread blocks, more variants than one launch takes; and `augment` on the GPU writing
// the CPU's bytes; and the single-image command's many files on the GPU. Skipped without a GPU.

#include "jpeg_scan_support.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

#include <array>
#include <fstream>

namespace {

using namespace gpurotate;
using namespace gpurotate::detail;

// Counts the scans the coder gave back coded, so that a case knows the GPU did the work.
class CountingCoder final : public JpegScanCoder {
public:
    explicit CountingCoder(JpegScanCoder& coder) : coder_(coder) {}
    std::size_t coded = 0;
    std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts,
                                               const ScanCoding& coding) override {
        auto scans = coder_.code(source, layouts, coding);
        for (const auto& s : scans) coded += s.has_value() ? 1 : 0;
        return scans;
    }

private:
    JpegScanCoder& coder_;
};

// A folder `in` in `dir`, and a function that writes a file of bytes into it.
auto input_folder(const test_support::TempDir& dir) {
    std::system(("mkdir -p " + test_support::quote(dir.file("in"))).c_str());
    return [&dir](const std::string& name, const std::vector<std::uint8_t>& bytes) {
        std::ofstream(dir.file("in/" + name), std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    };
}

}  // namespace

TEST_CASE("the GPU codes a lossless variant's scan as libjpeg does, byte for byte, for every element, subsampling and edge") {
    const auto gpu = open_gpu_jpeg_scan_coder(0);
    REQUIRE(gpu);
    CountingCoder coder(*gpu);
    std::uint32_t seed = 11;
    std::size_t lossless = 0;
    for (const ChromaSubsampling chroma : jpeg_scan_support::every_subsampling) {
        for (const auto& size : {std::pair<int, int>{64, 48}, {61, 45}, {33, 17}, {1, 1}, {200, 9}, {1037, 771}}) {
            CAPTURE(static_cast<int>(chroma));
            CAPTURE(size.first);
            CAPTURE(size.second);
            lossless += jpeg_scan_support::check_coded_as_libjpeg(jpeg_scan_support::make_jpeg(size.first, size.second, chroma, 85, seed++), coder);
        }
    }
    CHECK(lossless > 5 * 4 * 8);  // all but variants trimmed to nothing
    CHECK(coder.coded == lossless);
}

TEST_CASE("the GPU makes a variant's own tables, and codes with them, as libjpeg's optimize_coding does") {
    const auto gpu = open_gpu_jpeg_scan_coder(0);
    REQUIRE(gpu);
    CountingCoder coder(*gpu);
    std::size_t lossless = 0;
    std::uint32_t seed = 50;
    for (const auto& sampling : {std::array<int, 3>{3, 1, 1}, {3, 2, 1}, {3, 2, 2}, {3, 1, 2}, {1, 1, 1}}) {
        for (const auto& size : {std::pair<int, int>{64, 48}, {61, 45}, {1, 1}, {1037, 771}}) {
            CAPTURE(sampling[0]);
            CAPTURE(sampling[1]);
            CAPTURE(sampling[2]);
            CAPTURE(size.first);
            CAPTURE(size.second);
            lossless += jpeg_scan_support::check_coded_as_libjpeg(
                jpeg_scan_support::make_optimized_jpeg(size.first, size.second, sampling[0], sampling[1], sampling[2], 75, seed++), coder);
        }
    }
    CHECK(coder.coded == lossless);
    // Many thread blocks add their counts.
    CHECK(jpeg_scan_support::check_coded_as_libjpeg(jpeg_scan_support::make_optimized_jpeg(3000, 2001, 3, 2, 2, 90, 77), *gpu) == 8);
}

TEST_CASE("the GPU codes CMYK, YCCK, two components, unusual sampling and restart intervals as libjpeg does") {
    using jpeg_scan_support::LibjpegCoding;
    const auto gpu = open_gpu_jpeg_scan_coder(0);
    REQUIRE(gpu);
    CountingCoder coder(*gpu);
    const std::vector<LibjpegCoding> codings = {
        {JCS_CMYK, 4, {}, true, 0},          {JCS_YCCK, 4, {{2, 2}, {1, 1}, {1, 1}, {2, 2}}, false, 0},
        {JCS_UNKNOWN, 2, {{1, 2}, {1, 1}}, true, 0}, {JCS_GRAYSCALE, 1, {{2, 2}}, false, 0},
        {JCS_YCbCr, 3, {{3, 1}, {1, 1}, {1, 1}}, true, 0}, {JCS_YCbCr, 3, {{1, 1}, {2, 2}, {1, 1}}, false, 0},
        {JCS_YCbCr, 3, {{2, 2}, {1, 1}, {1, 1}}, false, 3}};
    std::size_t lossless = 0;
    std::uint32_t seed = 300;
    for (std::size_t i = 0; i < codings.size(); ++i) {
        CAPTURE(i);
        lossless += jpeg_scan_support::check_coded_as_libjpeg(jpeg_scan_support::make_libjpeg_jpeg(613, 451, codings[i], 85, seed++), coder);
    }
    CHECK(coder.coded == lossless);
}

TEST_CASE("the GPU codes photographs of many thread blocks and more variants than one launch takes") {
    const auto gpu = open_gpu_jpeg_scan_coder(0);
    REQUIRE(gpu);
    for (const ChromaSubsampling chroma : {ChromaSubsampling::s444, ChromaSubsampling::s420}) {
        CAPTURE(static_cast<int>(chroma));
        const auto jpeg = jpeg_scan_support::make_jpeg(4000, 3001, chroma, 92, 5);  // 750,000 blocks of luma: 2,900 thread blocks
        jpeg_scan_support::check_coded_as_libjpeg(jpeg, *gpu);
    }
    // Eleven variants: a launch of eight and one of three.
    const auto jpeg = jpeg_scan_support::make_jpeg(301, 203, ChromaSubsampling::s422, 75, 9);
    std::vector<LosslessJpegVariant> variants;
    for (int i = 0; i < 11; ++i) variants.push_back({all_orientations[i % 8], nullptr});
    std::vector<LosslessJpegReport> reports;
    const auto expected = transform_jpeg_lossless_variants(jpeg, "made.jpg", variants, JpegEdge::trim, false, ReadOptions{}, reports);
    CountingCoder coder(*gpu);
    CHECK(transform_jpeg_lossless_variants(jpeg, "made.jpg", variants, JpegEdge::trim, false, ReadOptions{}, reports, &coder) == expected);
    CHECK(coder.coded == 11);
}

TEST_CASE("a JPEG whose scans need more device memory than the coder's budget is coded by libjpeg") {
    const auto gpu = open_gpu_jpeg_scan_coder(0, 128 * 1024);
    REQUIRE(gpu);
    const auto small = jpeg_scan_support::make_jpeg(40, 30, ChromaSubsampling::s444, 80, 3);   // 60 blocks
    const auto large = jpeg_scan_support::make_jpeg(400, 300, ChromaSubsampling::s444, 80, 4);  // 5,700 blocks: 730 KB
    CountingCoder coder(*gpu);
    CHECK(jpeg_scan_support::check_coded_as_libjpeg(small, coder) == 8);
    CHECK(coder.coded == 8);
    CHECK(jpeg_scan_support::check_coded_as_libjpeg(large, coder) == 8);
    CHECK(coder.coded == 8);  // libjpeg coded the large one's
    CHECK(gpu->device_bytes() <= 128 * 1024);
}

TEST_CASE("a JPEG refused for the coder's budget leaves nothing behind that refuses the small ones after it") {
    // 144x136 4:4:4: a store of 18 x 17 x 3 blocks of 128 bytes (117,504) fits 128 KiB alone, and with its
    // offsets and the eight variants' tables it does not; the 40x30 one needs about 70 KB in all.
    constexpr std::size_t budget = 128 * 1024;
    const auto gpu = open_gpu_jpeg_scan_coder(0, budget);
    REQUIRE(gpu);
    const auto middle = jpeg_scan_support::make_jpeg(144, 136, ChromaSubsampling::s444, 80, 5);
    const auto small = jpeg_scan_support::make_jpeg(40, 30, ChromaSubsampling::s444, 80, 6);
    CountingCoder coder(*gpu);
    for (int round = 0; round < 2; ++round) {
        CAPTURE(round);
        CHECK(jpeg_scan_support::check_coded_as_libjpeg(middle, coder) == 8);
        CHECK(coder.coded == static_cast<std::size_t>(8 * round));  // libjpeg coded the middle one's
        CHECK(jpeg_scan_support::check_coded_as_libjpeg(small, coder) == 8);
        CHECK(coder.coded == static_cast<std::size_t>(8 * round + 8));
        CHECK(gpu->device_bytes() <= budget);
    }
}

TEST_CASE("augment on the GPU writes a JPEG's lossless variants with the CPU's bytes, and leaves to libjpeg what it cannot code") {
    test_support::TempDir dir;
    const auto save = input_folder(dir);
    for (int i = 0; i < 6; ++i) save("image" + std::to_string(i) + ".jpg", jpeg_scan_support::make_jpeg(97 + 40 * i, 61 + 16 * i, jpeg_scan_support::every_subsampling[i % 5], 80, 30 + i));
    jpeg_scan_support::LibjpegCoding optimized, progressive;
    progressive.optimize = false;
    progressive.progressive = true;
    save("optimized.jpg", jpeg_scan_support::make_libjpeg_jpeg(120, 90, optimized, 85, 40));
    save("progressive.jpg", jpeg_scan_support::make_libjpeg_jpeg(120, 90, progressive, 85, 41));  // libjpeg codes its variants
    const std::string exe = GPUROTATE_EXE;
    // The last run's coders have 128 KiB each (half of 1 MiB over 4): the larger files go to libjpeg, said once.
    for (const std::string options : {"--device cpu", "--device cuda", "--device cuda --gpu-memory 1M"}) {
        CAPTURE(options);
        const std::string out = dir.file("out" + std::to_string(options.size()));
        const auto r = test_support::run(test_support::quote(exe) + " augment " + test_support::quote(dir.file("in")) + " -o " + test_support::quote(out) +
                                         " --ops all --jpeg-edge trim " + options);
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        CHECK(r.output.find("8 inputs (0 failed), 56 outputs written") != std::string::npos);
        CHECK(r.output.find("56 JPEG variants transformed losslessly") != std::string::npos);
        const bool gpu = options != "--device cpu", small = options.find("1M") != std::string::npos;
        CHECK((r.output.find("49 of their scans entropy-coded on the GPU") != std::string::npos) == (gpu && !small));
        CHECK((r.output.find("the GPU could not code a JPEG's scans") != std::string::npos) == small);
        CHECK((r.output.find("of their scans entropy-coded on the GPU") != std::string::npos) == gpu);  // the small files still
        const auto same = test_support::run("cd " + test_support::quote(dir.path()) + " && ls " + test_support::quote(out) + " | grep -c jpg && diff -r -x manifest.jsonl out12 " +
                                            test_support::quote(out));
        CAPTURE(same.output);
        CHECK(same.status == 0);
        CHECK(same.output.rfind("56\n", 0) == 0);
    }
}

TEST_CASE("many files of one command on the GPU run on the workers, sharing one start of it, each with its bytes and messages alone") {
    test_support::TempDir dir;
    const auto save = input_folder(dir);
    for (int i = 0; i < 10; ++i) save("image" + std::to_string(i) + ".jpg", jpeg_scan_support::make_jpeg(97 + 40 * i, 61 + 16 * i, jpeg_scan_support::every_subsampling[i % 5], 80, 50 + i));
    for (int i = 0; i < 3; ++i) {
        const auto pixels = test_support::random_image(71 + 30 * i, 45 + 20 * i, {gpurotate::SampleType::u8, 3}, 62 + static_cast<std::uint32_t>(i));
        gpurotate::write_image(dir.file("in/picture" + std::to_string(i) + ".png"), pixels.view());
    }
    std::ofstream(dir.file("in/broken.jpg"), std::ios::binary) << "\xff\xd8\xff not a JPEG";
    const std::string exe = GPUROTATE_EXE;
    const auto convert = [&](const std::string& options, const std::string& out) {
        return test_support::run("cd " + test_support::quote(dir.path()) + " && " + test_support::quote(exe) + " --rot90 -o " + out + "/ in/* " + options);
    };
    // --quality: the JPEGs take the pixels' route on both backends, so the GPU's bytes are the CPU's.
    const auto reference = convert("--device cpu --quality 90 -j 1", "cpu");
    CAPTURE(reference.output);
    REQUIRE(reference.status == 3);  // the broken file's (input); the others written
    std::string one_at_a_time;
    int run_number = 0;
    for (const std::string options : {"-j 1", "-j 4", "--kernel tile32-padded", "--gpu-memory 64M"}) {
        CAPTURE(options);
        const std::string out = "gpu" + std::to_string(++run_number);
        const auto r = convert("--device cuda --quality 90 " + options, out);
        CAPTURE(r.output);
        CHECK(r.status == 3);
        CHECK(r.output.find("1 of 14 files failed; the others were written") != std::string::npos);
        CHECK(r.output.find("broken.jpg") != std::string::npos);
        // The messages, in the inputs' order, are those of one file at a time.
        if (one_at_a_time.empty()) one_at_a_time = r.output;
        CHECK(r.output == one_at_a_time);
        const auto same = test_support::run("cd " + test_support::quote(dir.path()) + " && ls " + out + " | wc -l && diff -r cpu " + out);
        CAPTURE(same.output);
        CHECK(same.status == 0);
        CHECK(same.output.rfind("13\n", 0) == 0);
    }
    // Without --quality, --device cuda re-encodes each JPEG as it does alone, said for each; -v says each file's
    // pixels went through the GPU's kernel on four workers too.
    const auto reencoded = convert("--device cuda -j 4 -v", "reencoded");
    CAPTURE(reencoded.output);
    CHECK(reencoded.status == 3);
    const auto count = [&](const std::string& text) {
        std::size_t n = 0;
        for (std::size_t at = 0; (at = reencoded.output.find(text, at)) != std::string::npos; ++at) ++n;
        return n;
    };
    CHECK(count("--device cuda was given") == 10);
    CHECK(count("gpurotate: backend cuda (") == 13);
}
