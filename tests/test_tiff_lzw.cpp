// gpurotate's own TIFF LZW coder against libtiff's decoder: every strip it codes must read back as its bytes,
// over the sizes where the last code meets a change of code width or a full table, over bytes that fill the
// table many times (noise) and that make long strings (runs, repeats), and whole TIFFs through the writer,
// with and without the horizontal predictor, read back by libtiff.

#include "formats/tiff_lzw.hpp"
#include "formats/tiff_file.hpp"
#include "test_support.hpp"

#include <gpurotate/gpurotate.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using gpurotate::detail::encode_tiff_lzw;
using gpurotate::detail::open_tiff;
using gpurotate::detail::tiff_lzw_bound;
using gpurotate::detail::TiffFile;

/// `bytes` coded by encode_tiff_lzw as the one strip of a one-row 8-bit grey TIFF, then read back by libtiff.
std::vector<std::uint8_t> through_libtiff(const std::vector<std::uint8_t>& bytes) {
    std::vector<std::uint8_t> coded(tiff_lzw_bound(bytes.size()));
    coded.resize(encode_tiff_lzw(bytes.data(), bytes.size(), coded.data()));
    std::vector<std::uint8_t> file_bytes;
    {
        TiffFile file = TiffFile::writing(file_bytes);
        const auto t = open_tiff(file, "w");
        REQUIRE(t);
        TIFFSetField(t.get(), TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(bytes.size()));
        TIFFSetField(t.get(), TIFFTAG_IMAGELENGTH, 1u);
        TIFFSetField(t.get(), TIFFTAG_BITSPERSAMPLE, 8);
        TIFFSetField(t.get(), TIFFTAG_SAMPLESPERPIXEL, 1);
        TIFFSetField(t.get(), TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
        TIFFSetField(t.get(), TIFFTAG_COMPRESSION, COMPRESSION_LZW);
        TIFFSetField(t.get(), TIFFTAG_ROWSPERSTRIP, 1u);
        REQUIRE(TIFFWriteRawStrip(t.get(), 0, coded.data(), static_cast<tmsize_t>(coded.size())) == static_cast<tmsize_t>(coded.size()));
    }
    TiffFile file = TiffFile::reading(file_bytes.data(), file_bytes.size());
    const auto t = open_tiff(file, "rm");
    REQUIRE(t);
    std::vector<std::uint8_t> decoded(bytes.size() + 16, 0xA5);
    const tmsize_t read = TIFFReadEncodedStrip(t.get(), 0, decoded.data(), static_cast<tmsize_t>(bytes.size()));
    CAPTURE(file.message);
    CHECK(read == static_cast<tmsize_t>(bytes.size()));
    decoded.resize(bytes.size());
    return decoded;
}

std::vector<std::uint8_t> noise(std::size_t size, unsigned alphabet, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> bytes(size);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng() % alphabet);
    return bytes;
}

}  // namespace

TEST_CASE("the TIFF LZW coder's strips read back through libtiff at every length to past two full tables") {
    // Noise of 256 values takes a new code almost every byte: the table fills near 4,300 bytes, so the lengths to
    // 9,000 put the last code on every width change (codes 511, 1023, 2047) and on the full table, twice.
    const std::vector<std::uint8_t> all = noise(9000, 256, 11);
    int mismatched = 0;
    for (std::size_t size = 1; size <= all.size(); size += size < 600 ? 1 : 7) {
        const std::vector<std::uint8_t> bytes(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(size));
        if (through_libtiff(bytes) != bytes) ++mismatched;
    }
    CHECK(mismatched == 0);
    // Around each place where a code meets a boundary, every length.
    for (std::size_t size = 4200; size <= 4400; ++size) {
        const std::vector<std::uint8_t> bytes(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(size));
        CAPTURE(size);
        CHECK(through_libtiff(bytes) == bytes);
    }
}

TEST_CASE("the TIFF LZW coder's strips read back through libtiff for noise, runs, repeats and small alphabets") {
    std::vector<std::vector<std::uint8_t>> cases;
    cases.push_back(noise(300000, 256, 1));
    cases.push_back(noise(300000, 4, 2));
    cases.push_back(noise(300000, 17, 3));
    cases.push_back(std::vector<std::uint8_t>(200000, 0));
    cases.push_back(std::vector<std::uint8_t>(200000, 255));
    std::vector<std::uint8_t> repeats;
    for (int i = 0; i < 100000; ++i) repeats.push_back(static_cast<std::uint8_t>((i * 7) % 13 + (i / 5000)));
    cases.push_back(repeats);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        CAPTURE(i);
        CHECK(through_libtiff(cases[i]) == cases[i]);
        // Each byte costs at most one 12-bit code.
        std::vector<std::uint8_t> coded(tiff_lzw_bound(cases[i].size()));
        CHECK(encode_tiff_lzw(cases[i].data(), cases[i].size(), coded.data()) <= tiff_lzw_bound(cases[i].size()));
    }
    // A run codes in strings growing by one byte a code: about sqrt(2 n) codes.
    std::vector<std::uint8_t> coded(tiff_lzw_bound(200000));
    CHECK(encode_tiff_lzw(cases[3].data(), cases[3].size(), coded.data()) < 2000);
}

TEST_CASE("LZW TIFFs of every sample type, predictor and planar configuration read back through libtiff") {
    test_support::TempDir dir;
    for (const auto sample : {gpurotate::SampleType::u8, gpurotate::SampleType::u16, gpurotate::SampleType::f32}) {
        for (const int channels : {1, 3, 4}) {
            // 1301x1700 of 3 16-bit channels is 13 MB: its strips are coded on several threads.
            const auto image = test_support::random_image(1301, channels == 3 ? 1700 : 37, {sample, channels}, 5u + static_cast<std::uint32_t>(channels),
                                                          test_support::FloatRange::unit);
            for (const auto predictor : {gpurotate::TiffPredictor::none, gpurotate::TiffPredictor::horizontal}) {
                for (const bool separate : {false, true}) {
                    CAPTURE(gpurotate::to_string(gpurotate::PixelFormat{sample, channels}));
                    CAPTURE(channels);
                    CAPTURE(static_cast<int>(predictor));
                    CAPTURE(separate);
                    gpurotate::WriteOptions options;
                    options.tiff.compression = gpurotate::TiffCompression::lzw;
                    options.tiff.predictor = predictor;
                    options.tiff.separate_planes = separate;
                    options.overwrite = true;
                    gpurotate::write_image(dir.file("lzw.tif"), image.view(), options);
                    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("lzw.tif")).view(), image.view()) == -1);
                }
            }
        }
    }
}
