#pragma once
// The temporary files being written while the file command runs, for SIGINT and SIGTERM to remove: several
// files are written at once on the workers, and a signal that ends the process must take every one of them.
//
// A fixed table, set and read with atomics only: remove_temporaries_in_flight runs in a signal handler, on
// whichever thread the signal interrupted, so it may neither allocate nor lock.

#include <cstddef>

namespace gpurotate::detail {

/// While the file command runs (on), writes register their temporary files; augment's threads, which stop
/// between images on a signal, and library callers do not.
void track_temporaries_for_signals(bool on);

/// One temporary file's place in the table, from its name before it is created until it is renamed or
/// removed; empty where tracking is off. Move-only.
class TemporaryInFlight {
public:
    /// Takes a slot for the file `name` in the open folder `folder` before it is created, waiting while every
    /// slot is taken. Throws Error (internal, "interrupted") once a signal is removing the temporaries: no new
    /// file may be made then.
    TemporaryInFlight(int folder, const char* name);
    TemporaryInFlight() = default;
    TemporaryInFlight(TemporaryInFlight&& other) noexcept;
    TemporaryInFlight& operator=(TemporaryInFlight&&) = delete;
    TemporaryInFlight(const TemporaryInFlight&) = delete;
    ~TemporaryInFlight();
    /// The file's create call has returned (made or not): from now on a signal's sweep removes it by name.
    void opened();

private:
    int slot_ = -1;
};

/// Removes every temporary file in flight, having waited (briefly) for those being created; async-signal-safe.
/// After it, no temporary file is created: the caller is about to end the process.
void remove_temporaries_in_flight();

/// How many temporary files the table can hold at once (more writers wait for a free slot).
inline constexpr std::size_t max_temporaries_in_flight = 1024;

}  // namespace gpurotate::detail
