// The CPU backend against the naive reference (and OpenCV where built with it), bit-exact, for every
// element, every pixel width and the awkward sizes; plus padded pitches and argument errors.

#include "reference.hpp"
#include "test_support.hpp"

#include "cpu/transform_cpu.hpp"
#include "frontend/cuda_backend.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>

#include <algorithm>  // std::transform, which argument-dependent lookup finds beside gpurotate::transform
#include <vector>

#include <doctest/doctest.h>

#if GPUROTATE_TEST_WITH_OPENCV
#include <opencv2/core.hpp>
#endif

using gpurotate::Orientation;

namespace {

void check_backend_on(gpurotate::ConstImageView src, Orientation o, const gpurotate::Image& expected) {
    gpurotate::Image out(expected.width(), expected.height(), src.format);
    std::memset(out.data(), 0xa5, out.size_bytes());  // poison: unwritten pixels show up
    gpurotate::transform(src, out.view(), o, gpurotate::Backend::cpu);
    CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
}

}  // namespace

TEST_CASE("CPU backend matches the reference for every element, width and size") {
    std::uint32_t seed = 1;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : test_support::awkward_sizes()) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            for (Orientation o : gpurotate::all_orientations) {
                CAPTURE(gpurotate::to_string(format));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(gpurotate::name(o));
                check_backend_on(src.view(), o, reference::transform(src, o));
            }
        }
    }
}

TEST_CASE("CPU backend handles padded and unaligned pitches") {
    const gpurotate::PixelFormat format{gpurotate::SampleType::f32, 3};  // 12-byte pixels
    const std::int64_t w = 45, h = 29;
    const gpurotate::Image packed = test_support::random_image(w, h, format, 99);
    // The same pixels with 13 spare bytes per row, at an odd address.
    std::vector<std::byte> storage(1 + (packed.view().row_bytes() + 13) * h);
    gpurotate::ImageView padded{storage.data() + 1, w, h, packed.view().row_bytes() + 13, format};
    for (std::int64_t y = 0; y < h; ++y) std::memcpy(padded.row(y), packed.view().row(y), packed.view().row_bytes());
    for (Orientation o : gpurotate::all_orientations) {
        const gpurotate::Image expected = reference::transform(packed, o);
        std::vector<std::byte> out_storage(3 + (expected.view().row_bytes() + 7) * expected.height(), std::byte{0xa5});
        gpurotate::ImageView out{out_storage.data() + 3, expected.width(), expected.height(), expected.view().row_bytes() + 7, format};
        gpurotate::transform(padded, out, o, gpurotate::Backend::cpu);
        CAPTURE(gpurotate::name(o));
        CHECK(test_support::first_difference(out, expected.view()) == -1);
    }
}

namespace {

// Sizes around the vector kernels' edges: blocks of 1 to 16 pixels a side and pairs of them, 3- and 6-byte pixels' vectors
// reaching past their block, tiles of 768 source rows (one row past a column of tiles, two columns and a part),
// and one image big enough to be cut among threads.
std::vector<test_support::Size> vector_edge_sizes() {
    return {{1, 1},   {1, 40},  {40, 1},   {2, 17},   {16, 16},  {17, 15},  {15, 17},   {32, 48},    {33, 47},
            {64, 64}, {65, 63}, {256, 20}, {257, 31}, {20, 513}, {20, 769}, {520, 260}, {1031, 517}, {129, 1543}};
}

void check_kernels_on(gpurotate::ConstImageView src, Orientation o, const gpurotate::Image& expected, unsigned threads,
                      gpurotate::detail::CpuKernels kernels, gpurotate::detail::CpuStores stores, std::byte* out_storage,
                      std::size_t out_pitch) {
    gpurotate::ImageView out{out_storage, expected.width(), expected.height(), out_pitch, src.format};
    for (std::int64_t y = 0; y < out.height; ++y) std::memset(out.row(y), 0xa5, out.row_bytes());
    gpurotate::detail::transform_cpu(src, out, gpurotate::axis_map(o), threads, kernels, stores);
    CAPTURE(gpurotate::detail::name(kernels));
    CAPTURE(threads);
    CAPTURE(stores == gpurotate::detail::CpuStores::streaming ? "streaming stores" : "plain stores");
    CHECK(test_support::first_difference(out, expected.view()) == -1);
}

// The mirrors store plain or streaming (by the output's size, forced here); the transposes have one way.
std::vector<gpurotate::detail::CpuStores> store_kinds(Orientation o) {
    using gpurotate::detail::CpuStores;
    if (gpurotate::axis_map(o).swap_axes) return {CpuStores::cached};
    return {CpuStores::cached, CpuStores::streaming};
}

}  // namespace

TEST_CASE("CPU kernels of every instruction set match the reference around their blocks and tiles, on 1 and 3 threads") {
    std::uint32_t seed = 500;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : vector_edge_sizes()) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            for (Orientation o : gpurotate::all_orientations) {
                const gpurotate::Image expected = reference::transform(src, o);
                std::vector<std::byte> out(expected.size_bytes());
                CAPTURE(gpurotate::to_string(format));
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(gpurotate::name(o));
                for (const auto kernels : gpurotate::detail::runnable_cpu_kernels()) {
                    for (const auto stores : store_kinds(o)) {
                        for (const unsigned threads : {1u, 3u}) {
                            // Streaming stores split among threads as plain ones do: the 16 MiB case below runs them on 3.
                            if (stores == gpurotate::detail::CpuStores::streaming && threads != 1) continue;
                            check_kernels_on(src.view(), o, expected, threads, kernels, stores, out.data(), expected.view().pitch);
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("CPU kernels of every instruction set handle padded pitches at odd addresses for every width") {
    std::uint32_t seed = 900;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const test_support::Size size : {test_support::Size{37, 29}, test_support::Size{70, 33}, test_support::Size{1, 45}}) {
            const gpurotate::Image packed = test_support::random_image(size.width, size.height, format, seed++);
            const std::size_t row_bytes = packed.view().row_bytes();
            // Odd spare bytes per row at an odd address: every vector load and store is unaligned, and the spare
            // bytes after the last pixel hold the poison, so a vector that writes past a row shows.
            std::vector<std::byte> storage(1 + (row_bytes + 13) * static_cast<std::size_t>(size.height), std::byte{0x5a});
            gpurotate::ImageView padded{storage.data() + 1, size.width, size.height, row_bytes + 13, format};
            for (std::int64_t y = 0; y < size.height; ++y) std::memcpy(padded.row(y), packed.view().row(y), row_bytes);
            for (Orientation o : gpurotate::all_orientations) {
                const gpurotate::Image expected = reference::transform(packed, o);
                const std::size_t out_pitch = expected.view().row_bytes() + 7;
                for (const auto kernels : gpurotate::detail::runnable_cpu_kernels()) {
                    for (const auto stores : store_kinds(o)) {
                        std::vector<std::byte> out(3 + out_pitch * static_cast<std::size_t>(expected.height()), std::byte{0xa5});
                        CAPTURE(gpurotate::to_string(format));
                        CAPTURE(size.width);
                        CAPTURE(gpurotate::name(o));
                        check_kernels_on(padded, o, expected, 1, kernels, stores, out.data() + 3, out_pitch);
                        bool padding_untouched = out[0] == std::byte{0xa5} && out[1] == std::byte{0xa5} && out[2] == std::byte{0xa5};
                        for (std::int64_t y = 0; y < expected.height(); ++y) {
                            const std::byte* spare = out.data() + 3 + static_cast<std::size_t>(y) * out_pitch + expected.view().row_bytes();
                            for (int i = 0; i < 7; ++i) padding_untouched = padding_untouched && spare[i] == std::byte{0xa5};
                        }
                        CHECK(padding_untouched);
                    }
                }
            }
        }
    }
}

TEST_CASE("CPU kernels of every instruction set mirror an output past the streaming threshold, chosen by its size") {
    // Over 16 MiB, the most the threshold can be: the mirrors choose streaming stores themselves (by_size), with
    // 3-byte pixels three vectors at a time and odd widths' tails, as an everyday 24 MP image does.
    // Not structured bindings: clang 14 (the sanitizer builds) cannot capture them in CAPTURE's lambda.
    for (const auto& format_and_side : {std::pair{gpurotate::PixelFormat{gpurotate::SampleType::u8, 4}, std::int64_t{2051}},
                                        std::pair{gpurotate::PixelFormat{gpurotate::SampleType::u8, 3}, std::int64_t{2367}}}) {
        const gpurotate::PixelFormat format = format_and_side.first;
        const std::int64_t side = format_and_side.second;
        const gpurotate::Image src = test_support::random_image(side, side, format, 4242);
        REQUIRE(static_cast<std::int64_t>(src.size_bytes()) >= gpurotate::detail::streaming_store_min_bytes());
        for (const Orientation o : {Orientation::flip_h, Orientation::flip_v, Orientation::rot180}) {
            const gpurotate::Image expected = reference::transform(src, o);
            std::vector<std::byte> out(expected.size_bytes());
            CAPTURE(gpurotate::to_string(format));
            CAPTURE(gpurotate::name(o));
            for (const auto kernels : gpurotate::detail::runnable_cpu_kernels()) {
                check_kernels_on(src.view(), o, expected, 3, kernels, gpurotate::detail::CpuStores::by_size, out.data(), expected.view().pitch);
            }
        }
    }
}

#if GPUROTATE_TEST_WITH_OPENCV
TEST_CASE("CPU backend matches OpenCV's rotate, flip and transpose") {
    for (int width : {1, 2, 3, 4, 6, 8, 12, 16}) {
        for (const auto& size : test_support::awkward_sizes()) {
            cv::Mat src(static_cast<int>(size.height), static_cast<int>(size.width), CV_8UC(width));
            cv::Mat flat = src.reshape(1);
            cv::randu(flat, 1, 255);
            cv::Mat expected[8];
            expected[0] = src.clone();
            cv::rotate(src, expected[1], cv::ROTATE_90_CLOCKWISE);
            cv::rotate(src, expected[2], cv::ROTATE_180);
            cv::rotate(src, expected[3], cv::ROTATE_90_COUNTERCLOCKWISE);
            cv::flip(src, expected[4], 1);
            cv::flip(src, expected[5], 0);
            cv::transpose(src, expected[6]);
            cv::transpose(src, expected[7]);
            cv::flip(expected[7], expected[7], -1);
            // Only the pixel's width matters to the backend; OpenCV sees it as `width` u8 channels.
            const gpurotate::PixelFormat f = test_support::format_with_width(static_cast<std::size_t>(width));
            std::vector<std::byte> bytes(src.total() * src.elemSize());
            std::memcpy(bytes.data(), src.data, bytes.size());
            for (int i = 0; i < 8; ++i) {
                const Orientation o = gpurotate::all_orientations[i];
                gpurotate::ConstImageView in(bytes.data(), size.width, size.height, src.step, f);
                cv::Mat out(expected[i].rows, expected[i].cols, src.type());
                std::memset(out.data, 0xa5, out.total() * out.elemSize());
                gpurotate::ImageView out_view{reinterpret_cast<std::byte*>(out.data), out.cols, out.rows, out.step, f};
                gpurotate::transform(in, out_view, o, gpurotate::Backend::cpu);
                CAPTURE(width);
                CAPTURE(size.width);
                CAPTURE(size.height);
                CAPTURE(gpurotate::name(o));
                CHECK(cv::countNonZero(out.reshape(1) != expected[i].reshape(1)) == 0);
            }
        }
    }
}
#endif

TEST_CASE("transform refuses bad arguments with usage errors") {
    const gpurotate::Image src = test_support::random_image(4, 3, {gpurotate::SampleType::u8, 3}, 5);
    gpurotate::Image wrong_size(4, 3, src.format());
    auto code_of = [](auto&& call) {
        try {
            call();
        } catch (const gpurotate::Error& e) {
            return e.code();
        }
        return gpurotate::ErrorCode::internal;
    };
    CHECK(code_of([&] { gpurotate::transform(src.view(), wrong_size.view(), Orientation::rot90, gpurotate::Backend::cpu); }) ==
          gpurotate::ErrorCode::usage);
    gpurotate::Image wrong_format(3, 4, {gpurotate::SampleType::u8, 4});
    CHECK(code_of([&] { gpurotate::transform(src.view(), wrong_format.view(), Orientation::rot90, gpurotate::Backend::cpu); }) ==
          gpurotate::ErrorCode::usage);
    gpurotate::Image square = test_support::random_image(8, 8, {gpurotate::SampleType::u8, 1}, 6);
    CHECK(code_of([&] { gpurotate::transform(square.view(), square.view(), Orientation::rot90, gpurotate::Backend::cpu); }) ==
          gpurotate::ErrorCode::usage);  // in place would read pixels it already overwrote
    // A value outside D4's 8 codes is refused, not copied as if it were identity.
    gpurotate::Image same(4, 3, src.format());
    CHECK(code_of([&] { gpurotate::transform(src.view(), same.view(), static_cast<Orientation>(9), gpurotate::Backend::cpu); }) ==
          gpurotate::ErrorCode::usage);
    CHECK(code_of([&] { gpurotate::transform_in_place_device(square.view(), static_cast<Orientation>(200), nullptr); }) ==
          gpurotate::ErrorCode::usage);
    // The grouped launch checks every image before anything runs (so these hold without a GPU too).
    gpurotate::Image rotated(3, 4, src.format()), grey(4, 3, {gpurotate::SampleType::u8, 1}), grey_out(4, 3, grey.format());
    CHECK(code_of([&] { gpurotate::transform_device_grouped({}, nullptr); }) == gpurotate::ErrorCode::usage);
    CHECK(code_of([&] { gpurotate::transform_device_grouped({{src.view(), wrong_size.view(), Orientation::rot90}}, nullptr); }) ==
          gpurotate::ErrorCode::usage);
    CHECK(code_of([&] {
              gpurotate::transform_device_grouped({{src.view(), rotated.view(), Orientation::rot90}, {grey.view(), grey_out.view(), Orientation::flip_h}},
                                                  nullptr);
          }) == gpurotate::ErrorCode::usage);  // two pixel widths
    // A plan checks them the same way, before any GPU work; a plan moved from has nothing to run.
    CHECK(code_of([&] { gpurotate::GroupedPlan({}, nullptr); }) == gpurotate::ErrorCode::usage);
    CHECK(code_of([&] { gpurotate::GroupedPlan({{src.view(), wrong_size.view(), Orientation::rot90}}, nullptr); }) == gpurotate::ErrorCode::usage);
    // A destination whose padding is scratch owns its last row's padding too: a source that starts there overlaps it.
    std::vector<std::byte> bytes(512);
    const gpurotate::PixelFormat u8{gpurotate::SampleType::u8, 1};
    gpurotate::GroupedTransform into_padding{gpurotate::ConstImageView(bytes.data() + 7 * 16 + 8, 8, 8, 16, u8),
                                             gpurotate::ImageView{bytes.data(), 8, 8, 16, u8}, Orientation::rot90};
    into_padding.scratch_padding = true;
    CHECK(code_of([&] { gpurotate::transform_device_grouped({into_padding}, nullptr); }) == gpurotate::ErrorCode::usage);
    CHECK(code_of([&] { gpurotate::GroupedPlan({into_padding}, nullptr); }) == gpurotate::ErrorCode::usage);
}

TEST_CASE("a grouped call is the same as the last one only where every field of every image is") {
    // A grouped call whose images are its thread's last call's runs from that call's tables: a field left out of
    // the comparison would run one call with another's geometry or element.
    const gpurotate::PixelFormat u8{gpurotate::SampleType::u8, 1};
    std::vector<std::byte> bytes(4096);
    gpurotate::GroupedTransform base{gpurotate::ConstImageView(bytes.data(), 8, 6, 16, u8), gpurotate::ImageView{bytes.data() + 1024, 6, 8, 16, u8},
                                     Orientation::rot90};
    base.planes = 2;
    base.src_plane_stride = 96;
    base.dst_plane_stride = 128;
    CHECK(gpurotate::detail::same_grouped_image(base, base));
    const std::vector<void (*)(gpurotate::GroupedTransform&)> changes = {
        [](gpurotate::GroupedTransform& g) { g.src.data += 16; },
        [](gpurotate::GroupedTransform& g) { g.src.width = 7; },
        [](gpurotate::GroupedTransform& g) { g.src.height = 5; },
        [](gpurotate::GroupedTransform& g) { g.src.pitch = 32; },
        [](gpurotate::GroupedTransform& g) { g.src.format = {gpurotate::SampleType::u16, 1}; },
        [](gpurotate::GroupedTransform& g) { g.dst.data += 16; },
        [](gpurotate::GroupedTransform& g) { g.dst.width = 5; },
        [](gpurotate::GroupedTransform& g) { g.dst.height = 7; },
        [](gpurotate::GroupedTransform& g) { g.dst.pitch = 32; },
        [](gpurotate::GroupedTransform& g) { g.dst.format = {gpurotate::SampleType::u8, 2}; },
        [](gpurotate::GroupedTransform& g) { g.orientation = Orientation::rot270; },
        [](gpurotate::GroupedTransform& g) { g.planes = 3; },
        [](gpurotate::GroupedTransform& g) { g.src_plane_stride = 112; },
        [](gpurotate::GroupedTransform& g) { g.dst_plane_stride = 144; },
        [](gpurotate::GroupedTransform& g) { g.scratch_padding = true; },
    };
    for (std::size_t i = 0; i < changes.size(); ++i) {
        gpurotate::GroupedTransform changed = base;
        changes[i](changed);
        CAPTURE(i);
        CHECK_FALSE(gpurotate::detail::same_grouped_image(base, changed));
        CHECK_FALSE(gpurotate::detail::same_grouped_image(changed, base));
    }
}

TEST_CASE("an unqualified transform of two mutable views calls gpurotate's, not std::transform") {
    // A view's type names std::byte, so argument-dependent lookup also finds std::transform (<algorithm> is
    // included above): the exact-match overload must win, or this would not compile.
    using gpurotate::transform;
    gpurotate::Image src = test_support::random_image(5, 3, {gpurotate::SampleType::u8, 3}, 12);
    gpurotate::Image out(3, 5, src.format());
    transform(src.view(), out.view(), Orientation::rot90, gpurotate::Backend::cpu);
    CHECK(test_support::first_difference(out.view(), reference::transform(src, Orientation::rot90).view()) == -1);
    gpurotate::Image flipped(5, 3, src.format());
    transform(src.view(), flipped.view(), Orientation::flip_h, gpurotate::TransformOptions{gpurotate::Backend::cpu, gpurotate::CudaKernel::automatic, 0});
    CHECK(test_support::first_difference(flipped.view(), reference::transform(src, Orientation::flip_h).view()) == -1);
}

TEST_CASE("the Image overload returns the transformed image") {
    const gpurotate::Image src = test_support::random_image(300, 200, {gpurotate::SampleType::u16, 4}, 11);
    const gpurotate::Image out = gpurotate::transform(src, Orientation::rot270, gpurotate::Backend::cpu);
    CHECK(test_support::first_difference(out.view(), reference::transform(src, Orientation::rot270).view()) == -1);
}
