// A TIFF coded straight into its output file (the strips written as they are coded, never the whole file in
// memory) against the same TIFF coded in memory and against its pixels read back by libtiff; the EXIF directories'
// case, which is coded in memory and then written; and a write that fails, which names the system's reason.

#include "exif_support.hpp"
#include "formats/tiff_codec.hpp"
#include "test_support.hpp"

#include <gpurotate/gpurotate.hpp>

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using gpurotate::PixelFormat;
using gpurotate::SampleType;
using gpurotate::TiffCompression;
using gpurotate::TiffPredictor;

// `options` coded by write_image into `path`, which must be the bytes encode_image codes in memory and hold
// `image`'s pixels as libtiff reads them.
void check_streamed(const test_support::TempDir& dir, const gpurotate::Image& image, gpurotate::WriteOptions options) {
    const std::string path = dir.file("streamed.tif");
    options.overwrite = true;
    gpurotate::write_image(path, image.view(), options);
    const std::vector<std::uint8_t> in_memory = gpurotate::encode_image(image.view(), path, options);
    CHECK(test_support::file_bytes(path) == std::string(in_memory.begin(), in_memory.end()));
    CHECK(test_support::first_difference(gpurotate::read_image(path).view(), image.view()) == -1);
}

}  // namespace

TEST_CASE("a TIFF coded into its file as it goes is the TIFF coded in memory, and libtiff reads back its pixels") {
    test_support::TempDir dir;
    for (const auto compression : {TiffCompression::none, TiffCompression::lzw, TiffCompression::deflate, TiffCompression::packbits}) {
        for (const auto sample : {SampleType::u8, SampleType::u16, SampleType::f32}) {
            for (const bool separate : {false, true}) {
                CAPTURE(gpurotate::to_string(compression));
                CAPTURE(gpurotate::to_string(PixelFormat{sample, 3}));
                CAPTURE(separate);
                // 1500x1000 of 3 16-bit channels is 9 MB: strips coded on several threads and written in order.
                const auto image = test_support::random_image(sample == SampleType::u16 ? 1500 : 301, sample == SampleType::u16 ? 1000 : 77,
                                                              {sample, 3}, 11u, test_support::FloatRange::unit);
                gpurotate::WriteOptions options;
                options.tiff.compression = compression;
                options.tiff.predictor = compression == TiffCompression::none || compression == TiffCompression::packbits ? TiffPredictor::none
                                         : sample == SampleType::f32                                                    ? TiffPredictor::floating_point
                                                                                                                        : TiffPredictor::horizontal;
                options.tiff.separate_planes = separate;
                check_streamed(dir, image, options);
            }
        }
    }
}

TEST_CASE("a TIFF with EXIF directories to place is coded whole, then written: the same bytes, its EXIF read back") {
    test_support::TempDir dir;
    const auto image = test_support::random_image(97, 61, {SampleType::u16, 4}, 3u);
    gpurotate::ImageMetadata metadata;
    metadata.exif = test_support::exif_with(1, 97, 61);
    gpurotate::WriteOptions options;
    options.metadata = &metadata;
    options.tiff.compression = TiffCompression::lzw;
    check_streamed(dir, image, options);
    const gpurotate::ImageMetadata back = gpurotate::read_metadata(dir.file("streamed.tif"));
    // The Exif directory's PixelXDimension entry (tag a002, SHORT, one, 97), little-endian as the block and the file.
    const std::vector<std::uint8_t> pixel_x = {0x02, 0xa0, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 97, 0x00};
    CHECK(std::search(back.exif.begin(), back.exif.end(), pixel_x.begin(), pixel_x.end()) != back.exif.end());
}

TEST_CASE("a TIFF whose write into its file fails names the system's reason") {
    test_support::TempDir dir;
    const std::string path = dir.file("read-only.tif");
    test_support::write_bytes(path, "");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const auto image = test_support::random_image(300, 200, {SampleType::u8, 3}, 4u);
    for (const auto compression : {TiffCompression::none, TiffCompression::lzw}) {
        CAPTURE(gpurotate::to_string(compression));
        gpurotate::WriteOptions options;
        options.tiff.compression = compression;
        try {
            gpurotate::detail::encode_tiff_into(image.view(), options, fd);
            FAIL("a write into a read-only descriptor succeeded");
        } catch (const gpurotate::Error& e) {
            CHECK(e.code() == gpurotate::ErrorCode::output);
            CHECK(std::string(e.what()).find("Bad file descriptor") != std::string::npos);
        }
    }
    ::close(fd);
}

TEST_CASE("write_image of a TIFF that meets a full disk names the file and the cause, and leaves nothing") {
    test_support::TempDir dir;
    const std::string path = dir.file("full.tif");
    const auto image = test_support::random_image(1500, 1000, {SampleType::u16, 3}, 8u);  // 9 MB of noise
    int pipe_ends[2];
    REQUIRE(::pipe(pipe_ends) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // A file size limit with SIGXFSZ ignored: a write past it fails with EFBIG, as on a full disk.
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{rlim_t{1} << 20, rlim_t{1} << 20};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        std::string said = "no error";
        try {
            gpurotate::WriteOptions options;
            options.tiff.compression = TiffCompression::lzw;
            gpurotate::write_image(path, image.view(), options);
        } catch (const gpurotate::Error& e) {
            said = e.what();
        }
        static_cast<void>(::write(pipe_ends[1], said.data(), said.size()));
        ::_exit(0);
    }
    ::close(pipe_ends[1]);
    std::string said;
    char chunk[256];
    for (ssize_t n; (n = ::read(pipe_ends[0], chunk, sizeof chunk)) > 0;) said.append(chunk, static_cast<std::size_t>(n));
    ::close(pipe_ends[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    CAPTURE(said);
    CHECK(said.rfind("cannot write '" + path + "': ", 0) == 0);
    CHECK(said.find("File too large") != std::string::npos);
    CHECK(std::filesystem::is_empty(dir.path()));  // neither the file nor its temporary
}
