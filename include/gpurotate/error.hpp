#pragma once
/// \file error.hpp
/// The one error type of gpurotate. Every failure is an `Error` carrying an `ErrorCode`; the CLI maps the
/// code to its documented exit status in one place (src/cli/exit_status.hpp).

#include <stdexcept>
#include <string>

namespace gpurotate {

/// What kind of failure happened. The numeric values are the CLI's exit statuses (README, "Exit codes").
enum class ErrorCode : int {
    internal = 1,        ///< a bug or an unexpected system failure
    usage = 2,           ///< bad command line or invalid argument to an API function
    input = 3,           ///< input missing, unreadable, empty, corrupt, truncated or of an unsupported format
    output = 4,          ///< output cannot be written: unknown extension, directory missing, exists, format cannot hold pixels
    device = 5,          ///< CUDA requested but unavailable, or a CUDA call failed
};

/// The exception thrown by every gpurotate function.
class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
    /// The category of the failure.
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace gpurotate
