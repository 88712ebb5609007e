#pragma once
// Resources lent to one thread at a time: GPU sessions, nvJPEG coders, JPEG scan coders (gpu_resources.hpp).
// A pool of one serves the single-image command; augment's workers share a few per GPU.

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace gpurotate::convert {

template <class Resource>
class ResourcePool {
public:
    explicit ResourcePool(std::vector<std::unique_ptr<Resource>> resources) : free_(std::move(resources)), count_(static_cast<int>(free_.size())) {}

    /// A resource lent until the lease ends.
    class Lease {
    public:
        Lease(ResourcePool& pool, std::unique_ptr<Resource> r) : pool_(pool), resource_(std::move(r)) {}
        ~Lease() { pool_.give_back(std::move(resource_)); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Resource& operator*() const { return *resource_; }
        Resource* operator->() const { return resource_.get(); }

    private:
        ResourcePool& pool_;
        std::unique_ptr<Resource> resource_;
    };

    /// Waits for a free resource and lends it.
    Lease acquire() {
        std::unique_lock<std::mutex> lock(mutex_);
        available_.wait(lock, [this] { return !free_.empty(); });
        auto resource = std::move(free_.back());
        free_.pop_back();
        return Lease(*this, std::move(resource));
    }

    /// A resource made after the pool was (while the first ones are already at work).
    void add(std::unique_ptr<Resource> r) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++count_;
        }
        give_back(std::move(r));
    }

    int count() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return count_;
    }

    /// Calls f on every resource; call when none is lent out (at the end of the run).
    template <class F>
    void for_each(F&& f) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& r : free_) f(*r);
    }

private:
    void give_back(std::unique_ptr<Resource> r) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            free_.push_back(std::move(r));
        }
        available_.notify_one();
    }

    mutable std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<Resource>> free_;
    int count_ = 0;
};

}  // namespace gpurotate::convert
