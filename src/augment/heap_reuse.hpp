#pragma once
// The C library allocator's settings for a run of many images.

namespace gpurotate::detail {

/// Asks the allocator to keep large freed blocks for the next image instead of handing them back to the
/// kernel. Every image allocates the same few large buffers (decoded pixels, DCT coefficient arrays, encoded
/// outputs); by default glibc maps each one fresh and unmaps it on free, so each image paid one page fault
/// per 4 KiB it touched (a 1024x768 JPEG's seven lossless variants: 5,300 faults, a quarter of the run's time
/// in the kernel, and workers contending for the process's address space). Without glibc this does nothing.
void keep_large_blocks_for_reuse();

}  // namespace gpurotate::detail
