#include "augment/interrupt.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>

#include <unistd.h>

namespace gpurotate::augment {
namespace {

std::atomic<int> requested{0};
struct sigaction previous_int {}, previous_term {};

extern "C" void on_stop_signal(int signal) {
    if (requested.exchange(signal) != 0) {
        // The second signal: the user means it. Temporary files may remain; outputs are never partial.
        _exit(128 + signal);
    }
    static const char message[] = "\ngpurotate: stopping after the images in flight (again to quit at once)\n";
    const int interrupted_errno = errno;  // write sets it; the interrupted code reads its own
    const ssize_t ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
    static_cast<void>(ignored);
    errno = interrupted_errno;
}

}  // namespace

InterruptGuard::InterruptGuard() {
    requested = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &previous_int);
    ::sigaction(SIGTERM, &action, &previous_term);
}

InterruptGuard::~InterruptGuard() {
    ::sigaction(SIGINT, &previous_int, nullptr);
    ::sigaction(SIGTERM, &previous_term, nullptr);
}

int stop_requested() { return requested.load(); }

}  // namespace gpurotate::augment
