#pragma once
// The measurements the fused multi-output rule is checked against (tuning_transform.hpp's select_fused): for each
// device class, pixel type and size, the median milliseconds of all 7 elements at once by the vectorized fused
// kernel (`multi-out-vector`; 0 where its alignment rules refuse the size), the shared-memory fused kernel
// (`multi-out-tile32`) and one automatic launch per element (`auto-x7`).
//
// Command: `gpurotate bench --size S --type u8c1,u8c3,u8c4,u16c1,u16c3,u16c4,f32c1,f32c3,f32c4
//           --kernel multi-output,multi-out-vector,multi-out-tile32,auto-x7 --reps 20`, S = 8192x8192, 4000x3000, 1920x1080.
// - h100: NVIDIA H100 80GB HBM3, driver 580.159.04, CUDA 13.0, 2026-11-25 (code 5bf8a98, whose fused kernels are
//   today's), bench/results/2026-11-25-h100-multi-output-{8192x8192,4000x3000,1920x1080}.txt (with u8c2). Not
//   measured again since (no H100 is lent now): of the seven launches, rot270 and transverse gained 0.3-1.6 points
//   of copy on 2026-11-27 (tiles taken from the source's start), so `auto-x7` would now read a little faster.
// - h100 sweep: 15 sizes from 512x512 to 16384x16384, odd and power-of-two sides, at the end of the table.
// - h200: NVIDIA H200, driver 580.159.04, CUDA 13.0, Ubuntu 24.04, 2026-11-28 (code 96efc5b),
//   bench/results/2026-11-28-h200-fused-{8192x8192,4000x3000,1920x1080}.txt.

#include <cstdint>

namespace gpurotate::detail::tuning {

/// The GPUs the tables were measured on, told apart by DRAM bandwidth per SM (tuning_transform.hpp).
enum class DeviceClass : std::uint8_t {
    h100,  ///< H100 SXM: 3.35 TB/s over 132 SMs, 25 GB/s an SM (and any device of 30 GB/s an SM or less)
    h200,  ///< H200: 4.8 TB/s over 132 SMs, 36 GB/s an SM (and any device of more)
};

/// One measured row: milliseconds of each way to make all 7 elements of one image (0: not measured).
struct FusedMeasurement {
    DeviceClass device;
    const char* type;
    int pixel_bytes;
    int width, height;
    double vectorized_ms, tiled_ms, separate_ms;
};

inline constexpr FusedMeasurement fused_measurements[] = {
    {DeviceClass::h100, "u8c1", 1, 8192, 8192, 0.192, 0.965, 0.345},
    {DeviceClass::h100, "u8c2", 2, 8192, 8192, 0.421, 0.918, 0.671},
    {DeviceClass::h100, "u8c3", 3, 8192, 8192, 0.615, 1.051, 1.017},
    {DeviceClass::h100, "u8c4", 4, 8192, 8192, 0.849, 0.918, 1.339},
    {DeviceClass::h100, "u16c1", 2, 8192, 8192, 0.422, 0.918, 0.673},
    {DeviceClass::h100, "u16c3", 6, 8192, 8192, 1.268, 1.331, 1.971},
    {DeviceClass::h100, "u16c4", 8, 8192, 8192, 1.701, 1.550, 2.641},
    {DeviceClass::h100, "f32c1", 4, 8192, 8192, 0.847, 0.918, 1.333},
    {DeviceClass::h100, "f32c3", 12, 8192, 8192, 2.478, 2.571, 3.888},
    {DeviceClass::h100, "f32c4", 16, 8192, 8192, 3.317, 3.097, 5.050},
    {DeviceClass::h100, "u8c1", 1, 4000, 3000, 0, 0.178, 0.072},
    {DeviceClass::h100, "u8c2", 2, 4000, 3000, 0.135, 0.170, 0.137},
    {DeviceClass::h100, "u8c3", 3, 4000, 3000, 0.194, 0.195, 0.222},
    {DeviceClass::h100, "u8c4", 4, 4000, 3000, 0.174, 0.171, 0.256},
    {DeviceClass::h100, "u16c1", 2, 4000, 3000, 0.135, 0.170, 0.136},
    {DeviceClass::h100, "u16c3", 6, 4000, 3000, 0.361, 0.343, 0.387},
    {DeviceClass::h100, "u16c4", 8, 4000, 3000, 0.325, 0.295, 0.489},
    {DeviceClass::h100, "f32c1", 4, 4000, 3000, 0.175, 0.171, 0.255},
    {DeviceClass::h100, "f32c3", 12, 4000, 3000, 0.447, 0.477, 0.709},
    {DeviceClass::h100, "f32c4", 16, 4000, 3000, 0.604, 0.582, 0.926},
    {DeviceClass::h100, "u8c1", 1, 1920, 1080, 0, 0.036, 0.040},
    {DeviceClass::h100, "u8c2", 2, 1920, 1080, 0.022, 0.035, 0.038},
    {DeviceClass::h100, "u8c3", 3, 1920, 1080, 0.035, 0.040, 0.063},
    {DeviceClass::h100, "u8c4", 4, 1920, 1080, 0.031, 0.035, 0.052},
    {DeviceClass::h100, "u16c1", 2, 1920, 1080, 0.022, 0.035, 0.038},
    {DeviceClass::h100, "u16c3", 6, 1920, 1080, 0.061, 0.057, 0.083},
    {DeviceClass::h100, "u16c4", 8, 1920, 1080, 0.057, 0.052, 0.091},
    {DeviceClass::h100, "f32c1", 4, 1920, 1080, 0.031, 0.035, 0.052},
    {DeviceClass::h100, "f32c3", 12, 1920, 1080, 0.077, 0.085, 0.140},
    {DeviceClass::h100, "f32c4", 16, 1920, 1080, 0.107, 0.097, 0.170},
    {DeviceClass::h200, "u8c1", 1, 8192, 8192, 0.152, 0.965, 0.257},
    {DeviceClass::h200, "u8c3", 3, 8192, 8192, 0.477, 1.050, 0.748},
    {DeviceClass::h200, "u8c4", 4, 8192, 8192, 0.658, 0.917, 0.948},
    {DeviceClass::h200, "u16c1", 2, 8192, 8192, 0.330, 0.918, 0.486},
    {DeviceClass::h200, "u16c3", 6, 8192, 8192, 0.994, 1.125, 1.430},
    {DeviceClass::h200, "u16c4", 8, 8192, 8192, 1.345, 1.134, 1.870},
    {DeviceClass::h200, "f32c1", 4, 8192, 8192, 0.660, 0.917, 0.947},
    {DeviceClass::h200, "f32c3", 12, 8192, 8192, 1.897, 2.011, 2.772},
    {DeviceClass::h200, "f32c4", 16, 8192, 8192, 2.713, 2.374, 3.655},
    {DeviceClass::h200, "u8c1", 1, 4000, 3000, 0, 0.178, 0.063},
    {DeviceClass::h200, "u8c3", 3, 4000, 3000, 0.152, 0.195, 0.179},
    {DeviceClass::h200, "u8c4", 4, 4000, 3000, 0.144, 0.170, 0.191},
    {DeviceClass::h200, "u16c1", 2, 4000, 3000, 0.110, 0.170, 0.109},
    {DeviceClass::h200, "u16c3", 6, 4000, 3000, 0.290, 0.259, 0.288},
    {DeviceClass::h200, "u16c4", 8, 4000, 3000, 0.264, 0.226, 0.355},
    {DeviceClass::h200, "f32c1", 4, 4000, 3000, 0.145, 0.170, 0.191},
    {DeviceClass::h200, "f32c3", 12, 4000, 3000, 0.351, 0.380, 0.519},
    {DeviceClass::h200, "f32c4", 16, 4000, 3000, 0.478, 0.444, 0.670},
    {DeviceClass::h200, "u8c1", 1, 1920, 1080, 0, 0.036, 0.039},
    {DeviceClass::h200, "u8c3", 3, 1920, 1080, 0.028, 0.039, 0.060},
    {DeviceClass::h200, "u8c4", 4, 1920, 1080, 0.025, 0.035, 0.046},
    {DeviceClass::h200, "u16c1", 2, 1920, 1080, 0.017, 0.034, 0.037},
    {DeviceClass::h200, "u16c3", 6, 1920, 1080, 0.049, 0.046, 0.066},
    {DeviceClass::h200, "u16c4", 8, 1920, 1080, 0.046, 0.041, 0.074},
    {DeviceClass::h200, "f32c1", 4, 1920, 1080, 0.025, 0.035, 0.046},
    {DeviceClass::h200, "f32c3", 12, 1920, 1080, 0.060, 0.067, 0.109},
    {DeviceClass::h200, "f32c4", 16, 1920, 1080, 0.084, 0.074, 0.129},
    // The fused sweep on the H100 (NVIDIA H100 80GB HBM3, driver 580.159.04, CUDA 13.0, 2026-12-06):
    // `gpurotate bench --fused-sweep --reps 10 --type u8c1,u8c2,u16c1` and `--type u8c3,u8c4,f32c1`, every output
    // verified (bench/RESULTS.md). Left out: 12000x9000 at u8c2, u16c1 and u8c3, where seven launches took 0.82-0.88
    // of the vectorized kernel's time, a size the rule does not yet explain (tuning_transform.hpp).
    {DeviceClass::h100, "u8c1", 1, 512, 512, 0.010, 0.009, 0.025},
    {DeviceClass::h100, "u8c2", 2, 512, 512, 0.011, 0.009, 0.027},
    {DeviceClass::h100, "u16c1", 2, 512, 512, 0.010, 0.009, 0.026},
    {DeviceClass::h100, "u8c1", 1, 1000, 1000, 0, 0.020, 0.052},
    {DeviceClass::h100, "u8c2", 2, 1000, 1000, 0.013, 0.020, 0.036},
    {DeviceClass::h100, "u16c1", 2, 1000, 1000, 0.013, 0.020, 0.035},
    {DeviceClass::h100, "u8c1", 1, 1024, 1024, 0.011, 0.020, 0.028},
    {DeviceClass::h100, "u8c2", 2, 1024, 1024, 0.011, 0.020, 0.028},
    {DeviceClass::h100, "u16c1", 2, 1024, 1024, 0.011, 0.020, 0.030},
    {DeviceClass::h100, "u8c1", 1, 1920, 1080, 0, 0.035, 0.043},
    {DeviceClass::h100, "u8c2", 2, 1920, 1080, 0.022, 0.035, 0.040},
    {DeviceClass::h100, "u16c1", 2, 1920, 1080, 0.023, 0.034, 0.041},
    {DeviceClass::h100, "u8c1", 1, 1921, 1081, 0, 0.036, 0.056},
    {DeviceClass::h100, "u8c2", 2, 1921, 1081, 0, 0.034, 0.056},
    {DeviceClass::h100, "u16c1", 2, 1921, 1081, 0, 0.034, 0.055},
    {DeviceClass::h100, "u8c1", 1, 2048, 2048, 0.015, 0.067, 0.033},
    {DeviceClass::h100, "u8c2", 2, 2048, 2048, 0.030, 0.063, 0.049},
    {DeviceClass::h100, "u16c1", 2, 2048, 2048, 0.029, 0.064, 0.048},
    {DeviceClass::h100, "u8c1", 1, 3000, 4000, 0, 0.178, 0.085},
    {DeviceClass::h100, "u8c2", 2, 3000, 4000, 0.112, 0.169, 0.142},
    {DeviceClass::h100, "u16c1", 2, 3000, 4000, 0.111, 0.170, 0.141},
    {DeviceClass::h100, "u8c1", 1, 2999, 4001, 0, 0.178, 0.101},
    {DeviceClass::h100, "u8c2", 2, 2999, 4001, 0, 0.170, 0.163},
    {DeviceClass::h100, "u16c1", 2, 2999, 4001, 0, 0.170, 0.162},
    {DeviceClass::h100, "u8c1", 1, 4096, 4096, 0.049, 0.246, 0.084},
    {DeviceClass::h100, "u8c2", 2, 4096, 4096, 0.111, 0.235, 0.179},
    {DeviceClass::h100, "u16c1", 2, 4096, 4096, 0.110, 0.234, 0.180},
    {DeviceClass::h100, "u8c1", 1, 4095, 4097, 0, 0.247, 0.125},
    {DeviceClass::h100, "u8c2", 2, 4095, 4097, 0, 0.235, 0.211},
    {DeviceClass::h100, "u16c1", 2, 4095, 4097, 0, 0.235, 0.212},
    {DeviceClass::h100, "u8c1", 1, 6000, 4000, 0.109, 0.349, 0.141},
    {DeviceClass::h100, "u8c2", 2, 6000, 4000, 0.166, 0.332, 0.261},
    {DeviceClass::h100, "u16c1", 2, 6000, 4000, 0.166, 0.333, 0.261},
    {DeviceClass::h100, "u8c1", 1, 8192, 8192, 0.191, 0.965, 0.340},
    {DeviceClass::h100, "u8c2", 2, 8192, 8192, 0.421, 0.918, 0.664},
    {DeviceClass::h100, "u16c1", 2, 8192, 8192, 0.420, 0.918, 0.666},
    {DeviceClass::h100, "u8c1", 1, 8191, 8193, 0, 0.968, 0.377},
    {DeviceClass::h100, "u8c2", 2, 8191, 8193, 0, 0.921, 0.727},
    {DeviceClass::h100, "u16c1", 2, 8191, 8193, 0, 0.921, 0.729},
    {DeviceClass::h100, "u8c1", 1, 12000, 9000, 0, 1.553, 0.552},
    {DeviceClass::h100, "u8c1", 1, 16384, 16384, 0.817, 3.843, 1.293},
    {DeviceClass::h100, "u8c2", 2, 16384, 16384, 1.691, 3.653, 2.560},
    {DeviceClass::h100, "u16c1", 2, 16384, 16384, 1.692, 3.654, 2.561},
    {DeviceClass::h100, "u8c3", 3, 512, 512, 0.017, 0.010, 0.055},
    {DeviceClass::h100, "u8c4", 4, 512, 512, 0.008, 0.009, 0.024},
    {DeviceClass::h100, "f32c1", 4, 512, 512, 0.008, 0.009, 0.023},
    {DeviceClass::h100, "u8c3", 3, 1000, 1000, 0, 0.023, 0.059},
    {DeviceClass::h100, "u8c4", 4, 1000, 1000, 0.017, 0.020, 0.036},
    {DeviceClass::h100, "f32c1", 4, 1000, 1000, 0.016, 0.020, 0.035},
    {DeviceClass::h100, "u8c3", 3, 1024, 1024, 0.019, 0.023, 0.059},
    {DeviceClass::h100, "u8c4", 4, 1024, 1024, 0.016, 0.020, 0.031},
    {DeviceClass::h100, "f32c1", 4, 1024, 1024, 0.016, 0.020, 0.031},
    {DeviceClass::h100, "u8c3", 3, 1920, 1080, 0.035, 0.040, 0.064},
    {DeviceClass::h100, "u8c4", 4, 1920, 1080, 0.031, 0.035, 0.052},
    {DeviceClass::h100, "f32c1", 4, 1920, 1080, 0.031, 0.035, 0.051},
    {DeviceClass::h100, "u8c3", 3, 1921, 1081, 0, 0.040, 0.068},
    {DeviceClass::h100, "u8c4", 4, 1921, 1081, 0, 0.045, 0.057},
    {DeviceClass::h100, "f32c1", 4, 1921, 1081, 0, 0.045, 0.057},
    {DeviceClass::h100, "u8c3", 3, 2048, 2048, 0.038, 0.073, 0.090},
    {DeviceClass::h100, "u8c4", 4, 2048, 2048, 0.053, 0.064, 0.087},
    {DeviceClass::h100, "f32c1", 4, 2048, 2048, 0.053, 0.064, 0.088},
    {DeviceClass::h100, "u8c3", 3, 3000, 4000, 0, 0.194, 0.236},
    {DeviceClass::h100, "u8c4", 4, 3000, 4000, 0.162, 0.170, 0.253},
    {DeviceClass::h100, "f32c1", 4, 3000, 4000, 0.162, 0.170, 0.255},
    {DeviceClass::h100, "u8c3", 3, 2999, 4001, 0, 0.216, 0.245},
    {DeviceClass::h100, "u8c4", 4, 2999, 4001, 0, 0.251, 0.266},
    {DeviceClass::h100, "f32c1", 4, 2999, 4001, 0, 0.248, 0.266},
    {DeviceClass::h100, "u8c3", 3, 4096, 4096, 0.150, 0.269, 0.290},
    {DeviceClass::h100, "u8c4", 4, 4096, 4096, 0.215, 0.235, 0.340},
    {DeviceClass::h100, "f32c1", 4, 4096, 4096, 0.214, 0.235, 0.339},
    {DeviceClass::h100, "u8c3", 3, 4095, 4097, 0, 0.310, 0.317},
    {DeviceClass::h100, "u8c4", 4, 4095, 4097, 0, 0.346, 0.352},
    {DeviceClass::h100, "f32c1", 4, 4095, 4097, 0, 0.347, 0.352},
    {DeviceClass::h100, "u8c3", 3, 6000, 4000, 0.255, 0.381, 0.394},
    {DeviceClass::h100, "u8c4", 4, 6000, 4000, 0.312, 0.333, 0.484},
    {DeviceClass::h100, "f32c1", 4, 6000, 4000, 0.311, 0.333, 0.485},
    {DeviceClass::h100, "u8c3", 3, 8192, 8192, 0.613, 1.051, 0.999},
    {DeviceClass::h100, "u8c4", 4, 8192, 8192, 0.846, 0.918, 1.316},
    {DeviceClass::h100, "f32c1", 4, 8192, 8192, 0.841, 0.918, 1.302},
    {DeviceClass::h100, "u8c3", 3, 8191, 8193, 0, 1.351, 1.052},
    {DeviceClass::h100, "u8c4", 4, 8191, 8193, 0, 1.446, 1.335},
    {DeviceClass::h100, "f32c1", 4, 8191, 8193, 0, 1.449, 1.321},
    {DeviceClass::h100, "u8c4", 4, 12000, 9000, 1.503, 1.477, 2.091},
    {DeviceClass::h100, "f32c1", 4, 12000, 9000, 1.498, 1.476, 2.095},
    {DeviceClass::h100, "u8c3", 3, 16384, 16384, 2.484, 4.183, 3.848},
    {DeviceClass::h100, "u8c4", 4, 16384, 16384, 3.348, 3.653, 5.159},
    {DeviceClass::h100, "f32c1", 4, 16384, 16384, 3.355, 3.653, 5.163},
};

}  // namespace gpurotate::detail::tuning
