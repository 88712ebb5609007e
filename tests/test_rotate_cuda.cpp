// Rotation by any angle on the GPU gives the CPU backend's bytes (which test_rotate_cpu.cpp holds to OpenCV's
// warpAffine) for every case of rotate_cases.hpp, through rotate() on host images and rotate_device() on pitched
// device buffers. Skipped without a GPU.

#include "device_support.hpp"
#include "rotate_cases.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>

#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <doctest/doctest.h>

using gpurotate::Interpolation;
using gpurotate::RotateOptions;
using gpurotate::SampleType;

TEST_CASE("CUDA rotation gives the CPU backend's bytes for every sample type, channel count, angle and interpolation") {
    std::uint32_t seed = 500;
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::int64_t cases = 0;
    for (SampleType sample : test_support::rotation_samples()) {
        for (int channels : test_support::rotation_channels()) {
            const gpurotate::PixelFormat format{sample, channels};
            for (const auto& size : test_support::rotation_sizes()) {
                const gpurotate::Image src = test_support::rotation_source(size.width, size.height, format, seed++);
                // A device copy with a pitch of more than a row (a multiple of 16 bytes past it).
                const std::size_t src_pitch = (src.view().row_bytes() + 16 + 15) / 16 * 16;
                std::byte* device_src = test_support::upload(src, src_pitch, 0, stream);
                for (const RotateOptions& options : test_support::rotation_options(sample)) {
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(size.width);
                    CAPTURE(size.height);
                    CAPTURE(options.degrees);
                    CAPTURE(gpurotate::name(options.interpolation));
                    CAPTURE(options.keep_size);
                    CAPTURE(options.background[1]);
                    const gpurotate::Image expected = gpurotate::rotate(src, options, gpurotate::Backend::cpu);
                    const gpurotate::Image got = gpurotate::rotate(src, options, gpurotate::Backend::cuda);
                    CHECK(test_support::first_difference(got.view(), expected.view()) == -1);

                    const std::size_t dst_pitch = (expected.view().row_bytes() + 32 + 15) / 16 * 16;
                    void* device_dst = nullptr;
                    REQUIRE_CUDA(cudaMalloc(&device_dst, dst_pitch * static_cast<std::size_t>(expected.height())));
                    REQUIRE_CUDA(cudaMemsetAsync(device_dst, 0xa5, dst_pitch * static_cast<std::size_t>(expected.height()), stream));
                    const gpurotate::ConstImageView d_src(device_src, size.width, size.height, src_pitch, format);
                    const gpurotate::ImageView d_dst{static_cast<std::byte*>(device_dst), expected.width(), expected.height(), dst_pitch, format};
                    gpurotate::rotate_device(d_src, d_dst, options, stream);
                    gpurotate::Image back(expected.width(), expected.height(), format);
                    REQUIRE_CUDA(cudaMemcpy2DAsync(back.data(), back.view().pitch, device_dst, dst_pitch, back.view().row_bytes(),
                                                   static_cast<std::size_t>(back.height()), cudaMemcpyDeviceToHost, stream));
                    REQUIRE_CUDA(cudaStreamSynchronize(stream));
                    REQUIRE_CUDA(cudaFree(device_dst));
                    CHECK(test_support::first_difference(back.view(), expected.view()) == -1);
                    ++cases;
                }
                REQUIRE_CUDA(cudaFree(device_src));
            }
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
    MESSAGE(cases << " rotations compared, GPU against CPU");
}

TEST_CASE("CUDA rotation of a large image gives the CPU backend's bytes") {
    // Taller than one grid's rows (65535 blocks of 8 rows) would be slow to test; 3000x2001 still spans many
    // blocks in both directions and every table entry, and has more tiles than the GPU keeps blocks, so that
    // each block works several in turn (finding the next tile's words and a later tile's bounds while one tile's
    // loads fly). 1, 3 and 4 channels: every pixel width but 2.
    for (SampleType sample : test_support::rotation_samples()) {
        for (int channels : {1, 3, 4}) {
            const gpurotate::Image src = test_support::rotation_source(3000, 2001, {sample, channels}, 9);
            for (Interpolation interpolation : test_support::rotation_interpolations()) {
                RotateOptions options;
                options.degrees = 17.25;
                options.interpolation = interpolation;
                options.background = test_support::rotation_backgrounds(sample)[1];
                const gpurotate::Image expected = gpurotate::rotate(src, options, gpurotate::Backend::cpu);
                const gpurotate::Image got = gpurotate::rotate(src, options, gpurotate::Backend::cuda);
                CAPTURE(gpurotate::to_string(src.format()));
                CAPTURE(gpurotate::name(options.interpolation));
                CHECK(test_support::first_difference(got.view(), expected.view()) == -1);
            }
        }
    }
}

namespace {

/// `expected`'s bytes against a device image at `device_dst` (its own pitch).
void check_download(const gpurotate::Image& expected, const std::byte* device_dst, std::size_t dst_pitch, cudaStream_t stream) {
    gpurotate::Image back(expected.width(), expected.height(), expected.format());
    REQUIRE_CUDA(cudaMemcpy2DAsync(back.data(), back.view().pitch, device_dst, dst_pitch, back.view().row_bytes(),
                                   static_cast<std::size_t>(back.height()), cudaMemcpyDeviceToHost, stream));
    REQUIRE_CUDA(cudaStreamSynchronize(stream));
    CHECK(test_support::first_difference(back.view(), expected.view()) == -1);
}

}  // namespace

TEST_CASE("CUDA rotation of a 1-byte image whose blocks take many tiles in turn gives the CPU backend's bytes") {
    // 3000x2001 gives each block several tiles in turn, inside the image (rewritten as windows), across its border
    // and outside it (which skip the tables and the barrier after the loads), in every order; rows padded to
    // 16-byte words and packed (whose tiles are shifted onto the rows' words), expanded and kept, at angles whose
    // tiles' footprints differ in rows and words.
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const gpurotate::PixelFormat format{SampleType::u8, 1};
    const gpurotate::Image src = test_support::rotation_source(3000, 2001, format, 31);
    for (bool packed : {false, true}) {
        const std::size_t src_pitch = packed ? src.view().row_bytes() : (src.view().row_bytes() + 15) / 16 * 16;
        std::byte* base = test_support::upload(src, src_pitch, 0, stream);
        const gpurotate::ConstImageView d_src(base, src.width(), src.height(), src_pitch, format);
        for (double degrees : {3.0, 30.0, 45.0, 100.0, -135.0}) {
            for (bool keep_size : {false, true}) {
                RotateOptions options{degrees, Interpolation::bilinear, keep_size, test_support::rotation_backgrounds(SampleType::u8)[1]};
                CAPTURE(packed);
                CAPTURE(degrees);
                CAPTURE(keep_size);
                const gpurotate::Image expected = gpurotate::rotate(src, options, gpurotate::Backend::cpu);
                const std::size_t dst_pitch = packed ? expected.view().row_bytes() : (expected.view().row_bytes() + 15) / 16 * 16;
                void* dst = nullptr;
                REQUIRE_CUDA(cudaMalloc(&dst, dst_pitch * static_cast<std::size_t>(expected.height())));
                const gpurotate::ImageView d_dst{static_cast<std::byte*>(dst), expected.width(), expected.height(), dst_pitch, format};
                gpurotate::rotate_device(d_src, d_dst, options, stream);
                check_download(expected, static_cast<const std::byte*>(dst), dst_pitch, stream);
                REQUIRE_CUDA(cudaFree(dst));
            }
        }
        REQUIRE_CUDA(cudaFree(base));
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("CUDA rotation of images of many tiles, on pitches of whole and of odd bytes, gives the CPU backend's bytes") {
    // 301x217 spans tiles wholly inside the image, across its border and wholly outside it (the expanded
    // canvas's corners) for every pixel width. Three layouts: rows padded to 16-byte words; packed rows from
    // the allocation's start (a contiguous tensor's: the kernel shifts each row's tiles onto its words where
    // rows start at the pixel's alignment, every width but 16 bytes); packed rows one sample into the
    // allocation (unshifted where that breaks the pixel's alignment, its stores a byte or a word at a time).
    enum class Layout { whole_words, packed, packed_after_a_sample };
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::uint32_t seed = 900;
    for (SampleType sample : test_support::rotation_samples()) {
        for (int channels : test_support::rotation_channels()) {
            const gpurotate::PixelFormat format{sample, channels};
            const gpurotate::Image src = test_support::rotation_source(301, 217, format, seed++);
            for (Layout layout : {Layout::whole_words, Layout::packed, Layout::packed_after_a_sample}) {
                const bool whole_words = layout == Layout::whole_words;
                const std::size_t sample_size = gpurotate::sample_bytes(sample);
                const std::size_t src_pitch = whole_words ? (src.view().row_bytes() + 15) / 16 * 16 : src.view().row_bytes();
                // Packed rows start 16 bytes into the allocation (still on a word), so that a store before the
                // image would land on a byte the test reads back.
                const std::size_t offset = layout == Layout::packed_after_a_sample ? sample_size : layout == Layout::packed ? 16 : 0;
                std::byte* base = test_support::upload(src, src_pitch, offset, stream);
                const gpurotate::ConstImageView d_src(base + offset, src.width(), src.height(), src_pitch, format);
                for (double degrees : {7.5, 45.0, -60.0, 135.0}) {
                    for (Interpolation interpolation : test_support::rotation_interpolations()) {
                        for (bool keep_size : {false, true}) {
                            RotateOptions options{degrees, interpolation, keep_size, test_support::rotation_backgrounds(sample)[1]};
                            CAPTURE(gpurotate::to_string(format));
                            CAPTURE(static_cast<int>(layout));
                            CAPTURE(degrees);
                            CAPTURE(gpurotate::name(interpolation));
                            CAPTURE(keep_size);
                            const gpurotate::Image expected = gpurotate::rotate(src, options, gpurotate::Backend::cpu);
                            const std::size_t dst_pitch = whole_words ? (expected.view().row_bytes() + 15) / 16 * 16 : expected.view().row_bytes();
                            // The destination at the same offset into its allocation, and 16 bytes past its last row.
                            void* dst = nullptr;
                            const std::size_t dst_bytes = offset + dst_pitch * static_cast<std::size_t>(expected.height()) + 16;
                            REQUIRE_CUDA(cudaMalloc(&dst, dst_bytes));
                            REQUIRE_CUDA(cudaMemsetAsync(dst, 0xa5, dst_bytes, stream));
                            std::byte* const d_dst_data = static_cast<std::byte*>(dst) + offset;
                            const gpurotate::ImageView d_dst{d_dst_data, expected.width(), expected.height(), dst_pitch, format};
                            gpurotate::rotate_device(d_src, d_dst, options, stream);
                            check_download(expected, d_dst_data, dst_pitch, stream);
                            // Nothing written before the image or after its last row's last byte.
                            std::byte edges[2];
                            REQUIRE_CUDA(cudaMemcpy(&edges[0], dst, 1, cudaMemcpyDeviceToHost));
                            REQUIRE_CUDA(cudaMemcpy(&edges[1], static_cast<std::byte*>(dst) + dst_bytes - 1, 1, cudaMemcpyDeviceToHost));
                            if (offset > 0) CHECK(edges[0] == std::byte{0xa5});
                            CHECK(edges[1] == std::byte{0xa5});
                            REQUIRE_CUDA(cudaFree(dst));
                        }
                    }
                }
                REQUIRE_CUDA(cudaFree(base));
            }
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("a grouped CUDA rotation gives each image the CPU backend's bytes for its own size, angle, interpolation and canvas") {
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const test_support::RotationSize sizes[] = {{301, 217}, {64, 64}, {5, 2}, {130, 257}, {1, 7}};
    const double angles[] = {7.5, -33.0, 45.0, 1000.0, 0.5, 135.0, -60.0};
    // Destinations of whole sectors a row, then every third one's rows packed (a launch of shifted tiles, where
    // the others' rows lie on words already).
    for (bool some_packed : {false, true}) {
        for (SampleType sample : test_support::rotation_samples()) {
            for (int channels : {1, 3, 4}) {
                const gpurotate::PixelFormat format{sample, channels};
                std::vector<gpurotate::Image> sources, expected;
                std::vector<void*> buffers;
                std::vector<std::size_t> dst_pitches;
                std::vector<gpurotate::GroupedRotation> group;
                for (int i = 0; i < 21; ++i) {
                    const auto size = sizes[i % 5];
                    RotateOptions options{angles[i % 7], test_support::rotation_interpolations()[static_cast<std::size_t>(i % 3)], i % 4 == 1,
                                          test_support::rotation_backgrounds(sample)[static_cast<std::size_t>(i % 2)]};
                    sources.push_back(test_support::rotation_source(size.width, size.height, format, 1300u + static_cast<std::uint32_t>(i)));
                    expected.push_back(gpurotate::rotate(sources.back(), options, gpurotate::Backend::cpu));
                    const std::size_t src_pitch = (sources.back().view().row_bytes() + 31) / 32 * 32;
                    std::byte* d_src = test_support::upload(sources.back(), src_pitch, 0, stream);
                    const std::size_t row_bytes = expected.back().view().row_bytes();
                    const std::size_t dst_pitch = some_packed && i % 3 == 0 ? row_bytes : (row_bytes + 31) / 32 * 32;
                    void* d_dst = nullptr;
                    REQUIRE_CUDA(cudaMalloc(&d_dst, dst_pitch * static_cast<std::size_t>(expected.back().height())));
                    REQUIRE_CUDA(cudaMemsetAsync(d_dst, 0xa5, dst_pitch * static_cast<std::size_t>(expected.back().height()), stream));
                    buffers.push_back(d_src);
                    buffers.push_back(d_dst);
                    dst_pitches.push_back(dst_pitch);
                    group.push_back({gpurotate::ConstImageView(d_src, size.width, size.height, src_pitch, format),
                                     gpurotate::ImageView{static_cast<std::byte*>(d_dst), expected.back().width(), expected.back().height(), dst_pitch, format},
                                     options});
                }
                gpurotate::rotate_device_grouped(group, stream);
                for (std::size_t i = 0; i < group.size(); ++i) {
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(some_packed);
                    CAPTURE(i);
                    check_download(expected[i], group[i].dst.data, dst_pitches[i], stream);
                }
                for (void* b : buffers) REQUIRE_CUDA(cudaFree(b));
            }
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("a grouped CUDA rotation refuses an empty group, mixed formats and a destination of the wrong size") {
    void* base = nullptr;
    REQUIRE_CUDA(cudaMalloc(&base, 1 << 16));
    auto* bytes = static_cast<std::byte*>(base);
    RotateOptions options;
    options.degrees = 10;
    const gpurotate::Extent e = gpurotate::rotated_extent({8, 8}, options);
    const gpurotate::GroupedRotation u8{gpurotate::ConstImageView(bytes, 8, 8, 64, {SampleType::u8, 1}),
                                        gpurotate::ImageView{bytes + 4096, e.width, e.height, 64, {SampleType::u8, 1}}, options};
    const gpurotate::GroupedRotation f32{gpurotate::ConstImageView(bytes + 8192, 8, 8, 64, {SampleType::f32, 1}),
                                         gpurotate::ImageView{bytes + 16384, e.width, e.height, 64, {SampleType::f32, 1}}, options};
    gpurotate::GroupedRotation wrong = u8;
    wrong.dst.width += 1;
    const auto refused = [](const std::vector<gpurotate::GroupedRotation>& group) {
        try {
            gpurotate::rotate_device_grouped(group, nullptr);
        } catch (const gpurotate::Error& error) {
            return error.code() == gpurotate::ErrorCode::usage;
        }
        return false;
    };
    CHECK(refused({}));
    CHECK(refused({u8, f32}));
    CHECK(refused({u8, wrong}));
    REQUIRE_CUDA(cudaFree(base));
}

TEST_CASE("rotate_device refuses misaligned samples") {
    void* base = nullptr;
    REQUIRE_CUDA(cudaMalloc(&base, 4096));
    const gpurotate::PixelFormat format{SampleType::f32, 1};
    RotateOptions options;
    options.degrees = 10;
    const gpurotate::Extent e = gpurotate::rotated_extent({8, 8}, options);
    const gpurotate::ConstImageView src(static_cast<std::byte*>(base) + 2, 8, 8, 64, format);
    const gpurotate::ImageView dst{static_cast<std::byte*>(base) + 1024, e.width, e.height, 128, format};
    bool usage = false;
    try {
        gpurotate::rotate_device(src, dst, options, nullptr);
    } catch (const gpurotate::Error& error) {
        usage = error.code() == gpurotate::ErrorCode::usage;
    }
    CHECK(usage);
    REQUIRE_CUDA(cudaFree(base));
}
