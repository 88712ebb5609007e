#include "core/worker_threads.hpp"

#include <system_error>
#include <thread>
#include <vector>

namespace gpurotate::detail {

void run_on_workers(unsigned workers, const std::function<void()>& work) {
    std::vector<std::thread> started;
    for (unsigned i = 1; i < workers; ++i) {
        try {
            started.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // out of threads: those started and this one take every item
        }
    }
    work();
    for (std::thread& t : started) t.join();
}

}  // namespace gpurotate::detail
