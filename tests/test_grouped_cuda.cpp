// The grouped launch: images of mixed sizes, each with its own element, in one kernel launch, every pixel
// width, against the reference; misaligned buffers; and the argument checks. Skipped without a GPU.

#include "device_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>

#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

using gpurotate::Orientation;

namespace {

// One image's device copies: the source uploaded at `offset` bytes into its buffer, the destination poisoned.
struct DeviceCase {
    gpurotate::Image src, expected;
    std::byte* d_src = nullptr;
    std::byte* d_dst = nullptr;
    gpurotate::GroupedTransform item;
};

}  // namespace

TEST_CASE("a grouped image may be a stack of planes (a CHW sample): every plane gets its element, exactly") {
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::mt19937 random(7);
    for (const auto& format : test_support::formats_of_every_width()) {
        // Plane strides in whole 16-byte vectors (the vectorized bodies) and 8 bytes over them (the padded
        // tile); sizes square and not, so the elements that swap the axes are among them.
        for (const auto& size : {test_support::Size{64, 64}, test_support::Size{33, 17}, test_support::Size{224, 224}}) {
            for (std::size_t stride_extra : {std::size_t{0}, std::size_t{8}}) {
                const int samples = 8, planes = 3;
                const std::size_t pitch = (static_cast<std::size_t>(size.width) * format.pixel_bytes() + 15) / 16 * 16;
                const std::size_t out_pitch = (static_cast<std::size_t>(size.height) * format.pixel_bytes() + 15) / 16 * 16;
                const std::size_t side_bytes = std::max(pitch, out_pitch) * static_cast<std::size_t>(std::max(size.width, size.height));
                const std::size_t plane_stride = (side_bytes + 15) / 16 * 16 + stride_extra;
                std::byte* d_src = nullptr;
                std::byte* d_dst = nullptr;
                REQUIRE_CUDA(cudaMalloc(&d_src, plane_stride * samples * planes));
                REQUIRE_CUDA(cudaMalloc(&d_dst, plane_stride * samples * planes));
                REQUIRE_CUDA(cudaMemsetAsync(d_dst, 0xa5, plane_stride * samples * planes, stream));
                std::vector<gpurotate::Image> sources, expected;
                std::vector<gpurotate::GroupedTransform> items;
                for (int n = 0; n < samples; ++n) {
                    // Every element at every size: on 33x17 the 8- and 16-byte transposes' work items (2 and 4
                    // tiles) then cross from one plane into the next.
                    const auto o = static_cast<Orientation>(n % 8);
                    const gpurotate::Extent e = gpurotate::output_extent(o, {size.width, size.height});
                    for (int p = 0; p < planes; ++p) {
                        sources.push_back(test_support::random_image(size.width, size.height, format, static_cast<std::uint32_t>(random())));
                        expected.push_back(reference::transform(sources.back(), o));
                        const std::size_t at = plane_stride * static_cast<std::size_t>(n * planes + p);
                        // On the launches' stream: a blocking copy from pageable memory may return before its DMA has
                        // landed, and the non-blocking stream would not wait for it (the last plane once read stale).
                        REQUIRE_CUDA(cudaMemcpy2DAsync(d_src + at, pitch, sources.back().data(), sources.back().view().row_bytes(),
                                                       sources.back().view().row_bytes(), static_cast<std::size_t>(size.height),
                                                       cudaMemcpyHostToDevice, stream));
                    }
                    const std::size_t first = plane_stride * static_cast<std::size_t>(n * planes);
                    items.push_back({gpurotate::ConstImageView(d_src + first, size.width, size.height, pitch, format),
                                     gpurotate::ImageView{d_dst + first, e.width, e.height, swaps_axes(o) ? out_pitch : pitch, format}, o, planes,
                                     plane_stride, plane_stride});
                }
                const auto check_every_plane = [&](const char* how) {
                    REQUIRE_CUDA(cudaStreamSynchronize(stream));
                    for (int i = 0; i < samples * planes; ++i) {
                        const gpurotate::GroupedTransform& item = items[static_cast<std::size_t>(i / planes)];
                        gpurotate::Image out(item.dst.width, item.dst.height, format);
                        REQUIRE_CUDA(cudaMemcpy2D(out.data(), out.view().row_bytes(), d_dst + plane_stride * static_cast<std::size_t>(i),
                                                  item.dst.pitch, out.view().row_bytes(), static_cast<std::size_t>(out.height()),
                                                  cudaMemcpyDeviceToHost));
                        CAPTURE(how);
                        CAPTURE(gpurotate::to_string(format));
                        CAPTURE(size.width);
                        CAPTURE(size.height);
                        CAPTURE(stride_extra);
                        CAPTURE(i);
                        CAPTURE(gpurotate::name(item.orientation));
                        CHECK(test_support::first_difference(out.view(), expected[static_cast<std::size_t>(i)].view()) == -1);
                    }
                };
                gpurotate::transform_device_grouped(items, stream);
                check_every_plane("one call");
                REQUIRE_CUDA(cudaMemsetAsync(d_dst, 0xa5, plane_stride * samples * planes, stream));
                const gpurotate::GroupedPlan plan(items, stream);
                plan.run(stream);
                check_every_plane("plan");
                REQUIRE_CUDA(cudaFree(d_src));
                REQUIRE_CUDA(cudaFree(d_dst));
            }
        }
    }
    // Stacks whose planes would overlap are refused.
    gpurotate::PixelFormat u8{gpurotate::SampleType::u8, 1};
    auto* fake = reinterpret_cast<std::byte*>(std::uintptr_t{1} << 20);
    const gpurotate::GroupedTransform overlapping{gpurotate::ConstImageView(fake, 8, 8, 8, u8), gpurotate::ImageView{fake + 4096, 8, 8, 8, u8},
                                                  Orientation::rot90, 2, 32, 64};
    CHECK(test_support::code_of([&] { gpurotate::transform_device_grouped({overlapping}, stream); }) == gpurotate::ErrorCode::usage);
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("a grouped launch, per call and from a plan, transforms images of mixed sizes, each by its own element, exactly") {
    cudaStream_t stream = nullptr, other = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    const test_support::Size sizes[] = {{1, 1}, {7, 3}, {3, 7}, {64, 64}, {33, 31}, {257, 129}, {1, 300}, {300, 1}, {640, 480}, {1001, 300}, {1024, 768}};
    std::mt19937 random(42);
    for (const auto& format : test_support::formats_of_every_width()) {
        // Layouts: 0 pitches in whole 16-byte vectors (the vectorized bodies), 1 pitches 8 bytes over
        // (the padded tile, aligned words), 2 every buffer 1 byte off (unaligned words), 3 each image any of these.
        for (int layout = 0; layout < 4; ++layout) {
            std::vector<DeviceCase> cases(24);
            std::vector<gpurotate::GroupedTransform> items;
            for (std::size_t i = 0; i < cases.size(); ++i) {
                DeviceCase& c = cases[i];
                const auto size = sizes[random() % std::size(sizes)];
                const auto o = static_cast<Orientation>(random() % 8);
                c.src = test_support::random_image(size.width, size.height, format, static_cast<std::uint32_t>(random()));
                c.expected = reference::transform(c.src, o);
                const int image_layout = layout == 3 ? static_cast<int>(random() % 3) : layout;
                const std::size_t offset = image_layout == 2 ? 1 : 0;
                const auto pitch_of = [&](std::size_t row_bytes) {
                    return image_layout == 0 ? (row_bytes + 15) / 16 * 16 : row_bytes + 8 + offset;
                };
                const std::size_t src_pitch = pitch_of(c.src.view().row_bytes()), dst_pitch = pitch_of(c.expected.view().row_bytes());
                c.d_src = test_support::upload(c.src, src_pitch, offset, stream);
                REQUIRE_CUDA(cudaMalloc(&c.d_dst, offset + dst_pitch * static_cast<std::size_t>(c.expected.height())));
                c.item = {gpurotate::ConstImageView(c.d_src + offset, c.src.width(), c.src.height(), src_pitch, format),
                          gpurotate::ImageView{c.d_dst + offset, c.expected.width(), c.expected.height(), dst_pitch, format}, o};
                items.push_back(c.item);
            }
            // Every output poisoned (on the test's stream: the legacy stream would not be ordered before the launch),
            // the work done by `run`, every output checked against `expected`.
            const auto run_and_check = [&](const char* how, const std::function<void()>& run) {
                for (DeviceCase& c : cases) {
                    REQUIRE_CUDA(cudaMemsetAsync(c.item.dst.data, 0xa5, c.item.dst.pitch * static_cast<std::size_t>(c.expected.height()), stream));
                }
                run();
                REQUIRE_CUDA(cudaStreamSynchronize(stream));
                for (DeviceCase& c : cases) {
                    gpurotate::Image out(c.expected.width(), c.expected.height(), format);
                    REQUIRE_CUDA(cudaMemcpy2D(out.data(), out.view().row_bytes(), c.item.dst.data, c.item.dst.pitch, out.view().row_bytes(),
                                              static_cast<std::size_t>(out.height()), cudaMemcpyDeviceToHost));
                    CAPTURE(how);
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(layout);
                    CAPTURE(c.src.width());
                    CAPTURE(c.src.height());
                    CAPTURE(gpurotate::name(c.item.orientation));
                    CHECK(test_support::first_difference(out.view(), c.expected.view()) == -1);
                }
            };
            run_and_check("one call", [&] { gpurotate::transform_device_grouped(items, stream); });
            // A plan made once runs the same work, on any stream, and reads the pixels the sources hold at each run.
            const gpurotate::GroupedPlan plan(items, stream);
            CHECK(plan.size() == items.size());
            const auto on_the_other_stream = [&] {
                REQUIRE_CUDA(cudaStreamSynchronize(stream));  // the poison first
                plan.run(other);
                REQUIRE_CUDA(cudaStreamSynchronize(other));
            };
            run_and_check("plan, first run", on_the_other_stream);
            for (DeviceCase& c : cases) {
                c.src = test_support::random_image(c.src.width(), c.src.height(), format, static_cast<std::uint32_t>(random()));
                c.expected = reference::transform(c.src, c.item.orientation);
                REQUIRE_CUDA(cudaMemcpy2DAsync(const_cast<std::byte*>(c.item.src.data), c.item.src.pitch, c.src.data(), c.src.view().pitch,
                                               c.src.view().row_bytes(), static_cast<std::size_t>(c.src.height()), cudaMemcpyHostToDevice, stream));
            }
            run_and_check("plan, new pixels", on_the_other_stream);
            for (DeviceCase& c : cases) {
                REQUIRE_CUDA(cudaFree(c.d_src));
                REQUIRE_CUDA(cudaFree(c.d_dst));
            }
        }
    }
    // A plan moved from is refused, not run; the plan it moved to runs.
    {
        const gpurotate::PixelFormat u8{gpurotate::SampleType::u8, 1};
        const gpurotate::Image src = test_support::random_image(8, 8, u8, 5);
        const gpurotate::Image expected = reference::transform(src, Orientation::rot90);
        std::byte* d = test_support::upload(src, 16, 0, stream);
        std::byte* d_out = nullptr;
        REQUIRE_CUDA(cudaMalloc(&d_out, 128));
        gpurotate::GroupedPlan plan({{gpurotate::ConstImageView(d, 8, 8, 16, u8), gpurotate::ImageView{d_out, 8, 8, 16, u8}, Orientation::rot90}}, stream);
        const gpurotate::GroupedPlan moved = std::move(plan);
        CHECK(plan.size() == 0);  // NOLINT(bugprone-use-after-move)
        CHECK(test_support::code_of([&] { plan.run(stream); }) == gpurotate::ErrorCode::usage);  // NOLINT(bugprone-use-after-move)
        moved.run(stream);
        gpurotate::Image out(8, 8, u8);
        REQUIRE_CUDA(cudaMemcpy2DAsync(out.data(), out.view().pitch, d_out, 16, 8, 8, cudaMemcpyDeviceToHost, stream));
        REQUIRE_CUDA(cudaStreamSynchronize(stream));
        CHECK(test_support::first_difference(out.view(), expected.view()) == -1);
        REQUIRE_CUDA(cudaFree(d));
        REQUIRE_CUDA(cudaFree(d_out));
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
    REQUIRE_CUDA(cudaStreamDestroy(other));
}

TEST_CASE("a grouped launch of thousands of small images finds every image's tiles") {
    // More images than one round of the kernel's 32-way search covers (32) and than two do (1024), in every
    // family at once: columns aligned and shifted, transposes and mirrors, and every seventh image 1 byte
    // off (the padded tile). All in one device allocation, each image on a 256-byte boundary.
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::mt19937 random(7);
    for (const std::size_t pixel_bytes : {std::size_t{1}, std::size_t{6}}) {
        const gpurotate::PixelFormat format = test_support::format_with_width(pixel_bytes);
        const int count = 3000;
        std::vector<gpurotate::Image> srcs, expected;
        std::vector<Orientation> orientations;
        std::vector<std::size_t> src_at, dst_at, src_pitch, dst_pitch;
        std::size_t src_bytes = 0, dst_bytes = 0;
        for (int i = 0; i < count; ++i) {
            const auto o = static_cast<Orientation>(random() % 8);
            srcs.push_back(test_support::random_image(1 + random() % 48, 1 + random() % 48, format, static_cast<std::uint32_t>(random())));
            expected.push_back(reference::transform(srcs.back(), o));
            orientations.push_back(o);
            const std::size_t offset = i % 7 == 3 ? 1 : 0;
            src_pitch.push_back((srcs.back().view().row_bytes() + 15) / 16 * 16 + offset);
            dst_pitch.push_back((expected.back().view().row_bytes() + 15) / 16 * 16 + offset);
            src_at.push_back(src_bytes + offset);
            dst_at.push_back(dst_bytes + offset);
            src_bytes += (offset + src_pitch.back() * static_cast<std::size_t>(srcs.back().height()) + 255) / 256 * 256;
            dst_bytes += (offset + dst_pitch.back() * static_cast<std::size_t>(expected.back().height()) + 255) / 256 * 256;
        }
        std::byte* d_src = nullptr;
        std::byte* d_dst = nullptr;
        REQUIRE_CUDA(cudaMalloc(&d_src, src_bytes));
        REQUIRE_CUDA(cudaMalloc(&d_dst, dst_bytes));
        REQUIRE_CUDA(cudaMemsetAsync(d_dst, 0xa5, dst_bytes, stream));
        std::vector<gpurotate::GroupedTransform> items;
        for (int i = 0; i < count; ++i) {
            const gpurotate::Image& s = srcs[i];
            REQUIRE_CUDA(cudaMemcpy2DAsync(d_src + src_at[i], src_pitch[i], s.data(), s.view().pitch, s.view().row_bytes(),
                                           static_cast<std::size_t>(s.height()), cudaMemcpyHostToDevice, stream));
            items.push_back({gpurotate::ConstImageView(d_src + src_at[i], s.width(), s.height(), src_pitch[i], format),
                             gpurotate::ImageView{d_dst + dst_at[i], expected[i].width(), expected[i].height(), dst_pitch[i], format},
                             orientations[i]});
        }
        gpurotate::transform_device_grouped(items, stream);
        std::vector<std::byte> out(dst_bytes);
        REQUIRE_CUDA(cudaMemcpyAsync(out.data(), d_dst, dst_bytes, cudaMemcpyDeviceToHost, stream));
        REQUIRE_CUDA(cudaStreamSynchronize(stream));
        CAPTURE(gpurotate::to_string(format));
        int wrong = 0;
        for (int i = 0; i < count; ++i) {
            const gpurotate::ConstImageView got(out.data() + dst_at[i], expected[i].width(), expected[i].height(), dst_pitch[i], format);
            if (test_support::first_difference(got, expected[i].view()) != -1) {
                if (++wrong <= 5) MESSAGE("image ", i, " (", srcs[i].width(), "x", srcs[i].height(), ", ", gpurotate::name(orientations[i]), ") differs");
            }
        }
        CHECK(wrong == 0);
        REQUIRE_CUDA(cudaFree(d_src));
        REQUIRE_CUDA(cudaFree(d_dst));
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

namespace {

// One output's bytes as the GPU left them: `pitch` x `height` and a guard after, all poisoned before the launch.
constexpr std::byte poison{0xa5};
constexpr std::size_t guard_bytes = 64;

struct PaddedCase {
    gpurotate::Image src, expected;
    std::byte* d_src = nullptr;
    std::byte* d_dst = nullptr;  // pitch x height + guard_bytes
    gpurotate::GroupedTransform item;
};

// Checks one output against its reference, byte by byte: the pixels equal; the padding of each row unchanged
// without scratch padding, and with it unchanged from the end of the 32-byte sector (of device addresses) the
// row ends in, or from the pitch where that comes first; the guard unchanged.
void check_padded_output(const PaddedCase& c, const std::vector<std::byte>& got) {
    const gpurotate::ImageView dst = c.item.dst;
    const std::size_t row_bytes = dst.row_bytes();
    const std::size_t base = reinterpret_cast<std::uintptr_t>(dst.data) % 32;
    const auto sector_end = [&](std::size_t row_start) {  // from the row's start
        const std::size_t end = (base + row_start + row_bytes + 31) / 32 * 32 - base - row_start;
        return std::min(dst.pitch, end);
    };
    CAPTURE(gpurotate::to_string(dst.format));
    CAPTURE(c.src.width());
    CAPTURE(c.src.height());
    CAPTURE(dst.pitch);
    CAPTURE(gpurotate::name(c.item.orientation));
    CAPTURE(c.item.scratch_padding);
    const gpurotate::ConstImageView pixels(got.data(), dst.width, dst.height, dst.pitch, dst.format);
    CHECK(test_support::first_difference(pixels, c.expected.view()) == -1);
    int changed_padding = 0, changed_past_sector = 0;
    for (std::int64_t y = 0; y < dst.height; ++y) {
        for (std::size_t b = row_bytes; b < dst.pitch; ++b) {
            if (got[static_cast<std::size_t>(y) * dst.pitch + b] == poison) continue;
            ++changed_padding;
            if (b >= sector_end(static_cast<std::size_t>(y) * dst.pitch)) ++changed_past_sector;
        }
    }
    if (!c.item.scratch_padding) CHECK(changed_padding == 0);
    CHECK(changed_past_sector == 0);
    for (std::size_t b = 0; b < guard_bytes; ++b) CHECK(got[dst.pitch * static_cast<std::size_t>(dst.height) + b] == poison);
}

}  // namespace

TEST_CASE("grouped outputs whose rows end inside a 32-byte sector: exact pixels, and the padding written only when it is scratch") {
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::mt19937 random(11);
    // 800x600 and 320x240 rot90 give 600- and 240-byte u8 rows (the sizes that lost most); 1x1, 1xN and Nx1;
    // widths whose mirrored rows are not whole vectors (the shifted families).
    const test_support::Size sizes[] = {{800, 600}, {320, 240}, {1, 1}, {1, 37}, {37, 1}, {600, 20}, {33, 31}, {257, 129}};
    for (const std::size_t pixel_bytes : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{4}, std::size_t{6}, std::size_t{12}}) {
        const gpurotate::PixelFormat format = test_support::format_with_width(pixel_bytes);
        // Pitches: the library's (whole sectors), 16 bytes over a multiple of 16 (rows starting mid-sector), and
        // 64 bytes over (padding past the row's last sector).
        for (int layout = 0; layout < 3; ++layout) {
            for (const bool scratch : {false, true}) {
                std::vector<PaddedCase> cases;
                std::vector<gpurotate::GroupedTransform> items;
                for (const auto& size : sizes) {
                    for (const Orientation o : {Orientation::rot90, Orientation::rot270, Orientation::flip_h, Orientation::rot180, Orientation::transverse}) {
                        PaddedCase c;
                        c.src = test_support::random_image(size.width, size.height, format, static_cast<std::uint32_t>(random()));
                        c.expected = reference::transform(c.src, o);
                        const auto pitch_of = [&](std::size_t row) {
                            return layout == 0 ? (row + 31) / 32 * 32 : layout == 1 ? (row + 15) / 16 * 16 + 16 : (row + 15) / 16 * 16 + 64;
                        };
                        const std::size_t dst_pitch = pitch_of(c.expected.view().row_bytes());
                        c.d_src = test_support::upload(c.src, pitch_of(c.src.view().row_bytes()), 0, stream);
                        REQUIRE_CUDA(cudaMalloc(&c.d_dst, dst_pitch * static_cast<std::size_t>(c.expected.height()) + guard_bytes));
                        c.item = {gpurotate::ConstImageView(c.d_src, c.src.width(), c.src.height(), pitch_of(c.src.view().row_bytes()), format),
                                  gpurotate::ImageView{c.d_dst, c.expected.width(), c.expected.height(), dst_pitch, format}, o};
                        c.item.scratch_padding = scratch;
                        items.push_back(c.item);
                        cases.push_back(std::move(c));
                    }
                }
                const auto run_and_check = [&](const char* how, const std::function<void()>& run) {
                    for (const PaddedCase& c : cases) {
                        REQUIRE_CUDA(cudaMemsetAsync(c.d_dst, static_cast<int>(poison),
                                                     c.item.dst.pitch * static_cast<std::size_t>(c.item.dst.height) + guard_bytes, stream));
                    }
                    run();
                    REQUIRE_CUDA(cudaStreamSynchronize(stream));
                    for (const PaddedCase& c : cases) {
                        std::vector<std::byte> got(c.item.dst.pitch * static_cast<std::size_t>(c.item.dst.height) + guard_bytes);
                        REQUIRE_CUDA(cudaMemcpy(got.data(), c.d_dst, got.size(), cudaMemcpyDeviceToHost));
                        CAPTURE(how);
                        CAPTURE(layout);
                        check_padded_output(c, got);
                    }
                };
                run_and_check("one call", [&] { gpurotate::transform_device_grouped(items, stream); });
                const gpurotate::GroupedPlan plan(items, stream);
                run_and_check("plan", [&] { plan.run(stream); });
                for (PaddedCase& c : cases) {
                    REQUIRE_CUDA(cudaFree(c.d_src));
                    REQUIRE_CUDA(cudaFree(c.d_dst));
                }
            }
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}
