#pragma once
// The single-image command over one file or many: which output each input gets (a file, a file of the same
// name in a folder, or the input itself with -i), and a run in which each file fails alone.

#include "cli/options.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace gpurotate::cli {

struct FileJob {
    std::string input;   ///< a file, or "-" (standard input)
    std::string output;  ///< a file, or "-" (standard output)
    std::string format;  ///< the output's format where its name does not give it (--format, EXT:PATH), or ""
};

/// The jobs `options` asks for, checked before any work: -i replaces each input; several inputs, or an
/// output that names a folder (DIR/, or one that exists), write DIR/NAME for each input NAME (its extension
/// that of --format where given). An output written EXT:PATH, as ImageMagick writes png:- or jpg:out.bin,
/// is PATH in the format EXT names. Throws Error
/// (usage) for a command line that names no usable output, (output) for a missing folder.
std::vector<FileJob> plan_file_jobs(const Options& options);

/// Runs every job, each failing alone with its message on `log`; returns 0, or the exit status of the first
/// file that failed in the inputs' order. Several files are converted at once on --jobs workers (the cores),
/// each file's messages printed whole, in the inputs' order; on the GPU (--device cuda, --nvjpeg) they share one
/// start of it (one worker where --gpu-memory bounds the device memory). With one job its Error is thrown, as
/// before any other work.
int run_file_jobs(const Options& options, std::ostream& log);

}  // namespace gpurotate::cli
