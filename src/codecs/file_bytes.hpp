#pragma once
// Whole-file reads and atomic whole-file writes, with errors that name the file and the cause.

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The bytes of the file at `path`. Throws Error (input): missing, a directory, unreadable, empty.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

/// Throws Error (output) unless a file could be created at `path`: its directory exists and is a
/// directory, `path` is not a directory, and `path` does not exist unless `overwrite`.
void check_output_path(const std::string& path, bool overwrite);

/// Writes `bytes` to a new temporary file beside `path`, flushes it, and renames it to `path`: a reader
/// never sees a partial file, and on any failure the temporary file is removed. Throws Error (output).
/// With `durable`, the data reach the disk (fsync) before the rename.
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes, bool overwrite, bool durable = true);

}  // namespace gpurotate::detail
