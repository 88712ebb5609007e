#include "core/parallel_for.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpurotate::detail {

void parallel_for(std::int64_t count, std::int64_t min_chunk,
                  const std::function<void(std::int64_t, std::int64_t)>& body, unsigned max_threads) {
    if (count <= 0) return;
    const std::int64_t hardware = std::max(1u, max_threads ? max_threads : std::thread::hardware_concurrency());
    const std::int64_t by_size = std::max<std::int64_t>(1, count / std::max<std::int64_t>(1, min_chunk));
    const std::int64_t threads = std::min(hardware, by_size);
    if (threads == 1) {
        body(0, count);
        return;
    }
    std::exception_ptr failure;
    std::mutex failure_mutex;
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads - 1));
    auto run_chunk = [&](std::int64_t index) {
        const std::int64_t begin = count * index / threads;
        const std::int64_t end = count * (index + 1) / threads;
        try {
            body(begin, end);
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    for (std::int64_t i = 1; i < threads; ++i) pool.emplace_back(run_chunk, i);
    run_chunk(0);
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace gpurotate::detail
