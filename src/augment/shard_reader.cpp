#include "augment/shard_reader.hpp"

#include <gpurotate/error.hpp>

#include <archive.h>
#include <archive_entry.h>

#include <sys/stat.h>

#include <algorithm>
#include <utility>

namespace gpurotate::augment {

std::optional<MemberName> webdataset_name(const std::string& name) {
    // base_plus_ext's ^((?:.*/|)[^.]+)[.]([^/]*)$: a file name of one or more characters before its first dot.
    const auto slash = name.find_last_of('/');
    const std::size_t start = slash == std::string::npos ? 0 : slash + 1;
    const auto dot = name.find('.', start);
    if (dot == std::string::npos || dot == start) return std::nullopt;
    return MemberName{name.substr(0, dot), name.substr(dot + 1)};
}

namespace {

// Whether a member's name would leave the folder it is extracted into: an absolute path or a ".." part.
bool climbs_out(const std::string& name) {
    if (!name.empty() && name.front() == '/') return true;
    const std::string padded = "/" + name + "/";
    return padded.find("/../") != std::string::npos;
}

std::string without_leading_dot_slash(std::string name) {
    while (name.compare(0, 2, "./") == 0) name.erase(0, 2);
    return name;
}

}  // namespace

struct ShardReader::Read {
    ShardMember member;
    std::string key;
    std::string error;
};

ShardReader::ShardReader(std::string path, std::size_t sample_limit) : path_(std::move(path)), sample_limit_(sample_limit) {
    archive_ = archive_read_new();
    if (!archive_) throw Error(ErrorCode::input, "'" + path_ + "': out of memory to read it");
    archive_read_support_format_tar(archive_);
    archive_read_support_filter_gzip(archive_);  // a .tar.gz shard; a plain tar passes through unfiltered
    if (archive_read_open_filename(archive_, path_.c_str(), 1 << 16) != ARCHIVE_OK) {
        const std::string reason = archive_error_string(archive_) ? archive_error_string(archive_) : "not a tar archive";
        archive_read_free(archive_);
        archive_ = nullptr;
        throw Error(ErrorCode::input, "'" + path_ + "': cannot read it as a WebDataset shard (a tar archive): " + reason);
    }
}

ShardReader::~ShardReader() {
    if (archive_) archive_read_free(archive_);
}

void ShardReader::damaged(const std::string& where) const {
    const char* reason = archive_error_string(archive_);
    throw Error(ErrorCode::input, "'" + path_ + "': damaged tar archive " + where + ": " + (reason ? reason : "unreadable") +
                                      " (the shard is not written)");
}

std::optional<ShardReader::Read> ShardReader::read_member(const ShardSample* current) {
    while (true) {
        archive_entry* entry = nullptr;
        const int status = archive_read_next_header(archive_, &entry);
        if (status == ARCHIVE_EOF) return std::nullopt;
        if (status < ARCHIVE_WARN) damaged("after its last good member");
        const char* raw = archive_entry_pathname(entry);
        const std::string name = without_leading_dot_slash(raw ? raw : "");
        const mode_t type = archive_entry_filetype(entry);
        if (type == AE_IFDIR) continue;  // a folder's own entry holds nothing of a sample
        const auto split = webdataset_name(name);
        if (!split) {
            // WebDataset's group_by_keys passes over a member base_plus_ext finds no key in: it belongs to no
            // sample, so it neither fails nor splits the one around it.
            if (archive_read_data_skip(archive_) < ARCHIVE_WARN) damaged("in member '" + name + "'");
            skipped_.push_back(name);
            continue;
        }
        Read read;
        read.member.name = name;
        read.member.mtime = archive_entry_mtime(entry);
        read.member.mode = static_cast<unsigned>(archive_entry_perm(entry)) & 0777u;
        read.key = split->key;
        read.member.suffix = split->suffix;
        const la_int64_t size = archive_entry_size(entry);
        const bool same_sample = current && read.key == current->key;
        const std::size_t left = same_sample ? sample_limit_ - std::min(sample_limit_, held_) : sample_limit_;
        if (same_sample && !current->error.empty()) {
            // Its sample fails already: the member is only passed over, so that a failed sample holds nothing.
            if (archive_read_data_skip(archive_) < ARCHIVE_WARN) damaged("in member '" + name + "'");
            return read;
        }
        if (name.empty() || climbs_out(name)) {
            read.error = "member '" + name + "' has a path that leaves the shard's folder (absolute or with '..')";
        } else if (type != AE_IFREG || archive_entry_hardlink(entry)) {
            read.error = "member '" + name + "' is not a file (a link, a device or a FIFO)";
        } else if (size < 0 || static_cast<std::uint64_t>(size) > left) {
            read.error = "member '" + name + "' is " + std::to_string(size) + " bytes" +
                         (same_sample ? ", and with its sample's other members (" + std::to_string(held_) + " bytes) more" : ", more") +
                         " than this worker's share of --host-memory (" + std::to_string(sample_limit_) + " bytes)";
        }
        if (!read.error.empty()) {
            if (archive_read_data_skip(archive_) < ARCHIVE_WARN) damaged("in member '" + name + "'");
            return read;
        }
        read.member.bytes.resize(static_cast<std::size_t>(size));
        std::size_t done = 0;
        while (done < read.member.bytes.size()) {
            const la_ssize_t got = archive_read_data(archive_, read.member.bytes.data() + done, read.member.bytes.size() - done);
            if (got < 0) damaged("in member '" + name + "'");
            if (got == 0) damaged("in member '" + name + "' (it ends early)");
            done += static_cast<std::size_t>(got);
        }
        return read;
    }
}

std::vector<std::string> ShardReader::take_skipped() { return std::exchange(skipped_, {}); }

std::optional<ShardSample> ShardReader::next() {
    if (ended_ && !pending_) return std::nullopt;
    ShardSample sample;
    std::unique_ptr<Read> first = std::move(pending_);
    if (!first) {
        std::optional<Read> read = read_member(nullptr);
        if (!read) {
            ended_ = true;
            return std::nullopt;
        }
        first = std::make_unique<Read>(std::move(*read));
    }
    sample.key = first->key;
    held_ = 0;
    const auto add = [this, &sample](Read& read) {
        for (const ShardMember& member : sample.members) {
            if (sample.error.empty() && member.suffix == read.member.suffix) {
                sample.error = "members '" + member.name + "' and '" + read.member.name + "' have one key and one extension";
            }
        }
        if (sample.error.empty()) sample.error = read.error;
        held_ += read.member.bytes.size();
        if (!sample.error.empty()) {
            held_ = 0;  // a failed sample's bytes are never used: they go now
            for (ShardMember& member : sample.members) std::vector<std::uint8_t>().swap(member.bytes);
            std::vector<std::uint8_t>().swap(read.member.bytes);
        }
        sample.members.push_back(std::move(read.member));
    };
    add(*first);
    while (!ended_) {
        std::optional<Read> read = read_member(&sample);
        if (!read) {
            ended_ = true;
            break;
        }
        if (read->key != sample.key) {
            pending_ = std::make_unique<Read>(std::move(*read));
            break;
        }
        add(*read);
    }
    return sample;
}

}  // namespace gpurotate::augment
