#pragma once
// A WebDataset shard read one sample at a time: a sample is the consecutive tar members whose names share a
// key (WebDataset's rule, webdataset.tariterators.base_plus_ext: the key is the path up to the first dot of
// the file name, the suffix the rest). libarchive reads the tar (ustar, pax, GNU), gzip-compressed or not
// (.tar.gz, .tgz: the filter is found from the bytes, not the name); only one sample and the
// member after it are held, never the shard, and a sample's members together no more than the reader's limit.

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct archive;

namespace gpurotate::augment {

/// A member's name split as WebDataset splits it: "cat/001.seg.png" -> key "cat/001", suffix "seg.png".
struct MemberName {
    std::string key;
    std::string suffix;
};

/// The split of `name`, or nothing where WebDataset finds no key in it (no dot after the file name's first
/// character: "README", ".hidden").
std::optional<MemberName> webdataset_name(const std::string& name);

struct ShardMember {
    std::string name;    ///< as stored, less a leading "./"
    std::string suffix;  ///< WebDataset's suffix: "jpg", "seg.png", "json"
    std::vector<std::uint8_t> bytes;
    std::time_t mtime = 0;
    unsigned mode = 0644;  ///< its permission bits, which its variants keep
};

struct ShardSample {
    std::string key;
    std::vector<ShardMember> members;
    /// Why the sample cannot be turned (a member that climbs out of the shard, two members of one suffix, a
    /// member too large, one that is not a file), naming the member; empty for a good sample.
    std::string error;
};

class ShardReader {
public:
    /// Opens the shard at `path`; a sample whose members are over `sample_limit` bytes together fails, its
    /// members past the limit unread (a shard of one key and many suffixes is one sample). Throws Error
    /// (input) naming the file where it cannot be opened or is not a tar archive.
    ShardReader(std::string path, std::size_t sample_limit);
    ~ShardReader();
    ShardReader(const ShardReader&) = delete;
    ShardReader& operator=(const ShardReader&) = delete;

    /// The next sample, or nothing at the end of the shard. Throws Error (input) naming the shard and the member
    /// where the archive is damaged (truncated, a bad header): the rest of the shard cannot be trusted.
    std::optional<ShardSample> next();

    /// The members passed over since the last call, as WebDataset's reader passes them over: those with no
    /// key ("README", ".hidden"), whatever their place in the shard. They are in no sample and fail none.
    std::vector<std::string> take_skipped();

private:
    struct Read;  // one member read, with what is wrong with it
    // The next member; its data is read where it belongs to `current` (the sample being gathered, or none)
    // and fits what that sample leaves of the limit, and skipped where that sample has failed already.
    std::optional<Read> read_member(const ShardSample* current);
    [[noreturn]] void damaged(const std::string& where) const;

    std::string path_;
    std::size_t sample_limit_;
    std::size_t held_ = 0;  // the bytes of the sample being gathered
    archive* archive_ = nullptr;
    std::vector<std::string> skipped_;
    std::unique_ptr<Read> pending_;  // the first member of the next sample, read already
    bool ended_ = false;
};

}  // namespace gpurotate::augment
