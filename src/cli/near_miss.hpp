#pragma once
// What a user meant by an option the parser refused: ImageMagick's, jpegtran's and exiftran's spellings of
// the operations, single-dash long options, the nearest known option to a misspelt one, and the nearest
// subcommand to a misspelt one.

#include <string>
#include <vector>

namespace gpurotate::cli {

/// A sentence that points from `args` (the command line after the program's name) to what gpurotate calls
/// it, or "" where nothing is recognised. `known` lists the options of the command being parsed ("--rot90",
/// "-o", ...).
std::string near_miss_hint(const std::vector<std::string>& args, const std::vector<std::string>& known);

/// The one of `subcommands` ("augment", "bench") that `word` (the first argument) is a misspelling of, or ""
/// where it is none of them, one of them exactly, or an option. The caller checks first that `word` is not a
/// file, which it would then be.
std::string near_subcommand(const std::string& word, const std::vector<std::string>& subcommands);

}  // namespace gpurotate::cli
