#pragma once
// What --help shows above and below the option list: the usage lines (CLI11's generic one shows neither -o
// nor the operations) and examples, for gpurotate and gpurotate augment.

#include <CLI/CLI.hpp>

#include <string>

namespace gpurotate::cli {

/// Gives `app` (gpurotate) and `augment` (its subcommand) their usage lines and examples.
void describe_usage(CLI::App& app, CLI::App& augment);

/// The usage lines of gpurotate, or of gpurotate augment, without "Usage: " (for the man pages).
std::string usage_lines(bool augment);

}  // namespace gpurotate::cli
