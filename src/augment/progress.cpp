#include "augment/progress.hpp"

#include "core/text.hpp"

#include <cstdio>
#include <string>

#include <unistd.h>

namespace gpurotate::augment {
namespace {

std::string clock_text(double seconds) {
    const auto s = static_cast<long>(seconds + 0.5);
    char text[32];
    if (s >= 3600) {
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    } else {
        std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    }
    return text;
}

}  // namespace

Progress::Progress(std::int64_t total_images, bool quiet)
    : total_(total_images), quiet_(quiet), terminal_(::isatty(STDERR_FILENO) != 0) {
    if (!quiet_) thread_ = std::thread([this] { report_loop(); });
}

Progress::~Progress() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Progress::message(const std::string& text) {
    // --quiet keeps errors and warnings, not notes (what -v would tell in the single-image command).
    if (quiet_ && text.rfind("gpurotate: note:", 0) == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (bar_drawn_) std::fputs("\r\033[K", stderr);
    std::fprintf(stderr, "%s\n", detail::escape_controls(text, false).c_str());  // a file name's ESC never reaches the terminal
    if (bar_drawn_) draw(false);
}

void Progress::report_loop() {
    // A terminal gets 10 redraws a second; a log one line every 10 seconds.
    const auto period = terminal_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(10000);
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, period, [this] { return stopping_; })) draw(false);
    draw(true);
}

void Progress::draw(bool final_line) {
    const std::int64_t done = done_.load();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    const std::string eta = rate > 0 && done < total_ ? clock_text(static_cast<double>(total_ - done) / rate) : "-";
    char stats[160];
    std::snprintf(stats, sizeof stats, "%lld/%lld images  %.1f images/s  ETA %s  failed %lld", static_cast<long long>(done),
                  static_cast<long long>(total_), rate, eta.c_str(), static_cast<long long>(failed_.load()));
    if (!terminal_) {
        if (!final_line) std::fprintf(stderr, "gpurotate: progress %s\n", stats);
        return;
    }
    constexpr int width = 30;
    const int filled = total_ > 0 ? static_cast<int>(width * done / total_) : width;
    std::string bar(static_cast<std::size_t>(filled), '=');
    bar.resize(width, ' ');
    std::fprintf(stderr, "\r\033[K[%s] %s", bar.c_str(), stats);
    if (final_line) std::fputc('\n', stderr);
    std::fflush(stderr);
    bar_drawn_ = !final_line;
}

}  // namespace gpurotate::augment
