#include "formats/file_bytes.hpp"

#include "core/path_names.hpp"

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
    return quoted(path) + " already exists (--overwrite replaces it)";
}

// Writes all of `bytes` to `fd`, through short writes and interrupted ones; false with errno set on failure.
bool write_all(int fd, const std::vector<std::uint8_t>& bytes) {
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        written += static_cast<std::size_t>(n);
    }
    return true;
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

// Closes a descriptor and removes the temporary file (a name in `folder`) unless released; keeps every
// failure path clean.
class TemporaryFile {
public:
    TemporaryFile(int folder, int fd, std::string name) : folder_(folder), fd_(fd), name_(std::move(name)) {}
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    ~TemporaryFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!name_.empty()) ::unlinkat(folder_, name_.c_str(), 0);
    }
    int fd() const { return fd_; }
    const std::string& name() const { return name_; }
    int close() { return ::close(std::exchange(fd_, -1)); }
    void release() { name_.clear(); }

private:
    int folder_;
    int fd_;
    std::string name_;
};

// The temporary's name carries its writer's pid, so that a cleanup of a dead run's temporaries can tell a
// live process's apart (remove_stale_temporaries).
TemporaryFile create_temporary_in(int folder, const std::string& name, const std::string& shown) {
    std::random_device entropy;
    const std::string base = temporary_name_prefix(name) + std::to_string(::getpid()) + "-";
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string candidate = base + std::to_string(entropy() % 100000) + temporary_suffix;
        // 0666 lets the process umask decide the final permissions, as for any file the user creates.
        const int fd = ::openat(folder, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) return TemporaryFile(folder, fd, candidate);
        if (errno != EEXIST) {
            throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": cannot create a file in " + quoted(directory_of(shown)) + ": " +
                                               system_reason());
        }
    }
    throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": no free temporary file name");
}

// A file replaced with --overwrite keeps its permissions, and its owner and group where the process may give
// them, as an edit in place would: a new file made with the umask turned a private (0600) file into a
// world-readable one. Set before any byte is written, so the pixels are never readable under wider permissions.
void keep_permissions_of(int folder, const std::string& name, const std::string& shown, const TemporaryFile& temp) {
    struct stat info {};
    if (::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode)) return;  // nothing replaced
    // Before the mode: changing the owner may clear the set-user-ID bits. Refused (another user's file), the
    // replacement stays the process's own, and in the file's group where the process is a member of it.
    const bool owner_kept = ::fchown(temp.fd(), info.st_uid, info.st_gid) == 0 || ::fchown(temp.fd(), static_cast<uid_t>(-1), info.st_gid) == 0;
    static_cast<void>(owner_kept);
    if (::fchmod(temp.fd(), info.st_mode & 07777) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": cannot give the replacement the file's permissions: " + system_reason());
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
    constexpr std::size_t name_max = 255, added = 1 + 11 + 10 + 1 + 5 + 4;  // ".", the marker, the pid, "-", 5 digits, the suffix
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

long temporary_writer_of(const std::string& name) {
    const std::string prefix = temporary_name_prefix_of(name);
    if (prefix.empty()) return 0;
    const auto dash = name.find('-', prefix.size());
    if (dash == std::string::npos || dash == prefix.size()) return 0;
    long pid = 0;
    for (std::size_t i = prefix.size(); i < dash; ++i) {
        if (name[i] < '0' || name[i] > '9' || pid > 100000000) return 0;
        pid = pid * 10 + (name[i] - '0');
    }
    return pid;
}

namespace {

// All of `fd` (a file or a pipe), named `shown` in errors ("'in.png'", "standard input").
std::vector<std::uint8_t> read_all_of(int fd, const std::string& shown) {
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
        problem = ::isatty(fd) ? "is a terminal (pipe an image in: gpurotate - ... < in.png)" : "is a device, not a file";
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
            throw Error(ErrorCode::internal, "cannot read " + shown + ": out of host memory after " + std::to_string(bytes.size()) + " bytes");
        }
    }
    if (!problem.empty()) throw Error(ErrorCode::input, "cannot read " + shown + ": " + problem);
    if (bytes.empty()) throw Error(ErrorCode::input, "cannot read " + shown + ": " + (S_ISREG(info.st_mode) ? "file is empty" : "nothing came"));
    return bytes;
}

}  // namespace

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + system_reason());
    try {
        std::vector<std::uint8_t> bytes = read_all_of(fd, quoted(path));
        ::close(fd);
        return bytes;
    } catch (...) {
        ::close(fd);
        throw;
    }
}

std::vector<std::uint8_t> read_standard_input() { return read_all_of(STDIN_FILENO, "standard input"); }

void write_standard_output(const std::vector<std::uint8_t>& bytes) {
    if (!write_all(STDOUT_FILENO, bytes)) throw Error(ErrorCode::output, "cannot write to standard output: " + system_reason());
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

void write_file_atomically_at(int folder, const std::string& name, const std::string& shown, const std::vector<std::uint8_t>& bytes, bool overwrite,
                              bool durable, bool refuse_link) {
    struct stat info {};
    if (refuse_link && ::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(info.st_mode)) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": it is a symbolic link, which is never written through here (remove it)");
    }
    TemporaryFile temp = create_temporary_in(folder, name, shown);
    if (overwrite) keep_permissions_of(folder, name, shown, temp);
    if (!write_all(temp.fd(), bytes)) throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": " + system_reason());
    if ((durable && ::fsync(temp.fd()) != 0) || temp.close() != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": " + system_reason());
    }
    // Without --overwrite, linkat() refuses an existing name atomically, closing the window between the
    // existence check and the rename; with it, renameat() replaces the old name in one step (a link planted
    // there since the check is replaced, not followed).
    if (!overwrite) {
        if (::linkat(folder, temp.name().c_str(), folder, name.c_str(), 0) != 0) {
            if (errno == EEXIST) throw Error(ErrorCode::output, already_exists(shown));
            if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP) {
                throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": " + system_reason());
            }
            // A file system without hard links: fall back to rename after the caller's check.
        } else {
            return;  // the temporary name is removed by its destructor
        }
    }
    if (::renameat(folder, temp.name().c_str(), folder, name.c_str()) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": " + system_reason());
    }
    temp.release();
}

void write_file_atomically(const std::string& given_path, const std::vector<std::uint8_t>& bytes, bool overwrite, bool durable) {
    const std::string path = write_target(given_path);
    check_output_path(path, overwrite);
    const int folder = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
    struct CloseFolder {
        int fd;
        ~CloseFolder() { ::close(fd); }
    } closer{folder};
    write_file_atomically_at(folder, file_name_of(path), path, bytes, overwrite, durable, false);
}

}  // namespace gpurotate::detail
