#pragma once
// Opening the manifest without writing into a file that has another name: a hard link to it (a snapshot made
// with `cp -al`, a link planted by someone else) keeps its bytes, whatever the flags.

#include <string>

namespace gpurotate::augment {

/// How a run starts its manifest.
enum class ManifestStart {
    create,     ///< neither --resume nor --overwrite: a new file; one already there is refused
    overwrite,  ///< --overwrite: a new, empty file renamed over the one there (never emptied in place)
    resume,     ///< --resume: the file there, appended to; where it has other hard links, a copy of it is
                ///< renamed over the name first, so that the other names keep the old bytes
};

/// Opens the manifest `name` (no slash) in the open folder `folder` for reading and appending, as `start`
/// says, refusing a symbolic link and anything not a regular file; `shown` names it in errors. Returns the
/// descriptor, which the caller owns. Throws Error (output).
int open_manifest_at(int folder, const std::string& name, const std::string& shown, ManifestStart start);

/// The same for the manifest at `path`, whose folder is opened as the user named it (--manifest elsewhere).
int open_manifest(const std::string& path, ManifestStart start);

}  // namespace gpurotate::augment
