// Rotation by any angle on the GPU gives the CPU backend's bytes (which test_rotate_cpu.cpp holds to OpenCV's
// warpAffine) for every case of rotate_cases.hpp, through rotate() on host images and rotate_device() on pitched
// device buffers. Skipped without a GPU.

#include "device_support.hpp"
#include "rotate_cases.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>

#include <cstring>

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
    // blocks in both directions and every table entry.
    for (SampleType sample : test_support::rotation_samples()) {
        const gpurotate::Image src = test_support::rotation_source(3000, 2001, {sample, 3}, 9);
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
