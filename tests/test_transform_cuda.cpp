// The CUDA backend against the naive reference, bit-exact: both transposing kernels (32x32 padded and
// 16x16 skip-lines) and the mirror kernel, every element, every pixel width, the awkward sizes, pitched
// and misaligned device buffers, and grids taller than gridDim.y allows. Skipped without a GPU.

#include "device_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>

#include "bench/study_launch.hpp"
#include "check.cuh"
#include "frontend/cuda_backend.hpp"

#include <array>
#include <vector>

#include <cuda_runtime.h>
#include <doctest/doctest.h>

using gpurotate::CudaKernel;
using gpurotate::Orientation;

namespace {

void check_all_on(CudaKernel kernel) {
    std::uint32_t seed = 1000;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : test_support::awkward_sizes()) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            for (Orientation o : gpurotate::all_orientations) {
                const gpurotate::Image expected = reference::transform(src, o);
                gpurotate::Image out(expected.width(), expected.height(), format);
                std::memset(out.data(), 0xa5, out.size_bytes());
                gpurotate::transform(src.view(), out.view(), o, gpurotate::Backend::cuda, kernel);
                CAPTURE(gpurotate::to_string(kernel));
                CAPTURE(gpurotate::to_string(format));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(gpurotate::name(o));
                CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
            }
        }
    }
}

}  // namespace

TEST_CASE("CUDA automatic kernel choice matches the reference for every element, width and size") {
    check_all_on(CudaKernel::automatic);
}

TEST_CASE("CUDA vectorized kernels match the reference for every element, width and size") {
    // Widths that are and are not multiples of every vector's pixel count (16, 8, 4, 2, 1 pixels); rows
    // whose bytes end 1 to 15 bytes into a vector (a mirrored row then loads shifted by that much: 7, 13
    // and 90 pixels give every word shift and several byte shifts for 1-, 2-, 3- and 6-byte pixels).
    // 1001x300: whole tiles of mirrored columns loaded shifted, for every width but 16 bytes (where the
    // 1-byte transposes share chunks between a converged warp's lanes).
    const std::vector<test_support::Size> sizes = {{1, 1},   {7, 5},   {13, 9},    {16, 16},   {48, 17},   {33, 31},
                                                   {90, 20}, {160, 48}, {257, 129}, {1001, 300}, {1024, 768}};
    std::uint32_t seed = 2000;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : sizes) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            for (Orientation o : gpurotate::all_orientations) {
                const gpurotate::Image expected = reference::transform(src, o);
                // Device buffers with 16-byte aligned pitches, as the host path allocates them.
                const std::size_t src_pitch = (src.view().row_bytes() + 15) / 16 * 16;
                const std::size_t dst_pitch = (expected.view().row_bytes() + 15) / 16 * 16;
                void* d_src = nullptr;
                void* d_dst = nullptr;
                REQUIRE_CUDA(cudaMalloc(&d_src, src_pitch * static_cast<std::size_t>(src.height())));
                REQUIRE_CUDA(cudaMalloc(&d_dst, dst_pitch * static_cast<std::size_t>(expected.height())));
                REQUIRE_CUDA(cudaMemcpy2D(d_src, src_pitch, src.data(), src.view().row_bytes(), src.view().row_bytes(),
                                          static_cast<std::size_t>(src.height()), cudaMemcpyHostToDevice));
                REQUIRE_CUDA(cudaMemset(d_dst, 0xa5, dst_pitch * static_cast<std::size_t>(expected.height())));
                REQUIRE_CUDA(cudaDeviceSynchronize());
                gpurotate::ConstImageView sv(static_cast<std::byte*>(d_src), src.width(), src.height(), src_pitch, format);
                gpurotate::ImageView dv{static_cast<std::byte*>(d_dst), expected.width(), expected.height(), dst_pitch, format};
                CAPTURE(gpurotate::to_string(format));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(gpurotate::name(o));
                // 16-byte aligned pointers and pitches are all the kernels need.
                REQUIRE(gpurotate::vectorized_applies(sv, dv, o));
                {
                    // The production layout, then every layout the bench's tuning study runs; the last two, other
                    // caps of the blocks per SM, for the mirrors too.
                    const gpurotate::bench::VectorizedTransposeVariant variants[] = {
                        {8, 1, false}, {16, 1, false}, {32, 1, false}, {8, 2, false}, {8, 1, true}, {8, 1, false, false},
                        {8, 1, false, true, false, false, 0}, {8, 1, false, true, false, false, 3}};
                    const std::size_t first_for_mirrors = std::size(variants) - 2;
                    for (std::size_t v = 0; v < std::size(variants); ++v) {
                        if (v != 0 && v < first_for_mirrors && !gpurotate::swaps_axes(o)) continue;
                        // The study's layouts run where mirrored columns start on a vector (vectorized_variants.cuh).
                        if (!gpurotate::bench::vectorized_variant_applies(sv, dv, gpurotate::axis_map(o), variants[v])) continue;
                        REQUIRE_CUDA(cudaMemset(d_dst, 0xa5, dst_pitch * static_cast<std::size_t>(expected.height())));
                        if (v == 0) {
                            gpurotate::transform_device(sv, dv, o, nullptr, CudaKernel::vectorized);
                        } else {
                            gpurotate::bench::transform_device_vectorized_variant(sv, dv, gpurotate::axis_map(o), variants[v], nullptr);
                        }
                        REQUIRE_CUDA(cudaDeviceSynchronize());
                        gpurotate::Image out(expected.width(), expected.height(), format);
                        REQUIRE_CUDA(cudaMemcpy2D(out.data(), out.view().row_bytes(), d_dst, dst_pitch, out.view().row_bytes(),
                                                  static_cast<std::size_t>(out.height()), cudaMemcpyDeviceToHost));
                        CAPTURE(variants[v].lanes_x);
                        CAPTURE(variants[v].blocks_scale);
                        CAPTURE(variants[v].resident_grid);
                        CAPTURE(variants[v].l2_prefetch);
                        CAPTURE(variants[v].blocks_per_sm);
                        CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
                    }
                }
                REQUIRE_CUDA(cudaFree(d_src));
                REQUIRE_CUDA(cudaFree(d_dst));
            }
        }
    }
}

TEST_CASE("CUDA vectorized kernels refuse rows that do not start on 16 bytes") {
    // A pitch of 40 bytes: every row after the first starts 8 bytes off a vector. `auto` takes the tiled
    // kernels there (the pitched-buffer case below checks their output).
    const gpurotate::PixelFormat format = test_support::format_with_width(1);
    constexpr std::int64_t side = 40;
    constexpr std::size_t src_pitch = 40, dst_pitch = 48;
    void* d_src = nullptr;
    void* d_dst = nullptr;
    REQUIRE_CUDA(cudaMalloc(&d_src, src_pitch * side));
    REQUIRE_CUDA(cudaMalloc(&d_dst, dst_pitch * side));
    const gpurotate::ConstImageView sv(static_cast<std::byte*>(d_src), side, side, src_pitch, format);
    const gpurotate::ImageView dv{static_cast<std::byte*>(d_dst), side, side, dst_pitch, format};
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        CHECK_FALSE(gpurotate::vectorized_applies(sv, dv, o));
        if (o != Orientation::identity) {  // identity is a device copy whatever the kernel
            CHECK_THROWS_AS(gpurotate::transform_device(sv, dv, o, nullptr, CudaKernel::vectorized), gpurotate::Error);
        }
    }
    REQUIRE_CUDA(cudaFree(d_src));
    REQUIRE_CUDA(cudaFree(d_dst));
}

TEST_CASE("CUDA tile32-padded kernel matches the reference for every element, width and size") {
    check_all_on(CudaKernel::tile32_padded);
}

TEST_CASE("CUDA tile16-skiplines kernel matches the reference for every element, width and size") {
    check_all_on(CudaKernel::tile16_skiplines);
}

TEST_CASE("transform_device on pitched and misaligned device buffers, on a stream") {
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (const auto& format : test_support::formats_of_every_width()) {
        const gpurotate::Image src = test_support::random_image(67, 45, format, 7);
        for (Orientation o : gpurotate::all_orientations) {
            for (CudaKernel kernel : {CudaKernel::automatic, CudaKernel::tile32_padded, CudaKernel::tile16_skiplines}) {
                for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {  // 1: every wide word loses its alignment
                    const gpurotate::Image expected = reference::transform(src, o);
                    const std::size_t src_pitch = src.view().row_bytes() + 40 + offset;
                    const std::size_t dst_pitch = expected.view().row_bytes() + 24 + offset;
                    std::byte* d_src = test_support::upload(src, src_pitch, offset, stream);
                    std::byte* d_dst = nullptr;
                    REQUIRE_CUDA(cudaMalloc(&d_dst, offset + dst_pitch * static_cast<std::size_t>(expected.height())));
                    // The poison goes on the same stream: the library's work is on a non-blocking stream, which
                    // does not wait for the legacy default stream that a plain cudaMemset would use.
                    REQUIRE_CUDA(cudaMemsetAsync(d_dst, 0xa5, offset + dst_pitch * static_cast<std::size_t>(expected.height()), stream));
                    gpurotate::ConstImageView sv(d_src + offset, src.width(), src.height(), src_pitch, format);
                    gpurotate::ImageView dv{d_dst + offset, expected.width(), expected.height(), dst_pitch, format};
                    gpurotate::transform_device(sv, dv, o, stream, kernel);
                    REQUIRE_CUDA(cudaStreamSynchronize(stream));
                    gpurotate::Image out(expected.width(), expected.height(), format);
                    REQUIRE_CUDA(cudaMemcpy2D(out.data(), out.view().row_bytes(), d_dst + offset, dst_pitch, out.view().row_bytes(),
                                              static_cast<std::size_t>(out.height()), cudaMemcpyDeviceToHost));
                    REQUIRE_CUDA(cudaFree(d_src));
                    REQUIRE_CUDA(cudaFree(d_dst));
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(gpurotate::name(o));
                    CAPTURE(gpurotate::to_string(kernel));
                    CAPTURE(offset);
                    CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
                }
            }
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("images taller than 65535 tiles (gridDim.y) are covered completely") {
    // 1 x 3,000,000 has 93,750 tile rows of 32 (187,500 of 16): blocks must stride over the rest.
    const gpurotate::Image src = test_support::random_image(1, 3000000, {gpurotate::SampleType::u8, 1}, 3);
    for (Orientation o : {Orientation::identity, Orientation::flip_v, Orientation::rot90, Orientation::transverse}) {
        for (CudaKernel kernel : {CudaKernel::automatic, CudaKernel::tile32_padded, CudaKernel::tile16_skiplines}) {
            const gpurotate::Image expected = reference::transform(src, o);
            gpurotate::Image out(expected.width(), expected.height(), src.format());
            std::memset(out.data(), 0xa5, out.size_bytes());
            gpurotate::transform(src.view(), out.view(), o, gpurotate::Backend::cuda, kernel);
            // And the transposed case that makes the *output* tall.
            const gpurotate::Image tall_src = reference::transform(src, Orientation::transpose);
            const gpurotate::Image tall_expected = reference::transform(tall_src, o);
            gpurotate::Image tall_out(tall_expected.width(), tall_expected.height(), src.format());
            std::memset(tall_out.data(), 0xa5, tall_out.size_bytes());
            gpurotate::transform(tall_src.view(), tall_out.view(), o, gpurotate::Backend::cuda, kernel);
            CAPTURE(gpurotate::name(o));
            CAPTURE(gpurotate::to_string(kernel));
            CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
            CHECK(test_support::first_difference(tall_out.view(), tall_expected.view()) == -1);
        }
    }
}

TEST_CASE("the Image overload on the GPU returns pinned memory with the right pixels") {
    const gpurotate::Image src = test_support::random_image(640, 480, {gpurotate::SampleType::u8, 3}, 12);
    const gpurotate::Image out = gpurotate::transform(src, Orientation::rot90, gpurotate::Backend::cuda);
    CHECK(out.pinned());
    CHECK(test_support::first_difference(out.view(), reference::transform(src, Orientation::rot90).view()) == -1);
}

TEST_CASE("transform_device_batch transforms every image of a batch in one launch") {
    constexpr int count = 5;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const test_support::Size size : {test_support::Size{37, 29}, test_support::Size{64, 48}}) {
            // The batch as one tall host image: image i is rows [i * height, (i + 1) * height).
            const gpurotate::Image tall = test_support::random_image(size.width, size.height * count, format, 77);
            for (Orientation o : gpurotate::all_orientations) {
                const gpurotate::Extent out = gpurotate::output_extent(o, {size.width, size.height});
                const std::size_t src_pitch = (tall.view().row_bytes() + 15) / 16 * 16;
                const std::size_t dst_pitch = (static_cast<std::size_t>(out.width) * format.pixel_bytes() + 15) / 16 * 16;
                const std::size_t src_stride = src_pitch * static_cast<std::size_t>(size.height);
                const std::size_t dst_stride = dst_pitch * static_cast<std::size_t>(out.height);
                void* d_src = nullptr;
                void* d_dst = nullptr;
                REQUIRE_CUDA(cudaMalloc(&d_src, src_stride * count));
                REQUIRE_CUDA(cudaMalloc(&d_dst, dst_stride * count));
                REQUIRE_CUDA(cudaMemcpy2D(d_src, src_pitch, tall.data(), tall.view().row_bytes(), tall.view().row_bytes(),
                                          static_cast<std::size_t>(tall.height()), cudaMemcpyHostToDevice));
                REQUIRE_CUDA(cudaMemset(d_dst, 0, dst_stride * count));
                REQUIRE_CUDA(cudaDeviceSynchronize());
                gpurotate::ConstImageView sv(static_cast<std::byte*>(d_src), size.width, size.height, src_pitch, format);
                gpurotate::ImageView dv{static_cast<std::byte*>(d_dst), out.width, out.height, dst_pitch, format};
                gpurotate::transform_device_batch(sv, dv, o, count, src_stride, dst_stride, nullptr);
                REQUIRE_CUDA(cudaDeviceSynchronize());
                for (int i = 0; i < count; ++i) {
                    gpurotate::Image one(size.width, size.height, format);
                    std::memcpy(one.data(), tall.view().row(size.height * i), one.size_bytes());
                    const gpurotate::Image expected = reference::transform(one, o);
                    gpurotate::Image got(out.width, out.height, format);
                    REQUIRE_CUDA(cudaMemcpy2D(got.data(), got.view().row_bytes(), static_cast<std::byte*>(d_dst) + dst_stride * i, dst_pitch,
                                              got.view().row_bytes(), static_cast<std::size_t>(out.height), cudaMemcpyDeviceToHost));
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(size.width);
                    CAPTURE(gpurotate::name(o));
                    CAPTURE(i);
                    CHECK(test_support::first_difference(got.view(), expected.view()) == -1);
                }
                REQUIRE_CUDA(cudaFree(d_src));
                REQUIRE_CUDA(cudaFree(d_dst));
            }
        }
    }
}

namespace {

// `tall`'s `count` stacked images (rows packed) through transform_device_batch (one element) or
// transform_device_batch_elements (one each) on the GPU, into a poisoned output; the outputs, stacked the same way.
gpurotate::Image transform_packed_batch(const gpurotate::Image& tall, int count, const std::vector<Orientation>& elements) {
    const std::int64_t width = tall.width(), height = tall.height() / count;
    const gpurotate::PixelFormat format = tall.format();
    const gpurotate::Extent out = gpurotate::output_extent(elements.front(), {width, height});
    const std::size_t bytes = tall.size_bytes(), stride = bytes / static_cast<std::size_t>(count);
    void* d_src = nullptr;
    void* d_dst = nullptr;
    REQUIRE_CUDA(cudaMalloc(&d_src, bytes));
    REQUIRE_CUDA(cudaMalloc(&d_dst, bytes));
    REQUIRE_CUDA(cudaMemcpy(d_src, tall.data(), bytes, cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemset(d_dst, 0xa5, bytes));
    const gpurotate::ConstImageView sv(static_cast<std::byte*>(d_src), width, height, tall.view().row_bytes(), format);
    const gpurotate::ImageView dv{static_cast<std::byte*>(d_dst), out.width, out.height, static_cast<std::size_t>(out.width) * format.pixel_bytes(),
                                  format};
    if (elements.size() == 1) {
        gpurotate::transform_device_batch(sv, dv, elements.front(), count, stride, stride, nullptr);
    } else {
        gpurotate::transform_device_batch_elements(sv, dv, elements.data(), count, stride, stride, nullptr);
    }
    gpurotate::Image got(out.width, out.height * count, format);
    REQUIRE_CUDA(cudaMemcpy(got.data(), d_dst, bytes, cudaMemcpyDeviceToHost));
    REQUIRE_CUDA(cudaFree(d_src));
    REQUIRE_CUDA(cudaFree(d_dst));
    return got;
}

}  // namespace

TEST_CASE("transform_device_batch flips a stacked batch taller than a grid's rows of tiles, as one tall image") {
    // 4100 images of 4x1024 u8c4 flip as one image of 4,198,400 rows: 65,600 rows of 64-row tiles, past
    // gridDim.y's 65,535, so the vectorized mirror's blocks step over tile rows.
    constexpr int count = 4100;
    const gpurotate::Image tall = test_support::random_image(4, 1024 * count, {gpurotate::SampleType::u8, 4}, 32);
    const gpurotate::Image got = transform_packed_batch(tall, count, {Orientation::flip_h});
    CHECK(test_support::first_difference(got.view(), reference::transform(tall, Orientation::flip_h).view()) == -1);
}

TEST_CASE("transform_device_batch mirrors a batch larger than one pass of the whole GPU's threads") {
    // 12 stacked 2048x1024 u8 images, 25 MB: the batch mirror's threads (8 blocks of 256 an SM, 2 vectors each)
    // cover it in several steps on any GPU of up to 750 SMs, so every step of their loop is checked.
    constexpr int count = 12;
    const gpurotate::PixelFormat format{gpurotate::SampleType::u8, 1};
    const std::int64_t width = 2048, height = 1024;
    const gpurotate::Image tall = test_support::random_image(width, height * count, format, 31);
    for (const Orientation o : {Orientation::flip_h, Orientation::flip_v, Orientation::rot180}) {
        const gpurotate::Image got = transform_packed_batch(tall, count, {o});
        for (int i = 0; i < count; ++i) {
            gpurotate::Image one(width, height, format);
            std::memcpy(one.data(), tall.view().row(height * i), one.size_bytes());
            const gpurotate::Image expected = reference::transform(one, o);
            const gpurotate::ConstImageView got_one{got.view().row(height * i), width, height, static_cast<std::size_t>(width), format};
            CAPTURE(gpurotate::name(o));
            CAPTURE(i);
            CHECK(test_support::first_difference(got_one, expected.view()) == -1);
        }
    }
}

namespace {

// transform_packed_batch's outputs against the reference: the number that differ.
int wrong_outputs_of_packed_batch(const gpurotate::Image& tall, int count, const std::vector<Orientation>& elements) {
    const std::int64_t width = tall.width(), height = tall.height() / count;
    const gpurotate::Image got = transform_packed_batch(tall, count, elements);
    const std::int64_t out_height = got.height() / count;
    int wrong = 0;
    for (int i = 0; i < count; ++i) {
        gpurotate::Image one(width, height, tall.format());
        std::memcpy(one.data(), tall.view().row(height * i), one.size_bytes());
        const Orientation o = elements[elements.size() == 1 ? 0 : static_cast<std::size_t>(i)];
        const gpurotate::ConstImageView got_one{got.view().row(out_height * i), got.width(), out_height, got.view().pitch, got.format()};
        if (test_support::first_difference(got_one, reference::transform(one, o).view()) != -1) ++wrong;
    }
    return wrong;
}

}  // namespace

TEST_CASE("transform_device_batch transposes u8 planes back to back as one stack of planes, with one element or one each") {
    // Planes of 1-byte pixels whose sides are whole register blocks but not whole tiles of the per-image kernel run
    // as one stack, 4 lanes (4 blocks of K pixels) across a tile: rows that end inside a tile (224 pixels, 3.5 tiles;
    // 48, lanes idle), rows of whole tiles (128 pixels); oblong planes; stacks that end inside a tile. The 2- and
    // 4-byte planes, and 1-byte planes over the stack's size, take the per-image kernels, checked here the same way.
    struct Case {
        gpurotate::SampleType type;
        test_support::Size size;
    };
    using gpurotate::SampleType;
    const Case cases[] = {{SampleType::u8, {224, 224}}, {SampleType::u8, {128, 48}}, {SampleType::u8, {48, 32}},   {SampleType::u8, {32, 80}},
                          {SampleType::u8, {1024, 272}}, {SampleType::u16, {224, 224}}, {SampleType::u16, {24, 16}}, {SampleType::f32, {32, 12}}};
    const Orientation swapping[] = {Orientation::rot90, Orientation::rot270, Orientation::transpose, Orientation::transverse};
    constexpr int count = 7;
    for (const Case& test : cases) {
        const gpurotate::PixelFormat format{test.type, 1};
        const gpurotate::Image tall = test_support::random_image(test.size.width, test.size.height * count, format, 17);
        CAPTURE(gpurotate::to_string(format));
        CAPTURE(test.size.width);
        CAPTURE(test.size.height);
        for (const Orientation o : swapping) {
            CAPTURE(gpurotate::name(o));
            CHECK(wrong_outputs_of_packed_batch(tall, count, {o}) == 0);
        }
        std::vector<Orientation> elements(count);
        for (int i = 0; i < count; ++i) {
            const bool square = test.size.width == test.size.height;
            elements[static_cast<std::size_t>(i)] = square ? static_cast<Orientation>((i * 5 + 3) % 8) : swapping[(i * 3 + 1) % 4];
        }
        CHECK(wrong_outputs_of_packed_batch(tall, count, elements) == 0);
    }
}

TEST_CASE("transform_device_batch_elements gives each image of a batch its own element") {
    // Square images take all 8 elements in one batch (each at least twice, in a shuffled order); oblong ones
    // take the four that swap the axes, then the four that keep them. A batch stride off 16 bytes takes the
    // grouped launch instead.
    constexpr int count = 19;
    struct Case {
        test_support::Size size;
        bool swapping;  // for oblong sizes: the axis-swapping four, else the other four
        std::size_t stride_pad;
    };
    const Case cases[] = {{{37, 37}, false, 0}, {{64, 64}, false, 0}, {{53, 31}, true, 0}, {{53, 31}, false, 0}, {{40, 40}, false, 4}};
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const Case& test : cases) {
            const test_support::Size size = test.size;
            const bool square = size.width == size.height;
            std::vector<Orientation> elements(count);
            for (int i = 0; i < count; ++i) {
                const int k = (i * 5 + 3) % 8;
                elements[static_cast<std::size_t>(i)] = square ? static_cast<Orientation>(k)
                                                               : (test.swapping ? std::array{Orientation::rot90, Orientation::rot270, Orientation::transpose,
                                                                                             Orientation::transverse}[static_cast<std::size_t>(k % 4)]
                                                                                : std::array{Orientation::identity, Orientation::rot180, Orientation::flip_h,
                                                                                             Orientation::flip_v}[static_cast<std::size_t>(k % 4)]);
            }
            const gpurotate::Image tall = test_support::random_image(size.width, size.height * count, format, 91);
            const gpurotate::Extent out = gpurotate::output_extent(elements.front(), {size.width, size.height});
            const std::size_t src_pitch = (tall.view().row_bytes() + 15) / 16 * 16;
            const std::size_t dst_pitch = (static_cast<std::size_t>(out.width) * format.pixel_bytes() + 15) / 16 * 16;
            const std::size_t src_stride = src_pitch * static_cast<std::size_t>(size.height) + test.stride_pad * format.pixel_bytes();
            const std::size_t dst_stride = dst_pitch * static_cast<std::size_t>(out.height) + test.stride_pad * format.pixel_bytes();
            void* d_src = nullptr;
            void* d_dst = nullptr;
            REQUIRE_CUDA(cudaMalloc(&d_src, src_stride * count));
            REQUIRE_CUDA(cudaMalloc(&d_dst, dst_stride * count));
            for (int i = 0; i < count; ++i) {
                REQUIRE_CUDA(cudaMemcpy2D(static_cast<std::byte*>(d_src) + src_stride * i, src_pitch, tall.view().row(size.height * i),
                                          tall.view().row_bytes(), tall.view().row_bytes(), static_cast<std::size_t>(size.height),
                                          cudaMemcpyHostToDevice));
            }
            REQUIRE_CUDA(cudaMemset(d_dst, 0, dst_stride * count));
            REQUIRE_CUDA(cudaDeviceSynchronize());
            gpurotate::ConstImageView sv(static_cast<std::byte*>(d_src), size.width, size.height, src_pitch, format);
            gpurotate::ImageView dv{static_cast<std::byte*>(d_dst), out.width, out.height, dst_pitch, format};
            gpurotate::transform_device_batch_elements(sv, dv, elements.data(), count, src_stride, dst_stride, nullptr);
            REQUIRE_CUDA(cudaDeviceSynchronize());
            for (int i = 0; i < count; ++i) {
                gpurotate::Image one(size.width, size.height, format);
                std::memcpy(one.data(), tall.view().row(size.height * i), one.size_bytes());
                const gpurotate::Image expected = reference::transform(one, elements[static_cast<std::size_t>(i)]);
                gpurotate::Image got(out.width, out.height, format);
                REQUIRE_CUDA(cudaMemcpy2D(got.data(), got.view().row_bytes(), static_cast<std::byte*>(d_dst) + dst_stride * i, dst_pitch,
                                          got.view().row_bytes(), static_cast<std::size_t>(out.height), cudaMemcpyDeviceToHost));
                CAPTURE(gpurotate::to_string(format));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(test.stride_pad);
                CAPTURE(gpurotate::name(elements[static_cast<std::size_t>(i)]));
                CAPTURE(i);
                CHECK(test_support::first_difference(got.view(), expected.view()) == -1);
            }
            REQUIRE_CUDA(cudaFree(d_src));
            REQUIRE_CUDA(cudaFree(d_dst));
        }
    }
    // An oblong batch mixing elements that swap the axes with ones that keep them has no one output size.
    const gpurotate::PixelFormat u8{gpurotate::SampleType::u8, 1};
    const Orientation mixed[] = {Orientation::rot90, Orientation::flip_h};
    gpurotate::ConstImageView sv(reinterpret_cast<const std::byte*>(16), 32, 16, 32, u8);
    gpurotate::ImageView dv{reinterpret_cast<std::byte*>(16), 16, 32, 16, u8};
    CHECK_THROWS_AS(gpurotate::transform_device_batch_elements(sv, dv, mixed, 2, 512, 512, nullptr), gpurotate::Error);
}

TEST_CASE("transform_device_batch_elements takes batches larger than one launch's list") {
    // 2101 images of 16x16 u8: each family holds about 1050, over the 960 a launch carries.
    constexpr int count = 2101, side = 16;
    const gpurotate::PixelFormat u8{gpurotate::SampleType::u8, 1};
    const gpurotate::Image tall = test_support::random_image(side, side * count, u8, 5);
    std::vector<Orientation> elements(count);
    for (int i = 0; i < count; ++i) elements[static_cast<std::size_t>(i)] = static_cast<Orientation>((i * 3) % 8);
    const std::size_t stride = side * side;
    void* d_src = nullptr;
    void* d_dst = nullptr;
    REQUIRE_CUDA(cudaMalloc(&d_src, stride * count));
    REQUIRE_CUDA(cudaMalloc(&d_dst, stride * count));
    REQUIRE_CUDA(cudaMemcpy(d_src, tall.data(), stride * count, cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemset(d_dst, 0, stride * count));
    gpurotate::ConstImageView sv(static_cast<std::byte*>(d_src), side, side, side, u8);
    gpurotate::ImageView dv{static_cast<std::byte*>(d_dst), side, side, side, u8};
    gpurotate::transform_device_batch_elements(sv, dv, elements.data(), count, stride, stride, nullptr);
    gpurotate::Image got(side, side * count, u8);
    REQUIRE_CUDA(cudaMemcpy(got.data(), d_dst, stride * count, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < count; ++i) {
        gpurotate::Image one(side, side, u8), out(side, side, u8);
        std::memcpy(one.data(), tall.view().row(side * i), stride);
        std::memcpy(out.data(), got.view().row(side * i), stride);
        if (test_support::first_difference(out.view(), reference::transform(one, elements[static_cast<std::size_t>(i)]).view()) != -1) ++wrong;
    }
    CHECK(wrong == 0);
    REQUIRE_CUDA(cudaFree(d_src));
    REQUIRE_CUDA(cudaFree(d_dst));
}

TEST_CASE("transform_in_place_device applies every involution in place and refuses the rest") {
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const test_support::Size size : {test_support::Size{1, 1}, test_support::Size{31, 31}, test_support::Size{33, 33},
                                              test_support::Size{64, 64}, test_support::Size{257, 257}, test_support::Size{45, 17}}) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, 91);
            for (Orientation o : gpurotate::all_orientations) {
                const std::size_t pitch = src.view().row_bytes() + 16;
                void* d = nullptr;
                REQUIRE_CUDA(cudaMalloc(&d, pitch * static_cast<std::size_t>(size.height)));
                REQUIRE_CUDA(cudaMemcpy2D(d, pitch, src.data(), src.view().row_bytes(), src.view().row_bytes(),
                                          static_cast<std::size_t>(size.height), cudaMemcpyHostToDevice));
                gpurotate::ImageView view{static_cast<std::byte*>(d), size.width, size.height, pitch, format};
                CAPTURE(gpurotate::to_string(format));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(gpurotate::name(o));
                const bool possible = gpurotate::is_involution(o) && (!gpurotate::swaps_axes(o) || size.width == size.height);
                if (possible) {
                    gpurotate::transform_in_place_device(view, o, nullptr);
                    REQUIRE_CUDA(cudaDeviceSynchronize());
                    const gpurotate::Image expected = reference::transform(src, o);
                    gpurotate::Image got(expected.width(), expected.height(), format);
                    REQUIRE_CUDA(cudaMemcpy2D(got.data(), got.view().row_bytes(), d, pitch, got.view().row_bytes(),
                                              static_cast<std::size_t>(got.height()), cudaMemcpyDeviceToHost));
                    CHECK(test_support::first_difference(got.view(), expected.view()) == -1);
                } else {
                    CHECK_THROWS_AS(gpurotate::transform_in_place_device(view, o, nullptr), gpurotate::Error);
                }
                REQUIRE_CUDA(cudaFree(d));
            }
        }
    }
}

TEST_CASE("a failed CUDA call leaves no error behind for the thread's next transform") {
    // A worker whose image failed (out of device memory) goes on to its next image: the runtime's last error, set
    // by the failed call, must not fail that image's launch check (cudaGetLastError after the kernel).
    CHECK_THROWS_AS(gpurotate::detail::DeviceBuffer(std::size_t{1} << 52), gpurotate::Error);
    const gpurotate::Image src = test_support::random_image(67, 45, {gpurotate::SampleType::u8, 3}, 4242);
    gpurotate::Image out(45, 67, src.format());
    CHECK_NOTHROW(gpurotate::transform(src.view(), out.view(), gpurotate::Orientation::rot90, gpurotate::Backend::cuda));
    CHECK(test_support::first_difference(out.view(), reference::transform(src, gpurotate::Orientation::rot90).view()) == -1);
}
