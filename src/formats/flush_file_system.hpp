#pragma once
// One flush for a batch of outputs written without an fsync each (augment, and many files into a folder).

#include <string>

namespace gpurotate::detail {

/// Makes every file written so far on the file system that holds `folder` durable: one syncfs, which costs
/// about what one fsync does, where an fsync per file costs one each. Throws Error (output) naming the folder
/// where it cannot be opened or the flush fails (a write-back error of an output, as EIO or ENOSPC, which
/// Linux reports here since 5.8): the outputs may then not be on the disk, and the run must not report success.
void flush_file_system_of(const std::string& folder);

}  // namespace gpurotate::detail
