#pragma once
// Generated datasets for the `augment` tests, and the check that a run's outputs and manifest are complete
// and true. Shared by the CPU tests and the GPU tests.

#include "reference.hpp"
#include "test_support.hpp"

#include "augment/manifest.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace augment_support {

using gpurotate::Orientation;
using test_support::quote;
using test_support::run;

inline const std::vector<Orientation> seven = {Orientation::rot90,  Orientation::rot180,    Orientation::rot270,    Orientation::flip_h,
                                               Orientation::flip_v, Orientation::transpose, Orientation::transverse};

struct DatasetImage {
    std::string relative;
    gpurotate::Image pixels;
};

// A nested dataset: formats of every channel count and both depths, odd sizes, three folder levels.
inline std::vector<DatasetImage> make_dataset(const std::string& root, int count, std::int64_t side, std::uint32_t seed) {
    const gpurotate::PixelFormat formats[] = {{gpurotate::SampleType::u8, 3}, {gpurotate::SampleType::u8, 1},
                                              {gpurotate::SampleType::u8, 4}, {gpurotate::SampleType::u16, 3},
                                              {gpurotate::SampleType::u8, 2}};
    const char* folders[] = {"", "cats/", "cats/small/", "dogs/"};
    ::mkdir((root).c_str(), 0777);
    for (const char* f : {"cats", "cats/small", "dogs"}) ::mkdir((root + "/" + f).c_str(), 0777);
    std::vector<DatasetImage> images;
    for (int i = 0; i < count; ++i) {
        const auto format = formats[i % 5];
        const std::string relative = std::string(folders[i % 4]) + "img" + std::to_string(i) + ".png";
        auto pixels = test_support::random_image(side + i % 7, side - 1 + i % 3, format, seed + static_cast<std::uint32_t>(i));
        gpurotate::write_image(root + "/" + relative, pixels.view());
        images.push_back({relative, std::move(pixels)});
    }
    return images;
}

inline std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

inline std::vector<gpurotate::augment::ManifestRecord> records_of(const std::string& manifest) {
    std::vector<gpurotate::augment::ManifestRecord> records;
    for (const std::string& line : lines_of(manifest)) {
        gpurotate::augment::ManifestRecord r;
        if (gpurotate::augment::parse_json_line(line, r)) records.push_back(r);
    }
    return records;
}

// Starts a command in the background with stderr discarded.
inline pid_t spawn_quietly(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
    return pid;
}

// Waits until the manifest has at least `lines` lines, or about 20 s.
inline void wait_for_records(const std::string& manifest, std::size_t lines) {
    for (int i = 0; i < 20000 && lines_of(manifest).size() < lines; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// The exit status of a finished child, as a shell reports it.
inline int wait_status(pid_t pid) {
    int raw = 0;
    ::waitpid(pid, &raw, 0);
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}

// Waits until the manifest has at least `lines` lines (the run is under way), then sends `signal`.
// Returns the number of lines at that moment; the exit status goes to `status`.
inline std::size_t interrupt_when(pid_t pid, const std::string& manifest, std::size_t lines, int signal, int& status) {
    wait_for_records(manifest, lines);
    const std::size_t seen = lines_of(manifest).size();
    ::kill(pid, signal);
    status = wait_status(pid);
    return seen;
}

inline std::string out_name(const std::string& relative, Orientation o) {
    return relative.substr(0, relative.size() - 4) + "_" + std::string(gpurotate::name(o)) + ".png";
}

// Every output of every image exists, decodes to the reference, and has exactly one "ok" record whose
// size is the file's (or, with `redone`, at least one, the last of which has that size: outputs removed
// behind the run's back and written again by --resume); there are no temporary files left.
inline void check_complete(const std::string& out_dir, const std::vector<DatasetImage>& images, const std::vector<Orientation>& ops,
                    const std::string& manifest, bool redone = false) {
    std::map<std::string, int> ok_records;
    std::map<std::string, std::uint64_t> recorded_bytes;
    for (const auto& r : records_of(manifest)) {
        if (r.ok) {
            ++ok_records[r.output];
            recorded_bytes[r.output] = r.bytes;
        }
    }
    for (const auto& image : images) {
        for (Orientation o : ops) {
            const std::string path = out_dir + "/" + out_name(image.relative, o);
            CAPTURE(path);
            REQUIRE(test_support::file_exists(path));
            const gpurotate::Image got = gpurotate::read_image(path);
            CHECK(test_support::first_difference(got.view(), reference::transform(image.pixels, o).view()) == -1);
            if (redone) {
                CHECK(ok_records[path] >= 1);
            } else {
                CHECK(ok_records[path] == 1);
            }
            CHECK(recorded_bytes[path] == test_support::file_bytes(path).size());
        }
    }
    CHECK(run("find " + quote(out_dir) + " -name '*.tmp' | grep -q .").status != 0);
}

}  // namespace augment_support
