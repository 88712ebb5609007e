// `gpurotate bench --cpu`: the CPU backend against OpenCV's rotate/flip/transpose and against a memcpy of
// the same bytes on the same threads, the three interleaved sample by sample so that whatever else the
// machine runs slows them alike and the ratios stay meaningful.

#include "bench/bench.hpp"

#include "core/parallel_for.hpp"
#include "cpu/transform_cpu.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iomanip>
#include <ostream>
#include <random>

#if GPUROTATE_BENCH_WITH_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#endif

namespace gpurotate::bench {
namespace {

constexpr Orientation timed_elements[] = {Orientation::rot90,  Orientation::rot180,    Orientation::rot270,   Orientation::flip_h,
                                          Orientation::flip_v, Orientation::transpose, Orientation::transverse};

// Written out per element from its definition (as tests/reference.hpp is), sharing nothing with the backend.
void plain_transform(ConstImageView in, ImageView out, Orientation o) {
    const std::int64_t w = in.width, h = in.height;
    const std::size_t pixel = in.format.pixel_bytes();
    for (std::int64_t y = 0; y < out.height; ++y) {
        for (std::int64_t x = 0; x < out.width; ++x) {
            std::int64_t sx = x, sy = y;
            switch (o) {
                case Orientation::identity: break;
                case Orientation::rot90: sx = y; sy = h - 1 - x; break;
                case Orientation::rot180: sx = w - 1 - x; sy = h - 1 - y; break;
                case Orientation::rot270: sx = w - 1 - y; sy = x; break;
                case Orientation::flip_h: sx = w - 1 - x; break;
                case Orientation::flip_v: sy = h - 1 - y; break;
                case Orientation::transpose: sx = y; sy = x; break;
                case Orientation::transverse: sx = w - 1 - y; sy = h - 1 - x; break;
            }
            std::memcpy(out.row(y) + x * pixel, in.row(sy) + sx * pixel, pixel);
        }
    }
}

bool same_pixels(ConstImageView a, ConstImageView b) {
    for (std::int64_t y = 0; y < a.height; ++y) {
        if (std::memcmp(a.row(y), b.row(y), a.row_bytes()) != 0) return false;
    }
    return true;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F>
double milliseconds_of(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

#if GPUROTATE_BENCH_WITH_OPENCV
int opencv_depth(SampleType s) {
    switch (s) {
        case SampleType::u8: return CV_8U;
        case SampleType::u16: return CV_16U;
        case SampleType::f32: return CV_32F;
    }
    throw Error(ErrorCode::internal, "no OpenCV depth for this sample type");
}

cv::Mat opencv_header(BasicImageView<std::byte> v) {
    return cv::Mat(static_cast<int>(v.height), static_cast<int>(v.width), CV_MAKETYPE(opencv_depth(v.format.sample), v.format.channels),
                   v.data, v.pitch);
}

// OpenCV's calls for each element; transverse has none of its own, so it is a transpose and a flip in place.
void opencv_transform(const cv::Mat& in, cv::Mat& out, Orientation o) {
    switch (o) {
        case Orientation::identity: in.copyTo(out); break;
        case Orientation::rot90: cv::rotate(in, out, cv::ROTATE_90_CLOCKWISE); break;
        case Orientation::rot180: cv::rotate(in, out, cv::ROTATE_180); break;
        case Orientation::rot270: cv::rotate(in, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        case Orientation::flip_h: cv::flip(in, out, 1); break;
        case Orientation::flip_v: cv::flip(in, out, 0); break;
        case Orientation::transpose: cv::transpose(in, out); break;
        case Orientation::transverse:
            cv::transpose(in, out);
            cv::flip(out, out, -1);
            break;
    }
}
#endif

struct CpuRow {
    std::string type;
    Orientation op;
    bool verified = false;
    bool opencv_verified = false;
    double ms = 0, memcpy_ms = 0, opencv_ms = 0;  // opencv_ms 0: not built with OpenCV
};

// The source, its element's output and the output's reference, for one size and type.
struct Buffers {
    Image src, out, expected;
};

void print_rows(const std::vector<CpuRow>& rows, std::size_t bytes_moved, std::ostream& out) {
    out << std::left << std::setw(7) << "type" << std::setw(12) << "op" << std::right << std::setw(9) << "ms" << std::setw(8) << "GB/s"
        << std::setw(9) << "%memcpy" << std::setw(11) << "memcpy ms" << std::setw(11) << "OpenCV ms" << std::setw(10) << "vs OpenCV"
        << "  verified\n";
    for (const CpuRow& r : rows) {
        out << std::left << std::setw(7) << r.type << std::setw(12) << name(r.op) << std::right << std::fixed << std::setprecision(2)
            << std::setw(9) << r.ms << std::setprecision(1) << std::setw(8) << static_cast<double>(bytes_moved) / (r.ms * 1e6)
            << std::setw(8) << 100.0 * r.memcpy_ms / r.ms << "%" << std::setprecision(2) << std::setw(11) << r.memcpy_ms;
        if (r.opencv_ms > 0) {
            out << std::setw(11) << r.opencv_ms << std::setw(9) << r.opencv_ms / r.ms << "x";
        } else {
            out << std::setw(11) << "-" << std::setw(10) << "-";
        }
        out << "  " << (r.verified ? "yes" : "WRONG OUTPUT");
        if (r.opencv_ms > 0 && !r.opencv_verified) out << " (OpenCV's differs)";
        out << "\n";
    }
}

}  // namespace

int run_cpu_bench(const BenchOptions& options, std::ostream& out) {
    detail::CpuKernels kernels = detail::runnable_cpu_kernels().back();
    if (!options.cpu_kernels.empty()) {
        kernels = options.cpu_kernels == "avx2" ? detail::CpuKernels::avx2 : detail::CpuKernels::baseline;
        const auto& runnable = detail::runnable_cpu_kernels();
        if (std::find(runnable.begin(), runnable.end(), kernels) == runnable.end()) {
            throw Error(ErrorCode::usage, "--cpu-kernels " + options.cpu_kernels + ": not built or not runnable on this CPU");
        }
    }
    const detail::CpuStores stores = options.cpu_stores == "plain"       ? detail::CpuStores::cached
                                     : options.cpu_stores == "streaming" ? detail::CpuStores::streaming
                                                                         : detail::CpuStores::by_size;
    const unsigned threads = options.threads ? options.threads : detail::usable_cores();
    const std::vector<Extent> sizes =
        options.size_given ? std::vector<Extent>{{options.width, options.height}} : std::vector<Extent>{{6000, 4000}, {1920, 1080}};
    std::vector<std::pair<std::string, PixelFormat>> types;
    for (const auto& [type_name, format] : bench_types()) {
        const bool listed = options.types.empty() ? (type_name == "u8c1" || type_name == "u8c3" || type_name == "u8c4" ||
                                                     type_name == "u16c3" || type_name == "f32c1")
                                                  : std::find(options.types.begin(), options.types.end(), format) != options.types.end();
        if (listed) types.emplace_back(type_name, format);
    }
    const std::vector<Orientation> elements =
        options.operations.empty() ? std::vector<Orientation>(std::begin(timed_elements), std::end(timed_elements)) : options.operations;
#if GPUROTATE_BENCH_WITH_OPENCV
    cv::setNumThreads(static_cast<int>(threads));
    const std::string opencv_note = std::string("OpenCV ") + CV_VERSION + " (cv::setNumThreads(" + std::to_string(threads) + "))";
#else
    const std::string opencv_note = "OpenCV: not built with it";
#endif
    const unsigned cores = detail::usable_cores();
    out << "gpurotate bench --cpu: " << cores << (cores == 1 ? " usable core, " : " usable cores, ") << threads << " used; "
        << name(kernels) << " kernels; mirrors' stores "
        << (options.cpu_stores.empty() ? "streaming from " + std::to_string(detail::streaming_store_min_bytes() >> 10) + " KiB of output" : options.cpu_stores)
        << "; " << opencv_note
        << "\n" << options.reps << " samples each (median), gpurotate, OpenCV and a memcpy of the same bytes on the same threads interleaved;\n"
        << "GB/s = (bytes read + bytes written) / time; %memcpy = memcpy time / gpurotate time; vs OpenCV = OpenCV time / gpurotate time;\n"
        << "OpenCV's transverse is cv::transpose then cv::flip(-1) in place\n";

    bool all_verified = true;
    for (const Extent size : sizes) {
        for (const auto& [type_name, format] : types) {
            std::vector<CpuRow> rows;
            Buffers b{Image(size.width, size.height, format), {}, {}};
            std::mt19937 random(12345);
            std::generate(b.src.data(), b.src.data() + b.src.size_bytes(), [&] { return static_cast<std::byte>(random()); });
            Image copy_target(size.width, size.height, format);
            const ConstImageView src = b.src.view();
            const std::size_t bytes = b.src.size_bytes();
            const auto threaded_memcpy = [&] {
                // Cut on 4 KiB pages so that each thread's stores fill whole lines of its own; as many bytes a
                // thread as the backend's mirrors (its copies) take, so that a small image's copy does not time
                // waking a thread where a single one is faster.
                const auto pages = static_cast<std::int64_t>((bytes + 4095) / 4096);
                detail::parallel_for(pages, detail::min_bytes_per_thread_mirrors / 4096, [&](std::int64_t begin, std::int64_t end) {
                    const std::size_t from = static_cast<std::size_t>(begin) * 4096;
                    const std::size_t to = std::min(bytes, static_cast<std::size_t>(end) * 4096);
                    std::memcpy(copy_target.data() + from, b.src.data() + from, to - from);
                }, threads);
            };
            for (const Orientation o : elements) {
                const Extent out_extent = output_extent(o, size);
                b.out = Image(out_extent.width, out_extent.height, format);
                b.expected = Image(out_extent.width, out_extent.height, format);
                plain_transform(src, b.expected.view(), o);
                CpuRow row{type_name, o};
                const auto ours = [&] { detail::transform_cpu(src, b.out.view(), axis_map(o), threads, kernels, stores); };
                std::memset(b.out.data(), 0xa5, b.out.size_bytes());
                ours();
                row.verified = same_pixels(b.out.view(), b.expected.view());
                all_verified = all_verified && row.verified;
                std::vector<double> our_samples, memcpy_samples, opencv_samples;
#if GPUROTATE_BENCH_WITH_OPENCV
                Image opencv_out(out_extent.width, out_extent.height, format);
                const cv::Mat cv_in = opencv_header({b.src.data(), size.width, size.height, src.pitch, format});
                cv::Mat cv_out = opencv_header(opencv_out.view());
                const auto theirs = [&] { opencv_transform(cv_in, cv_out, o); };
                theirs();
                if (cv_out.data != reinterpret_cast<uchar*>(opencv_out.data())) throw Error(ErrorCode::internal, "OpenCV reallocated the output");
                row.opencv_verified = same_pixels(opencv_out.view(), b.expected.view());
#endif
                threaded_memcpy();  // warm: pages of the copy's target touched once before timing
                for (int rep = 0; rep < options.reps; ++rep) {
                    our_samples.push_back(milliseconds_of(ours));
                    memcpy_samples.push_back(milliseconds_of(threaded_memcpy));
#if GPUROTATE_BENCH_WITH_OPENCV
                    opencv_samples.push_back(milliseconds_of(theirs));
#endif
                }
                row.ms = median(our_samples);
                row.memcpy_ms = median(memcpy_samples);
                if (!opencv_samples.empty()) row.opencv_ms = median(opencv_samples);
                rows.push_back(row);
            }
            out << "\n" << size.width << "x" << size.height << " " << type_name << "\n";
            print_rows(rows, 2 * bytes, out);
            out << std::flush;
        }
    }
    return all_verified ? 0 : 1;
}

}  // namespace gpurotate::bench
