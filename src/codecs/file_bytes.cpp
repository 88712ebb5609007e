#include "codecs/file_bytes.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpurotate::detail {
namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

std::string system_reason() { return std::strerror(errno); }

std::string already_exists(const std::string& path) {
    return quoted(path) + " already exists (--overwrite, or WriteOptions::overwrite, replaces it)";
}

// A temporary file's name: "." + the output's name + the marker + random digits + the suffix.
constexpr const char* temporary_marker = ".gpurotate-";
constexpr const char* temporary_suffix = ".tmp";

std::string directory_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string file_name_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Closes a descriptor and removes the temporary file unless released; keeps every failure path clean.
class TemporaryFile {
public:
    TemporaryFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    ~TemporaryFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }
    int close() { return ::close(std::exchange(fd_, -1)); }
    void release() { path_.clear(); }

private:
    int fd_;
    std::string path_;
};

TemporaryFile create_temporary_beside(const std::string& path) {
    std::random_device entropy;
    const std::string base = directory_of(path) + "/" + temporary_name_prefix(file_name_of(path));
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string candidate = base + std::to_string(entropy()) + temporary_suffix;
        // 0666 lets the process umask decide the final permissions, as for any file the user creates.
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return TemporaryFile(fd, candidate);
        if (errno != EEXIST) {
            throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": cannot create a file in " +
                                               quoted(directory_of(path)) + ": " + system_reason());
        }
    }
    throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": no free temporary file name");
}

// A file replaced with --overwrite keeps its permissions, and its owner and group where the process may give
// them, as an edit in place would: a new file made with the umask turned a private (0600) file into a
// world-readable one. Set before any byte is written, so the pixels are never readable under wider permissions.
void keep_permissions_of(const std::string& path, const TemporaryFile& temp) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;  // nothing replaced
    // Before the mode: changing the owner may clear the set-user-ID bits. Refused (another user's file), the
    // replacement stays the process's own, and in the file's group where the process is a member of it.
    const bool owner_kept = ::fchown(temp.fd(), info.st_uid, info.st_gid) == 0 || ::fchown(temp.fd(), static_cast<uid_t>(-1), info.st_gid) == 0;
    static_cast<void>(owner_kept);
    if (::fchmod(temp.fd(), info.st_mode & 07777) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": cannot give the replacement the file's permissions: " + system_reason());
    }
}

}  // namespace

std::string write_target(const std::string& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved) return path;  // a link to nothing: refused as an existing name, or replaced with --overwrite
    std::string target = resolved;
    std::free(resolved);
    return target;
}

std::string temporary_name_prefix(const std::string& file_name) {
    constexpr std::size_t name_max = 255, added = 1 + 11 + 10 + 4;  // ".", the marker, up to 10 digits, the suffix
    return "." + file_name.substr(0, name_max - added) + temporary_marker;
}

std::string temporary_name_prefix_of(const std::string& name) {
    const std::string marker = temporary_marker, suffix = temporary_suffix;
    const auto at = name.rfind(marker);
    if (name.empty() || name[0] != '.' || at == std::string::npos || name.size() < suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        return {};
    }
    return name.substr(0, at + marker.size());
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + system_reason());
    struct stat info {};
    std::vector<std::uint8_t> bytes;
    std::string problem;
    if (::fstat(fd, &info) != 0) {
        problem = system_reason();
    } else if (S_ISDIR(info.st_mode)) {
        problem = "is a directory";
    } else if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
        // A device such as /dev/zero never ends: read to its end, it would fill the memory. Files and pipes
        // (`<(curl ...)`, /dev/stdin from a pipe) are read; a terminal is a device too.
        problem = "is a device, not a file";
    } else {
        std::uint8_t chunk[1 << 16];
        try {
            for (;;) {
                const ssize_t n = ::read(fd, chunk, sizeof chunk);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) {
                    problem = system_reason();
                    break;
                }
                if (n == 0) break;
                bytes.insert(bytes.end(), chunk, chunk + n);
            }
        } catch (const std::bad_alloc&) {
            ::close(fd);
            throw Error(ErrorCode::internal, "cannot read " + quoted(path) + ": out of host memory after " + std::to_string(bytes.size()) + " bytes");
        }
    }
    ::close(fd);
    if (!problem.empty()) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + problem);
    if (bytes.empty()) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": file is empty");
    return bytes;
}

void check_output_path(const std::string& path, bool overwrite) {
    const std::string dir = directory_of(path);
    struct stat info {};
    if (::stat(dir.c_str(), &info) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": output directory " + quoted(dir) + " does not exist");
    }
    if (!S_ISDIR(info.st_mode)) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + quoted(dir) + " is not a directory");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": output directory " + quoted(dir) + " is not writable");
    }
    if (::stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode)) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": it is a directory");
        if (!overwrite) throw Error(ErrorCode::output, already_exists(path));
    }
}

void write_file_atomically(const std::string& given_path, const std::vector<std::uint8_t>& bytes, bool overwrite, bool durable) {
    const std::string path = write_target(given_path);
    check_output_path(path, overwrite);
    TemporaryFile temp = create_temporary_beside(path);
    if (overwrite) keep_permissions_of(path, temp);
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(temp.fd(), bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
        written += static_cast<std::size_t>(n);
    }
    if ((durable && ::fsync(temp.fd()) != 0) || temp.close() != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
    }
    // Without --overwrite, link() refuses an existing name atomically, closing the window between the
    // existence check and the rename; with it, rename() replaces the old file in one step.
    if (!overwrite) {
        if (::link(temp.path().c_str(), path.c_str()) != 0) {
            if (errno == EEXIST) throw Error(ErrorCode::output, already_exists(path));
            if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP) {
                throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
            }
            // A file system without hard links: fall back to rename after the check above.
        } else {
            return;  // the temporary name is removed by its destructor
        }
    }
    if (::rename(temp.path().c_str(), path.c_str()) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
    }
    temp.release();
}

}  // namespace gpurotate::detail
