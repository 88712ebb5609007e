#pragma once
// Ctrl-C and SIGTERM during a batch: the first one asks the pipeline to stop taking new images and finish
// those in flight (their outputs are written whole or not at all, and recorded); a second one exits at once.

namespace gpurotate::augment {

/// Installs the handlers for SIGINT and SIGTERM; restores the previous ones on destruction.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
};

/// The signal that asked to stop, or 0.
int stop_requested();

}  // namespace gpurotate::augment
