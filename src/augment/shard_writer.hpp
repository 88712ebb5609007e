#pragma once
// An output WebDataset shard written as its samples are made: libarchive's restricted pax format (ustar
// headers, pax extended ones only for what ustar cannot hold: what Python's tarfile writes for webdataset's
// TarWriter), streamed into a descriptor (OutputFolder::write_file_streamed's temporary file), through
// libarchive's gzip filter for a .tar.gz shard.

#include "augment/input_list.hpp"

#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

struct archive;

namespace gpurotate::augment {

class ShardWriter {
public:
    /// Writes a tar to `fd` (not taken), gzip-compressed where `compression` says so, named `shown` in errors.
    /// Throws Error (output).
    ShardWriter(int fd, std::string shown, ShardCompression compression);
    ~ShardWriter();
    ShardWriter(const ShardWriter&) = delete;
    ShardWriter& operator=(const ShardWriter&) = delete;

    /// Appends one member. Throws Error (output) naming the shard and the member.
    void add(const std::string& name, const std::vector<std::uint8_t>& bytes, std::time_t mtime, unsigned mode);
    /// Writes the end of the archive. Throws Error (output).
    void finish();

private:
    [[noreturn]] void failed(const std::string& what) const;

    archive* archive_ = nullptr;
    std::string shown_;
};

}  // namespace gpurotate::augment
