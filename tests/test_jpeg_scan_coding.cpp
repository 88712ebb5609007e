// The scan coder's block-by-block coding (jpeg_scan_coding.hpp), run on the CPU, against libjpeg's own
// coding of the same lossless variants: byte for byte, on JPEGs of every subsampling with sides that are
// and are not whole MCUs, every element, trimmed edges included. The GPU runs the same functions
// (test_jpeg_scan_cuda.cpp); here they are checked everywhere.

#include "cpu_scan_coder.hpp"
#include "jpeg_scan_support.hpp"

#include "jpeg/jpeg_scan_coder_check.hpp"
#include "jpeg/jpeg_scan_coding.hpp"

#include <gpurotate/error.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace {

using namespace gpurotate;
using namespace gpurotate::detail;
using jpeg_scan_support::CpuScanCoder;

// Coders that give nothing back: libjpeg must then code every scan itself.
class RefusingCoder final : public JpegScanCoder {
public:
    bool fail = false;
    std::vector<std::optional<CodedScan>> code(const SourceCoefficients&, const std::vector<ScanLayout>& layouts, const ScanCoding&) override {
        if (fail) throw Error(ErrorCode::device, "the coder failed");
        return std::vector<std::optional<CodedScan>>(layouts.size());
    }
};

struct Case {
    std::int64_t width, height;
};

// Every variant of `jpeg` through the block coder is libjpeg's; the coder coded each lossless one itself.
void check_coded_as_libjpeg(const std::vector<std::uint8_t>& jpeg, bool own_tables) {
    CpuScanCoder coder;
    const std::size_t lossless = jpeg_scan_support::check_coded_as_libjpeg(jpeg, coder);
    CHECK(coder.calls == 1);
    CHECK(coder.calls_for_own_tables == (own_tables ? 1 : 0));
    CHECK(coder.coded == lossless);
}
constexpr Case sizes[] = {{64, 48}, {61, 45}, {33, 17}, {17, 40}, {1, 1}, {200, 9}, {9, 130}};

}  // namespace

TEST_CASE("a lossless variant's scan coded block by block is libjpeg's, byte for byte, for every element, subsampling and edge") {
    std::uint32_t seed = 1;
    for (const ChromaSubsampling chroma : jpeg_scan_support::every_subsampling) {
        for (const Case& size : sizes) {
            for (const int quality : {60, 97}) {
                CAPTURE(static_cast<int>(chroma));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(quality);
                check_coded_as_libjpeg(jpeg_scan_support::make_jpeg(size.width, size.height, chroma, quality, seed++), false);
            }
        }
    }
}

TEST_CASE("a variant of a JPEG with tables made for it gets its own tables, made and coded as libjpeg's optimize_coding does") {
    struct Sampling {
        int channels, h, v;
    };
    std::uint32_t seed = 100;
    for (const Sampling sampling : {Sampling{3, 1, 1}, Sampling{3, 2, 1}, Sampling{3, 2, 2}, Sampling{3, 1, 2}, Sampling{1, 1, 1}}) {
        for (const Case& size : sizes) {
            CAPTURE(sampling.channels);
            CAPTURE(sampling.h);
            CAPTURE(sampling.v);
            CAPTURE(size.width);
            CAPTURE(size.height);
            check_coded_as_libjpeg(jpeg_scan_support::make_optimized_jpeg(static_cast<int>(size.width), static_cast<int>(size.height),
                                                                          sampling.channels, sampling.h, sampling.v, 70, seed++),
                                   true);
        }
    }
}

TEST_CASE("CMYK, YCCK, two components, unusual sampling and restart intervals are coded as libjpeg codes them") {
    using jpeg_scan_support::LibjpegCoding;
    const std::vector<LibjpegCoding> codings = {
        {JCS_CMYK, 4, {}, true, 0},
        {JCS_YCCK, 4, {{2, 2}, {1, 1}, {1, 1}, {2, 2}}, false, 0},
        {JCS_UNKNOWN, 2, {{1, 2}, {1, 1}}, true, 0},
        {JCS_GRAYSCALE, 1, {{2, 2}}, false, 0},
        {JCS_YCbCr, 3, {{3, 1}, {1, 1}, {1, 1}}, true, 0},
        {JCS_YCbCr, 3, {{1, 1}, {2, 2}, {1, 1}}, false, 0},   // chroma sampled more finely than luma
        {JCS_YCbCr, 3, {{2, 2}, {1, 1}, {1, 1}}, false, 3},   // restart markers every 3 MCUs in the input
        {JCS_YCbCr, 3, {{1, 1}, {1, 1}, {1, 1}}, true, 1},
    };
    std::uint32_t seed = 200;
    for (std::size_t i = 0; i < codings.size(); ++i) {
        for (const Case& size : {Case{61, 45}, Case{48, 64}, Case{7, 130}}) {
            CAPTURE(i);
            CAPTURE(size.width);
            CAPTURE(size.height);
            check_coded_as_libjpeg(jpeg_scan_support::make_libjpeg_jpeg(static_cast<int>(size.width), static_cast<int>(size.height), codings[i], 80,
                                                                        seed++),
                                   codings[i].optimize);
        }
    }
}

TEST_CASE("a file whose decoder adds the standard tables it left out is coded with tables of its own, as libjpeg codes it") {
    // Found by fuzz_jpeg_transform: only DC table 0 in the file; reading the coefficients adds the others.
    const std::string path = std::string(GPUROTATE_FUZZ_REGRESSIONS) + "/jpeg-transform-tables-added-by-the-decoder.jpg";
    std::ifstream file(path, std::ios::binary);
    const std::vector<std::uint8_t> jpeg((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    REQUIRE(jpeg.size() == 1182);
    check_coded_as_libjpeg(jpeg, true);
}

TEST_CASE("where the coder gives a scan back uncoded or fails, libjpeg codes it") {
    const auto jpeg = jpeg_scan_support::make_jpeg(61, 45, ChromaSubsampling::s420, 80, 7);
    const auto expected = jpeg_scan_support::every_variant(jpeg, nullptr);
    for (const bool fail : {false, true}) {
        RefusingCoder coder;
        coder.fail = fail;
        CHECK(jpeg_scan_support::every_variant(jpeg, &coder) == expected);
    }
}

TEST_CASE("a block is left to libjpeg where 8-bit JPEG has no code for it") {
    // One grey block: its DC against 0, its AC at natural index 1.
    std::int16_t block[64] = {};
    ScanLayout layout;
    layout.components = 1;
    layout.blocks_in_mcu = 1;
    layout.mcus_per_row = layout.mcu_rows = 1;
    layout.component[0].stride = layout.component[0].region_width = layout.component[0].region_height = 1;
    layout.component[0].width_in_blocks = layout.component[0].height_in_blocks = 1;
    ScanTables tables{};
    for (int s = 0; s < 256; ++s) {  // a code for every symbol, so that only the range decides
        tables.dc[0].size[s] = tables.ac[0].size[s] = 8;
        tables.dc[0].code[s] = tables.ac[0].code[s] = static_cast<std::uint16_t>(s);
    }
    const auto codes = [&] {
        BitCount count;
        std::uint32_t counts[table_slots * 256] = {};
        SymbolCount symbols{counts};
        const bool coded = code_scan_block<false>(layout, tables, block, 0, count);
        CHECK(code_scan_block<false>(layout, tables, block, 0, symbols) == (coded || tables.ac[0].size[0x00] == 0));  // counting needs no codes
        return coded;
    };
    block[0] = 2047;  // an 11-bit DC difference: the most there is
    block[1] = -1023;
    CHECK(codes());
    block[1] = 1024;  // 11 bits: past an 8-bit JPEG's AC
    CHECK_FALSE(codes());
    block[1] = 0;
    block[0] = -2048;  // a 12-bit DC difference
    CHECK_FALSE(codes());
    block[0] = 0;
    tables.ac[0].size[0x00] = 0;  // no code for EOB
    CHECK_FALSE(codes());
}

TEST_CASE("a block's bits land at any bit offset, after and before its neighbours' bits") {
    std::uint32_t words[4] = {};
    BitWriter first(words, 0);
    first.put(0x5, 3);  // 101
    first.finish();
    BitWriter second(words, 3);
    second.put(0x1ffff, 17);
    second.put(0x0, 20);  // past the first word
    second.put(0x3, 2);
    second.finish();
    const std::uint8_t expected[] = {0xbf, 0xff, 0xf0, 0x00, 0x00, 0xc0};
    CHECK(std::memcmp(words, expected, sizeof expected) == 0);
    CHECK(scan_bytes_of(reinterpret_cast<const std::uint8_t*>(words), 42) == std::vector<std::uint8_t>{0xbf, 0xff, 0xf0, 0x00, 0x00, 0xff});
}

namespace {

// A coder one bit off libjpeg: what a coder built against another libjpeg than the one it runs with would be.
class OneBitOffCoder final : public JpegScanCoder {
public:
    std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts, const ScanCoding& coding) override {
        auto scans = coder_.code(source, layouts, coding);
        for (auto& scan : scans) {
            if (scan && !scan->bytes.empty()) scan->bytes.front() ^= 0x10;
        }
        return scans;
    }

private:
    CpuScanCoder coder_;
};

}  // namespace

TEST_CASE("the known-answer check trusts a coder that codes as libjpeg does, and finds out one that does not, which then codes nothing") {
    CpuScanCoder right;
    CHECK(scan_coder_difference(right) == "");
    CHECK(right.coded > 0);  // the check made it code, and its bytes were compared

    OneBitOffCoder wrong;
    const std::string difference = scan_coder_difference(wrong);
    CHECK(difference.find("identity of the built-in") == 0);  // the first variant coded is the first told

    // The pipeline's gate (augment's GPU coders pass it first): the wrong coder is dropped and said why, so
    // libjpeg codes every scan; the right one is kept.
    std::vector<std::unique_ptr<JpegScanCoder>> coders;
    coders.push_back(std::make_unique<CpuScanCoder>());
    coders.push_back(std::make_unique<OneBitOffCoder>());
    std::string why;
    CHECK(trusted_scan_coders(std::move(coders), why).empty());
    CHECK(why.find("its bytes differ from libjpeg") == 0);
    CHECK(why.find("ABI " + std::to_string(JPEG_LIB_VERSION)) != std::string::npos);
    std::vector<std::unique_ptr<JpegScanCoder>> good;
    good.push_back(std::make_unique<CpuScanCoder>());
    std::string none;
    CHECK(trusted_scan_coders(std::move(good), none).size() == 1);
    CHECK(none.empty());
}
