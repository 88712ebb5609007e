#pragma once
// Progress of a batch on stderr: a bar redrawn in place on a terminal, a plain line every few seconds when
// stderr is a file or a pipe (CI logs, Slurm), nothing when quiet.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace gpurotate::augment {

class Progress {
public:
    /// Starts reporting on a thread of its own, unless `quiet`.
    Progress(std::int64_t total_images, bool quiet);
    /// Stops reporting and ends the bar's line.
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void image_done(bool failed) {
        done_.fetch_add(1);
        if (failed) failed_.fetch_add(1);
    }
    /// Prints a message (a failure, a warning) on a line of its own, without tearing the bar.
    void message(const std::string& text);

private:
    void report_loop();
    void draw(bool final_line);

    const std::int64_t total_;
    const bool quiet_;
    const bool terminal_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::atomic<std::int64_t> done_{0};
    std::atomic<std::int64_t> failed_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool bar_drawn_ = false;
    std::thread thread_;
};

}  // namespace gpurotate::augment
