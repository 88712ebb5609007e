// The CPU backend's fork-join loop over its pool of threads: every index once, failures carried to the
// caller, calls from several threads and from inside a call, and a child after fork.

#include "core/parallel_for.hpp"

#include <doctest/doctest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

using gpurotate::detail::parallel_for;

namespace {

// Runs parallel_for over `count` and checks that its chunks are disjoint, contiguous and cover [0, count).
bool covers_once(std::int64_t count, std::int64_t min_chunk, unsigned threads) {
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
    std::atomic<bool> ordered{true};
    parallel_for(count, min_chunk, [&](std::int64_t begin, std::int64_t end) {
        if (begin >= end) ordered = false;
        for (std::int64_t i = begin; i < end; ++i) ++hits[static_cast<std::size_t>(i)];
    }, threads);
    bool once = ordered;
    for (const auto& h : hits) once = once && h == 1;
    return once;
}

}  // namespace

TEST_CASE("parallel_for runs every index once on 1 to 5 threads, whatever the counts and chunk sizes") {
    for (unsigned threads = 1; threads <= 5; ++threads) {
        for (const std::int64_t count : {1, 2, 3, 7, 64, 1000}) {
            for (const std::int64_t min_chunk : {1, 3, 100}) {
                CAPTURE(threads);
                CAPTURE(count);
                CAPTURE(min_chunk);
                CHECK(covers_once(count, min_chunk, threads));
            }
        }
    }
}

TEST_CASE("parallel_for rethrows a chunk's exception after every chunk has run, and the next call works") {
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(parallel_for(4, 1, [&](std::int64_t begin, std::int64_t) {
        ++ran;
        if (begin == 0) throw std::runtime_error("chunk 0");
    }, 4), std::runtime_error);
    CHECK(ran == 4);
    CHECK(covers_once(100, 1, 2));
}

TEST_CASE("parallel_for from several threads at once, and from inside a chunk") {
    std::vector<std::thread> callers;
    std::atomic<int> good{0};
    for (int i = 0; i < 4; ++i) {
        callers.emplace_back([&] {
            for (int round = 0; round < 20; ++round) good += covers_once(500, 10, 3) ? 1 : 0;
        });
    }
    for (auto& t : callers) t.join();
    CHECK(good == 80);
    std::atomic<int> inner_good{0};
    parallel_for(2, 1, [&](std::int64_t, std::int64_t) { inner_good += covers_once(300, 10, 2) ? 1 : 0; }, 2);
    CHECK(inner_good == 2);
}

// ThreadSanitizer refuses to start threads in a child forked from a process with threads.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GPUROTATE_TEST_UNDER_TSAN 1
#endif
#endif
#if !defined(__SANITIZE_THREAD__) && !defined(GPUROTATE_TEST_UNDER_TSAN)
// A DataLoader worker forks a process that has already used the pool: the child has none of its threads.
TEST_CASE("parallel_for works in a child process forked after the pool started") {
    REQUIRE(covers_once(1000, 1, 2));
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) _exit(covers_once(1000, 1, 2) && covers_once(1000, 1, 3) ? 0 : 1);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
#endif

TEST_CASE("usable_cores counts the CPUs the process may run on, as its affinity says") {
    cpu_set_t set;
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    CHECK(gpurotate::detail::usable_cores() == static_cast<unsigned>(CPU_COUNT(&set)));
    // Held to one CPU (taskset -c, a one-core cpuset), in a child so that this process keeps its own.
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
            if (CPU_ISSET(cpu, &set)) {
                CPU_SET(cpu, &one);
                break;
            }
        }
        _exit(sched_setaffinity(0, sizeof one, &one) == 0 && gpurotate::detail::usable_cores() == 1 ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
