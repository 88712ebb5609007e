#include "augment/shard_writer.hpp"

#include <gpurotate/error.hpp>

#include <archive.h>
#include <archive_entry.h>

#include <memory>

namespace gpurotate::augment {

ShardWriter::ShardWriter(int fd, std::string shown, ShardCompression compression) : shown_(std::move(shown)) {
    archive_ = archive_write_new();
    if (!archive_) throw Error(ErrorCode::output, "cannot write '" + shown_ + "': out of memory");
    if (archive_write_set_format_pax_restricted(archive_) != ARCHIVE_OK) failed("its start");
    if (compression == ShardCompression::gzip) {
        // No time in the gzip header, so that a run repeats byte for byte; no padding after the stream (a
        // padded .tar.gz is 'trailing garbage' to gzip).
        if (archive_write_add_filter_gzip(archive_) != ARCHIVE_OK ||
            archive_write_set_filter_option(archive_, "gzip", "timestamp", nullptr) < ARCHIVE_WARN ||
            archive_write_set_bytes_in_last_block(archive_, 1) != ARCHIVE_OK) {
            failed("its gzip filter");
        }
    }
    if (archive_write_open_fd(archive_, fd) != ARCHIVE_OK) failed("its start");
}

ShardWriter::~ShardWriter() {
    if (archive_) archive_write_free(archive_);  // after a failure: the caller's temporary file goes with it
}

void ShardWriter::failed(const std::string& what) const {
    const char* reason = archive_error_string(archive_);
    throw Error(ErrorCode::output, "cannot write '" + shown_ + "' (" + what + "): " + (reason ? reason : "libarchive failed"));
}

void ShardWriter::add(const std::string& name, const std::vector<std::uint8_t>& bytes, std::time_t mtime, unsigned mode) {
    const std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(), archive_entry_free);
    if (!entry) throw Error(ErrorCode::output, "cannot write '" + shown_ + "': out of memory");
    archive_entry_set_pathname(entry.get(), name.c_str());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), mode);
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(bytes.size()));
    archive_entry_set_mtime(entry.get(), mtime, 0);
    if (archive_write_header(archive_, entry.get()) < ARCHIVE_WARN) failed("member '" + name + "'");
    if (!bytes.empty() && archive_write_data(archive_, bytes.data(), bytes.size()) != static_cast<la_ssize_t>(bytes.size())) {
        failed("member '" + name + "'");
    }
}

void ShardWriter::finish() {
    if (archive_write_close(archive_) != ARCHIVE_OK) failed("its end");
}

}  // namespace gpurotate::augment
