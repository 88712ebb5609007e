#include "augment/manifest_file.hpp"

#include "core/descriptor.hpp"
#include "core/path_names.hpp"
#include "formats/file_bytes.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpurotate::augment {
namespace {

[[noreturn]] void refuse(const std::string& shown, const std::string& why) { throw Error(ErrorCode::output, "cannot write manifest '" + shown + "': " + why); }

// The whole of the open file `fd`.
std::vector<std::uint8_t> contents_of(int fd, const std::string& shown) {
    std::vector<std::uint8_t> bytes;
    std::uint8_t block[65536];
    while (true) {
        const ssize_t n = ::pread(fd, block, sizeof block, static_cast<off_t>(bytes.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) refuse(shown, std::string("cannot read it to copy it: ") + std::strerror(errno));
        if (n == 0) return bytes;
        bytes.insert(bytes.end(), block, block + n);
    }
}

// Opens what is at `name` now (`creation`: 0, O_CREAT, or O_CREAT | O_EXCL for a new file), refusing a link
// and what is not a regular file.
int open_regular(int folder, const std::string& name, const std::string& shown, int creation) {
    // O_NONBLOCK: a FIFO planted at the name does not hang the run before it is refused.
    detail::Descriptor fd(::openat(folder, name.c_str(), O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | creation, 0666));
    if (fd.get() < 0 && errno == ELOOP) refuse(shown, "it is a symbolic link, which augment never writes through (remove it)");
    if (fd.get() < 0 && errno == EEXIST) refuse(shown, "it already exists (use --resume to finish that run, or --overwrite to start over)");
    if (fd.get() < 0) refuse(shown, std::strerror(errno));
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) refuse(shown, "it is not a regular file (remove it)");
    ::fcntl(fd.get(), F_SETFL, O_APPEND);  // blocking again
    return fd.release();
}

std::uint64_t link_count(int fd) {
    struct stat info {};
    return ::fstat(fd, &info) == 0 ? static_cast<std::uint64_t>(info.st_nlink) : 0;
}

}  // namespace

int open_manifest_at(int folder, const std::string& name, const std::string& shown, ManifestStart start) {
    // --overwrite: a new file in place of the old (which keeps its bytes under any other name it has).
    if (start == ManifestStart::overwrite) detail::write_file_atomically_at(folder, name, shown, {}, true, false, true);
    detail::Descriptor fd(open_regular(folder, name, shown, start == ManifestStart::create ? O_CREAT | O_EXCL : O_CREAT));
    if (link_count(fd.get()) > 1 && start == ManifestStart::resume) {
        // Another name shares the file (cp -al): appending would change it there too. A copy takes its name.
        const std::vector<std::uint8_t> bytes = contents_of(fd.get(), shown);
        detail::Descriptor none;
        fd.replace(none);
        detail::write_file_atomically_at(folder, name, shown, bytes, true, false, true);
        detail::Descriptor copy(open_regular(folder, name, shown, 0));
        fd.replace(copy);
    }
    if (link_count(fd.get()) != 1) {  // changed behind the run's back since
        refuse(shown, "it has other hard links, which augment never writes through (remove them, or copy the file)");
    }
    return fd.release();
}

int open_manifest(const std::string& path, ManifestStart start) {
    const std::string name = detail::file_name_of(path);
    const std::string folder_path = name.size() == path.size() ? "." : path.substr(0, path.size() - name.size());
    if (name.empty()) refuse(path, "it names a folder, not a file");
    const detail::Descriptor folder(::open(folder_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (folder.get() < 0) refuse(path, "cannot open its folder: " + std::string(std::strerror(errno)));
    return open_manifest_at(folder.get(), name, path, start);
}

}  // namespace gpurotate::augment
