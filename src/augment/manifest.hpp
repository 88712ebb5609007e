#pragma once
// The manifest: one JSON Lines record per output, appended as each output is finished, so that it tells
// the truth at any moment, after Ctrl-C or a kill, and `--resume` can trust it.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace gpurotate::augment {

/// What a --random run draws with, as its manifest records it: every parameter but the seed, each as text
/// that compares equal where the draws are the same.
struct DrawParameters {
    std::string ops;       ///< --ops, in its order: "rot90,flip-h"
    std::string weights;   ///< one per element of ops: "2,1" (all 1 without --weights)
    std::string p_flip_h;  ///< --p-flip-h, as the shortest decimal that reads back as it: "0.5"
    std::string p_flip_v;  ///< --p-flip-v
    std::uint64_t draws = 0;        ///< N of --random N
    bool with_replacement = false;  ///< --with-replacement
    std::string degrees = "0";      ///< --degrees MAX (with --interpolate and --keep-size: "15 bilinear expand")
};

struct ManifestRecord {
    std::string input;
    std::string operation;
    std::string output;
    std::string file;         ///< the output's path below OUTDIR
    std::int64_t width = 0;   ///< of the output; 0 when the input could not be decoded
    std::int64_t height = 0;
    bool ok = false;
    std::uint64_t bytes = 0;  ///< file size of a written output
    std::string error;        ///< why it failed
    std::optional<std::uint64_t> seed;  ///< with --random: the run's seed
    std::optional<std::uint64_t> draw;  ///< with --random: the draw's index (0 to N-1)
    std::optional<DrawParameters> parameters;  ///< with --random: the run's other draw parameters
    int element = -1;         ///< read back: the element's number (0-7); written from `operation`
    std::string labels;       ///< --labels: the variant's label file below OUTDIR (the COCO file, for coco)
    std::optional<std::int64_t> image_id;  ///< --labels coco: the variant's id in that file
    std::string mask;         ///< --masks: the variant's mask below OUTDIR
    std::optional<double> angle;  ///< --degrees: the angle drawn after the element, clockwise
};

/// One record as a JSON object on one line (no newline): input, op, element (op's number, 0-7, as
/// orientation.hpp numbers it), seed, draw, ops, weights, p_flip_h, p_flip_v, draws and replacement (with
/// --random), output, file, labels, image_id and mask (with --labels and --masks), width, height, status,
/// bytes, and error (for a failure). A byte that is not part of UTF-8 (a file name's
/// on Linux may be any) is written as the lone surrogate \uDCXX, as Python's "surrogateescape" reads it
/// back: json.loads then os.path.exists finds the file.
std::string to_json_line(const ManifestRecord& record);

/// Parses a line written by to_json_line; false for anything else (a torn last line, say).
bool parse_json_line(const std::string& line, ManifestRecord& record);

/// The outputs a manifest records as written, with their sizes; the last record of an output wins. A
/// missing file is an empty manifest.
struct CompletedOutputs {
    std::map<std::string, std::uint64_t> by_file;    ///< by path below OUTDIR (records that have it)
    std::map<std::string, std::uint64_t> by_output;  ///< by absolute, lexically normal path (older records)
    /// The recorded size of `output` (below OUTDIR: `file`), if the manifest records it as written.
    std::optional<std::uint64_t> find(const std::string& output, const std::string& file) const;
};
CompletedOutputs completed_outputs(const std::string& manifest_path);

/// The manifest's first record, if any (a missing file has none): how the run it records was made, for
/// --resume to compare itself with (its seed and draw parameters).
std::optional<ManifestRecord> first_record(const std::string& manifest_path);


/// Appends records; safe to call from many threads. Each record reaches the file in one write().
class ManifestWriter {
public:
    /// Takes `fd`, open for reading and appending (manifest_file.hpp), named `path` in errors.
    ManifestWriter(int fd, const std::string& path);
    ~ManifestWriter();
    ManifestWriter(const ManifestWriter&) = delete;
    ManifestWriter& operator=(const ManifestWriter&) = delete;

    /// Throws Error (output) when the record cannot be written.
    void append(const ManifestRecord& record);

private:
    void append_raw(const std::string& text);
    // A run killed mid-write may have left a torn last line: cut it off (its output is redone, having no
    // record), so that every line stays a JSON object for the readers of the file.
    void cut_torn_line();

    std::string path_;
    int fd_ = -1;
    std::mutex mutex_;
};

}  // namespace gpurotate::augment
