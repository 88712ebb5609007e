#pragma once
// The man pages and shell completions, written from the parser's own option table (the same CLI11 objects
// --help prints), so that they cannot drift from the command line. The build runs `gpurotate --generate
// WHAT` and `cmake --install` installs what it wrote.

#include <CLI/CLI.hpp>

#include <string>

namespace gpurotate::cli {

/// `what`: "man" (gpurotate.1), "man-augment" (gpurotate-augment.1), "bash" or "zsh" (completion scripts).
/// Throws Error (usage) for anything else.
std::string generated_file(const std::string& what, const CLI::App& app, const CLI::App& augment);

}  // namespace gpurotate::cli
