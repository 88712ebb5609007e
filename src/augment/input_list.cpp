#include "augment/input_list.hpp"
#include "core/text.hpp"

#include "formats/format_registry.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include <dirent.h>
#include <sys/stat.h>

namespace gpurotate::augment {
namespace {

using FileId = std::pair<dev_t, ino_t>;

std::string join(const std::string& dir, const std::string& name) {
    if (dir.empty()) return name;
    return dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string base_name(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A listed file's path below OUTDIR: as written, without "." components and repeated slashes, where it is
// relative and has no ".."; otherwise its file name.
std::string relative_as_written(const std::string& path) {
    const std::string normal = std::filesystem::path(path).lexically_normal().string();
    if (normal.empty() || normal[0] == '/' || ("/" + normal + "/").find("/../") != std::string::npos) return base_name(path);
    return normal;
}

class Walker {
public:
    Walker(bool recursive, const std::string& exclude_dir) : recursive_(recursive) {
        struct stat info {};
        if (!exclude_dir.empty() && ::stat(exclude_dir.c_str(), &info) == 0) exclude_ = FileId{info.st_dev, info.st_ino};
    }

    /// A folder contributes its image files below it; a file itself, under its file name, or (`keep_folders`,
    /// for the lines of an @list) under its path as written where that is relative and stays below the
    /// working folder, so that train/cat/1.jpg and train/dog/1.jpg keep apart as they do in a folder walk.
    void add_argument(const std::string& argument, bool keep_folders) {
        struct stat info {};
        if (::stat(argument.c_str(), &info) != 0) {
            throw Error(ErrorCode::input, "cannot read '" + argument + "': " + std::strerror(errno));
        }
        if (S_ISDIR(info.st_mode)) {
            if (FileId{info.st_dev, info.st_ino} == exclude_) {
                // Its outputs would lie among its inputs: the next run (--resume too) would read them as inputs.
                throw Error(ErrorCode::usage, "input folder '" + argument + "' is the output folder: a later run would read its outputs as "
                                              "inputs; write them to a folder of their own (e.g. -o " + join(argument, "augmented") + ")");
            }
            walk(argument, "", info, true);
        } else if (seen_files_.insert(normal_absolute(argument)).second) {  // a path named twice is read once
            files_.push_back({argument, keep_folders ? relative_as_written(argument) : base_name(argument)});
        }
    }

    std::vector<InputFile> take() {
        std::sort(files_.begin(), files_.end(), [](const InputFile& a, const InputFile& b) { return a.relative < b.relative; });
        return std::move(files_);
    }

private:
    void walk(const std::string& dir, const std::string& relative_dir, const struct stat& dir_info, bool is_argument) {
        // Never the output folder below an input folder (its own outputs), never a folder twice (a link loop).
        const FileId id{dir_info.st_dev, dir_info.st_ino};
        if ((!is_argument && id == exclude_) || !visited_.insert(id).second) return;
        DIR* handle = ::opendir(dir.c_str());
        if (!handle) throw Error(ErrorCode::input, "cannot list '" + dir + "': " + std::strerror(errno));
        std::vector<std::string> names;
        while (const dirent* entry = ::readdir(handle)) {
            if (entry->d_name[0] != '.') names.emplace_back(entry->d_name);  // hidden entries, ".", ".." and our temporaries
        }
        ::closedir(handle);
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) {
            const std::string path = join(dir, name);
            struct stat info {};
            if (::stat(path.c_str(), &info) != 0) {
                // A dangling or looping link with an image's name: listed, so that reading it fails and is
                // reported with the other failures, not dropped without a word.
                if (is_listed_input(name)) files_.push_back({path, join(relative_dir, name)});
                continue;
            }
            if (S_ISDIR(info.st_mode)) {
                if (recursive_) walk(path, join(relative_dir, name), info, false);
            } else if (S_ISREG(info.st_mode) && is_listed_input(name) && seen_files_.insert(normal_absolute(path)).second) {
                files_.push_back({path, join(relative_dir, name)});
            }
        }
    }

    bool recursive_;
    FileId exclude_{0, 0};
    std::set<FileId> visited_;
    // By path, not by inode: hard links and links at other paths (a DVC cache's layout) are files of
    // their own in a dataset.
    std::set<std::string> seen_files_;
    std::vector<InputFile> files_;
};

struct ListedPath {
    std::string path;
    int line;
};

// The paths of a list file: one a line, taken as written (a name may start or end with a space); lines of
// only blanks and lines whose first non-blank is '#' are skipped.
std::vector<ListedPath> read_list_file(const std::string& list) {
    std::ifstream in(list);
    if (!in) throw Error(ErrorCode::input, "cannot read list file '" + list + "': " + std::strerror(errno));
    std::vector<ListedPath> paths;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        paths.push_back({line, number});
    }
    return paths;
}

}  // namespace

std::string normal_absolute(const std::string& path) {
    std::error_code ignored;  // no working folder: compare as written
    const std::filesystem::path absolute = std::filesystem::absolute(path, ignored);
    return (absolute.empty() ? std::filesystem::path(path) : absolute).lexically_normal().string();
}

bool has_image_extension(const std::string& path) { return detail::is_read_path(path); }

std::optional<ShardCompression> shard_compression(const std::string& path) {
    const std::string lower = detail::lowercase(path);
    const auto ends_with = [&lower](const std::string& ext) {
        return lower.size() > ext.size() && lower.compare(lower.size() - ext.size(), ext.size(), ext) == 0;
    };
    if (ends_with(".tar")) return ShardCompression::none;
    if (ends_with(".tar.gz") || ends_with(".tgz")) return ShardCompression::gzip;
    return std::nullopt;
}

bool is_shard_path(const std::string& path) { return shard_compression(path).has_value(); }

bool is_listed_input(const std::string& path) { return has_image_extension(path) || is_shard_path(path); }

std::vector<InputFile> list_inputs(const std::vector<std::string>& arguments, bool recursive, const std::string& exclude_dir) {
    Walker walker(recursive, exclude_dir);
    for (const std::string& argument : arguments) {
        if (!argument.empty() && argument[0] == '@') {
            const std::string list = argument.substr(1);
            for (const ListedPath& entry : read_list_file(list)) {
                try {
                    walker.add_argument(entry.path, true);
                } catch (const Error& e) {
                    throw Error(e.code(), std::string(e.what()) + " (line " + std::to_string(entry.line) + " of '" + list + "')");
                }
            }
        } else {
            walker.add_argument(argument, false);
        }
    }
    return walker.take();
}

}  // namespace gpurotate::augment
