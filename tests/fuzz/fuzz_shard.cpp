// One WebDataset shard from strangers (a tar, read by libarchive) through `augment`'s reader and its sample rules,
// then each good sample through the planner and the YOLO labels, and written back by the shard writer, whose
// output the reader must read as the same samples. No GPU and no image decoding (the decoders have harnesses of
// their own): this one looks for bugs in reading tar members and grouping them into samples. Files go to /tmp
// only, and are removed.
//
// What every sample read must hold, whatever the bytes: its members share its key; a failed sample holds no
// bytes; a good one has no member that climbs out of the shard, no two members of one suffix, and no more bytes
// than the limit.

#include <gpurotate/error.hpp>

#include "augment/augment_options.hpp"
#include "augment/input_list.hpp"
#include "augment/shard_plan.hpp"
#include "augment/shard_reader.hpp"
#include "augment/shard_writer.hpp"
#include "labels/yolo_labels.hpp"

#include <cstdlib>
#include <set>
#include <string>
#include <unistd.h>

namespace {

namespace augment = gpurotate::augment;

// Small, so that mutated sizes meet it; larger than every seed's sample.
constexpr std::size_t sample_limit = 64 * 1024;
// A mutated tar of many tiny members would otherwise make a slow input of thousands of samples.
constexpr int max_samples = 64;

// A temporary file of the fuzzer's own, removed when it goes.
struct TempFile {
    char path[32] = "/tmp/fuzz-shard-XXXXXX";
    int fd = ::mkstemp(path);
    ~TempFile() {
        if (fd >= 0) ::close(fd);
        ::unlink(path);
    }
};

bool leaves_folder(const std::string& name) {
    return name.empty() || name.front() == '/' || name == ".." || name.rfind("../", 0) == 0 || name.find("/../") != std::string::npos ||
           (name.size() >= 3 && name.compare(name.size() - 3, 3, "/..") == 0);
}

void check_sample_rules(const augment::ShardSample& sample) {
    std::set<std::string> suffixes;
    std::size_t bytes = 0;
    for (const augment::ShardMember& member : sample.members) {
        const auto split = augment::webdataset_name(member.name);
        if ((split ? split->key : member.name) != sample.key) std::abort();
        if (!sample.error.empty()) {
            if (!member.bytes.empty()) std::abort();  // a failed sample's bytes are dropped at once
            continue;
        }
        if (!split || split->suffix != member.suffix || leaves_folder(member.name) || !suffixes.insert(member.suffix).second) std::abort();
        bytes += member.bytes.size();
    }
    if (sample.error.empty() && bytes > sample_limit) std::abort();
}

// The planner and the labels, as shard_pipeline.cpp runs them before any image is decoded; refusals are Errors.
void plan_sample(const augment::ShardSample& sample, const augment::AugmentOptions& options) {
    std::vector<const augment::ShardMember*> images;
    for (const augment::ShardMember& member : sample.members) {
        if (augment::has_image_extension(member.name)) images.push_back(&member);
    }
    if (images.empty()) return;
    const std::vector<augment::SampleVariant> variants = augment::plan_sample_variants("fuzz.tar", images, options);
    for (const augment::SampleVariant& variant : variants) {
        if (augment::webdataset_name(variant.key + ".png")->key != variant.key) std::abort();  // a variant key must stay one key
        for (const augment::ShardMember& member : sample.members) {
            if (member.suffix != "txt") continue;
            const std::string text(member.bytes.begin(), member.bytes.end());
            try {
                gpurotate::labels::turn_yolo_labels(text, variant.planned.operation, {}, "fuzz.tar:" + member.name);
            } catch (const gpurotate::Error&) {
            }
        }
    }
}

// Every sample of the shard at `path`; a damaged archive ends the list (its Error is the shard's refusal).
std::vector<augment::ShardSample> read_shard(const char* path, bool& damaged) {
    std::vector<augment::ShardSample> samples;
    damaged = false;
    try {
        augment::ShardReader reader(path, sample_limit);
        while (samples.size() < max_samples) {
            std::optional<augment::ShardSample> sample = reader.next();
            if (!sample) break;
            samples.push_back(std::move(*sample));
        }
    } catch (const gpurotate::Error&) {
        damaged = true;
    }
    return samples;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    TempFile input;
    if (input.fd < 0 || ::write(input.fd, data, size) != static_cast<ssize_t>(size)) return 0;
    bool damaged = false;
    const std::vector<augment::ShardSample> samples = read_shard(input.path, damaged);
    augment::AugmentOptions options;
    options.operations = {gpurotate::Orientation::rot90, gpurotate::Orientation::flip_h};
    std::vector<const augment::ShardSample*> good;
    std::set<std::string> keys;
    for (const augment::ShardSample& sample : samples) {
        check_sample_rules(sample);
        // The pipeline's rule for a key that comes again after other samples: that part fails.
        if (!keys.insert(sample.key).second || !sample.error.empty()) continue;
        try {
            plan_sample(sample, options);
        } catch (const gpurotate::Error&) {
            continue;
        }
        good.push_back(&sample);
    }
    // The good samples written back as the pipeline writes its variants' members: they must read back the same.
    TempFile output;
    if (output.fd < 0) return 0;
    try {
        augment::ShardWriter writer(output.fd, output.path, augment::ShardCompression::none);
        for (const augment::ShardSample* sample : good) {
            for (const augment::ShardMember& member : sample->members) writer.add(member.name, member.bytes, member.mtime, member.mode);
        }
        writer.finish();
    } catch (const gpurotate::Error&) {
        return 0;  // a name or time the writer cannot hold: refused, named
    }
    bool again_damaged = false;
    const std::vector<augment::ShardSample> again = read_shard(output.path, again_damaged);
    if (again_damaged || again.size() != good.size()) std::abort();
    for (std::size_t s = 0; s < good.size(); ++s) {
        const augment::ShardSample& a = *good[s];
        const augment::ShardSample& b = again[s];
        if (a.key != b.key || !b.error.empty() || a.members.size() != b.members.size()) std::abort();
        for (std::size_t m = 0; m < a.members.size(); ++m) {
            const augment::ShardMember &x = a.members[m], &y = b.members[m];
            if (x.name != y.name || x.bytes != y.bytes || x.mode != y.mode || x.mtime != y.mtime) std::abort();
        }
    }
    return 0;
}
