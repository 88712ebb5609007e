#pragma once
// Turning `augment`'s INPUT arguments (files, folders, @list files) into the list of image files to read,
// each with the relative path under which its outputs are mirrored.

#include <optional>
#include <string>
#include <vector>

namespace gpurotate::augment {

struct InputFile {
    std::string path;      ///< as it is opened
    std::string relative;  ///< below OUTDIR: the path inside its folder argument, an @list line's relative path, or the file name
};

/// `path` made absolute against the working folder and lexically normal ("./", "//" and "a/.." gone): the
/// same for every spelling of one path that does not go through a link.
std::string normal_absolute(const std::string& path);

/// Whether `path`'s extension names a format the decoders read (case-insensitive): the registry's is_read_path.
bool has_image_extension(const std::string& path);

/// How a WebDataset shard's tar is stored, which its output shard keeps.
enum class ShardCompression { none, gzip };

/// The compression of the WebDataset shard `path` names (".tar"; ".tar.gz" or ".tgz": gzip; case-insensitive),
/// or nothing where it names none.
std::optional<ShardCompression> shard_compression(const std::string& path);

/// Whether `path` names a WebDataset shard (shard_compression): augment reads its members as samples
/// (shard_reader.hpp) and writes a shard of their variants.
bool is_shard_path(const std::string& path);

/// What a folder contributes to the inputs: image files and WebDataset shards.
bool is_listed_input(const std::string& path);

/// Expands the arguments, sorted by relative path. Folders contribute their image files and shards (.tar, .tar.gz, .tgz) (by extension;
/// hidden entries skipped), with `recursive` their subfolders too, following symbolic links but never
/// entering a folder twice (no loops) nor the folder `exclude_dir` (the output folder, when it lies inside
/// an input folder). Files named directly are taken whatever their extension, under their file name; an
/// @list's lines under their relative path as written. A path named twice (however spelled) is listed once;
/// links and hard links at other paths are files of their own. Throws Error
/// (input) for an argument that does not exist or cannot be listed, (usage) for a folder argument that is
/// `exclude_dir` itself.
std::vector<InputFile> list_inputs(const std::vector<std::string>& arguments, bool recursive, const std::string& exclude_dir);

}  // namespace gpurotate::augment
