#include "augment/output_folder.hpp"

#include "core/descriptor.hpp"
#include "formats/file_bytes.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpurotate::augment {
namespace {

using detail::Descriptor;

std::vector<std::string> components_of(const std::string& relative) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= relative.size()) {
        const std::size_t slash = relative.find('/', start);
        const std::string part = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (!part.empty() && part != ".") parts.push_back(part);
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return parts;
}

[[noreturn]] void refuse_link(const std::string& shown) {
    throw Error(ErrorCode::output, "'" + shown + "' is a symbolic link inside the output folder: augment never writes through one (remove it)");
}

}  // namespace

OutputFolder::OutputFolder(const std::string& path, bool create) : path_(path) {
    // OUTDIR and its parents as the user named them (links followed there, as mkdir -p follows them).
    if (create) detail::make_folders(path);
    fd_ = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0 && !create && errno == ENOENT) return;
    if (fd_ < 0) throw Error(ErrorCode::output, "cannot open output folder '" + path + "': " + std::strerror(errno));
}

OutputFolder::~OutputFolder() {
    if (fd_ >= 0) ::close(fd_);
}

int OutputFolder::open_folder(const std::vector<std::string>& parts, std::size_t count, bool create) const {
    Descriptor folder(::dup(fd_));
    std::string shown = path_;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string& part = parts[i];
        shown += "/" + part;
        if (part == "..") throw Error(ErrorCode::output, "'" + shown + "' leaves the output folder");
        if (create && ::mkdirat(folder.get(), part.c_str(), 0777) != 0 && errno != EEXIST) {
            throw Error(ErrorCode::output, "cannot create output folder '" + shown + "': " + std::strerror(errno));
        }
        Descriptor next(::openat(folder.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.get() < 0) {
            struct stat info {};
            const int error = errno;
            if (::fstatat(folder.get(), part.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(info.st_mode)) refuse_link(shown);
            if (error == ENOTDIR) throw Error(ErrorCode::output, "output folder '" + shown + "' is not a folder");
            throw Error(ErrorCode::output, "cannot open output folder '" + shown + "': " + std::strerror(error));
        }
        folder.replace(next);
    }
    return folder.release();
}

int OutputFolder::open_parent(const std::string& relative, std::string& name, bool create) const {
    const std::vector<std::string> parts = components_of(relative);
    if (parts.empty()) throw Error(ErrorCode::output, "'" + path_ + "': no file name below the output folder");
    name = parts.back();
    return open_folder(parts, parts.size() - 1, create);
}

OutputFolder::Entry OutputFolder::entry(const std::string& relative) const {
    const std::vector<std::string> parts = components_of(relative);
    if (fd_ < 0) return {};  // no OUTDIR yet
    Descriptor walk(::dup(fd_));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        struct stat info {};
        if (::fstatat(walk.get(), parts[i].c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return {};
        if (S_ISLNK(info.st_mode)) return {Entry::link};
        if (i + 1 == parts.size()) {
            return {S_ISREG(info.st_mode) ? Entry::file : S_ISDIR(info.st_mode) ? Entry::folder : Entry::other, static_cast<std::uint64_t>(info.st_size),
                    static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino)};
        }
        Descriptor next(::openat(walk.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (next.get() < 0) return {};  // a file where a folder goes: nothing below it (writing there fails alone)
        walk.replace(next);
    }
    return {Entry::folder};
}

void OutputFolder::make_folder(const std::string& relative, std::vector<std::string>* made) const {
    const std::vector<std::string> parts = components_of(relative);
    if (made) {  // asked before making: the run's lock keeps other runs out of OUTDIR (the one exception, the
                 // shards of one run under --shard K/N, do not ask: see augment.cpp)
        std::string prefix;
        for (const std::string& part : parts) {
            prefix += (prefix.empty() ? "" : "/") + part;
            if (entry(prefix).kind == Entry::none) made->push_back(prefix);
        }
    }
    Descriptor folder(open_folder(parts, parts.size(), true));
}

void OutputFolder::remove_empty_folders(const std::vector<std::string>& made) const {
    for (auto it = made.rbegin(); it != made.rend(); ++it) {
        try {
            std::string name;
            Descriptor parent(open_parent(*it, name, false));
            static_cast<void>(::unlinkat(parent.get(), name.c_str(), AT_REMOVEDIR));  // fails, as it should, where not empty
        } catch (const Error&) {  // its parent is gone or became a link: nothing of ours to remove there
        }
    }
}

void OutputFolder::write_file(const std::string& relative, const std::vector<std::uint8_t>& bytes, bool replace, bool durable) const {
    std::string name;
    Descriptor folder(open_parent(relative, name, false));
    detail::write_file_atomically_at(folder.get(), name, path_ + "/" + relative, bytes, replace, durable, true);
}

bool OutputFolder::write_file_streamed(const std::string& relative, const std::function<void(int)>& fill, bool replace, bool durable) const {
    std::string name;
    Descriptor folder(open_parent(relative, name, false));
    detail::write_file_streamed_at(folder.get(), name, path_ + "/" + relative, fill, replace, durable, true);
    return true;
}

void OutputFolder::remove_file(const std::string& relative) const {
    std::string name;
    Descriptor folder(open_parent(relative, name, false));
    if (::unlinkat(folder.get(), name.c_str(), 0) != 0 && errno != ENOENT) {
        throw Error(ErrorCode::output, "'" + path_ + "/" + relative + "': cannot remove: " + std::strerror(errno));
    }
}

int OutputFolder::open_manifest(const std::string& relative, ManifestStart start) const {
    std::string name;
    Descriptor folder(open_parent(relative, name, true));
    return open_manifest_at(folder.get(), name, path_ + "/" + relative, start);
}

void OutputFolder::remove_stale_temporaries(const std::vector<std::string>& relatives) const {
    std::map<std::string, std::set<std::string>> prefixes_by_folder;
    for (const std::string& relative : relatives) {
        const auto slash = relative.find_last_of('/');
        prefixes_by_folder[slash == std::string::npos ? "" : relative.substr(0, slash)].insert(
            detail::temporary_name_prefix(slash == std::string::npos ? relative : relative.substr(slash + 1)));
    }
    for (const auto& [folder_name, prefixes] : prefixes_by_folder) {
        int folder_fd = -1;
        try {
            const std::vector<std::string> parts = components_of(folder_name);
            folder_fd = open_folder(parts, parts.size(), false);
        } catch (const Error&) {
            continue;  // missing, or a link: nothing of ours is there
        }
        detail::remove_stale_temporaries_in(folder_fd, prefixes);
        ::close(folder_fd);
    }
}

}  // namespace gpurotate::augment
