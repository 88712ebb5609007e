#pragma once
// An open file descriptor owned by one object: closed when it goes, on every path, the error paths too.

#include <utility>

#include <unistd.h>

namespace gpurotate::detail {

class Descriptor {
public:
    explicit Descriptor(int fd = -1) : fd_(fd) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }
    /// Holds `next` in place of the descriptor it held, which it closes.
    void replace(Descriptor& next) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = next.release();
    }

private:
    int fd_;
};

}  // namespace gpurotate::detail
