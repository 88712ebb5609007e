// The CUDA backend for host images: upload, one kernel, download, on a stream of its own; or, when the
// source and result do not fit the device memory budget together, the same in bands of source rows that
// stream through two sets of buffers on two streams (one band's transfers overlap the other's kernel).

#include "check.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/nvtx.hpp"
#include "core/source_bands.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <string>

namespace gpurotate::detail {
namespace {

// Left to the driver, other processes' growth and the kernels' own needs when the budget is "free memory".
constexpr double free_memory_share = 0.9;

std::size_t device_budget(std::size_t gpu_memory) {
    std::size_t free_bytes = 0, total_bytes = 0;
    GPUROTATE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const auto usable = static_cast<std::size_t>(static_cast<double>(free_bytes) * free_memory_share);
    return gpu_memory ? std::min(gpu_memory, usable) : usable;
}

// Device bytes for one band of `rows` source rows: its source and its part of the output.
std::size_t band_bytes(ConstImageView src, AxisMap map, std::int64_t rows) {
    const auto r = static_cast<std::size_t>(rows);
    const std::size_t src_bytes = device_pitch(src.row_bytes()) * r;
    const std::size_t dst_bytes = map.swap_axes ? device_pitch(r * src.format.pixel_bytes()) * static_cast<std::size_t>(src.width)
                                                : device_pitch(src.row_bytes()) * r;
    return src_bytes + dst_bytes;
}

// One buffer pair and its stream; bands alternate between two of these.
struct BandSlot {
    Stream stream;
    DeviceBuffer src;
    DeviceBuffer dst;
};

void run_one_band(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, std::int64_t y0, std::int64_t rows, BandSlot& slot) {
    const ConstImageView host_band(src.row(y0), src.width, rows, src.pitch, src.format);
    const PixelRect rect = output_rect_of_source_rows(map, src.extent(), y0, rows);
    const ImageView host_out{dst.row(rect.y) + static_cast<std::size_t>(rect.x) * dst.format.pixel_bytes(), rect.width, rect.height,
                             dst.pitch, dst.format};
    const ImageView d_src{slot.src.get(), src.width, rows, device_pitch(src.row_bytes()), src.format};
    const ImageView d_dst{slot.dst.get(), rect.width, rect.height, device_pitch(host_out.row_bytes()), dst.format};
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(d_src.data, d_src.pitch, host_band.data, host_band.pitch, host_band.row_bytes(),
                                           static_cast<std::size_t>(rows), cudaMemcpyHostToDevice, slot.stream.get()));
    transform_device_cuda(d_src, d_dst, map, kernel, slot.stream.get());
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(host_out.data, host_out.pitch, d_dst.data, d_dst.pitch, host_out.row_bytes(),
                                           static_cast<std::size_t>(host_out.height), cudaMemcpyDeviceToHost, slot.stream.get()));
}

void transform_in_bands(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, std::size_t budget) {
    NvtxRange range("banded transform");
    const auto rows_fitting = [&](std::size_t bytes) {  // band_bytes grows with the rows: bisect
        std::int64_t lo = 0, hi = src.height;
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo + 1) / 2;
            if (band_bytes(src, map, mid) <= bytes) lo = mid; else hi = mid - 1;
        }
        return lo;
    };
    // Two slots, or one where two do not fit even one row each.
    int slots = 2;
    std::int64_t rows = rows_fitting(budget / 2);
    if (rows == 0) {
        slots = 1;
        rows = rows_fitting(budget);
    }
    if (rows == 0) {
        throw Error(ErrorCode::device, "image of " + std::to_string(src.width) + "x" + std::to_string(src.height) +
                                           " does not fit the device memory budget of " + std::to_string(budget) +
                                           " bytes even one row at a time (" + std::to_string(band_bytes(src, map, 1)) + " bytes)");
    }
    // Whole groups of 16 rows keep the output bands' pitches in whole vectors.
    if (rows > 16 && rows < src.height) rows -= rows % 16;
    BandSlot slot_storage[2];
    for (int s = 0; s < slots; ++s) {
        slot_storage[s].src = DeviceBuffer(device_pitch(src.row_bytes()) * static_cast<std::size_t>(rows));
        slot_storage[s].dst = DeviceBuffer(band_bytes(src, map, rows) - device_pitch(src.row_bytes()) * static_cast<std::size_t>(rows));
    }
    int next = 0;
    for (std::int64_t y0 = 0; y0 < src.height; y0 += rows) {
        run_one_band(src, dst, map, kernel, y0, std::min(rows, src.height - y0), slot_storage[next]);
        next = (next + 1) % slots;
    }
    for (int s = 0; s < slots; ++s) slot_storage[s].stream.synchronize();
}

}  // namespace

void transform_host_cuda(ConstImageView src, ImageView dst, AxisMap map, CudaKernel kernel, std::size_t gpu_memory) {
    const std::size_t budget = device_budget(gpu_memory);
    if (band_bytes(src, map, src.height) > budget) {
        transform_in_bands(src, dst, map, kernel, budget);
        return;
    }
    Stream stream;
    const std::size_t src_pitch = device_pitch(src.row_bytes());
    const std::size_t dst_pitch = device_pitch(dst.row_bytes());
    DeviceBuffer device_src(src_pitch * static_cast<std::size_t>(src.height));
    DeviceBuffer device_dst(dst_pitch * static_cast<std::size_t>(dst.height));
    ImageView d_src{device_src.get(), src.width, src.height, src_pitch, src.format};
    ImageView d_dst{device_dst.get(), dst.width, dst.height, dst_pitch, dst.format};
    {
        NvtxRange range("upload");
        GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(d_src.data, d_src.pitch, src.data, src.pitch, src.row_bytes(),
                                               static_cast<std::size_t>(src.height), cudaMemcpyHostToDevice, stream.get()));
    }
    {
        NvtxRange range("kernel");
        transform_device_cuda(d_src, d_dst, map, kernel, stream.get());
    }
    NvtxRange range("download");
    GPUROTATE_CUDA_CHECK(cudaMemcpy2DAsync(dst.data, dst.pitch, d_dst.data, d_dst.pitch, dst.row_bytes(),
                                           static_cast<std::size_t>(dst.height), cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
}

}  // namespace gpurotate::detail
