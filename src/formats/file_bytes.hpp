#pragma once
// Whole-file reads and atomic whole-file writes, with errors that name the file and the cause.

#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The bytes of the file at `path`. Throws Error (input): missing, a directory, unreadable, empty.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);

/// Everything on standard input (a pipe or a redirected file; a terminal is refused). Throws Error (input).
std::vector<std::uint8_t> read_standard_input();

/// Writes `bytes` to standard output, whole. Throws Error (output).
void write_standard_output(const std::vector<std::uint8_t>& bytes);

/// Throws Error (output) unless a file could be created at `path`: its directory exists and is a
/// directory, `path` is not a directory, and `path` does not exist unless `overwrite`.
void check_output_path(const std::string& path, bool overwrite);

/// The start of the names of the temporary files that write_file_atomically makes beside the file named
/// `file_name` (no folder): "." + the name + ".gpurotate-", then the writer's pid, "-", random digits and
/// ".tmp". A name too long to take those 32 bytes within NAME_MAX (255) is cut here, so that every name the
/// file system takes can be written.
std::string temporary_name_prefix(const std::string& file_name);

/// The temporary_name_prefix of the file whose temporary file `name` is, or "" where `name` is none.
std::string temporary_name_prefix_of(const std::string& name);

/// The pid of the process that wrote the temporary file `name` (0 where the name carries none: an older
/// run's).
long temporary_writer_of(const std::string& name);

/// Where a write to `path` goes: the file a symbolic link names (resolved whole), else `path` itself.
std::string write_target(const std::string& path);

/// Writes `bytes` to a new temporary file beside `path`, flushes it, and renames it to `path`: a reader
/// never sees a partial file, and on any failure the temporary file is removed. Throws Error (output).
/// With `durable`, the data reach the disk (fsync) before the rename. A `path` that is a symbolic link to
/// a file is written through: the file it names is replaced and the link stays (as ImageMagick does).
///
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes, bool overwrite, bool durable = true);

/// write_file_atomically's work in the open folder `folder`, its file `name` (no slash), named `shown` in
/// errors; the temporary file is made there too. With `refuse_link`, a symbolic link at `name` is refused,
/// never written through or replaced (augment's OUTDIR, output_folder.hpp). Throws Error (output).
void write_file_atomically_at(int folder, const std::string& name, const std::string& shown, const std::vector<std::uint8_t>& bytes, bool overwrite,
                              bool durable, bool refuse_link);

}  // namespace gpurotate::detail
