// The launcher of rotation by any angle (kernels/rotate.cuh): the weight tables copied to each GPU once and
// kept for the process, the plans' weights pointed at that copy; one launch for one image, and for a group
// one launch per interpolation present, its images' items in a table on the GPU (blockIdx.z picks one).

#include "check.cuh"
#include "device_query.cuh"
#include "kernels/rotate.cuh"
#include "launch_rotate.cuh"
#include "table_staging.cuh"

#include "core/rotation_tables.hpp"
#include "frontend/cuda_backend.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gpurotate::detail {
namespace {

/// The current GPU's copy of rotation_tables(), uploaded on its first use (a synchronous copy, once per GPU
/// and process). The buffers are never freed: a kernel enqueued by any thread may still read them.
const std::byte* device_rotation_tables() {
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    static std::mutex mutex;
    static auto* copies = new std::map<int, DeviceBuffer>();  // leaked: no cudaFree after the runtime's teardown
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = copies->find(device);
    if (found == copies->end()) {
        DeviceBuffer buffer(sizeof(RotationTables));
        GPUROTATE_CUDA_CHECK(cudaMemcpy(buffer.get(), &rotation_tables(), sizeof(RotationTables), cudaMemcpyHostToDevice));
        found = copies->emplace(device, std::move(buffer)).first;
    }
    return found->second.get();
}

bool aligned(const void* p, std::size_t pitch, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && pitch % bytes == 0;
}

/// The item of one image, its plan's weights pointed at the GPU's tables.
RotationItem device_item(ConstImageView src, ImageView dst, const RotationPlan& plan, const std::byte* tables) {
    const std::size_t sample = sample_bytes(src.format.sample);
    if (!aligned(src.data, src.pitch, sample) || !aligned(dst.data, dst.pitch, sample)) {
        throw Error(ErrorCode::usage, "rotation on the GPU: device pointers and pitches must be multiples of the sample's " +
                                          std::to_string(sample) + " bytes");
    }
    RotationItem item{plan, src.data, src.pitch, dst.data, dst.pitch};
    if (plan.interpolation != Interpolation::nearest) item.plan.weights = tables + rotation_weights_offset(plan.interpolation, plan.sample);
    return item;
}

/// The shared memory of the launch: the weight table (where the kernel copies it) and the largest footprint
/// of `items`' plans; and the grid: per image (the grid's z) as many blocks as the GPU keeps at once over
/// the whole launch, but no more than the image has tiles (each block then loops over tiles). `Shifted`: the
/// tiles of each output row moved to its 16-byte words (RotationShift).
template <class Sample, int Channels, Interpolation Interp, bool Shifted>
void launch_kernel(const RotationItem* items, std::size_t count, RotationLaunch& launch, cudaStream_t stream) {
    constexpr int pixel_bytes = static_cast<int>(sizeof(Sample)) * Channels;
    using Shape = RotateTileShape<pixel_bytes>;
    constexpr int extra = Shifted ? RotationShift<pixel_bytes>::extra_columns : 0;
    constexpr int table_bytes = rotation_shared_table_bytes<Sample, Interp>();
    const auto kernel = rotate_kernel<Sample, Channels, Interp, Shifted>;
    launch.footprint_bytes = 0;
    long long most_tiles = 0;
    for (std::size_t i = 0; i < count; ++i) {
        launch.footprint_bytes = std::max(launch.footprint_bytes, rotation_footprint_bytes<pixel_bytes>(items[i].plan, extra));
        const long long tiles = (items[i].plan.dst_width + extra + Shape::side - 1LL) / Shape::side * ((items[i].plan.dst_height + Shape::side - 1LL) / Shape::side);
        most_tiles = std::max(most_tiles, tiles);
    }
    launch.direct_reads = 0;
    if constexpr (rotation_direct_reads(pixel_bytes, Interp)) {
        bool all_aligned = true;
        for (std::size_t i = 0; i < count; ++i) all_aligned = all_aligned && aligned(items[i].src, items[i].src_pitch, rotation_direct_alignment(pixel_bytes));
        if (all_aligned) {
            launch.direct_reads = 1;
            launch.footprint_bytes = 0;
        }
    }
    const int shared = table_bytes + launch.footprint_bytes;
    // Past 48 KiB a kernel must ask (the 8-bit bicubic table and a large footprint); once per kernel and GPU,
    // for the most any plan asks.
    thread_local std::map<std::pair<int, const void*>, bool> opted_in;
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    bool& opted = opted_in[{device, reinterpret_cast<const void*>(kernel)}];
    if (!opted) {
        GPUROTATE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, table_bytes + rotation_footprint_cap));
        opted = true;
    }
    int per_sm = 0;
    GPUROTATE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Shape::threads, static_cast<std::size_t>(shared)));
    const long long resident = static_cast<long long>(std::max(per_sm, 1)) * current_device_multiprocessors();
    const long long per_image = std::clamp<long long>(resident / static_cast<long long>(count), 1, std::max<long long>(most_tiles, 1));
    const dim3 grid(static_cast<unsigned>(per_image), 1, static_cast<unsigned>(count));
    kernel<<<grid, Shape::threads, static_cast<std::size_t>(shared), stream>>>(launch);
    GPUROTATE_CUDA_CHECK(cudaGetLastError());
}

template <class Sample, int Channels, Interpolation Interp>
void launch_shifted_or_not(const RotationItem* items, std::size_t count, RotationLaunch& launch, cudaStream_t stream) {
    // Shifted where some output's rows miss 16-byte words and every output's rows start at the pixel's
    // alignment; otherwise the unshifted kernel, whose stores take any row.
    constexpr int pixel_bytes = static_cast<int>(sizeof(Sample)) * Channels;
    bool some_unaligned = false, all_at_alignment = true;
    for (std::size_t i = 0; i < count; ++i) {
        some_unaligned = some_unaligned || !aligned(items[i].dst, items[i].dst_pitch, 16);
        all_at_alignment = all_at_alignment && aligned(items[i].dst, items[i].dst_pitch, RotateTileShape<pixel_bytes>::alignment);
    }
    if constexpr (RotateTileShape<pixel_bytes>::run > 1) {  // 16-byte pixels keep every row on its words
        if (some_unaligned && all_at_alignment) return launch_kernel<Sample, Channels, Interp, true>(items, count, launch, stream);
    }
    launch_kernel<Sample, Channels, Interp, false>(items, count, launch, stream);
}

/// `items` on the host (one image: passed in the launch's parameters) and, for a group, `device_items` their
/// copy on the GPU.
template <class Sample, int Channels>
void launch_items(const RotationItem* items, const RotationItem* device_items, std::size_t count, const RotationLevers& levers,
                  cudaStream_t stream) {
    constexpr int pixel_bytes = static_cast<int>(sizeof(Sample)) * Channels;
    const bool spans = levers.row_spans.value_or(rotation_row_spans_pay(pixel_bytes, items[0].plan.interpolation));
    RotationLaunch launch{device_items, items[0], 0, 0, spans ? 1 : 0, levers.tables_first ? 1 : 0};
    switch (items[0].plan.interpolation) {
        case Interpolation::nearest: return launch_shifted_or_not<Sample, Channels, Interpolation::nearest>(items, count, launch, stream);
        case Interpolation::bilinear: return launch_shifted_or_not<Sample, Channels, Interpolation::bilinear>(items, count, launch, stream);
        case Interpolation::bicubic: return launch_shifted_or_not<Sample, Channels, Interpolation::bicubic>(items, count, launch, stream);
    }
}

template <class Sample>
void launch_samples(PixelFormat format, const RotationItem* items, const RotationItem* device_items, std::size_t count,
                    const RotationLevers& levers, cudaStream_t stream) {
    switch (format.channels) {
        case 1: return launch_items<Sample, 1>(items, device_items, count, levers, stream);
        case 2: return launch_items<Sample, 2>(items, device_items, count, levers, stream);
        case 3: return launch_items<Sample, 3>(items, device_items, count, levers, stream);
        case 4: return launch_items<Sample, 4>(items, device_items, count, levers, stream);
        default: throw Error(ErrorCode::usage, "rotation: " + std::to_string(format.channels) + " channels (1 to 4)");
    }
}

void launch_format(PixelFormat format, const RotationItem* items, const RotationItem* device_items, std::size_t count,
                   const RotationLevers& levers, cudaStream_t stream) {
    switch (format.sample) {
        case SampleType::u8: return launch_samples<std::uint8_t>(format, items, device_items, count, levers, stream);
        case SampleType::u16: return launch_samples<std::uint16_t>(format, items, device_items, count, levers, stream);
        case SampleType::f32: return launch_samples<float>(format, items, device_items, count, levers, stream);
    }
    throw Error(ErrorCode::usage, "rotation: unknown sample type");
}

}  // namespace

void rotate_device_levers(ConstImageView src, ImageView dst, const RotationPlan& plan, const RotationLevers& levers, CUstream_st* stream) {
    const RotationItem item = device_item(src, dst, plan, device_rotation_tables());
    launch_format(src.format, &item, nullptr, 1, levers, stream);
}

void rotate_device_cuda(ConstImageView src, ImageView dst, const RotationPlan& plan, CUstream_st* stream) {
    rotate_device_levers(src, dst, plan, RotationLevers{}, stream);
}

void rotate_device_grouped_cuda(const RotationJob* jobs, std::size_t count, CUstream_st* stream) {
    const std::byte* tables = device_rotation_tables();
    // One launch per interpolation present (the kernel is compiled for one), each of at most 65535 images
    // (the grid's z).
    constexpr std::size_t most = 65535;
    for (Interpolation interpolation : all_interpolations) {
        thread_local std::vector<RotationItem> items;
        items.clear();
        for (std::size_t i = 0; i < count; ++i) {
            if (jobs[i].plan.interpolation == interpolation) items.push_back(device_item(jobs[i].src, jobs[i].dst, jobs[i].plan, tables));
        }
        for (std::size_t first = 0; first < items.size(); first += most) {
            const std::size_t n = std::min(most, items.size() - first);
            const std::size_t bytes = n * sizeof(RotationItem);
            TableStaging& staging = TableStaging::for_this_thread();
            std::byte* const host_table = staging.reserve(bytes);
            std::memcpy(host_table, items.data() + first, bytes);
            void* device_table = nullptr;
            GPUROTATE_CUDA_CHECK(cudaMallocFromPoolAsync(&device_table, bytes, table_pool(), stream));
            GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(device_table, host_table, bytes, cudaMemcpyHostToDevice, stream));
            staging.copied_on(stream);
            launch_format(jobs[0].src.format, items.data() + first, static_cast<const RotationItem*>(device_table), n, RotationLevers{}, stream);
            GPUROTATE_CUDA_CHECK(cudaFreeAsync(device_table, stream));
        }
    }
}

void rotate_host_cuda(ConstImageView src, ImageView dst, const RotationPlan& plan) {
    Stream stream;
    const std::size_t src_pitch = device_pitch(src.row_bytes());
    const std::size_t dst_pitch = device_pitch(dst.row_bytes());
    DeviceBuffer device_src(src_pitch * static_cast<std::size_t>(src.height));
    DeviceBuffer device_dst(dst_pitch * static_cast<std::size_t>(dst.height));
    const ImageView d_src{device_src.get(), src.width, src.height, src_pitch, src.format};
    const ImageView d_dst{device_dst.get(), dst.width, dst.height, dst_pitch, dst.format};
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(d_src.data, d_src.pitch, src.data, src.pitch, src.row_bytes(), static_cast<std::size_t>(src.height),
                                           cudaMemcpyHostToDevice, stream.get()));
    rotate_device_cuda(d_src, d_dst, plan, stream.get());
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, d_dst.data, d_dst.pitch, dst.row_bytes(), static_cast<std::size_t>(dst.height),
                                           cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
}

}  // namespace gpurotate::detail
