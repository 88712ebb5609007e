#pragma once
// CLI11's parse with gpurotate's conventions, for both executables: --help prints and exits 0, anything
// else it refuses is a usage error (exit 2) that says where help is.

#include <gpurotate/error.hpp>

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace gpurotate::cli {

/// Parses argv into `app`'s options. False when CLI11 already handled the request (--help) and the
/// program should exit with `exit_status`; throws Error (usage) for a bad command line, with `hint`'s
/// sentence in place of CLI11's where it has one (near_miss.hpp).
inline bool parse_command_line(CLI::App& app, int argc, char** argv, int& exit_status, const std::string& help_command,
                               const std::function<std::string()>& hint = {}) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        exit_status = app.exit(e);
        return false;
    } catch (const CLI::ParseError& e) {
        const std::string better = hint ? hint() : std::string();
        throw Error(ErrorCode::usage, (better.empty() ? std::string(e.what()) : better) + " (see " + help_command + ")");
    }
    return true;
}

}  // namespace gpurotate::cli
