#include "formats/temporaries_in_flight.hpp"

#include <gpurotate/error.hpp>

#include <atomic>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

namespace gpurotate::detail {
namespace {

// A slot's life: free -> writing (its owner fills in the name) -> opening (the create call may run) ->
// armed (the file may exist) -> free once renamed or removed. A signal's sweep takes opening and armed slots
// to sweeping, which its owner never frees: the process is ending.
enum SlotState : int { free_slot, writing, opening, armed, sweeping };

struct Slot {
    std::atomic<int> state{free_slot};
    int folder = -1;
    char name[256] = {};
};

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots' states");

std::atomic<bool> tracking{false};
std::atomic<bool> stopping{false};  // a signal is sweeping: no new temporary file may be created
Slot slots[max_temporaries_in_flight];

bool move_state(Slot& slot, int from, int to) { return slot.state.compare_exchange_strong(from, to); }

bool any_opening() {
    for (const Slot& slot : slots) {
        if (slot.state.load() == opening) return true;
    }
    return false;
}

[[noreturn]] void refuse_while_stopping() { throw Error(ErrorCode::internal, "interrupted: the run is ending on a signal"); }

}  // namespace

void track_temporaries_for_signals(bool on) { tracking.store(on); }

TemporaryInFlight::TemporaryInFlight(int folder, const char* name) {
    const std::size_t length = std::strlen(name);
    if (!tracking.load() || length >= sizeof slots[0].name) return;
    for (;;) {
        if (stopping.load()) refuse_while_stopping();
        for (std::size_t i = 0; i < max_temporaries_in_flight && slot_ < 0; ++i) {
            if (move_state(slots[i], free_slot, writing)) slot_ = static_cast<int>(i);
        }
        if (slot_ >= 0) break;
        ::sched_yield();  // more writers than slots: one finishes soon
    }
    Slot& slot = slots[slot_];
    slot.folder = folder;
    std::memcpy(slot.name, name, length + 1);
    // Opening before the check: a sweep that began after it sees this slot and waits for the create to return;
    // one that began before it is seen here, and the file is never created.
    slot.state.store(opening);
    if (stopping.load()) {
        move_state(slot, opening, free_slot);
        slot_ = -1;
        refuse_while_stopping();
    }
}

TemporaryInFlight::TemporaryInFlight(TemporaryInFlight&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }

TemporaryInFlight::~TemporaryInFlight() {
    if (slot_ < 0) return;
    // Fails only where a sweep has the slot (sweeping): it stays taken while the process ends.
    if (!move_state(slots[slot_], armed, free_slot)) move_state(slots[slot_], opening, free_slot);
}

void TemporaryInFlight::opened() {
    if (slot_ >= 0) move_state(slots[slot_], opening, armed);
}

void remove_temporaries_in_flight() {
    stopping.store(true);
    // A create call in progress on another thread returns within microseconds; the bound covers the thread this
    // handler interrupted, whose create cannot return until the handler does (its file, if made, is swept).
    timespec pause{0, 1000000};
    for (int waited = 0; waited < 200 && any_opening(); ++waited) ::nanosleep(&pause, nullptr);
    for (Slot& slot : slots) {
        if (move_state(slot, armed, sweeping) || move_state(slot, opening, sweeping)) ::unlinkat(slot.folder, slot.name, 0);
    }
}

}  // namespace gpurotate::detail
