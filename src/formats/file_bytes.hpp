#pragma once
// Whole-file reads and atomic whole-file writes, with errors that name the file and the cause.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// What --max-input-bytes is without the flag: a stream or file larger than this is refused (2 GiB: a 16-bit
/// RGBA TIFF of 16384x8192 pixels, uncompressed).
inline constexpr std::size_t default_max_input_bytes = std::size_t{2} << 30;

/// The bytes of the file at `path`. Throws Error (input): missing, a directory, unreadable, empty, or larger
/// than `max_bytes`.
std::vector<std::uint8_t> read_file_bytes(const std::string& path, std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

/// An image read from standard input.
struct StreamImage {
    std::vector<std::uint8_t> bytes;  ///< the image, up to its end where its format marks one (PNG, JPEG)
    bool more_followed = false;       ///< bytes came after that end, which were not read on
    const char* format = "";          ///< the format its first bytes name ("PNG")
};

/// The image on standard input (a pipe or a redirected file; a terminal or a device is refused). Its first
/// bytes are judged before the rest is read: what does not begin as an image of a format known by its content
/// is refused at once. A PNG or a JPEG is read to its end and no further. Throws Error (input) for those, for
/// nothing at all, and past `max_bytes`.
StreamImage read_standard_input(std::size_t max_bytes = default_max_input_bytes);

/// Writes `bytes` to standard output, whole. Throws Error (output).
void write_standard_output(const std::vector<std::uint8_t>& bytes);

/// What a write does with a symbolic link at its path.
enum class LinkPolicy {
    follow,   ///< the file it names is replaced and the link stays (-o LINK --overwrite, as ImageMagick)
    replace,  ///< the link itself is replaced by the new file, its target left alone (-i, as sed -i)
};

/// Whether `path` names (through links) a character device or a FIFO, which a write streams into rather
/// than replaces: /dev/null, /dev/stdout on a pipe, a named pipe.
bool is_stream_output(const std::string& path);

/// Throws Error (output) unless a file could be created at `path`: its directory exists and is a
/// directory, `path` is not a directory, and `path` does not exist unless `overwrite`. An existing file is
/// replaced only where the caller may write it (a read-only file is refused even for root, as rm and
/// exiftran -i ask first); a character device or FIFO is written into; anything else that is not a regular
/// file (a block device, a socket) is refused.
void check_output_path(const std::string& path, bool overwrite, LinkPolicy links = LinkPolicy::follow);

/// Makes the folder `path` and its missing parents, as mkdir -p. Throws Error (output) naming the part
/// that could not be made.
void make_folders(const std::string& path);

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

/// Removes the temporary files in the open folder `folder` whose name starts with one of `prefixes`
/// (temporary_name_prefix) and whose writer is no longer running: what a killed run left behind.
void remove_stale_temporaries_in(int folder, const std::set<std::string>& prefixes);

/// Writes `bytes` to a new temporary file beside `path`, flushes it, and renames it to `path`: a reader
/// never sees a partial file, and on any failure the temporary file is removed. Throws Error (output).
/// With `durable`, the data reach the disk (fsync) before the rename. A `path` that is a symbolic link to
/// a file is written through: the file it names is replaced and the link stays (as ImageMagick does).
///
/// A `path` that is a character device or a FIFO (is_stream_output) is written into as a stream, with no
/// temporary file and no rename. With LinkPolicy::replace a link at `path` is itself replaced. An existing
/// file replaced keeps its mode, owner, group, ACLs and extended attributes (as cp -a).
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes, bool overwrite, bool durable = true,
                           LinkPolicy links = LinkPolicy::follow);

/// The same, for a file coded as it is written (a TIFF's strips): `fill` writes the temporary file's contents to
/// the descriptor it is given, and throws Error to leave nothing behind. `path` is no stream output
/// (is_stream_output): the contents may be written out of order.
void write_file_streamed(const std::string& path, const std::function<void(int)>& fill, bool overwrite, bool durable = true,
                         LinkPolicy links = LinkPolicy::follow);

/// write_file_atomically's work in the open folder `folder`, its file `name` (no slash), named `shown` in
/// errors; the temporary file is made there too. With `refuse_link`, a symbolic link at `name` is refused,
/// never written through or replaced (augment's OUTDIR, output_folder.hpp). Throws Error (output).
void write_file_atomically_at(int folder, const std::string& name, const std::string& shown, const std::vector<std::uint8_t>& bytes, bool overwrite,
                              bool durable, bool refuse_link, LinkPolicy links = LinkPolicy::follow);

/// The same, for a file too large to hold whole (an output WebDataset shard): `fill` writes the temporary
/// file's contents to the descriptor it is given, and throws Error to leave nothing behind.
void write_file_streamed_at(int folder, const std::string& name, const std::string& shown, const std::function<void(int)>& fill, bool overwrite,
                              bool durable, bool refuse_link, LinkPolicy links = LinkPolicy::follow);

}  // namespace gpurotate::detail
