#pragma once
// What augment says of its conversions' notices: each kind once a run, not once an image, for every worker
// of the folder pipeline (pipeline.hpp) and the shard pipeline (shard_pipeline.hpp) alike.

#include "augment/progress.hpp"
#include "convert/conversion_observer.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>

namespace gpurotate::augment {

/// Each kind of notice once a run, not once an image, naming the first file "and perhaps others"; the JPEG
/// outputs given new pixels are counted (the summary gives them all). One set of kinds, for every worker.
class OncePerRun final : public convert::ConversionObserver {
public:
    explicit OncePerRun(Progress& progress) : progress_(progress) {}

    void notice(const std::string& path, convert::Notice kind, const std::string& text) override;
    bool wants(convert::Notice kind) const override {
        std::lock_guard<std::mutex> lock(mutex_);
        return said_.count(kind) == 0;
    }
    void written(std::size_t, const convert::OutputReport&) override {}
    void output_failed(std::size_t, const convert::OutputReport&, const Error&) override {}
    void input_failed(const Error&, convert::Step) override {}

    std::int64_t reencoded() const { return reencoded_.load(); }

private:
    Progress& progress_;
    mutable std::mutex mutex_;
    std::set<convert::Notice> said_;
    std::atomic<std::int64_t> reencoded_{0};
};

}  // namespace gpurotate::augment
