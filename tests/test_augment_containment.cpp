// augment under attack and contention: symbolic links planted inside OUTDIR (to a file, to the manifest's
// place, to a folder) never make it write, truncate or remove anything outside OUTDIR, with any flag; one
// run at a time per OUTDIR, and a lock that dies with its process; a cleanup that leaves a live writer's
// temporary alone.

#include "augment_support.hpp"
#include "test_support.hpp"

#include "augment/run_lock.hpp"
#include "formats/file_bytes.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;

std::string augment_into(const test_support::TempDir& dir, const std::string& flags) {
    const std::string ops = flags.find("--ops") == std::string::npos ? " --ops rot90" : "";
    return quote(exe) + " augment " + quote(dir.file("in")) + " -r" + ops + " --device cpu -o " + quote(dir.file("out")) + " " + flags;
}

}  // namespace

TEST_CASE("a link planted inside OUTDIR, at an output, at the manifest or as a folder, is refused with every flag, and nothing outside changes") {
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 4, 8, 901);  // in/img0.png, in/cats/img1.png, in/cats/small/img2.png, in/dogs/img3.png
    ::mkdir(dir.file("outside").c_str(), 0777);
    test_support::write_bytes(dir.file("outside/victim.png"), "the victim's bytes");
    test_support::write_bytes(dir.file("outside/notes.txt"), "the notes' bytes");
    ::mkdir(dir.file("out").c_str(), 0777);
    const auto outside_unchanged = [&] {
        CHECK(test_support::file_bytes(dir.file("outside/victim.png")) == "the victim's bytes");
        CHECK(test_support::file_bytes(dir.file("outside/notes.txt")) == "the notes' bytes");
        const auto listing = run("ls -A " + quote(dir.file("outside")));
        CHECK(listing.output == "notes.txt\nvictim.png\n");
    };
    struct Plant {
        const char* what;
        const char* link;    // below OUTDIR
        const char* target;  // relative to the link's folder
        const char* message;
    };
    const Plant plants[] = {
        {"an output", "img0_rot90.png", "../outside/victim.png", "symbolic link inside the output folder"},
        {"the manifest", "manifest.jsonl", "../outside/notes.txt", "symbolic link"},
        {"a folder", "cats", "../outside", "symbolic link inside the output folder"},
    };
    for (const Plant& plant : plants) {
        for (const char* flags : {"", "--overwrite", "--resume"}) {
            CAPTURE(plant.what);
            CAPTURE(flags);
            REQUIRE(run("rm -rf " + quote(dir.file("out")) + " && mkdir " + quote(dir.file("out"))).status == 0);
            REQUIRE(::symlink(plant.target, dir.file(std::string("out/") + plant.link).c_str()) == 0);
            const auto r = run(augment_into(dir, flags));
            CAPTURE(r.output);
            CHECK(r.status == 4);
            CHECK(r.output.find(plant.message) != std::string::npos);
            outside_unchanged();
        }
    }
}

TEST_CASE("one augment run per OUTDIR, or the shards of one run: others are refused at once, and a killed holder's lock is gone") {
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 4, 8, 902);
    ::mkdir(dir.file("out").c_str(), 0777);
    // A holder that is another process, as a run started beside this one would be: a child that takes a
    // whole run's lock (or shard 0/4's, writing m0.jsonl) and waits to be killed.
    const auto hold = [&](gpurotate::augment::Shard shard, const std::string& manifest) {
        int ready[2];
        REQUIRE(::pipe(ready) == 0);
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            const int folder = ::open(dir.file("out").c_str(), O_RDONLY | O_DIRECTORY);
            try {
                gpurotate::augment::RunLock lock(folder, dir.file("out"), shard, manifest);
                static_cast<void>(::write(ready[1], "y", 1));
                ::pause();
            } catch (...) {
            }
            ::_exit(1);
        }
        ::close(ready[1]);
        char byte = 0;
        REQUIRE(::read(ready[0], &byte, 1) == 1);  // the lock is held
        ::close(ready[0]);
        return pid;
    };
    const pid_t holder = hold({0, 1}, dir.file("out/manifest.jsonl"));
    for (const char* flags : {"", "--shard 1/4 --manifest out/m1.jsonl"}) {
        CAPTURE(flags);
        const auto refused = run("cd " + quote(dir.path()) + " && " + augment_into(dir, flags));
        CAPTURE(refused.output);
        CHECK(refused.status == 4);
        CHECK(refused.output.find("output folder '" + dir.file("out") + "' is in use by another gpurotate augment") != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("out/manifest.jsonl")));  // refused before anything was written
        CHECK_FALSE(test_support::file_exists(dir.file("out/m1.jsonl")));
    }
    // SIGKILL: the kernel drops the lock with the process, and the next run goes ahead.
    ::kill(holder, SIGKILL);
    augment_support::wait_status(holder);
    const auto after = run(augment_into(dir, ""));
    CAPTURE(after.output);
    CHECK(after.status == 0);
    CHECK(augment_support::records_of(dir.file("out/manifest.jsonl")).size() == 4);

    // Shard 0/4 running: the other shards of 4 go ahead beside it, each with its own manifest; shard 0/4 again,
    // a shard of another N, a whole run, and another shard writing m0.jsonl are refused, each naming why.
    const pid_t shard0 = hold({0, 4}, dir.file("m0.jsonl"));
    const struct {
        std::string flags;
        int status;
        const char* says;
    } beside[] = {
        {"--overwrite --shard 1/4 --manifest " + quote(dir.file("m1.jsonl")), 0, ""},
        {"--overwrite --shard 0/4 --manifest " + quote(dir.file("m0b.jsonl")), 4, "another gpurotate augment of --shard 0/4"},
        {"--overwrite --shard 1/2 --manifest " + quote(dir.file("m1b.jsonl")), 4, "not a shard of 2"},
        {"--overwrite", 4, "one run writes into a folder at a time, or the shards of one run"},
        {"--overwrite --shard 2/4 --manifest " + quote(dir.file("m0.jsonl")), 4, "give each shard its own --manifest"},
    };
    for (const auto& b : beside) {
        CAPTURE(b.flags);
        const auto r = run(augment_into(dir, b.flags));
        CAPTURE(r.output);
        CHECK(r.status == b.status);
        CHECK(r.output.find(b.says) != std::string::npos);
    }
    ::kill(shard0, SIGKILL);
    augment_support::wait_status(shard0);

    // Two runs started together: one writes everything, the other is refused (or, started after the first
    // ended, finds its outputs there); the manifest records every output as written, once.
    const auto both = run("(" + augment_into(dir, "--overwrite") + " > /dev/null 2>&1; echo $? > " + quote(dir.file("a.rc")) + ") & (" +
                          augment_into(dir, "--overwrite") + " > /dev/null 2>&1; echo $? > " + quote(dir.file("b.rc")) + ") & wait");
    REQUIRE(both.status == 0);
    const std::string a = test_support::file_bytes(dir.file("a.rc")), b = test_support::file_bytes(dir.file("b.rc"));
    CAPTURE(a);
    CAPTURE(b);
    CHECK((a == "0\n" || b == "0\n"));
    CHECK((a == "0\n" || a == "4\n"));  // 4: refused, the other holding the lock
    CHECK((b == "0\n" || b == "4\n"));
    CHECK_FALSE(test_support::file_exists(dir.file("out/.gpurotate-augment.lock")));  // removed by the run that held it
    const auto records = augment_support::records_of(dir.file("out/manifest.jsonl"));
    CHECK(records.size() == 4);
    for (const auto& record : records) CHECK(record.ok);
}

TEST_CASE("augment never writes through a hard link: after cp -al, --overwrite and --resume leave the copy's manifest as it was, and a linked lock file keeps its bytes") {
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 4, 8, 904);
    const auto augment = [&](const std::string& flags) {
        const auto r = run(augment_into(dir, "--ops flip-v " + flags));
        CAPTURE(flags);
        CAPTURE(r.output);
        CHECK(r.status == 0);
        return r.output;
    };
    const auto links_of = [](const std::string& path) {
        struct stat info {};
        return ::stat(path.c_str(), &info) == 0 ? static_cast<long>(info.st_nlink) : -1L;
    };
    augment("");
    REQUIRE(run("cp -al " + quote(dir.file("out")) + " " + quote(dir.file("snap"))).status == 0);
    const std::string snapshot = test_support::file_bytes(dir.file("snap/manifest.jsonl"));
    REQUIRE(links_of(dir.file("snap/manifest.jsonl")) == 2);
    augment("--overwrite");
    CHECK(test_support::file_bytes(dir.file("snap/manifest.jsonl")) == snapshot);
    CHECK(links_of(dir.file("out/manifest.jsonl")) == 1);
    CHECK(augment_support::records_of(dir.file("out/manifest.jsonl")).size() == 4);

    // --resume over a linked manifest: a copy is appended to, under out's name alone.
    REQUIRE(run("rm -rf " + quote(dir.file("snap")) + " && cp -al " + quote(dir.file("out")) + " " + quote(dir.file("snap"))).status == 0);
    const std::string before = test_support::file_bytes(dir.file("snap/manifest.jsonl"));
    REQUIRE(::unlink(dir.file("out/img0_flip-v.png").c_str()) == 0);
    CHECK(augment("--resume").find("1 outputs written") != std::string::npos);
    CHECK(test_support::file_bytes(dir.file("snap/manifest.jsonl")) == before);
    CHECK(links_of(dir.file("out/manifest.jsonl")) == 1);
    CHECK(test_support::file_bytes(dir.file("out/manifest.jsonl")).compare(0, before.size(), before) == 0);  // the old records, then the new
    CHECK(augment_support::records_of(dir.file("out/manifest.jsonl")).size() == 5);

    // A hard link planted as the lock file, to a file outside: read, never written, and only its name removed.
    test_support::write_bytes(dir.file("victim.txt"), "the victim's bytes");
    for (const std::string flags : {"--overwrite", "--overwrite --shard 0/2 --manifest out/m0.jsonl"}) {
        REQUIRE(::link(dir.file("victim.txt").c_str(), dir.file("out/.gpurotate-augment.lock").c_str()) == 0);
        const auto r = run("cd " + quote(dir.path()) + " && " + augment_into(dir, "--ops flip-v " + flags));
        CAPTURE(r.output);
        CHECK(r.status == 0);
        CHECK(test_support::file_bytes(dir.file("victim.txt")) == "the victim's bytes");
        CHECK_FALSE(test_support::file_exists(dir.file("out/.gpurotate-augment.lock")));
    }
}

TEST_CASE("a cleanup of a killed run's temporaries leaves a live writer's alone, and links of such names too") {
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 1, 8, 903);  // in/img0.png
    REQUIRE(run(augment_into(dir, "")).status == 0);
    const std::string prefix = gpurotate::detail::temporary_name_prefix("img0_rot90.png");
    const std::string live = dir.file("out/" + prefix + std::to_string(::getpid()) + "-1.tmp");  // this test is running
    const std::string dead = dir.file("out/" + prefix + "12345.tmp");                           // an older run's, no pid
    const std::string linked = dir.file("out/" + prefix + "99-2.tmp");
    test_support::write_bytes(live, "a live writer's");
    test_support::write_bytes(dead, "left by a SIGKILL");
    test_support::write_bytes(dir.file("keep.txt"), "outside");
    REQUIRE(::symlink("../keep.txt", linked.c_str()) == 0);
    const auto r = run(augment_into(dir, "--overwrite"));
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(test_support::file_exists(live));
    CHECK_FALSE(test_support::file_exists(dead));
    struct stat info {};
    CHECK(::lstat(linked.c_str(), &info) == 0);  // not ours to remove
    CHECK(test_support::file_bytes(dir.file("keep.txt")) == "outside");
}

TEST_CASE("an input whose decode runs out of memory fails alone, named, and the good inputs are all written") {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    MESSAGE("SKIPPED: a sanitizer's shadow memory does not run under ulimit -v");
    return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    MESSAGE("SKIPPED: a sanitizer's shadow memory does not run under ulimit -v");
    return;
#endif
#endif
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 4, 8, 904);
    // A PNG of a few hundred bytes that declares 20000x20000 RGB (1.2 GB decoded), under the pixel limit: its
    // decode asks for more than the 800 MB the process may have.
    const gpurotate::Image small = test_support::random_image(8, 8, {gpurotate::SampleType::u8, 3}, 5);
    gpurotate::write_image(dir.file("in/bomb.png"), small.view());
    std::string bomb = test_support::file_bytes(dir.file("in/bomb.png"));
    test_support::put_be(bomb, 16, 20000, 4);
    test_support::put_be(bomb, 20, 20000, 4);
    test_support::put_be(bomb, 29, test_support::png_crc(bomb, 12, 17), 4);
    test_support::write_bytes(dir.file("in/bomb.png"), bomb);
    // And a real 5000x5000 RGB PNG (75 MB decoded) whose 7 variants (525 MB) do not fit beside it.
    gpurotate::write_image(dir.file("in/large.png"), gpurotate::Image(5000, 5000, {gpurotate::SampleType::u8, 3}).view());
    const auto r = run("bash -c " + quote("ulimit -v 500000; exec " + augment_into(dir, "--ops all -j 2")));
    CAPTURE(r.output);
    CHECK(r.status == 3);
    for (const char* name : {"in/bomb.png", "in/large.png"}) {
        CAPTURE(name);
        const auto at = r.output.find("gpurotate: error: '" + dir.file(name) + "': ");
        REQUIRE(at != std::string::npos);
        CHECK(r.output.find("out of host memory", at) < r.output.find("(skipped)", at));
    }
    CHECK(r.output.find("6 inputs (2 failed), 28 outputs written (14 failed") != std::string::npos);
    const auto records = augment_support::records_of(dir.file("out/manifest.jsonl"));
    CHECK(records.size() == 42);
    for (const auto& record : records) {
        const bool bad = record.input.find("bomb") != std::string::npos || record.input.find("large") != std::string::npos;
        CHECK(record.ok == !bad);
    }
}

TEST_CASE("a file name's control characters are written escaped, never as a terminal's escape sequences") {
    test_support::TempDir dir;
    ::mkdir(dir.file("in").c_str(), 0777);
    const std::string named = dir.file("in/a\x1b[2Jb.png");
    test_support::write_bytes(named, "not an image");
    const auto single = run(quote(exe) + " " + quote(named) + " --rot90 -o " + quote(dir.file("x.png")));
    CHECK(single.status == 3);
    CHECK(single.output.find('\x1b') == std::string::npos);
    CHECK(single.output.find("a\\x1b[2Jb.png") != std::string::npos);
    const auto augmented = run(quote(exe) + " augment " + quote(dir.file("in")) + " --ops rot90 --device cpu -o " + quote(dir.file("out")));
    CHECK(augmented.status == 3);
    CHECK(augmented.output.find('\x1b') == std::string::npos);
    CHECK(augmented.output.find("a\\x1b[2Jb.png") != std::string::npos);
}

TEST_CASE("an image whose variants do not fit its worker's share of --host-memory makes them a group at a time, with the same bytes") {
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 5, 40, 905);
    // --device auto: the GPU where there is one (its sessions take the groups as they take whole sets), else the CPU.
    const std::string base = quote(exe) + " augment " + quote(dir.file("in")) + " -r --ops all --device auto -j 1 -o ";
    REQUIRE(run(base + quote(dir.file("whole"))).status == 0);
    // 1 byte: each worker's share holds no variant beside its image, so each is made on its own.
    const auto grouped = run(base + quote(dir.file("grouped")) + " --host-memory 1");
    CAPTURE(grouped.output);
    REQUIRE(grouped.status == 0);
    CHECK(grouped.output.find("5 inputs (0 failed), 35 outputs written") != std::string::npos);
    const auto same = run("diff -r -x manifest.jsonl " + quote(dir.file("whole")) + " " + quote(dir.file("grouped")));
    CAPTURE(same.output);
    CHECK(same.status == 0);
}
