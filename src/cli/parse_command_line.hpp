#pragma once
// CLI11's parse with gpurotate's conventions, for both executables: --help prints and exits 0, anything
// else it refuses is a usage error (exit 2) that says where help is.

#include <gpurotate/error.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace gpurotate::cli {

/// Parses argv into `app`'s options. False when CLI11 already handled the request (--help) and the
/// program should exit with `exit_status`; throws Error (usage) for a bad command line.
inline bool parse_command_line(CLI::App& app, int argc, char** argv, int& exit_status, const std::string& help_command) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        exit_status = app.exit(e);
        return false;
    } catch (const CLI::ParseError& e) {
        throw Error(ErrorCode::usage, std::string(e.what()) + " (see " + help_command + ")");
    }
    return true;
}

}  // namespace gpurotate::cli
