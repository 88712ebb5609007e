#include "formats/file_bytes.hpp"

#include "core/descriptor.hpp"
#include "core/huge_pages.hpp"
#include "core/path_names.hpp"
#include "core/stage_account.hpp"
#include "formats/content_signature.hpp"
#include "formats/format_registry.hpp"
#include "formats/image_end.hpp"
#include "formats/temporaries_in_flight.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include <csignal>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
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
    TemporaryFile(int folder, int fd, std::string name, TemporaryInFlight in_flight)
        : folder_(folder), fd_(fd), name_(std::move(name)), in_flight_(std::move(in_flight)) {}
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
    TemporaryInFlight in_flight_;  // freed after the file is renamed or removed (members go after the body)
};

// The temporary's name carries its writer's pid, so that a cleanup of a dead run's temporaries can tell a
// live process's apart (remove_stale_temporaries).
TemporaryFile create_temporary_in(int folder, const std::string& name, const std::string& shown) {
    std::random_device entropy;
    const std::string base = temporary_name_prefix(name) + std::to_string(::getpid()) + "-";
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string candidate = base + std::to_string(entropy() % 100000) + temporary_suffix;
        // 0666 lets the process umask decide the final permissions, as for any file the user creates.
        // Registered before it exists, so that a signal at any point finds it (temporaries_in_flight.hpp).
        TemporaryInFlight in_flight(folder, candidate.c_str());
        const int fd = ::openat(folder, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            in_flight.opened();
            return TemporaryFile(folder, fd, candidate, std::move(in_flight));
        }
        if (errno != EEXIST) {
            throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": cannot create a file in " + quoted(directory_of(shown)) + ": " +
                                               system_reason());
        }
    }
    throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": no free temporary file name");
}

// A file's extended attributes (ACLs are system.posix_acl_access and _default among them) onto `to`, after
// its mode: setting the mode rewrites an access ACL's mask. One that cannot be kept stops the write, and the
// file stays as it was: nothing is dropped in silence.
void keep_extended_attributes(int folder, const std::string& name, const std::string& shown, int to, bool through_link) {
    const Descriptor opened(::openat(folder, name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (through_link ? 0 : O_NOFOLLOW)));
    const int from = opened.get();
    if (from < 0) return;  // not readable: its attributes cannot be read either; the rights check said what matters
    const ssize_t list_size = ::flistxattr(from, nullptr, 0);
    if (list_size <= 0) return;  // none, or a file system without them
    std::vector<char> names(static_cast<std::size_t>(list_size));
    const ssize_t listed = ::flistxattr(from, names.data(), names.size());
    if (listed < 0) return;
    for (std::size_t at = 0; at < static_cast<std::size_t>(listed); at += std::strlen(names.data() + at) + 1) {
        const char* attribute = names.data() + at;
        const ssize_t size = ::fgetxattr(from, attribute, nullptr, 0);
        if (size < 0) continue;
        std::vector<char> value(static_cast<std::size_t>(size));
        const ssize_t got = ::fgetxattr(from, attribute, value.data(), value.size());
        if (got < 0) continue;
        // A label the new file already carries (security.selinux, given by the folder) needs no setting.
        std::vector<char> present(value.size() + 1);
        if (::fgetxattr(to, attribute, present.data(), present.size()) == got && std::memcmp(present.data(), value.data(), value.size()) == 0) continue;
        if (::fsetxattr(to, attribute, value.data(), static_cast<std::size_t>(got), 0) != 0) {
            throw Error(ErrorCode::output, "cannot replace " + quoted(shown) + ": its extended attribute " + attribute + " cannot be kept (" +
                                               system_reason() + "); the file is left as it was");
        }
    }
}

// A file replaced keeps its permissions, its owner and group where the process may give them, its ACLs and
// extended attributes, as an edit in place would (cp -a): a new file made with the umask turned a private
// (0600) file into a world-readable one. Set before any byte is written, so the pixels are never readable
// under wider permissions. With `through_link`, they are those of the file a link at `name` names.
void keep_attributes_of(int folder, const std::string& name, const std::string& shown, const TemporaryFile& temp, bool through_link) {
    struct stat info {};
    if (::fstatat(folder, name.c_str(), &info, through_link ? 0 : AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode)) return;  // nothing replaced
    // Before the mode: changing the owner may clear the set-user-ID bits. Refused (another user's file), the
    // replacement stays the process's own, and in the file's group where the process is a member of it.
    const bool owner_kept = ::fchown(temp.fd(), info.st_uid, info.st_gid) == 0 || ::fchown(temp.fd(), static_cast<uid_t>(-1), info.st_gid) == 0;
    static_cast<void>(owner_kept);
    if (::fchmod(temp.fd(), info.st_mode & 07777) != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": cannot give the replacement the file's permissions: " + system_reason());
    }
    keep_extended_attributes(folder, name, shown, temp.fd(), through_link);
}

// Whether the process `pid` still runs (one that cannot be signalled, another user's, runs too).
bool running(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

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

// Why `fd` cannot be read as an image's bytes, or "" where it can (a file or a pipe).
std::string unreadable_kind(int fd, const struct stat& info) {
    if (S_ISDIR(info.st_mode)) return "is a directory";
    // A device such as /dev/zero never ends: read to its end, it would fill the memory. Files and pipes
    // (`<(curl ...)`, /dev/stdin from a pipe) are read; a terminal is a device too.
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
        return ::isatty(fd) ? "is a terminal (pipe an image in: gpurotate - ... < in.png)" : "is a device, not a file";
    }
    return "";
}

// Appends up to `want` bytes read from `fd` to `bytes`; the count read, 0 at the end. Throws Error (input).
std::size_t read_some(int fd, std::vector<std::uint8_t>& bytes, std::size_t want, const std::string& shown) {
    const std::size_t had = bytes.size();
    try {
        bytes.resize(had + want);
    } catch (const std::bad_alloc&) {
        throw Error(ErrorCode::internal, "cannot read " + shown + ": out of host memory after " + std::to_string(had) + " bytes");
    }
    for (;;) {
        const ssize_t n = ::read(fd, bytes.data() + had, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            bytes.resize(had);
            throw Error(ErrorCode::input, "cannot read " + shown + ": " + system_reason());
        }
        bytes.resize(had + static_cast<std::size_t>(n));
        return static_cast<std::size_t>(n);
    }
}

std::string too_large(const std::string& shown, std::size_t max_bytes) {
    return "cannot read " + shown + ": more than " + std::to_string(max_bytes) + " bytes (--max-input-bytes raises the limit)";
}

// "79 0a 79 0a": the first bytes of a stream that is no image, for the refusal.
std::string leading_bytes(const std::vector<std::uint8_t>& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string text;
    for (std::size_t i = 0; i < bytes.size() && i < 8; ++i) {
        text += (i ? " " : "");
        text += digits[bytes[i] >> 4];
        text += digits[bytes[i] & 15];
    }
    return text;
}

// The formats a stream is recognised as, for the refusal: "PNG, JPEG, ...".
std::string formats_known_by_content() {
    std::string names;
    for (const FormatRow& row : format_rows()) {
        if (row.starts_like && row.decode && row.compiled_in()) names += (names.empty() ? "" : ", ") + std::string(row.name);
    }
    return names;
}

constexpr std::size_t read_chunk = std::size_t{1} << 16;

}  // namespace

std::vector<std::uint8_t> read_file_bytes(const std::string& path, std::size_t max_bytes) {
    const Descriptor opened(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    const int fd = opened.get();
    if (fd < 0) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + system_reason());
    struct stat info {};
    if (::fstat(fd, &info) != 0) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + system_reason());
    if (const std::string kind = unreadable_kind(fd, info); !kind.empty()) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + kind);
    if (S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) > max_bytes) throw Error(ErrorCode::input, too_large(quoted(path), max_bytes));
    std::vector<std::uint8_t> bytes;
    // A file's size is known: one read fills the buffer, and the one after it finds the end without growing it.
    if (S_ISREG(info.st_mode)) bytes.reserve(static_cast<std::size_t>(info.st_size) + 1);
    if (bytes.capacity() >= huge_page_worthy_bytes) ask_for_huge_pages(bytes.data(), bytes.data() + bytes.capacity());
    const auto want = [&] { return bytes.capacity() > bytes.size() ? bytes.capacity() - bytes.size() : read_chunk; };
    while (read_some(fd, bytes, want(), quoted(path)) > 0) {
        if (bytes.size() > max_bytes) throw Error(ErrorCode::input, too_large(quoted(path), max_bytes));
    }
    if (bytes.empty()) throw Error(ErrorCode::input, "cannot read " + quoted(path) + ": " + (S_ISREG(info.st_mode) ? "file is empty" : "nothing came"));
    return bytes;
}

StreamImage read_standard_input(std::size_t max_bytes) {
    const std::string shown = "standard input";
    struct stat info {};
    if (::fstat(STDIN_FILENO, &info) != 0) throw Error(ErrorCode::input, "cannot read " + shown + ": " + system_reason());
    if (const std::string kind = unreadable_kind(STDIN_FILENO, info); !kind.empty()) throw Error(ErrorCode::input, "cannot read " + shown + ": " + kind);
    StreamImage image;
    std::vector<std::uint8_t>& bytes = image.bytes;
    // The first bytes say whether an image comes at all: `yes |` or `cat /dev/zero |` is refused after
    // them, not when the memory runs out.
    while (bytes.size() < content_signature_bytes && read_some(STDIN_FILENO, bytes, content_signature_bytes - bytes.size(), shown) > 0) {
    }
    if (bytes.empty()) throw Error(ErrorCode::input, "cannot read " + shown + ": nothing came");
    const FormatRow* format = format_of_content(bytes.data(), bytes.size());
    if (!format || !format->decode) {
        throw Error(ErrorCode::input, "cannot read " + shown + ": it does not begin as an image (its first bytes are " + leading_bytes(bytes) +
                                          "; a stream is recognised by its content: " + formats_known_by_content() + ")");
    }
    image.format = format->name;
    ImageEndFinder finder(bytes.data(), bytes.size());
    for (;;) {
        if (const auto end = finder.end_in(bytes.data(), bytes.size())) {
            // Where the image ends, the reading ends: what follows (a stream that goes on) is said, not read.
            image.more_followed = *end < bytes.size() || read_some(STDIN_FILENO, bytes, 1, shown) > 0;
            bytes.resize(*end);
            break;
        }
        if (bytes.size() > max_bytes) throw Error(ErrorCode::input, too_large(shown, max_bytes));
        if (read_some(STDIN_FILENO, bytes, read_chunk, shown) == 0) break;
    }
    if (bytes.size() > max_bytes) throw Error(ErrorCode::input, too_large(shown, max_bytes));
    return image;
}

void write_standard_output(const std::vector<std::uint8_t>& bytes) {
    if (!write_all(STDOUT_FILENO, bytes)) throw Error(ErrorCode::output, "cannot write to standard output: " + system_reason());
}

namespace {

// Refuses to replace the existing regular file `info` describes unless the caller may write it, as exiftran
// -i and mogrify refuse: another user's file, or a write-protected one. Root may write anything, so for root
// a file with no write permission at all is refused too, as rm asks before removing one.
void check_replaceable(const std::string& shown, const struct stat& info, bool writable_by_caller) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    if (!writable_by_caller) {
        throw Error(ErrorCode::output, "cannot replace " + quoted(shown) + ": you may not write it (mode " + mode + ", owner uid " +
                                           std::to_string(info.st_uid) + "); write the result elsewhere with -o");
    }
    if (::geteuid() == 0 && (info.st_mode & 0222) == 0) {
        throw Error(ErrorCode::output, "cannot replace " + quoted(shown) + ": it is write-protected (mode " + mode + "; chmod u+w " + quoted(shown) +
                                           " first, or write the result elsewhere with -o)");
    }
}

const char* kind_of_special(mode_t mode) {
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// `bytes` into the character device or FIFO at `path`, as a stream: nothing to rename, nothing replaced.
void write_stream(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
    const bool written = write_all(fd, bytes);
    const std::string reason = written ? "" : system_reason();
    if (::close(fd) != 0 && written) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
    if (!written) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + reason);
}

}  // namespace

bool is_stream_output(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode));
}

void check_output_path(const std::string& path, bool overwrite, LinkPolicy links) {
    if (is_stream_output(path)) return;  // written into, whoever may replace names in its folder
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
    const bool exists = links == LinkPolicy::replace ? ::lstat(path.c_str(), &info) == 0 : ::stat(path.c_str(), &info) == 0;
    if (!exists) return;
    if (S_ISDIR(info.st_mode)) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": it is a directory");
    if (!overwrite) throw Error(ErrorCode::output, already_exists(path));
    if (S_ISLNK(info.st_mode)) return;  // replaced by the new file (LinkPolicy::replace), its target untouched
    if (!S_ISREG(info.st_mode)) {
        throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": it is " + kind_of_special(info.st_mode) +
                                           ", which is never replaced (files, character devices and FIFOs are written)");
    }
    check_replaceable(path, info, ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0);
}

void make_folders(const std::string& path) {
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string part = slash == std::string::npos ? path : path.substr(0, slash);
        if (!part.empty() && ::mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) {
            throw Error(ErrorCode::output, "cannot make the folder " + quoted(part) + ": " + system_reason());
        }
        struct stat info {};
        if (!part.empty() && (::stat(part.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))) {
            throw Error(ErrorCode::output, "cannot make the folder " + quoted(path) + ": " + quoted(part) + " is a file, not a folder");
        }
        if (slash == std::string::npos) return;
    }
}

void remove_stale_temporaries_in(int folder, const std::set<std::string>& prefixes) {
    const int listed = ::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (listed < 0) return;
    DIR* handle = ::fdopendir(listed);
    if (!handle) {
        ::close(listed);
        return;
    }
    while (const dirent* entry = ::readdir(handle)) {
        const std::string name = entry->d_name;
        if (!prefixes.count(temporary_name_prefix_of(name)) || running(temporary_writer_of(name))) continue;
        struct stat info {};
        if (::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode)) ::unlinkat(folder, name.c_str(), 0);
    }
    ::closedir(handle);
}

void write_file_streamed_at(int folder, const std::string& name, const std::string& shown, const std::function<void(int)>& fill, bool overwrite,
                              bool durable, bool refuse_link, LinkPolicy links) {
    struct stat info {};
    const bool exists = ::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0;
    if (refuse_link && exists && S_ISLNK(info.st_mode)) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": it is a symbolic link, which is never written through here (remove it)");
    }
    if (overwrite && exists && S_ISREG(info.st_mode)) {
        check_replaceable(shown, info, ::faccessat(folder, name.c_str(), W_OK, AT_EACCESS) == 0);
    }
    std::optional<StageScope> renaming;  // declared before the temporary: its name's removal is part of the rename
    TemporaryFile temp = create_temporary_in(folder, name, shown);
    if (overwrite) keep_attributes_of(folder, name, shown, temp, links == LinkPolicy::replace);
    fill(temp.fd());
    if ((durable && ::fsync(temp.fd()) != 0) || temp.close() != 0) {
        throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": " + system_reason());
    }
    // Without --overwrite, linkat() refuses an existing name atomically, closing the window between the
    // existence check and the rename; with it, renameat() replaces the old name in one step (a link planted
    // there since the check is replaced, not followed).
    renaming.emplace(WorkStage::rename);
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

namespace {

// A temporary file's contents: `bytes`, whole.
std::function<void(int)> filled_with(const std::vector<std::uint8_t>& bytes, const std::string& shown) {
    return [&bytes, &shown](int fd) {
        if (!write_all(fd, bytes)) throw Error(ErrorCode::output, "cannot write " + quoted(shown) + ": " + system_reason());
    };
}

}  // namespace

void write_file_atomically_at(int folder, const std::string& name, const std::string& shown, const std::vector<std::uint8_t>& bytes, bool overwrite,
                              bool durable, bool refuse_link, LinkPolicy links) {
    write_file_streamed_at(folder, name, shown, filled_with(bytes, shown), overwrite, durable, refuse_link, links);
}

void write_file_streamed(const std::string& given_path, const std::function<void(int)>& fill, bool overwrite, bool durable, LinkPolicy links) {
    const std::string path = links == LinkPolicy::follow ? write_target(given_path) : given_path;
    check_output_path(path, overwrite, links);
    const Descriptor folder(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (folder.get() < 0) throw Error(ErrorCode::output, "cannot write " + quoted(path) + ": " + system_reason());
    write_file_streamed_at(folder.get(), file_name_of(path), path, fill, overwrite, durable, false, links);
}

void write_file_atomically(const std::string& given_path, const std::vector<std::uint8_t>& bytes, bool overwrite, bool durable, LinkPolicy links) {
    if (is_stream_output(given_path)) {
        write_stream(given_path, bytes);
        return;
    }
    const std::string path = links == LinkPolicy::follow ? write_target(given_path) : given_path;  // named in a failed write's message
    write_file_streamed(path, filled_with(bytes, path), overwrite, durable, links);
}

}  // namespace gpurotate::detail
