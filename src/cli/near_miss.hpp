#pragma once
// What a user meant by an option the parser refused: ImageMagick's, jpegtran's and exiftran's spellings of
// the operations, single-dash long options, and the nearest known option to a misspelt one.

#include <string>
#include <vector>

namespace gpurotate::cli {

/// A sentence that points from `args` (the command line after the program's name) to what gpurotate calls
/// it, or "" where nothing is recognised. `known` lists the options of the command being parsed ("--rot90",
/// "-o", ...).
std::string near_miss_hint(const std::vector<std::string>& args, const std::vector<std::string>& known);

}  // namespace gpurotate::cli
