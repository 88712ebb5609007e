// A single grouped call whose families' tables travel in the kernel's parameters (up to
// grouped_inline_images_cuda() images a family), and the staged copy that larger families keep: every output
// against the reference, at the capacity's edge, with every family in one call, calls back to back on one
// stream, and a call repeated, which runs from the tables its thread kept. Skipped without a GPU.

#include "device_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include "bench/study_launch.hpp"
#include "frontend/cuda_backend.hpp"

#include <gpurotate/transform.hpp>

#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using gpurotate::Orientation;

namespace {

/// One image of a call: its size, its element, and how many bytes its buffers start past a 256-byte boundary
/// (1: off the vectors, so the padded tile runs it, unaligned for pixels wider than a byte).
struct ImageSpec {
    std::int64_t width, height;
    Orientation orientation;
    std::size_t offset = 0;
};

/// A call's images on the GPU (one allocation a side, each image on a 256-byte boundary plus its offset), the
/// outputs poisoned, and their expected pixels from the reference.
class GroupedCall {
public:
    GroupedCall(gpurotate::PixelFormat format, const std::vector<ImageSpec>& specs, std::uint32_t seed, cudaStream_t stream) {
        std::mt19937 random(seed);
        std::vector<std::size_t> src_at, dst_at, src_pitch;
        std::size_t src_bytes = 0, dst_bytes = 0;
        for (const ImageSpec& s : specs) {
            srcs_.push_back(test_support::random_image(s.width, s.height, format, static_cast<std::uint32_t>(random())));
            expected_.push_back(reference::transform(srcs_.back(), s.orientation));
            src_pitch.push_back((srcs_.back().view().row_bytes() + 15) / 16 * 16 + s.offset);
            dst_pitch_.push_back((expected_.back().view().row_bytes() + 15) / 16 * 16 + s.offset);
            src_at.push_back(src_bytes + s.offset);
            dst_at.push_back(dst_bytes + s.offset);
            src_bytes += (s.offset + src_pitch.back() * static_cast<std::size_t>(s.height) + 255) / 256 * 256;
            dst_bytes += (s.offset + dst_pitch_.back() * static_cast<std::size_t>(expected_.back().height()) + 255) / 256 * 256;
        }
        REQUIRE_CUDA(cudaMalloc(&d_src_, src_bytes));
        REQUIRE_CUDA(cudaMalloc(&d_dst_, dst_bytes));
        REQUIRE_CUDA(cudaMemsetAsync(d_dst_, 0xa5, dst_bytes, stream));
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const gpurotate::Image& src = srcs_[i];
            REQUIRE_CUDA(cudaMemcpy2DAsync(d_src_ + src_at[i], src_pitch[i], src.data(), src.view().pitch, src.view().row_bytes(),
                                           static_cast<std::size_t>(src.height()), cudaMemcpyHostToDevice, stream));
            const gpurotate::Image& out = expected_[i];
            items_.push_back({gpurotate::ConstImageView(d_src_ + src_at[i], src.width(), src.height(), src_pitch[i], format),
                              gpurotate::ImageView{d_dst_ + dst_at[i], out.width(), out.height(), dst_pitch_[i], format}, specs[i].orientation});
        }
        dst_bytes_ = dst_bytes;
    }
    ~GroupedCall() {
        cudaFree(d_src_);
        cudaFree(d_dst_);
    }
    GroupedCall(const GroupedCall&) = delete;
    GroupedCall& operator=(const GroupedCall&) = delete;

    const std::vector<gpurotate::GroupedTransform>& items() const { return items_; }

    /// Waits for `stream`, then checks every output against the reference, byte for byte.
    void check(cudaStream_t stream, const std::string& how) const {
        REQUIRE_CUDA(cudaStreamSynchronize(stream));
        for (std::size_t i = 0; i < items_.size(); ++i) {
            const gpurotate::Image& want = expected_[i];
            gpurotate::Image out(want.width(), want.height(), want.format());
            REQUIRE_CUDA(cudaMemcpy2D(out.data(), out.view().pitch, items_[i].dst.data, dst_pitch_[i], out.view().row_bytes(),
                                      static_cast<std::size_t>(out.height()), cudaMemcpyDeviceToHost));
            CAPTURE(how);
            CAPTURE(gpurotate::to_string(want.format()));
            CAPTURE(i);
            CAPTURE(srcs_[i].width());
            CAPTURE(srcs_[i].height());
            CAPTURE(gpurotate::name(items_[i].orientation));
            CHECK(test_support::first_difference(out.view(), want.view()) == -1);
        }
    }

    /// Poisons the outputs again, on `stream`.
    void poison(cudaStream_t stream) const { REQUIRE_CUDA(cudaMemsetAsync(d_dst_, 0xa5, dst_bytes_, stream)); }

private:
    std::vector<gpurotate::Image> srcs_, expected_;
    std::vector<std::size_t> dst_pitch_;
    std::vector<gpurotate::GroupedTransform> items_;
    std::byte* d_src_ = nullptr;
    std::byte* d_dst_ = nullptr;
    std::size_t dst_bytes_ = 0;
};

/// Every table staged and copied, as a call did before tables travelled in the parameters.
constexpr gpurotate::detail::GroupedSchedule staged{0, true, false};

/// `count` images of `o`, sizes 1 to 40 either way: one family, whatever their sizes.
std::vector<ImageSpec> images_of(Orientation o, int count, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::vector<ImageSpec> specs;
    for (int i = 0; i < count; ++i) specs.push_back({1 + static_cast<std::int64_t>(random() % 40), 1 + static_cast<std::int64_t>(random() % 40), o});
    return specs;
}

}  // namespace

TEST_CASE("a single grouped call of a few images, its tables in the kernel's parameters, transforms each image exactly") {
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const std::vector<ImageSpec> specs = {{64, 48, Orientation::rot90}, {33, 17, Orientation::flip_h}, {1, 1, Orientation::transverse}};
    for (const auto& format : test_support::formats_of_every_width()) {
        const GroupedCall call(format, specs, 11, stream);
        gpurotate::transform_device_grouped(call.items(), stream);
        call.check(stream, "one call");
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("every grouped family in one call carried in the parameters: transposes, mirrors, shifted columns, padded tiles aligned or not") {
    // Every element at even, odd and degenerate sizes (a mirrored 33-pixel row of 1-byte pixels is not whole
    // vectors: the shifted families), each once on 16-byte boundaries and once 1 byte off (the padded tile,
    // its unaligned word for pixels wider than a byte). 64 images: every family well under the capacity.
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::vector<ImageSpec> specs;
    for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
        for (const auto& size : {test_support::Size{48, 32}, test_support::Size{33, 17}, test_support::Size{17, 33}, test_support::Size{1, 1}}) {
            for (const Orientation o : gpurotate::all_orientations) specs.push_back({size.width, size.height, o, offset});
        }
    }
    REQUIRE(specs.size() < static_cast<std::size_t>(gpurotate::detail::grouped_inline_images_cuda()));
    for (const auto& format : test_support::formats_of_every_width()) {
        const GroupedCall call(format, specs, 23, stream);
        gpurotate::transform_device_grouped(call.items(), stream);
        call.check(stream, "carried in the parameters");
        call.poison(stream);
        gpurotate::bench::transform_device_grouped_study(call.items().data(), call.items().size(), stream, staged);
        call.check(stream, "staged");
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("a grouped family at the parameters' capacity travels in them, one image more is staged, both in one call") {
    // The transposes at capacity and then one over it, beside a handful of mirrors (carried either way): one call
    // may launch one family from its parameters and another from the staged copy.
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const int capacity = gpurotate::detail::grouped_inline_images_cuda();
    REQUIRE(capacity > 0);
    for (const std::size_t pixel_bytes : {std::size_t{1}, std::size_t{6}}) {
        const gpurotate::PixelFormat format = test_support::format_with_width(pixel_bytes);
        for (const int transposes : {capacity, capacity + 1, 3 * capacity}) {
            std::vector<ImageSpec> specs = images_of(Orientation::rot90, transposes, static_cast<std::uint32_t>(transposes));
            for (const ImageSpec& mirror : images_of(Orientation::flip_v, 5, 3)) specs.push_back(mirror);
            const GroupedCall call(format, specs, static_cast<std::uint32_t>(transposes), stream);
            gpurotate::transform_device_grouped(call.items(), stream);
            call.check(stream, std::to_string(transposes) + " transposes, capacity " + std::to_string(capacity));
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("grouped calls back to back on one stream, carried and staged, each with its own images, all exact") {
    // No wait between the calls: a carried table is copied with its launch; a staged call reuses the thread's
    // page-locked buffer only once the previous copy out of it has completed.
    cudaStream_t stream = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const int capacity = gpurotate::detail::grouped_inline_images_cuda();
    const gpurotate::PixelFormat format = test_support::format_with_width(2);
    std::vector<std::vector<ImageSpec>> calls;
    for (std::uint32_t n = 0; n < 6; ++n) {
        const auto o = static_cast<Orientation>(n % 8);
        calls.push_back(images_of(o, n % 2 == 0 ? 7 + static_cast<int>(n) : capacity + 1 + static_cast<int>(n), 100 + n));
    }
    std::vector<std::unique_ptr<GroupedCall>> prepared;
    for (std::size_t n = 0; n < calls.size(); ++n) prepared.push_back(std::make_unique<GroupedCall>(format, calls[n], 200 + static_cast<std::uint32_t>(n), stream));
    REQUIRE_CUDA(cudaStreamSynchronize(stream));
    for (std::size_t n = 0; n < prepared.size(); ++n) {
        // Every third call the study's staged path, so that staged calls also follow one another.
        if (n % 3 == 2) {
            gpurotate::bench::transform_device_grouped_study(prepared[n]->items().data(), prepared[n]->items().size(), stream, staged);
        } else {
            gpurotate::transform_device_grouped(prepared[n]->items(), stream);
        }
    }
    for (std::size_t n = 0; n < prepared.size(); ++n) prepared[n]->check(stream, "call " + std::to_string(n) + " of " + std::to_string(prepared.size()));
    REQUIRE_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("a grouped call that repeats the thread's last call runs from its kept tables, on any stream, and other images rebuild them") {
    // Calls of the same sizes and elements in buffers of their own (the same images but for their pointers),
    // carried in the parameters or staged: B, A, A again (its outputs poisoned first, so a stale or missing table
    // shows), B, A, A on a second stream, A back on the first. Every output against the reference each time, and
    // the thread's count of calls run from kept tables says which ran from them.
    cudaStream_t stream = nullptr, other = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    const int capacity = gpurotate::detail::grouped_inline_images_cuda();
    for (const std::size_t pixel_bytes : {std::size_t{1}, std::size_t{6}}) {
        const gpurotate::PixelFormat format = test_support::format_with_width(pixel_bytes);
        for (const int count : {9, 2 * capacity + 3}) {
            std::vector<ImageSpec> specs = images_of(Orientation::rot90, count, static_cast<std::uint32_t>(count));
            for (const ImageSpec& mirror : images_of(Orientation::flip_h, 4, 5)) specs.push_back(mirror);
            const GroupedCall a(format, specs, 31, stream), b(format, specs, 32, stream);
            const std::string what = std::to_string(pixel_bytes) + "-byte pixels, " + std::to_string(specs.size()) + " images: ";
            const auto run = [&](const GroupedCall& call, cudaStream_t on, const std::string& how, int reused) {
                REQUIRE_CUDA(cudaStreamSynchronize(stream));
                REQUIRE_CUDA(cudaStreamSynchronize(other));
                call.poison(on);
                const std::uint64_t before = gpurotate::detail::grouped_calls_from_kept_tables;
                gpurotate::transform_device_grouped(call.items(), on);
                CAPTURE(what + how);
                if (reused >= 0) CHECK(gpurotate::detail::grouped_calls_from_kept_tables - before == static_cast<std::uint64_t>(reused));
                call.check(on, what + how);
            };
            run(b, stream, "B", -1);  // whatever ran before (another case's buffers may have had these addresses)
            run(a, stream, "A", 0);
            run(a, stream, "A again", 1);
            run(b, stream, "B after A", 0);
            run(a, stream, "A after B", 0);
            run(a, other, "A again, on another stream", 1);
            run(a, stream, "A again, back on the first stream", 1);
        }
    }
    REQUIRE_CUDA(cudaStreamDestroy(stream));
    REQUIRE_CUDA(cudaStreamDestroy(other));
}

TEST_CASE("a repeated grouped call on another stream waits for the table its first call is still copying") {
    // The first call's copy of its table is held back behind a host function on its stream; the repeat on a
    // second stream, enqueued at once, must not read the table before the copy lands (the pool's memory then holds
    // whatever was there: another call's table, or nothing). Staged tables only: over the parameters' capacity.
    cudaStream_t stream = nullptr, other = nullptr;
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    REQUIRE_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    const int capacity = gpurotate::detail::grouped_inline_images_cuda();
    const gpurotate::PixelFormat format = test_support::format_with_width(2);
    const std::vector<ImageSpec> specs = images_of(Orientation::transpose, 2 * capacity + 1, 77);
    const GroupedCall c(format, specs, 78, stream);
    REQUIRE_CUDA(cudaStreamSynchronize(stream));
    const auto hold = [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(150)); };
    REQUIRE_CUDA(cudaLaunchHostFunc(stream, hold, nullptr));
    const std::uint64_t before = gpurotate::detail::grouped_calls_from_kept_tables;
    gpurotate::transform_device_grouped(c.items(), stream);  // its copy waits behind the host function
    gpurotate::transform_device_grouped(c.items(), other);   // from the kept table, at once
    CHECK(gpurotate::detail::grouped_calls_from_kept_tables - before == 1);
    REQUIRE_CUDA(cudaStreamSynchronize(stream));
    c.check(other, "the repeat on the other stream");
    REQUIRE_CUDA(cudaStreamDestroy(stream));
    REQUIRE_CUDA(cudaStreamDestroy(other));
}
