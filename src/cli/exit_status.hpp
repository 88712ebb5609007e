#pragma once
// Every failure of a gpurotate program becomes its documented exit status (README, "Exit codes") and one
// line on stderr, in one place for both executables.

#include <gpurotate/error.hpp>

#include <exception>
#include <iostream>

namespace gpurotate::cli {

/// Runs `body` (which returns the exit status) and turns what it throws into a message and an exit status.
template <class Body>
int exit_status_of(const char* program, Body&& body) {
    try {
        return body();
    } catch (const Error& e) {
        std::cerr << program << ": error: " << e.what() << "\n";
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::cerr << program << ": internal error: " << e.what() << "\n";
        return static_cast<int>(ErrorCode::internal);
    }
}

}  // namespace gpurotate::cli
