// `gpurotate bench`: for each pixel type, the ceilings (cudaMemcpyAsync and copy kernels), then for each
// element every kernel that applies (and, for --op rotateDEG, rotation by any angle against NPP's and a copy of
// the same bytes). Each kernel's output is verified against the CPU backend's result
// (random never-zero input, output poisoned with zeros first) before it is timed; timing follows nvbench
// practice: warm-up launches, L2 flushed before every sample, CUDA events, median of many samples.

#include "bench/bench.hpp"
#include "bench/fused_sweep.hpp"
#include "bench/peers.hpp"
#include "bench/repeated_passes.cuh"
#include "bench/study_launch.hpp"
#include "bench/study_kernels.cuh"
#include "check.cuh"
#include "device_query.cuh"
#include "kernels/mirror.cuh"
#include "launch_rotate.cuh"
#include "launch_vectorized.cuh"
#include "kernels/transpose_tile16_skiplines.cuh"
#include "kernels/transpose_tile32_padded.cuh"
#include "kernels/tile_policy.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/pixel_word.hpp"
#include "core/rotation_tables.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/rotate.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <optional>
#include <ostream>
#include <sstream>
#include <tuple>
#include <utility>

namespace gpurotate::bench {
namespace {

using detail::DeviceBuffer;
using detail::Event;
using detail::Stream;
using detail::TransformArgs;


TransformArgs args_for(const Case& c, int tile_h) {
    const int tiles_y = static_cast<int>((c.dst.height + tile_h - 1) / tile_h);
    TransformArgs a{c.src.data, c.src.pitch, c.dst.data, c.dst.pitch, c.src.extent(), static_cast<int>(c.dst.width),
                    static_cast<int>(c.dst.height), axis_map(c.orientation), tiles_y};
    return a;
}

dim3 grid_for(const TransformArgs& a, int tile_w) {
    return dim3(static_cast<unsigned>((a.dst_width + tile_w - 1) / tile_w), std::min(static_cast<unsigned>(a.tiles_y), detail::max_grid_y));
}

// Calls f(word) with the naturally aligned pixel word of the case (the bench allocates aligned buffers).
template <class F>
void with_word(const Case& c, F&& f) {
    detail::visit_pixel_word(c.src.format.pixel_bytes(), true, f);
}

// The paper's tile shape, at namespace scope: nvcc 13.0 fails on a constexpr local used inside lambdas.
constexpr int tile_dim = detail::tile32_policy.tile_dim;
constexpr int block_rows = detail::tile32_policy.block_rows;

/// A row of the study: what it is, when it applies, how to launch it once.
struct BenchKernel {
    std::string name;
    std::string family;  ///< ceiling, study, production, peer
    std::function<bool(const Case&)> applies;
    std::function<void(const Case&)> launch;
    std::function<void(const Case&)> prepare = {};  ///< untimed set-up before each launch (in-place kernels)
    /// The kernel's own expected output from the source, for kernels that are not the element (diagnostics).
    std::function<void(ConstImageView, ImageView)> own_expected = {};
    /// Whether the kernel repeats its work Case::nreps times (the paper's loop inside the kernel);
    /// cudaMemcpy, library peers and multi-launch rows cannot.
    bool repeats_inside = true;
    /// Where a row's repeated launch is not its `launch` (the library's kernels, through bench/study_launch.hpp):
    /// launches it, or returns false where that kernel has no repeated launch.
    std::function<bool(const Case&)> launch_repeated = {};
};

// The diagnostics' definitions on the host, for verification (see half_transpose_kernel).
void half_transpose_on_host(ConstImageView src, ImageView out, bool fine) {
    constexpr int t = tile_dim;
    const std::size_t s = src.format.pixel_bytes();
    for (std::int64_t y = 0; y < out.height; ++y) {
        for (std::int64_t x = 0; x < out.width; ++x) {
            const std::int64_t sx = fine ? x / t * t + y % t : y / t * t + x % t;
            const std::int64_t sy = fine ? y / t * t + x % t : x / t * t + y % t;
            std::memcpy(out.row(y) + x * static_cast<std::int64_t>(s), src.row(sy) + sx * static_cast<std::int64_t>(s), s);
        }
    }
}

template <bool Fine>
BenchKernel half_transpose(const std::string& name) {
    return {name, "study",
            [](const Case& c) {
                return c.orientation == Orientation::transpose && !c.batched() && c.src.width == c.src.height &&
                       c.src.width % tile_dim == 0 && c.src.width / tile_dim <= static_cast<std::int64_t>(detail::max_grid_y);
            },
            [](const Case& c) {
                with_word(c, [&](auto word) {
                    const TransformArgs a = args_for(c, tile_dim);
                    const dim3 grid(static_cast<unsigned>(c.src.width / tile_dim), static_cast<unsigned>(c.src.height / tile_dim));
                    detail::half_transpose_kernel<decltype(word), tile_dim, block_rows, Fine>
                        <<<grid, dim3(tile_dim, block_rows), 0, c.stream>>>(a, detail::RepeatedPasses{c.nreps});
                });
            },
            {},
            [](ConstImageView src, ImageView out) { half_transpose_on_host(src, out, Fine); }};
}

bool is_identity(const Case& c) { return c.orientation == Orientation::identity; }
bool not_identity(const Case& c) { return !is_identity(c); }
// The study kernels and the peers take one image per launch: with --batch they do not apply.
bool swaps(const Case& c) { return swaps_axes(c.orientation) && !c.batched(); }
bool keeps_axes_not_identity(const Case& c) { return !swaps_axes(c.orientation) && !is_identity(c) && !c.batched(); }

detail::BatchLayout layout_of(const Case& c) {
    return {c.batch, c.src.pitch * static_cast<std::size_t>(c.src.height), c.dst.pitch * static_cast<std::size_t>(c.dst.height)};
}

template <int BX, int BY>
BenchKernel naive(const std::string& name) {
    return {name, "study", [](const Case& c) { return !is_identity(c) && !c.batched(); },
            [](const Case& c) {
                with_word(c, [&](auto word) {
                    using Word = decltype(word);
                    detail::NaiveArgs n{args_for(c, BY), axis_map(inverse(c.orientation))};
                    n.a.tiles_y = static_cast<int>((c.src.height + BY - 1) / BY);  // rows of source blocks
                    const dim3 grid(static_cast<unsigned>((c.src.width + BX - 1) / BX), std::min(static_cast<unsigned>(n.a.tiles_y), detail::max_grid_y));
                    detail::naive_kernel<Word, BX, BY><<<grid, dim3(BX, BY), 0, c.stream>>>(n, detail::RepeatedPasses{c.nreps});
                });
            }};
}

template <class Word, int TileDim, int BX, int BY, int Padding>
void launch_tiled(const Case& c) {
    if constexpr (TileDim * (TileDim + Padding) * sizeof(Word) <= 48 * 1024) {
        const TransformArgs a = args_for(c, TileDim);
        detail::transpose_tiled_kernel<Word, TileDim, BX, BY, Padding, detail::RepeatedPasses>
            <<<grid_for(a, TileDim), dim3(BX, BY), 0, c.stream>>>(a, detail::RepeatedPasses{c.nreps});
    }
}

template <int TileDim, int BX, int BY, int Padding>
BenchKernel tiled(const std::string& name, const std::string& family) {
    return {name, family,
            [](const Case& c) {
                // A 64x64 tile of 12- or 16-byte pixels exceeds the 48 KiB of static shared memory.
                return swaps(c) && TileDim * (TileDim + Padding) * c.src.format.pixel_bytes() <= 48 * 1024;
            },
            [](const Case& c) { with_word(c, [&](auto word) { launch_tiled<decltype(word), TileDim, BX, BY, Padding>(c); }); }};
}

// Through the library's own launcher, exactly as users get it (the whole batch in one launch).
BenchKernel library(const std::string& name, CudaKernel kernel, const std::string& family,
                    std::function<bool(const Case&)> applies) {
    return {name, family, std::move(applies),
            [kernel](const Case& c) { detail::transform_device_cuda(c.src, c.dst, axis_map(c.orientation), kernel, c.stream, layout_of(c)); },
            {}, {}, true,
            [kernel](const Case& c) {
                return transform_device_repeated(c.src, c.dst, axis_map(c.orientation), kernel, c.stream, layout_of(c), c.nreps);
            }};
}

std::vector<BenchKernel> all_kernels(const Peers* peers) {
    std::vector<BenchKernel> k;
    // Ceilings: the same bytes copied, no reordering.
    // One flat cudaMemcpyAsync of the whole buffer: the 2D variant runs at under half its speed here.
    k.push_back({"memcpy-d2d", "ceiling", [](const Case& c) { return is_identity(c) && c.src.pitch == c.dst.pitch; },
                 [](const Case& c) {
                     GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(c.dst.data, c.src.data, c.src.pitch * static_cast<std::size_t>(c.src.height),
                                                          cudaMemcpyDeviceToDevice, c.stream));
                 },
                 {}, {}, false});
    for (const bool l2_prefetch : {false, true}) {
        k.push_back({l2_prefetch ? "copy-vector16-l2-256" : "copy-vector16", "ceiling",
                     [](const Case& c) { return is_identity(c) && c.src.pitch == c.dst.pitch; },
                     [l2_prefetch](const Case& c) {
                         const std::size_t vectors = c.src.pitch * static_cast<std::size_t>(c.src.height) / 16;
                         const int sms = detail::current_device_multiprocessors();
                         const auto kernel = l2_prefetch ? detail::copy_vector16_kernel<true> : detail::copy_vector16_kernel<false>;
                         kernel<<<sms * 8, 256, 0, c.stream>>>(reinterpret_cast<const uint4*>(c.src.data), reinterpret_cast<uint4*>(c.dst.data),
                                                               vectors);
                     },
                     {}, {}, false});
    }
    // The paper's copy (a 32x32 tile per 32x8 threads, one word per access) is the plain mirror kernel
    // with the identity element.
    k.push_back({"copy-simple", "ceiling", is_identity, [](const Case& c) {
                     with_word(c, [&](auto word) {
                         const TransformArgs a = args_for(c, tile_dim);
                         detail::mirror_kernel<decltype(word), tile_dim, block_rows, detail::RepeatedPasses>
                             <<<grid_for(a, tile_dim), dim3(tile_dim, block_rows), 0, c.stream>>>(a, detail::RepeatedPasses{c.nreps});
                     });
                 }});
    k.push_back({"copy-shared", "ceiling", is_identity, [](const Case& c) {
                     with_word(c, [&](auto word) {
                         const TransformArgs a = args_for(c, tile_dim);
                         detail::copy_shared_kernel<decltype(word), tile_dim, block_rows>
                             <<<grid_for(a, tile_dim), dim3(tile_dim, block_rows), 0, c.stream>>>(a, detail::RepeatedPasses{c.nreps});
                     });
                 }});
    // The seeds' study.
    k.push_back(naive<32, 32>("naive-32x32"));
    k.push_back(naive<16, 16>("naive-16x16"));
    k.push_back(naive<32, 8>("naive-32x8"));
    k.push_back(naive<8, 64>("naive-8x64"));
    k.push_back(tiled<32, 32, 8, 0>("tile32-coalesced", "study"));
    k.push_back(library("tile32-padded", CudaKernel::tile32_padded, "study", swaps));
    k.push_back({"tile32-diagonal", "study",
                 [](const Case& c) { return swaps(c) && (c.dst.height + 31) / 32 <= static_cast<std::int64_t>(detail::max_grid_y); },
                 [](const Case& c) {
                     with_word(c, [&](auto word) {
                         const TransformArgs a = args_for(c, tile_dim);
                         detail::transpose_diagonal_kernel<decltype(word), tile_dim, block_rows>
                             <<<grid_for(a, tile_dim), dim3(tile_dim, block_rows), 0, c.stream>>>(a, detail::RepeatedPasses{c.nreps});
                     });
                 }});
    k.push_back(half_transpose<true>("fine-grained"));
    k.push_back(half_transpose<false>("coarse-grained"));
    // For the elements that keep the axes, its mirror: 16x16 threads, one pixel each (as NPP's mirror).
    k.push_back(library("tile16-skiplines", CudaKernel::tile16_skiplines, "study", not_identity));
    k.push_back(tiled<64, 16, 16, 1>("tile64-multi", "study"));
    // In place: the destination is first set to the source (untimed), then transformed where it lies.
    k.push_back({"in-place", "study",
                 [](const Case& c) {
                     return !is_identity(c) && !c.batched() && is_involution(c.orientation) && c.src.width == c.src.height &&
                            c.src.pitch == c.dst.pitch;
                 },
                 [](const Case& c) { transform_in_place_device(c.dst, c.orientation, c.stream); },
                 [](const Case& c) {
                     GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(c.dst.data, c.src.data, c.src.pitch * static_cast<std::size_t>(c.src.height),
                                                          cudaMemcpyDeviceToDevice, c.stream));
                 },
                 {}, false});
    k.push_back(library("mirror-plain", CudaKernel::tile32_padded, "study", keeps_axes_not_identity));
    // The product: the vectorized kernels, and what CudaKernel::automatic picks (the library's default).
    k.push_back(library("vectorized", CudaKernel::vectorized, "production", [](const Case& c) {
        return !is_identity(c) && vectorized_applies(c.src, c.dst, c.orientation);
    }));
    // The tuning study of the vectorized transpose: 16 and 32 lanes per source row instead of 8 (wider
    // loads, narrower stores per warp), twice the register blocks per lane, a grid of resident blocks,
    // plain loads instead of loads that have L2 fetch 256 bytes, a lane's register blocks unrolled (all
    // loads at once) instead of one after another, and blocks of half the rows (the same tile).
    const std::pair<const char*, VectorizedTransposeVariant> variants[] = {
        {"vectorized-x16", {16, 1, false}},       {"vectorized-x32", {32, 1, false}},
        {"vectorized-b2", {8, 2, false}},         {"vectorized-resident", {8, 1, true}},
        {"vectorized-plain-loads", {8, 1, false, false}},
        {"vectorized-unrolled", {8, 1, false, true, true}},
        {"vectorized-split-rows", {8, 1, false, true, false, true}}};
    const auto variant_row = [&](const char* name, const VectorizedTransposeVariant& variant, bool (*elements)(const Case&)) {
        k.push_back({name, "study",
                     [elements, variant](const Case& c) {
                         return elements(c) && vectorized_variant_applies(c.src, c.dst, axis_map(c.orientation), variant);
                     },
                     [variant](const Case& c) {
                         transform_device_vectorized_variant(c.src, c.dst, axis_map(c.orientation), variant, c.stream, layout_of(c));
                     },
                     {}, {}, false});
    };
    for (const auto& [name, layout] : variants) variant_row(name, layout, swaps);
    // The production layout with as many blocks on an SM as fit, or at most 2 to 7 (reserved shared memory):
    // for every element, as the mirrors have tuned caps too, and on batches, where the best cap can differ.
    const std::pair<const char*, int> caps[] = {{"vectorized-uncapped", 0}, {"vectorized-2-per-sm", 2}, {"vectorized-3-per-sm", 3},
                                                {"vectorized-4-per-sm", 4}, {"vectorized-5-per-sm", 5}, {"vectorized-7-per-sm", 7}};
    for (const auto& [name, cap] : caps) variant_row(name, {8, 1, false, true, false, false, cap}, not_identity);
    k.push_back(library("auto", CudaKernel::automatic, "production", not_identity));
    // The batch launched the way a loop over images would: one launch per image.
    k.push_back({"auto-per-image", "production", [](const Case& c) { return !is_identity(c) && c.batched(); },
                 [](const Case& c) {
                     const detail::BatchLayout layout = layout_of(c);
                     for (int i = 0; i < c.batch; ++i) {
                         ConstImageView src = c.src;
                         ImageView dst = c.dst;
                         src.data += static_cast<std::size_t>(i) * layout.src_image_stride;
                         dst.data += static_cast<std::size_t>(i) * layout.dst_image_stride;
                         detail::transform_device_cuda(src, dst, axis_map(c.orientation), CudaKernel::automatic, c.stream);
                     }
                 },
                 {}, {}, false});
    // Peers.
    k.push_back({"npp-transpose", "peer", [peers](const Case& c) { return !c.batched() && peers->npp_transpose_applies(c); },
                 [peers](const Case& c) { peers->npp_transpose(c); }, {}, {}, false});
    k.push_back({"npp-mirror", "peer", [peers](const Case& c) { return !c.batched() && peers->npp_mirror_applies(c); },
                 [peers](const Case& c) { peers->npp_mirror(c); }, {}, {}, false});
    k.push_back({"cublas-geam", "peer", [peers](const Case& c) { return !c.batched() && peers->cublas_geam_applies(c); },
                 [peers](const Case& c) { peers->cublas_geam(c); }, {}, {}, false});
    return k;
}

/// One measured row.
struct Row {
    std::string type, op, kernel, family;
    double median_ms = 0, loop_ms = 0, gbps = 0, loop_gbps = 0;
    double inside_gbps = 0;  ///< the paper's loop inside the kernel; 0 where the kernel cannot repeat
    double copy_gbps = 0;    ///< where its bytes are not the table's copy's (rotation): a copy of its own bytes
    bool verified = false;
};

double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// Device image with the library's pitch (whole sectors), or rows packed one after another where `tight`.
struct DeviceImage {
    DeviceBuffer buffer;
    ImageView view;
    DeviceImage(std::int64_t w, std::int64_t h, PixelFormat f, bool tight = false)
        : buffer(pitch_of(w, f, tight) * static_cast<std::size_t>(h)), view{buffer.get(), w, h, pitch_of(w, f, tight), f} {}
    static std::size_t pitch_of(std::int64_t w, PixelFormat f, bool tight) {
        const std::size_t row = static_cast<std::size_t>(w) * f.pixel_bytes();
        return tight ? row : detail::device_pitch(row);
    }
    std::size_t bytes() const { return view.pitch * static_cast<std::size_t>(view.height); }
};

class Harness {
public:
    Harness(const BenchOptions& options) : options_(options) {
        int device = 0;
        GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
        GPUROTATE_CUDA_CHECK(cudaGetDeviceProperties(&prop_, device));
        // Writing twice the L2 between samples evicts whatever the last sample left there.
        flush_ = DeviceBuffer(2 * static_cast<std::size_t>(std::max(prop_.l2CacheSize, 1 << 20)));
        GPUROTATE_CUDA_CHECK(cudaMalloc(&differing_, sizeof(unsigned long long)));
    }
    ~Harness() { GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaFree(differing_)); }

    const cudaDeviceProp& device() const { return prop_; }
    cudaStream_t stream() const { return stream_.get(); }

    void flush_l2() const { GPUROTATE_CUDA_CHECK(cudaMemsetAsync(flush_.get(), 0, flush_.size(), stream_.get())); }

    /// Rows of `dst` that differ from `expected`.
    unsigned long long differing_rows(ConstImageView dst, ConstImageView expected) const {
        GPUROTATE_CUDA_CHECK(cudaMemsetAsync(differing_, 0, sizeof(unsigned long long), stream_.get()));
        detail::count_differing_rows_kernel<<<4096, 256, 0, stream_.get()>>>(
            reinterpret_cast<const std::uint8_t*>(dst.data), dst.pitch, reinterpret_cast<const std::uint8_t*>(expected.data),
            expected.pitch, dst.row_bytes(), static_cast<int>(dst.height), differing_);
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        unsigned long long count = 0;
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(&count, differing_, sizeof count, cudaMemcpyDeviceToHost, stream_.get()));
        stream_.synchronize();
        return count;
    }

    /// Median microseconds the host spends in `launch` (building and enqueueing its work, not waiting for
    /// the GPU), the stream idle before each sample.
    double median_host_us(const std::function<void()>& launch) const {
        std::vector<float> samples;
        for (int i = 0; i < options_.reps; ++i) {
            stream_.synchronize();
            const auto start = std::chrono::steady_clock::now();
            launch();
            samples.push_back(std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - start).count());
        }
        stream_.synchronize();
        return median(samples);
    }

    /// Median milliseconds of `launch` over the samples, L2 flushed before each, after a warm-up.
    double median_ms(const std::function<void()>& launch) const {
        for (int i = 0; i < 3; ++i) launch();
        std::vector<float> samples;
        Event start, stop;
        for (int i = 0; i < options_.reps; ++i) {
            flush_l2();
            start.record(stream_.get());
            launch();
            stop.record(stream_.get());
            stream_.synchronize();
            samples.push_back(stop.elapsed_since(start));
        }
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return median(samples);
    }

    /// Milliseconds per call of `launch` called `reps` times back to back between two events, L2 flushed
    /// once before (the seeds' loop over launches). Where a call has host work (a grouped call builds and
    /// copies its table), it overlaps the previous call's kernels, as in a pipeline that feeds the GPU.
    double loop_ms(const std::function<void()>& launch) const {
        Event start, stop;
        flush_l2();
        start.record(stream_.get());
        for (int i = 0; i < options_.reps; ++i) launch();
        stop.record(stream_.get());
        stream_.synchronize();
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        return stop.elapsed_since(start) / options_.reps;
    }

    /// Verifies, then times `kernel` on `c`; bytes = read + write.
    Row measure(const BenchKernel& kernel, const Case& c, ConstImageView expected, double bytes) const {
        Row row;
        row.kernel = kernel.name;
        row.family = kernel.family;
        GPUROTATE_CUDA_CHECK(cudaMemsetAsync(c.dst_all.data, 0, c.dst_all.pitch * static_cast<std::size_t>(c.dst_all.height), stream_.get()));
        if (kernel.prepare) kernel.prepare(c);
        kernel.launch(c);
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        row.verified = differing_rows(c.dst_all, expected) == 0;
        if (!row.verified) return row;
        for (int i = 0; i < 3; ++i) kernel.launch(c);  // warm-up
        std::vector<float> samples;
        Event start, stop;
        for (int i = 0; i < options_.reps; ++i) {
            if (kernel.prepare) kernel.prepare(c);
            flush_l2();
            start.record(stream_.get());
            kernel.launch(c);
            stop.record(stream_.get());
            stream_.synchronize();
            samples.push_back(stop.elapsed_since(start));
        }
        // The seeds' other timing: back-to-back launches between two events (no flush in between).
        row.loop_ms = loop_ms([&] { kernel.launch(c); });
        // A library row's repeated launch runs a kernel of its own (bench/study_launch.hpp): one untimed launch first,
        // so that loading its module (CUDA's lazy loading) is not timed.
        const bool repeats = kernel.repeats_inside && (!kernel.launch_repeated || kernel.launch_repeated(c));
        if (repeats) {
            Case repeated = c;
            repeated.nreps = options_.reps;
            stream_.synchronize();
            flush_l2();
            start.record(stream_.get());
            if (kernel.launch_repeated) {
                kernel.launch_repeated(repeated);
            } else {
                kernel.launch(repeated);
            }
            stop.record(stream_.get());
            stream_.synchronize();
            GPUROTATE_CUDA_CHECK(cudaGetLastError());
            row.inside_gbps = bytes / (stop.elapsed_since(start) / options_.reps * 1e6);
        }
        row.median_ms = median(samples);
        row.gbps = bytes / (row.median_ms * 1e6);
        row.loop_gbps = bytes / (row.loop_ms * 1e6);
        return row;
    }

private:
    const BenchOptions& options_;
    cudaDeviceProp prop_{};
    Stream stream_;
    DeviceBuffer flush_;
    unsigned long long* differing_ = nullptr;
};

bool selected(const std::vector<std::string>& names, const std::string& name) {
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

void print_rows(std::ostream& out, const std::vector<Row>& rows, double memcpy_gbps, double best_copy_gbps) {
    int op_width = 11, kernel_width = 18;  // wider where a row needs it ("rot90 x1024 mixed"), so that columns stay apart
    for (const Row& r : rows) {
        op_width = std::max(op_width, static_cast<int>(r.op.size()) + 1);
        kernel_width = std::max(kernel_width, static_cast<int>(r.kernel.size()) + 1);
    }
    out << std::left << std::setw(7) << "type" << std::setw(op_width) << "op" << std::setw(kernel_width) << "kernel" << std::setw(11) << "family"
        << std::right << std::setw(10) << "ms" << std::setw(10) << "GB/s" << std::setw(10) << "%memcpy" << std::setw(10) << "%bestcopy"
        << std::setw(12) << "loop GB/s" << std::setw(12) << "inside GB/s" << "  verified\n";
    for (const Row& r : rows) {
        out << std::left << std::setw(7) << r.type << std::setw(op_width) << r.op << std::setw(kernel_width) << r.kernel << std::setw(11) << r.family
            << std::right << std::fixed;
        if (!r.verified) {
            out << std::setw(74) << " " << "  WRONG OUTPUT\n";
            continue;
        }
        out << std::setw(10) << std::setprecision(3) << r.median_ms << std::setw(10) << std::setprecision(0) << r.gbps;
        const bool own_copy = r.copy_gbps > 0;
        for (const double ceiling : {own_copy ? r.copy_gbps : memcpy_gbps, own_copy ? r.copy_gbps : best_copy_gbps}) {  // none with --no-ceilings
            if (ceiling > 0) {
                out << std::setw(9) << std::setprecision(1) << 100.0 * r.gbps / ceiling << "%";
            } else {
                out << std::setw(10) << "-";
            }
        }
        out << std::setw(12) << std::setprecision(0) << r.loop_gbps << std::setw(12);
        if (r.inside_gbps > 0) {
            out << r.inside_gbps;
        } else {
            out << "-";
        }
        out << "  yes\n";
    }
}

std::ofstream open_json(const std::string& path) {
    std::ofstream f(path);
    if (!f) throw Error(ErrorCode::output, "cannot write '" + path + "'");
    return f;
}

void write_json(const std::string& path, const cudaDeviceProp& prop, const BenchOptions& o, const std::vector<Row>& rows,
                const std::vector<std::pair<std::string, double>>& memcpy_by_type) {
    std::ofstream f = open_json(path);
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    f << "{\n  \"device\": \"" << prop.name << "\", \"driver\": " << driver << ", \"runtime\": " << runtime << ",\n  \"width\": "
      << o.width << ", \"height\": " << o.height << ", \"batch\": " << o.batch << ", \"reps\": " << o.reps << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        double memcpy_gbps = r.copy_gbps;
        for (const auto& m : memcpy_by_type) {
            if (m.first == r.type && r.copy_gbps == 0) memcpy_gbps = m.second;
        }
        f << "    {\"type\": \"" << r.type << "\", \"op\": \"" << r.op << "\", \"kernel\": \"" << r.kernel << "\", \"family\": \"" << r.family
          << "\", \"verified\": " << (r.verified ? "true" : "false") << ", \"median_ms\": " << r.median_ms << ", \"gbps\": " << r.gbps
          << ", \"loop_gbps\": " << r.loop_gbps << ", \"inside_gbps\": " << r.inside_gbps << ", \"memcpy_gbps\": " << memcpy_gbps << "}" << (i + 1 < rows.size() ? "," : "")
          << "\n";
    }
    f << "  ]\n}\n";
}

/// A random never-zero source on the device and its copy on the host, the CPU backend's input for the expected outputs.
struct RandomSource {
    DeviceImage device;
    Image host;
};

RandomSource random_source(const Harness& harness, std::int64_t width, std::int64_t height, PixelFormat format) {
    RandomSource s{DeviceImage(width, height, format), Image(width, height, format, HostMemory::pinned)};
    detail::fill_random_kernel<<<4096, 256, 0, harness.stream()>>>(reinterpret_cast<std::uint8_t*>(s.device.view.data), s.device.bytes(),
                                                                   0x5eed1234u ^ static_cast<std::uint32_t>(format.pixel_bytes()),
                                                                   format.sample == SampleType::f32);
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(s.host.data(), s.host.view().pitch, s.device.view.data, s.device.view.pitch, s.device.view.row_bytes(),
                                           static_cast<std::size_t>(height), cudaMemcpyDeviceToHost, harness.stream()));
    GPUROTATE_CUDA_CHECK(cudaStreamSynchronize(harness.stream()));
    return s;
}

// A row for a launch timed outside the kernel table (multi-output, grouped): timed only where verified;
// GB/s from the bytes it moves.
Row timed_row(const Harness& harness, const std::string& kernel, const std::string& family, bool verified,
              const std::function<void()>& launch, double bytes) {
    Row row;
    row.kernel = kernel;
    row.family = family;
    row.verified = verified;
    if (verified) {
        row.median_ms = harness.median_ms(launch);
        row.loop_ms = harness.loop_ms(launch);
        row.gbps = bytes / (row.median_ms * 1e6);
        row.loop_gbps = bytes / (row.loop_ms * 1e6);
    }
    return row;
}

// The augmentation pipeline's kernel: every requested element from one read of the source (one launch),
// against one `auto` launch per element. Both verified per output; GB/s counts the bytes each moves.
std::vector<Row> bench_multi_output(const Harness& harness, const std::vector<Orientation>& ops, ConstImageView src,
                                    const Image& host_src) {
    std::vector<DeviceImage> outputs, expected;
    std::vector<TransformTarget> targets;
    for (Orientation o : ops) {
        const Extent e = output_extent(o, src.extent());
        outputs.emplace_back(e.width, e.height, src.format);
        expected.emplace_back(e.width, e.height, src.format);
        Image host_expected(e.width, e.height, src.format, HostMemory::pinned);
        gpurotate::transform(host_src.view(), host_expected.view(), o, Backend::cpu);
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(expected.back().view.data, expected.back().view.pitch, host_expected.data(),
                                               host_expected.view().pitch, host_expected.view().row_bytes(),
                                               static_cast<std::size_t>(e.height), cudaMemcpyHostToDevice, harness.stream()));
        GPUROTATE_CUDA_CHECK(cudaStreamSynchronize(harness.stream()));
    }
    for (std::size_t i = 0; i < ops.size(); ++i) targets.push_back({ops[i], outputs[i].view});
    const auto verify = [&](const std::function<void()>& launch) {
        for (auto& out : outputs) GPUROTATE_CUDA_CHECK(cudaMemsetAsync(out.view.data, 0, out.bytes(), harness.stream()));
        launch();
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        bool ok = true;
        for (std::size_t i = 0; i < ops.size(); ++i) ok = ok && harness.differing_rows(outputs[i].view, expected[i].view) == 0;
        return ok;
    };
    const double image_bytes = static_cast<double>(src.row_bytes()) * static_cast<double>(src.height);
    const double k = static_cast<double>(ops.size());
    std::string op_names;
    for (Orientation o : ops) op_names += (op_names.empty() ? "" : "+") + std::string(name(o));
    const std::string op_label = ops.size() == 7 ? "all-7" : op_names;

    std::vector<Row> rows;
    const std::function<void()> fused = [&] { detail::transform_device_multi_cuda(src, targets.data(), targets.size(), harness.stream()); };
    const std::function<void()> tiled = [&] { transform_device_multi_tiled(src, targets.data(), targets.size(), harness.stream()); };
    const std::function<void()> separate = [&] {
        for (const auto& t : targets) detail::transform_device_cuda(src, t.dst, axis_map(t.orientation), CudaKernel::automatic, harness.stream());
    };
    // The fused vectorized kernel alone, and the library's choice (multi-output) among it, the shared-memory
    // fused kernel and one launch per element. GB/s counts the bytes each moves.
    const std::function<void()> vectorized = [&] {
        if (!multi_output_fused_vectorized(src, targets.data(), targets.size(), harness.stream())) throw Error(ErrorCode::internal, "not aligned");
    };
    const bool vector_ok = multi_output_fused_applies(src, targets.data(), targets.size());
    std::vector<std::tuple<std::string, std::function<void()>, double>> variants = {
        {"multi-output", fused, (1 + k) * image_bytes},
        {"multi-out-tile32", tiled, (1 + k) * image_bytes},
        {"auto-x" + std::to_string(ops.size()), separate, 2 * k * image_bytes}};
    if (vector_ok) variants.insert(variants.begin() + 1, {"multi-out-vector", vectorized, (1 + k) * image_bytes});
    for (const auto& [kernel_name, launch, bytes] : variants) {
        rows.push_back(timed_row(harness, kernel_name, "production", verify(launch), launch, bytes));
        rows.back().op = op_label;
    }
    return rows;
}

// Rotation by any angle (rotate.hpp) on device buffers, one table group per angle: a device copy of the same bytes
// (the expanded canvas is larger than the source, so the element rows' copy is not that), the product's
// rotate_device, verified against the CPU backend byte for byte (output poisoned with 0xff first: the uncovered
// corners are zeros), and NPP's nppiRotate on the same source, angle, interpolation and canvas, not verified (its
// own rounding and edges) and timed only where it returned success. GB/s = (source bytes + output bytes) / time.
std::vector<Row> bench_rotations(const Harness& harness, const Peers& peers, const BenchOptions& options, ConstImageView src,
                                 const Image& host_src, std::ostream& notes) {
    std::string interpolation_name;
    for (const auto& [n, interpolation] : bench_interpolations()) {
        if (interpolation == options.interpolation) interpolation_name = n;
    }
    std::vector<Row> rows;
    for (const double degrees : options.rotations) {
        RotateOptions rotate_options;
        rotate_options.degrees = degrees;
        rotate_options.interpolation = options.interpolation;
        rotate_options.keep_size = options.keep_size;
        const Extent e = rotated_extent(src.extent(), rotate_options);
        DeviceImage dst(e.width, e.height, src.format, options.tight), expected(e.width, e.height, src.format, options.tight);
        Image host_expected(e.width, e.height, src.format, HostMemory::pinned);
        gpurotate::rotate(host_src.view(), host_expected.view(), rotate_options, Backend::cpu);
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(expected.view.data, expected.view.pitch, host_expected.data(), host_expected.view().pitch,
                                               expected.view.row_bytes(), static_cast<std::size_t>(e.height), cudaMemcpyHostToDevice,
                                               harness.stream()));
        const double bytes = static_cast<double>(src.row_bytes()) * static_cast<double>(src.height) +
                             static_cast<double>(dst.view.row_bytes()) * static_cast<double>(e.height);
        std::ostringstream op;
        op << "rotate" << degrees << " " << interpolation_name << (options.keep_size ? " keep" : "") << (options.tight ? " tight" : "");
        std::vector<Row> group;
        if (!options.no_ceilings && (selected(options.kernels, "rotate") || selected(options.kernels, "npp-rotate"))) {
            const std::size_t total = static_cast<std::size_t>(bytes / 2);
            DeviceBuffer copy_src(total), copy_dst(total);
            group.push_back(timed_row(harness, "memcpy-d2d", "ceiling", true, [&] {
                GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(copy_dst.get(), copy_src.get(), total, cudaMemcpyDeviceToDevice, harness.stream()));
            }, bytes));
        }
        if (selected(options.kernels, "rotate")) {
            const auto launch = [&] { rotate_device(src, dst.view, rotate_options, harness.stream()); };
            GPUROTATE_CUDA_CHECK(cudaMemsetAsync(dst.view.data, 0xff, dst.bytes(), harness.stream()));
            launch();
            group.push_back(timed_row(harness, "rotate", "production", harness.differing_rows(dst.view, expected.view) == 0, launch, bytes));
        }
        const detail::RotationPlan plan = detail::make_rotation_plan(src.extent(), e, src.format.sample, rotate_options);
        // The production launch with one lever forced: the footprint's row spans on, then off (the bounding box
        // staged whole); then the tile's tables made before its loads, behind a barrier.
        struct Study {
            const char* name;
            detail::RotationLevers levers;
        };
        const Study studies[] = {{"rotate-row-spans", {true, false}}, {"rotate-whole-rows", {false, false}}, {"rotate-tables-first", {std::nullopt, true}}};
        for (const Study& study : studies) {
            if (!selected(options.kernels, study.name)) continue;
            const auto launch = [&] { detail::rotate_device_levers(src, dst.view, plan, study.levers, harness.stream()); };
            GPUROTATE_CUDA_CHECK(cudaMemsetAsync(dst.view.data, 0xff, dst.bytes(), harness.stream()));
            launch();
            group.push_back(timed_row(harness, study.name, "study", harness.differing_rows(dst.view, expected.view) == 0, launch, bytes));
        }
        if (selected(options.kernels, "npp-rotate") && peers.npp_rotate_applies(src.format)) {
            const auto launch = [&] { peers.npp_rotate(src, dst.view, degrees, options.interpolation, harness.stream()); };
            const int status = peers.npp_rotate(src, dst.view, degrees, options.interpolation, harness.stream());
            GPUROTATE_CUDA_CHECK(cudaStreamSynchronize(harness.stream()));
            if (status == 0) {
                group.push_back(timed_row(harness, "npp-rotate", "peer", true, launch, bytes));
            } else {
                notes << to_string(src.format) << " " << op.str() << ": nppiRotate returned status " << status << ", no row\n";
            }
        }
        const double copy_gbps = !group.empty() && group.front().family == "ceiling" ? group.front().gbps : 0;
        for (Row& row : group) {
            row.op = op.str();
            row.copy_gbps = copy_gbps;
            rows.push_back(row);
        }
    }
    return rows;
}

// Work enqueued on a stream, captured once into an executable CUDA graph.
class CapturedGraph {
public:
    template <class Enqueue>
    CapturedGraph(cudaStream_t stream, Enqueue&& enqueue) {
        GPUROTATE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        enqueue();
        GPUROTATE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
        GPUROTATE_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
    }
    ~CapturedGraph() {
        if (exec_) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaGraphExecDestroy(exec_));
        if (graph_) GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph_));
    }
    CapturedGraph(const CapturedGraph&) = delete;
    CapturedGraph& operator=(const CapturedGraph&) = delete;
    void launch(cudaStream_t stream) const { GPUROTATE_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

private:
    cudaGraph_t graph_ = nullptr;
    cudaGraphExec_t exec_ = nullptr;
};

// Images of mixed sizes in one grouped launch (per call, and from a plan made once), against one `auto` launch
// per image (enqueued one by one, and replayed from a CUDA graph) and against one device-to-device copy of the
// same bytes. `one_element` for every image, or without it each image its own (every size meets every element). Every
// image verified; GB/s counts the bytes read and written.
// `scratch_padding`: the outputs' pitch padding is the bench's (GroupedTransform::scratch_padding); a study row runs
// the plan without it, so that one run shows what it gains.
std::vector<Row> bench_grouped(const Harness& harness, int count, const std::vector<Extent>& chosen_sizes, PixelFormat format,
                               std::optional<Orientation> one_element, bool scratch_padding, std::ostream& notes) {
    static const std::vector<Extent> mixed = {{64, 64}, {128, 96}, {256, 256}, {320, 240}, {512, 384}, {640, 480}, {800, 600}, {1024, 768}};
    const std::vector<Extent>& sizes = chosen_sizes.empty() ? mixed : chosen_sizes;
    std::vector<DeviceImage> srcs, dsts, expected;
    std::vector<GroupedTransform> items;
    double bytes = 0;
    // The elements in turn shifted by one at each pass over the sizes, so that every size meets every element.
    const auto element_of = [&](int i) {
        return one_element ? *one_element : all_orientations[(i + i / static_cast<int>(sizes.size())) % 8];
    };
    for (int i = 0; i < count; ++i) {
        const Extent e = sizes[static_cast<std::size_t>(i) % sizes.size()];
        const Extent out = output_extent(element_of(i), e);
        srcs.emplace_back(e.width, e.height, format);
        dsts.emplace_back(out.width, out.height, format);
        expected.emplace_back(out.width, out.height, format);
        detail::fill_random_kernel<<<256, 256, 0, harness.stream()>>>(reinterpret_cast<std::uint8_t*>(srcs.back().view.data), srcs.back().bytes(),
                                                                      0x6e0u + static_cast<std::uint32_t>(i), format.sample == SampleType::f32);
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        bytes += 2.0 * static_cast<double>(srcs.back().view.row_bytes()) * static_cast<double>(e.height);
    }
    for (int i = 0; i < count; ++i) {  // the expected outputs, by the single-image launcher the tests check
        detail::transform_device_cuda(srcs[i].view, expected[i].view, axis_map(element_of(i)), CudaKernel::automatic, harness.stream());
        GroupedTransform item{srcs[i].view, dsts[i].view, element_of(i)};
        item.scratch_padding = scratch_padding;  // DeviceImage holds pitch x height bytes
        items.push_back(item);
    }
    // Twice, the outputs poisoned before each: a repeated call runs from the tables the first one kept, as every
    // timed call of the grouped row does.
    const auto verify = [&](const std::function<void()>& launch) {
        bool ok = true;
        for (int round = 0; round < 2; ++round) {
            for (auto& d : dsts) GPUROTATE_CUDA_CHECK(cudaMemsetAsync(d.view.data, 0, d.bytes(), harness.stream()));
            launch();
            GPUROTATE_CUDA_CHECK(cudaGetLastError());
            for (int i = 0; i < count; ++i) ok = ok && harness.differing_rows(dsts[i].view, expected[i].view) == 0;
        }
        return ok;
    };
    const std::size_t total = static_cast<std::size_t>(bytes / 2);
    DeviceBuffer copy_src(total), copy_dst(total);
    const auto per_image = [&] {
        for (const auto& g : items) detail::transform_device_cuda(g.src, g.dst, axis_map(g.orientation), CudaKernel::automatic, harness.stream());
    };
    // The same per-image launches captured once into a CUDA graph and replayed: what graphs save of the
    // launch overhead, next to what one grouped launch saves.
    const CapturedGraph graph(harness.stream(), per_image);
    const auto grouped = [&] { detail::transform_device_grouped_cuda(items.data(), items.size(), harness.stream()); };
    const GroupedPlan plan(items, harness.stream());
    const auto planned = [&] { plan.run(harness.stream()); };
    std::vector<GroupedTransform> kept_items = items;
    for (GroupedTransform& g : kept_items) g.scratch_padding = false;
    const GroupedPlan kept_plan(kept_items, harness.stream());
    // The other way of finding work, each: a call whose blocks read work descriptors, a plan whose blocks search.
    const detail::GroupedSchedule descriptors{0, false}, search{0, true};
    // A call whose every table is staged and copied, as before families of up to grouped_inline_images images
    // travelled in the kernel's parameters: grouped against grouped-staged is that change's A/B.
    const detail::GroupedSchedule staged{0, true, false};
    const auto grouped_staged = [&] { transform_device_grouped_study(items.data(), items.size(), harness.stream(), staged); };
    const detail::GroupedPlanHandle search_plan = detail::build_grouped_plan_cuda(items.data(), items.size(), harness.stream(), search);
    std::vector<std::pair<std::string, std::function<void()>>> variants = {
        {"memcpy-d2d", [&] { GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(copy_dst.get(), copy_src.get(), total, cudaMemcpyDeviceToDevice, harness.stream())); }},
        {"grouped", grouped},
        {"grouped-plan", planned},
        {"auto-per-image", per_image},
        {"per-image-graph", [&] { graph.launch(harness.stream()); }}};
    if (scratch_padding) variants.push_back({"grouped-plan-kept-padding", [&] { kept_plan.run(harness.stream()); }});
    variants.push_back({"grouped-staged", grouped_staged});
    // The same call with its tables built and copied every time: what a call costs whose images differ from the
    // thread's last call (the production row repeats one call, and so runs from the kept tables).
    const detail::GroupedSchedule rebuilt{0, true, true, false};
    const auto grouped_rebuilt = [&] { transform_device_grouped_study(items.data(), items.size(), harness.stream(), rebuilt); };
    variants.push_back({"grouped-rebuilt", grouped_rebuilt});
    variants.push_back({"grouped-descriptors", [&] { transform_device_grouped_study(items.data(), items.size(), harness.stream(), descriptors); }});
    variants.push_back({"grouped-plan-search", [&] { detail::run_grouped_plan_cuda(*search_plan, harness.stream()); }});
    // Study rows: a block runs N tiles of one image one after another (grouped_tiles_per_item is the default).
    for (const int per_item : {1, 2, 4, 8}) {
        variants.push_back({"grouped-" + std::to_string(per_item) + "-tiles",
                            [&items, &harness, per_item] {
                                transform_device_grouped_study(items.data(), items.size(), harness.stream(), {per_item, true});
                            }});
    }
    // The median times a call from an event recorded before it, so the host's share counts where the GPU
    // has nothing else to do meanwhile; the loop column times calls back to back, where it overlaps the
    // previous call's kernels.
    const std::string element_name = one_element ? std::string(name(*one_element)) : "per-image";
    notes << to_string(format) << " " << element_name << " x" << count << ": the host's share of one grouped call (repeated: the comparison with the last call and the "
          << "launches) " << std::fixed << std::setprecision(1) << harness.median_host_us(grouped) << " us (every table staged: " << harness.median_host_us(grouped_staged)
          << " us; built again: " << harness.median_host_us(grouped_rebuilt) << " us); of one planned run " << harness.median_host_us(planned) << " us\n";
    notes << to_string(format) << " " << element_name << " x" << count << ": the outputs' pitch padding is "
          << (scratch_padding ? "scratch (rows end on whole 32-byte sectors; grouped-plan-kept-padding is the plan without it)"
                              : "kept (--grouped-padding kept)")
          << "\n";
    const std::string sizes_name = sizes.size() > 1 ? "mixed" : std::to_string(sizes.front().width) + "x" + std::to_string(sizes.front().height);
    std::vector<Row> rows;
    for (const auto& [kernel_name, launch] : variants) {
        const bool ceiling = kernel_name == "memcpy-d2d";
        const bool study = kernel_name.find("-tiles") != std::string::npos || kernel_name.find("-kept-padding") != std::string::npos ||
                           kernel_name.find("-search") != std::string::npos || kernel_name == "grouped-staged" || kernel_name == "grouped-rebuilt";
        const char* family = ceiling ? "ceiling" : study ? "study" : "production";
        rows.push_back(timed_row(harness, kernel_name, family, ceiling || verify(launch), launch, bytes));
        rows.back().type = to_string(format);
        rows.back().op = element_name + " x" + std::to_string(count) + " " + sizes_name;
    }
    return rows;
}

const char* fused_kernel_name(detail::tuning::FusedKernel kernel) {
    switch (kernel) {
        case detail::tuning::FusedKernel::vectorized: return "vectorized";
        case detail::tuning::FusedKernel::tiled: return "tiled";
        case detail::tuning::FusedKernel::separate: break;
    }
    return "separate";
}

// `--fused-sweep`: at every size and type, the library's fused choice against the three ways it picks among, each
// timed and verified by bench_multi_output, one line a row as it is measured. Non-zero where an output was wrong.
int run_fused_sweep(const Harness& harness, const BenchOptions& options, const std::vector<PixelFormat>& types,
                    const std::vector<Orientation>& ops, std::ostream& out) {
    const std::vector<Extent> sizes = options.size_given ? std::vector<Extent>{{options.width, options.height}} : fused_sweep_sizes();
    const double tolerance = detail::tuning::fused_choice_tolerance;
    std::vector<FusedSweepRow> rows;
    print_fused_sweep_heading(out);
    for (const Extent size : sizes) {
        for (const PixelFormat format : types) {
            const RandomSource src = random_source(harness, size.width, size.height, format);
            FusedSweepRow row;
            row.type = to_string(format);
            row.size = size;
            bool fits = false;
            for (const Row& r : bench_multi_output(harness, ops, src.device.view, src.host)) {
                row.verified = row.verified && r.verified;
                const double ms = r.verified ? r.median_ms : 0;
                if (r.kernel == "multi-output") {
                    row.choice_ms = ms;
                } else if (r.kernel == "multi-out-vector") {
                    row.vectorized_ms = ms;
                    fits = true;
                } else if (r.kernel == "multi-out-tile32") {
                    row.tiled_ms = ms;
                } else {
                    row.separate_ms = ms;
                }
            }
            const int pixel_bytes = static_cast<int>(format.pixel_bytes());
            const bool swaps = std::any_of(ops.begin(), ops.end(), [](Orientation o) { return axis_map(o).swap_axes; });
            row.chosen = fused_kernel_name(detail::tuning::select_fused_for_targets(pixel_bytes, size.width, size.height, fits, swaps));
            print_fused_sweep_row(out, row, tolerance);
            rows.push_back(row);
        }
    }
    print_fused_sweep_summary(out, rows, tolerance);
    if (!options.json_path.empty()) {
        const cudaDeviceProp& prop = harness.device();
        FusedSweepContext context{prop.name, 0, 0, options.reps, tolerance};
        GPUROTATE_CUDA_CHECK(cudaDriverGetVersion(&context.driver));
        GPUROTATE_CUDA_CHECK(cudaRuntimeGetVersion(&context.runtime));
        std::ofstream f = open_json(options.json_path);
        write_fused_sweep_json(f, context, rows);
    }
    for (const FusedSweepRow& r : rows) {
        if (!r.verified) return static_cast<int>(ErrorCode::internal);
    }
    return 0;
}

}  // namespace

int run_bench(const BenchOptions& options, std::ostream& out) {
    if (options.list_kernels) {
        // The longest name and a space wide, so that no name runs into its family.
        const auto kernels = all_kernels(nullptr);
        int column = 0;
        for (const auto& k : kernels) column = std::max(column, static_cast<int>(k.name.size()) + 1);
        for (const auto& k : kernels) out << std::left << std::setw(column) << k.name << k.family << "\n";
        out << std::left << std::setw(column) << "multi-output" << "production (all --op elements from one read, vectorized; beside multi-out-tile32,\n"
            << std::setw(column) << "" << "the shared-memory fused kernel, and auto-xN, one launch per element)\n";
        out << std::left << std::setw(column) << "rotate" << "production (--op rotateDEG: rotate_device, any angle)\n"
            << std::setw(column) << "rotate-row-spans" << "study (--op rotateDEG: rotate, each footprint row staged only where its tile's taps reach)\n"
            << std::setw(column) << "rotate-whole-rows" << "study (--op rotateDEG: rotate, the footprint's bounding box staged whole)\n"
            << std::setw(column) << "rotate-tables-first" << "study (--op rotateDEG: rotate, each tile's tables made before its footprint's loads)\n"
            << std::setw(column) << "npp-rotate" << "peer (--op rotateDEG: nppiRotate)\n";
        return 0;
    }
    if (!cuda_available()) {
        std::string problem;
        cuda_devices(&problem);
        throw Error(ErrorCode::device, "gpurotate bench needs a GPU: " + problem);
    }
    Harness harness(options);
    Peers peers;
    const auto kernels = all_kernels(&peers);
    const cudaDeviceProp& prop = harness.device();
    int driver = 0, runtime = 0;
    GPUROTATE_CUDA_CHECK(cudaDriverGetVersion(&driver));
    GPUROTATE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    out << "gpurotate bench on " << prop.name << " (" << prop.multiProcessorCount << " SMs, " << prop.l2CacheSize / (1024 * 1024)
        << " MiB L2), driver " << driver / 1000 << "." << (driver % 1000) / 10 << ", runtime " << runtime / 1000 << "."
        << (runtime % 1000) / 10 << ", NPP " << (Peers::npp_compiled_in() ? "yes" : "not compiled in") << "\n"
        << "DRAM " << static_cast<int>(detail::current_device_dram_bandwidth_per_sm() / 1e9) << " GB/s per SM at peak: the production kernels' blocks-per-SM caps "
        << (detail::current_device_class() == detail::tuning::DeviceClass::h200 ? "of the H200 class (3-byte transposes only)" : "of the H100 class")
        << "\n";
    std::vector<PixelFormat> types = options.types;
    if (types.empty()) {
        for (const auto& t : bench_types()) types.push_back(t.second);
    }
    std::vector<Orientation> ops = options.operations;
    if (ops.empty() && options.rotations.empty()) ops.assign(std::begin(all_orientations) + 1, std::end(all_orientations));
    if (options.fused_sweep) {
        out << "fused sweep: all " << ops.size() << " elements from one image, " << options.reps
            << " samples per way (median, L2 flushed before each), every output verified; choice/fastest: the library's choice's time\n"
            << "over the fastest way's, SLOW over " << detail::tuning::fused_choice_tolerance << "\n\n";
        return run_fused_sweep(harness, options, types, ops, out);
    }
    out << "size " << options.width << "x" << options.height << ", " << options.reps
        << " samples per kernel (median, L2 flushed before each), GB/s = (bytes read + bytes written) / time;\n"
        << "loop GB/s: " << options.reps << " launches back to back; inside GB/s: one launch whose blocks repeat their work "
        << options.reps << " times (the paper's two timings)\n\n";


    std::vector<Row> all_rows;
    std::vector<std::pair<std::string, double>> memcpy_by_type;
    bool all_verified = true;
    if (options.grouped > 0) {  // the grouped launch study alone
        for (const PixelFormat format : types) {
            std::vector<Row> rows;
            std::ostringstream notes;
            // Each element for every image, then each image its own (as random augmentation has).
            std::vector<std::optional<Orientation>> elements(ops.begin(), ops.end());
            elements.push_back(std::nullopt);
            for (const std::optional<Orientation> o : elements) {
                for (Row& row : bench_grouped(harness, options.grouped, options.grouped_sizes, format, o, options.grouped_scratch_padding, notes)) {
                    all_verified = all_verified && row.verified;
                    rows.push_back(row);
                }
            }
            const double copy_gbps = rows.empty() ? 0 : rows.front().gbps;
            print_rows(out, rows, copy_gbps, copy_gbps);
            out << notes.str() << "\n" << std::flush;
            memcpy_by_type.emplace_back(to_string(format), copy_gbps);
            all_rows.insert(all_rows.end(), rows.begin(), rows.end());
        }
    }
    for (const PixelFormat format : options.grouped > 0 ? std::vector<PixelFormat>{} : types) {
        const std::string type_name = to_string(format);
        const int n = options.batch;
        // The batch is one tall image of n images stacked: image i starts i * pitch * height bytes in.
        RandomSource random = random_source(harness, options.width, options.height * n, format);
        const DeviceImage& src = random.device;
        const Image& host_src = random.host;
        const double bytes = 2.0 * static_cast<double>(src.view.row_bytes()) * static_cast<double>(options.height * n);

        std::vector<Row> rows;
        double memcpy_gbps = 0, best_copy_gbps = 0;
        for (const Orientation o : [&] {
                 if (ops.empty()) return std::vector<Orientation>{};  // rotations by any angle alone
                 std::vector<Orientation> with_identity{Orientation::identity};
                 with_identity.insert(with_identity.end(), ops.begin(), ops.end());
                 return with_identity;
             }()) {
            const Extent out_extent = output_extent(o, {options.width, options.height});
            DeviceImage dst(out_extent.width, out_extent.height * n, format);
            DeviceImage expected(out_extent.width, out_extent.height * n, format);
            // The expected output: the CPU backend, which the tests check against an independent reference.
            Image host_expected(out_extent.width, out_extent.height * n, format, HostMemory::pinned);
            for (int i = 0; i < n; ++i) {
                ConstImageView in = host_src.view();
                ImageView out = host_expected.view();
                in.data += static_cast<std::size_t>(i) * in.pitch * static_cast<std::size_t>(options.height);
                out.data += static_cast<std::size_t>(i) * out.pitch * static_cast<std::size_t>(out_extent.height);
                in.height = options.height;
                out.height = out_extent.height;
                gpurotate::transform(in, out, o, Backend::cpu);
            }
            GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(expected.view.data, expected.view.pitch, host_expected.data(), host_expected.view().pitch,
                                                   expected.view.row_bytes(), static_cast<std::size_t>(out_extent.height * n),
                                                   cudaMemcpyHostToDevice, harness.stream()));
            // Ceilings copy the batch as one tall image; the kernels see image 0 and the batch size.
            ConstImageView src0 = src.view;
            ImageView dst0 = dst.view;
            if (o != Orientation::identity) {
                src0.height = options.height;
                dst0.height = out_extent.height;
            }
            const Case c{src0, dst0, o, harness.stream(), o == Orientation::identity ? 1 : n, dst.view};
            for (const BenchKernel& k : kernels) {
                const bool ceiling_for_shares = !options.no_ceilings && is_identity(c) && k.family == "ceiling";
                if (!selected(options.kernels, k.name) && !ceiling_for_shares) continue;
                if (!k.applies(c)) continue;
                ConstImageView k_expected = expected.view;
                std::optional<DeviceImage> own;
                if (k.own_expected) {
                    // Verified against its own definition: the diagnostics are not the element.
                    Image host_own(out_extent.width, out_extent.height * n, format);
                    k.own_expected(host_src.view(), host_own.view());
                    own.emplace(out_extent.width, out_extent.height * n, format);
                    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(own->view.data, own->view.pitch, host_own.data(), host_own.view().pitch,
                                                           own->view.row_bytes(), static_cast<std::size_t>(out_extent.height * n),
                                                           cudaMemcpyHostToDevice, harness.stream()));
                    GPUROTATE_CUDA_CHECK(cudaStreamSynchronize(harness.stream()));
                    k_expected = own->view;
                }
                Row row = harness.measure(k, c, k_expected, bytes);
                row.type = type_name;
                row.op = std::string(name(o));
                all_verified = all_verified && row.verified;
                if (row.verified && k.family == "ceiling") {
                    if (k.name == "memcpy-d2d") memcpy_gbps = row.gbps;
                    best_copy_gbps = std::max(best_copy_gbps, row.gbps);
                }
                rows.push_back(row);
            }
        }
        if (ops.size() > 1 && n == 1 && (selected(options.kernels, "multi-output") || selected(options.kernels, "auto"))) {
            ConstImageView src_image = src.view;
            for (Row& row : bench_multi_output(harness, ops, src_image, host_src)) {
                row.type = type_name;
                all_verified = all_verified && row.verified;
                rows.push_back(row);
            }
        }
        std::ostringstream notes;
        if (!options.rotations.empty()) {
            for (Row& row : bench_rotations(harness, peers, options, src.view, host_src, notes)) {
                row.type = type_name;
                all_verified = all_verified && row.verified;
                rows.push_back(row);
            }
        }
        print_rows(out, rows, memcpy_gbps, best_copy_gbps);
        out << notes.str() << "\n" << std::flush;
        memcpy_by_type.emplace_back(type_name, memcpy_gbps);
        all_rows.insert(all_rows.end(), rows.begin(), rows.end());
    }
    if (!options.json_path.empty()) write_json(options.json_path, prop, options, all_rows, memcpy_by_type);
    if (!all_verified) {
        out << "SOME KERNELS PRODUCED WRONG OUTPUT (rows marked above)\n";
        return static_cast<int>(ErrorCode::internal);
    }
    return 0;
}

}  // namespace gpurotate::bench
