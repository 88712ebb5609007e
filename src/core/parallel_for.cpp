#include "core/parallel_for.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace gpurotate::detail {
namespace {

// Threads started once and woken for each call: starting and joining threads for every call cost 40-60 us on
// the 2-core VM, so a 1 MB flip ran 3-4x slower on two threads than on one (bench --cpu --threads 1/2,
// 1024x1024 u8c1), and the threshold for a second thread sat where the split no longer paid.
class WorkerPool {
public:
    /// The process's pool, started on first use; a new one in a child after fork (the parent's threads are
    /// not there). Never destroyed: its threads wait on it until the process ends.
    static WorkerPool& instance() {
        std::call_once(at_fork_registered, [] { pthread_atfork(nullptr, nullptr, forget_in_child); });
        std::lock_guard<std::mutex> lock(creation);
        if (!current) current = new WorkerPool(usable_cores() - 1);
        return *current;
    }

    /// Runs chunk(0) ... chunk(chunks - 1), chunk 0 on the calling thread and the others on the workers (and the
    /// caller, once its own is done). False, having run nothing, when another call has the pool (a nested or
    /// concurrent call): the caller then starts threads of its own.
    bool run(std::int64_t chunks, const std::function<void(std::int64_t)>& chunk) {
        // A chunk of this call on this thread that calls again must not try the lock it holds (undefined for
        // std::mutex): it is busy, as it is for every other thread.
        if (running_here || workers == 0) return false;
        std::unique_lock<std::mutex> use(in_use, std::try_to_lock);
        if (!use.owns_lock()) return false;
        running_here = true;
        struct Reset {
            ~Reset() { running_here = false; }
        } reset;
        {
            std::lock_guard<std::mutex> lock(mutex);
            job = &chunk;
            next = 1;
            last = chunks;
            unfinished.store(chunks - 1, std::memory_order_relaxed);
            ++generation;
        }
        for (std::int64_t i = 1; i < std::min<std::int64_t>(chunks, workers + 1); ++i) wake.notify_one();  // the rest sleep on
        chunk(0);
        while (finish_one()) {
        }
        wait_for_workers();
        return true;
    }

private:
    // Starts up to `count` workers; fewer where the system refuses a thread (the caller and those started do the
    // chunks).
    explicit WorkerPool(unsigned count) {
        for (; workers < count; ++workers) {
            try {
                std::thread([this] { serve(); }).detach();
            } catch (const std::system_error&) {
                break;
            }
        }
    }

    // Returns when every chunk has finished. The workers' chunks end about when the caller's own did, so the caller
    // watches the count for a while before it sleeps: sleeping on `done` cost a second wake-up, as long as the
    // first. 2-core VM, 1920x1080 u8c1 transpose on two threads: the worker started 22-35 us into the call, both
    // halves took 48-63 us, and the caller, asleep, woke 25-30 us after the worker had finished: 101-127 us, where
    // one thread took 96 (bench/RESULTS.md, 2026-11-27). Bounded, so that a worker the system has
    // descheduled costs a sleeping caller, not a spinning one.
    void wait_for_workers() {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::microseconds(500);
        for (unsigned spins = 0; unfinished.load(std::memory_order_acquire) != 0; ++spins) {
            if (spins % 64 == 63 && std::chrono::steady_clock::now() > give_up) break;
            pause();
        }
        std::unique_lock<std::mutex> lock(mutex);
        done.wait(lock, [&] { return unfinished.load(std::memory_order_relaxed) == 0; });
        job = nullptr;
    }

    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

    // Takes the next chunk not yet taken and runs it; false when none is left.
    bool finish_one() {
        std::int64_t index = 0;
        const std::function<void(std::int64_t)>* chunk = nullptr;
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (next >= last) return false;
            index = next++;
            chunk = job;
        }
        (*chunk)(index);
        std::lock_guard<std::mutex> lock(mutex);
        // Release: whoever sees the count reach 0 (wait_for_workers, without the mutex) sees this chunk's writes.
        if (unfinished.fetch_sub(1, std::memory_order_release) == 1) done.notify_one();
        return true;
    }

    // In a child after fork: the parent's workers are not there, and a lock another parent thread held is held
    // for ever. The old pool is left behind (its memory only) and the next call starts a new one.
    static void forget_in_child() {
        current = nullptr;
        new (&creation) std::mutex;
    }

    void serve() {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex);
                wake.wait(lock, [&] { return generation != seen; });
                seen = generation;
            }
            while (finish_one()) {
            }
        }
    }

    inline static std::once_flag at_fork_registered;
    inline static std::mutex creation;
    inline static WorkerPool* current = nullptr;
    inline static thread_local bool running_here = false;  // this thread is inside run()

    unsigned workers = 0;
    std::mutex in_use;  // one call at a time
    std::mutex mutex;   // guards what follows
    std::condition_variable wake, done;
    std::uint64_t generation = 0;
    const std::function<void(std::int64_t)>* job = nullptr;
    std::int64_t next = 0, last = 0;
    std::atomic<std::int64_t> unfinished{0};  // chunks not yet finished; changed under `mutex`, watched without it
};

}  // namespace

unsigned usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int count = CPU_COUNT(&set);
        if (count > 0) return static_cast<unsigned>(count);
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

void parallel_for(std::int64_t count, std::int64_t min_chunk,
                  const std::function<void(std::int64_t, std::int64_t)>& body, unsigned max_threads) {
    if (count <= 0) return;
    const std::int64_t hardware = max_threads ? max_threads : usable_cores();
    const std::int64_t by_size = std::max<std::int64_t>(1, count / std::max<std::int64_t>(1, min_chunk));
    const std::int64_t threads = std::min(hardware, by_size);
    if (threads == 1) {
        body(0, count);
        return;
    }
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const std::function<void(std::int64_t)> run_chunk = [&](std::int64_t index) {
        const std::int64_t begin = count * index / threads;
        const std::int64_t end = count * (index + 1) / threads;
        try {
            body(begin, end);
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    if (!WorkerPool::instance().run(threads, run_chunk)) {
        // The pool is busy (another thread's call, or this one's from inside a chunk): threads of this call's
        // own, as many as the system gives; the calling thread runs the chunks of those it refuses.
        std::vector<std::thread> started;
        started.reserve(static_cast<std::size_t>(threads - 1));
        std::int64_t next = 1;
        for (; next < threads; ++next) {
            try {
                started.emplace_back(run_chunk, next);
            } catch (const std::system_error&) {
                break;
            }
        }
        run_chunk(0);
        for (; next < threads; ++next) run_chunk(next);
        for (auto& t : started) t.join();
    }
    if (failure) std::rethrow_exception(failure);
}

}  // namespace gpurotate::detail
