// The multi-output transform (one read, up to 8 writes) against the single-output kernels and the
// reference, bit-exact: the vectorized fused kernel where it applies (and a check that it did), the
// per-target fallback on misaligned buffers, the shared-memory fused kernel the bench compares, every
// pixel width, the awkward sizes; and GpuSession, the host-image path `augment` uses. Skipped without a GPU.

#include "device_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/gpu_session.hpp>
#include <gpurotate/transform.hpp>

#include "bench/study_launch.hpp"
#include "frontend/cuda_backend.hpp"

#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <vector>

using gpurotate::Orientation;

namespace {

// Device memory freed at scope exit.
struct DeviceBytes {
    explicit DeviceBytes(std::size_t n) { REQUIRE_CUDA(cudaMalloc(&p, n)); }
    ~DeviceBytes() { cudaFree(p); }
    std::byte* get() const { return static_cast<std::byte*>(p); }
    void* p = nullptr;
};

gpurotate::Image download(const gpurotate::ImageView& d) {
    gpurotate::Image out(d.width, d.height, d.format);
    REQUIRE_CUDA(cudaMemcpy2D(out.data(), d.row_bytes(), d.data, d.pitch, d.row_bytes(), static_cast<std::size_t>(d.height),
                              cudaMemcpyDeviceToHost));
    return out;
}

enum class Path { library, vectorized, tiled };

// Runs `elements` on `src` in one multi-output call (through `path`) on device buffers with 16-byte
// aligned pitches and checks every output against the reference; returns whether the call ran.
bool check_multi(const gpurotate::Image& src, const std::vector<Orientation>& elements, Path path) {
    const gpurotate::PixelFormat format = src.format();
    const auto aligned = [&](std::int64_t w) { return (static_cast<std::size_t>(w) * format.pixel_bytes() + 15) / 16 * 16; };
    const std::size_t side = static_cast<std::size_t>(std::max(src.width(), src.height()));
    const std::size_t pitch = aligned(static_cast<std::int64_t>(side));
    const std::size_t image_bytes = pitch * side;
    DeviceBytes d_src(image_bytes), d_out(image_bytes * elements.size());
    const gpurotate::ImageView src_view{d_src.get(), src.width(), src.height(), aligned(src.width()), format};
    REQUIRE_CUDA(cudaMemcpy2D(src_view.data, src_view.pitch, src.data(), src.view().pitch, src.view().row_bytes(),
                              static_cast<std::size_t>(src.height()), cudaMemcpyHostToDevice));
    REQUIRE_CUDA(cudaMemset(d_out.get(), 0xa5, image_bytes * elements.size()));
    std::vector<gpurotate::TransformTarget> targets;
    for (Orientation o : elements) {
        const gpurotate::Extent e = gpurotate::output_extent(o, src_view.extent());
        targets.push_back({o, gpurotate::ImageView{d_out.get() + targets.size() * image_bytes, e.width, e.height, aligned(e.width), format}});
    }
    bool ran = true;
    if (path == Path::tiled) {
        gpurotate::bench::transform_device_multi_tiled(src_view, targets.data(), targets.size(), nullptr);
    } else if (path == Path::vectorized) {
        ran = gpurotate::bench::multi_output_fused_vectorized(src_view, targets.data(), targets.size(), nullptr);
        if (!ran) return false;
    } else {
        gpurotate::transform_device_multi(src_view, targets, nullptr);
    }
    REQUIRE_CUDA(cudaDeviceSynchronize());
    for (const auto& t : targets) {
        CAPTURE(gpurotate::to_string(format));
        CAPTURE(src.width());
        CAPTURE(src.height());
        CAPTURE(gpurotate::name(t.orientation));
        CHECK(test_support::first_difference(download(t.dst).view(), reference::transform(src, t.orientation).view()) == -1);
    }
    return ran;
}

}  // namespace

TEST_CASE("the vectorized fused kernel writes all 8 elements exactly, over whole and partial tiles") {
    std::uint32_t seed = 6000;
    const std::vector<Orientation> all(std::begin(gpurotate::all_orientations), std::end(gpurotate::all_orientations));
    for (const auto& format : test_support::formats_of_every_width()) {
        // Multiples of 16 satisfy every width's K and R; tiles are 8 K wide and 16 R (or 32 R) tall.
        for (const auto& size : {test_support::Size{16, 16}, test_support::Size{48, 80}, test_support::Size{272, 144}, test_support::Size{1040, 528}}) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            CAPTURE(gpurotate::to_string(format));
            CHECK(check_multi(src, all, Path::vectorized));
            CHECK(check_multi(src, all, Path::library));
        }
    }
}

TEST_CASE("the vectorized fused kernel stages 3-, 6- and 12-byte stores, and stores directly where a mirrored height is not whole vectors") {
    // Heights of whole blocks whose bytes are not whole 16-byte vectors (72 RGB8 rows: 216 bytes; 76 RGB16
    // rows: 456) leave the axis-swapping targets that mirror y unstaged; 80 and 136 rows of every width, and
    // 72 of RGB16 and RGB32F, are staged. A warp spans 8 blocks of a row (128 RGB8 pixels): widths under that
    // or past a whole tile leave warps with blocks outside, which store directly too.
    std::uint32_t seed = 6500;
    const std::vector<Orientation> all(std::begin(gpurotate::all_orientations), std::end(gpurotate::all_orientations));
    for (std::size_t bytes : {std::size_t{3}, std::size_t{6}, std::size_t{12}}) {
        const gpurotate::PixelFormat format = test_support::format_with_width(bytes);
        for (const auto& size : {test_support::Size{48, 72}, test_support::Size{144, 76}, test_support::Size{400, 136}, test_support::Size{400, 80}}) {
            if (bytes == 3 && size.height % 8 != 0) continue;  // 8-row blocks: the kernel does not apply
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            CAPTURE(gpurotate::to_string(format));
            CHECK(check_multi(src, all, Path::vectorized));
        }
    }
}

TEST_CASE("the vectorized fused kernel takes any size when no target mirrors across an unaligned edge") {
    // identity, flip-v, transpose and rot270 never need the width to be a multiple of K or the height of R:
    // the edge blocks that overhang the image go pixel by pixel.
    std::uint32_t seed = 7000;
    const std::vector<Orientation> unconstrained = {Orientation::identity, Orientation::flip_v, Orientation::transpose, Orientation::rot270};
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : test_support::awkward_sizes()) {
            const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
            CAPTURE(gpurotate::to_string(format));
            CHECK(check_multi(src, unconstrained, Path::vectorized));
        }
    }
}

TEST_CASE("the shared-memory fused kernel (the bench's textbook row) writes all 8 elements exactly") {
    std::uint32_t seed = 8000;
    const std::vector<Orientation> all(std::begin(gpurotate::all_orientations), std::end(gpurotate::all_orientations));
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : test_support::awkward_sizes()) {
            CHECK(check_multi(test_support::random_image(size.width, size.height, format, seed++), all, Path::tiled));
        }
    }
}

TEST_CASE("the multi-output transform writes all 8 elements exactly as the single-output kernels do, on any pitch") {
    std::uint32_t seed = 4000;
    for (const auto& format : test_support::formats_of_every_width()) {
        for (const auto& size : test_support::awkward_sizes()) {
            // One extra byte of offset misaligns every pointer and pitch: the byte-aligned words must serve.
            for (std::size_t skew : {std::size_t{0}, std::size_t{1}}) {
                const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
                const std::size_t pixel = format.pixel_bytes();
                const std::size_t side = static_cast<std::size_t>(std::max(size.width, size.height));
                const std::size_t pitch = side * pixel + skew;
                const std::size_t image_bytes = pitch * side + 16;
                DeviceBytes d_src(image_bytes), d_multi(image_bytes * 8), d_single(image_bytes);
                const gpurotate::ImageView src_view{d_src.get() + skew, size.width, size.height, pitch, format};
                REQUIRE_CUDA(cudaMemcpy2D(src_view.data, pitch, src.data(), src.view().pitch, src.view().row_bytes(),
                                          static_cast<std::size_t>(size.height), cudaMemcpyHostToDevice));
                REQUIRE_CUDA(cudaMemset(d_multi.get(), 0xa5, image_bytes * 8));
                std::vector<gpurotate::TransformTarget> targets;
                for (Orientation o : gpurotate::all_orientations) {
                    const gpurotate::Extent e = gpurotate::output_extent(o, src_view.extent());
                    targets.push_back({o, gpurotate::ImageView{d_multi.get() + targets.size() * image_bytes + skew, e.width, e.height, pitch, format}});
                }
                gpurotate::transform_device_multi(src_view, targets, nullptr);
                REQUIRE_CUDA(cudaDeviceSynchronize());
                for (const auto& t : targets) {
                    REQUIRE_CUDA(cudaMemset(d_single.get(), 0x5a, image_bytes));
                    const gpurotate::ImageView single{d_single.get() + skew, t.dst.width, t.dst.height, pitch, format};
                    gpurotate::transform_device(src_view, single, t.orientation, nullptr, gpurotate::CudaKernel::tile32_padded);
                    REQUIRE_CUDA(cudaDeviceSynchronize());
                    CAPTURE(gpurotate::to_string(format));
                    CAPTURE(size.width);
                    CAPTURE(size.height);
                    CAPTURE(skew);
                    CAPTURE(gpurotate::name(t.orientation));
                    const gpurotate::Image multi_out = download(t.dst);
                    CHECK(test_support::first_difference(multi_out.view(), download(single).view()) == -1);
                    CHECK(test_support::first_difference(multi_out.view(), reference::transform(src, t.orientation).view()) == -1);
                }
            }
        }
    }
}

TEST_CASE("the multi-output kernel covers images taller than the grid allows") {
    // 65535 blocks in y cover 65535 * 32 rows; a taller image needs the kernel's stride loop.
    const gpurotate::PixelFormat format{gpurotate::SampleType::u8, 1};
    const gpurotate::Image src = test_support::random_image(3, 65535LL * 32 + 45, format, 77);
    std::vector<gpurotate::Image> outs;
    std::vector<gpurotate::TransformTarget> targets;
    for (Orientation o : {Orientation::rot90, Orientation::flip_v}) {
        const gpurotate::Extent e = gpurotate::output_extent(o, {src.width(), src.height()});
        outs.emplace_back(e.width, e.height, format);
        std::memset(outs.back().data(), 0, outs.back().size_bytes());
    }
    targets.push_back({Orientation::rot90, outs[0].view()});
    targets.push_back({Orientation::flip_v, outs[1].view()});
    gpurotate::transform_multi(src.view(), targets, gpurotate::Backend::cuda);
    CHECK(test_support::first_difference(outs[0].view(), reference::transform(src, Orientation::rot90).view()) == -1);
    CHECK(test_support::first_difference(outs[1].view(), reference::transform(src, Orientation::flip_v).view()) == -1);
}

TEST_CASE("a GpuSession reuses its buffers across images of different sizes and stays exact") {
    gpurotate::GpuSession session(0);
    std::uint32_t seed = 9000;
    std::size_t grown = 0;
    for (const auto& size : {test_support::Size{640, 480}, test_support::Size{31, 33}, test_support::Size{1031, 1009}, test_support::Size{5, 3}}) {
        const gpurotate::PixelFormat format{gpurotate::SampleType::u8, 3};
        const gpurotate::Image src = test_support::random_image(size.width, size.height, format, seed++);
        std::vector<gpurotate::Image> outs;
        std::vector<gpurotate::TransformTarget> targets;
        for (Orientation o : {Orientation::rot90, Orientation::rot180, Orientation::transverse}) {
            const gpurotate::Extent e = gpurotate::output_extent(o, {src.width(), src.height()});
            outs.emplace_back(e.width, e.height, format, gpurotate::HostMemory::pinned);
            std::memset(outs.back().data(), 0xa5, outs.back().size_bytes());
            targets.push_back({o, outs.back().view()});
        }
        session.transform(src.view(), targets);
        for (const auto& t : targets) {
            CAPTURE(size.width);
            CAPTURE(gpurotate::name(t.orientation));
            CHECK(test_support::first_difference(t.dst, reference::transform(src, t.orientation).view()) == -1);
        }
        CHECK(session.device_bytes() >= grown);  // grows, never shrinks
        grown = session.device_bytes();
    }
    CHECK(session.device() == 0);
}

TEST_CASE("multi-output arguments are checked before anything runs") {
    const gpurotate::Image src = test_support::random_image(4, 3, {gpurotate::SampleType::u8, 1}, 5);
    gpurotate::Image wrong(4, 3, {gpurotate::SampleType::u8, 1});
    CHECK_THROWS_AS(gpurotate::transform_multi(src.view(), {}, gpurotate::Backend::cuda), gpurotate::Error);
    CHECK_THROWS_AS(gpurotate::transform_multi(src.view(), {{Orientation::rot90, wrong.view()}}, gpurotate::Backend::cuda), gpurotate::Error);
    std::vector<gpurotate::TransformTarget> nine(9, gpurotate::TransformTarget{Orientation::identity, wrong.view()});
    CHECK_THROWS_AS(gpurotate::transform_multi(src.view(), nine, gpurotate::Backend::cuda), gpurotate::Error);
}
