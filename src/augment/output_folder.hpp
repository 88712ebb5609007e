#pragma once
// OUTDIR as an open folder. Every path augment writes, removes or truncates below it is found from its
// descriptor one component at a time, never through a symbolic link planted inside it (openat with
// O_NOFOLLOW): a link in OUTDIR, to a file or to a folder, is refused, so a run cannot write, truncate or
// remove anything outside OUTDIR. OUTDIR itself may be a link, as the user named it. Who writes into it at
// once is run_lock.hpp's.

#include "augment/manifest_file.hpp"
#include "formats/image_sink.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpurotate::augment {

class OutputFolder final : public detail::ContainingFolder {
public:
    /// Opens OUTDIR, made where missing (and its parents, as mkdir -p) with `create`; without it a missing
    /// OUTDIR holds nothing (a dry run writes nothing). Throws Error (output).
    OutputFolder(const std::string& path, bool create);
    ~OutputFolder() override;
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    const std::string& path() const { return path_; }

    /// OUTDIR's descriptor (-1 where a dry run found no OUTDIR): what run_lock.hpp locks in.
    int descriptor() const { return fd_; }

    /// What is at `relative` (below OUTDIR), not following a link there or on the way.
    struct Entry {
        enum Kind { none, file, link, folder, other } kind = none;
        std::uint64_t size = 0;
        std::uint64_t device = 0, inode = 0;
    };
    Entry entry(const std::string& relative) const;

    /// Makes the folder `relative` ("" is OUTDIR) where missing, each component in turn, adding to `made` (where
    /// given) each one it made. Throws Error (output) where a component is a symbolic link or not a folder.
    void make_folder(const std::string& relative, std::vector<std::string>* made = nullptr) const;

    /// Removes the folders `made` (as make_folder listed them) that are empty, deepest first: what a run that
    /// wrote nothing had made for its outputs. Quiet where one holds something or is gone.
    void remove_empty_folders(const std::vector<std::string>& made) const;

    /// Writes `bytes` at `relative` atomically (a temporary file beside it, renamed into place): refused where
    /// a link is at the name or on the way, and where a file is there unless `replace`. Throws Error (output).
    void write_file(const std::string& relative, const std::vector<std::uint8_t>& bytes, bool replace, bool durable) const override;

    /// The same for a file written as it is made (an output WebDataset shard, a TIFF's strips): `fill` writes the
    /// temporary file's contents to the descriptor it is given; an Error it throws leaves nothing at `relative`.
    /// True: this folder writes every file so.
    bool write_file_streamed(const std::string& relative, const std::function<void(int)>& fill, bool replace, bool durable) const override;

    /// Removes the file at `relative` (an output whose companions could not be written), not through a link.
    /// Quiet where it is gone already; throws Error (output) where it cannot be removed.
    void remove_file(const std::string& relative) const;

    /// Opens the manifest at `relative` for reading and appending as `start` says (manifest_file.hpp), refusing a
    /// link there or on the way; the caller owns the descriptor. Throws Error (output).
    int open_manifest(const std::string& relative, ManifestStart start) const;

    /// Removes the temporary files a killed run left beside the files `relatives`: regular files named as
    /// ours whose writer is no longer running. Links and folders of such names are left alone.
    void remove_stale_temporaries(const std::vector<std::string>& relatives) const;

private:
    // The folder of the first `count` of `parts` below OUTDIR, made where missing with `create` (its
    // descriptor, which the caller closes).
    int open_folder(const std::vector<std::string>& parts, std::size_t count, bool create) const;
    // The folder holding `relative` (its descriptor, which the caller closes) and its last component.
    int open_parent(const std::string& relative, std::string& name, bool create) const;

    std::string path_;
    int fd_ = -1;
};

}  // namespace gpurotate::augment
