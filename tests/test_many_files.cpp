// Many files in one command, converted at once on the workers: each file keeps the guarantees it has alone.
// The reference is the executable run once per file (one file, one process: no workers to share), so a
// run over many files must give the same bytes, the same messages and the exit status of the first failure
// in the inputs' order, under any --jobs.

#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using test_support::quote;
using test_support::run;

namespace {

// LeakSanitizer cannot run under ptrace and fails the process where it tries (the ASan build): a traced
// command leaves it out; the untraced tests check leaks.
const std::string leaks_unchecked = "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" ";


const std::string exe = GPUROTATE_EXE;

std::string gpurotate_cli(const std::string& args) { return quote(exe) + " " + args; }

bool has(const std::string& tool) { return run("command -v " + tool + " >/dev/null").status == 0; }

// Good PNGs and JPEGs of odd sizes, a file that is no image, a missing one and a folder, mixed.
std::vector<std::string> mixed_inputs(const test_support::TempDir& dir) {
    std::vector<std::string> names;
    for (int i = 0; i < 9; ++i) {
        const std::string name = "f" + std::to_string(i) + (i % 3 == 1 ? ".jpg" : ".png");
        gpurotate::write_image(dir.file(name), test_support::random_image(17 + 6 * i, 11 + i, {gpurotate::SampleType::u8, 3}, static_cast<std::uint32_t>(i)).view());
        names.push_back(name);
        if (i == 2) names.push_back("no-image.png");
        if (i == 5) names.push_back("missing.png");
        if (i == 6) names.push_back("a-folder");
    }
    test_support::write_bytes(dir.file("no-image.png"), "not an image at all");
    REQUIRE(run("mkdir " + quote(dir.file("a-folder"))).status == 0);
    return names;
}

std::string listed(const test_support::TempDir& dir, const std::vector<std::string>& names) {
    std::string words;
    for (const std::string& name : names) words += " " + quote(dir.file(name));
    return words;
}

}  // namespace

TEST_CASE("many files with bad ones among them: the bytes, messages and exit status of one run per file, under any --jobs") {
    test_support::TempDir dir;
    const std::vector<std::string> names = mixed_inputs(dir);
    REQUIRE(run("mkdir " + quote(dir.file("one"))).status == 0);
    // The reference: one process per file.
    std::string expected_messages;
    int expected_status = 0;
    std::size_t failures = 0;
    for (const std::string& name : names) {
        const auto one = run(gpurotate_cli("--rot90 " + quote(dir.file(name)) + " -o " + quote(dir.file("one/" + name))));
        expected_messages += one.output;
        if (one.status != 0) {
            ++failures;
            if (expected_status == 0) expected_status = one.status;
        }
    }
    REQUIRE(failures == 3);
    REQUIRE(expected_status != 0);
    expected_messages += "gpurotate: 3 of " + std::to_string(names.size()) + " files failed; the others were written\n";
    for (const char* jobs : {"1", "2", "4", "16"}) {
        CAPTURE(jobs);
        const std::string out = dir.file(std::string("out") + jobs);
        const auto many = run(gpurotate_cli("--rot90 --jobs " + std::string(jobs) + " -o " + quote(out) + "/" + listed(dir, names)));
        CHECK(many.status == expected_status);
        CHECK(many.output == expected_messages);  // every file's lines, whole and in the inputs' order
        for (const std::string& name : names) {
            CAPTURE(name);
            const bool made = test_support::file_exists(dir.file("one/" + name));
            CHECK(test_support::file_exists(out + "/" + name) == made);
            if (made) CHECK(test_support::file_bytes(out + "/" + name) == test_support::file_bytes(dir.file("one/" + name)));
        }
        CHECK(run("ls -A " + quote(out) + " | grep -c gpurotate-").output == "0\n");  // no temporary left
    }
}

TEST_CASE("-i on many files at once replaces each as -i on it alone does, and leaves the bad ones untouched") {
    test_support::TempDir dir;
    const std::vector<std::string> names = mixed_inputs(dir);
    REQUIRE(run("mkdir " + quote(dir.file("alone")) + " " + quote(dir.file("together"))).status == 0);
    for (const std::string& name : names) {
        if (name == "a-folder" || name == "missing.png") continue;
        REQUIRE(run("cp " + quote(dir.file(name)) + " " + quote(dir.file("alone/" + name)) + " && cp " + quote(dir.file(name)) + " " + quote(dir.file("together/" + name))).status == 0);
    }
    std::vector<std::string> alone, together;
    int expected_status = 0;
    for (const std::string& name : names) {
        if (name == "a-folder" || name == "missing.png") continue;
        alone.push_back("alone/" + name);
        together.push_back("together/" + name);
        const auto one = run(gpurotate_cli("--rot90 -i " + quote(dir.file("alone/" + name))));
        if (one.status != 0 && expected_status == 0) expected_status = one.status;
    }
    REQUIRE(expected_status != 0);
    const auto many = run(gpurotate_cli("--rot90 -i --jobs 3" + listed(dir, together)));
    CAPTURE(many.output);
    CHECK(many.status == expected_status);
    for (std::size_t i = 0; i < alone.size(); ++i) {
        CAPTURE(together[i]);
        CHECK(test_support::file_bytes(dir.file(together[i])) == test_support::file_bytes(dir.file(alone[i])));
    }
    CHECK(test_support::file_bytes(dir.file("together/no-image.png")) == "not an image at all");
}

TEST_CASE("SIGINT or SIGTERM with several files in flight removes every temporary file, and ends the process as the signal does") {
    if (!has("strace") || run(leaks_unchecked + "strace -o /dev/null true").status != 0) {
        MESSAGE("SKIPPED: strace (which holds each file at its rename, its temporary written) is missing or may not trace here");
        return;
    }
    test_support::TempDir dir;
    std::vector<std::string> names;
    for (int i = 0; i < 8; ++i) {
        names.push_back("f" + std::to_string(i) + ".png");
        gpurotate::write_image(dir.file(names.back()), test_support::random_image(29, 31, {gpurotate::SampleType::u8, 3}, static_cast<std::uint32_t>(i)).view());
    }
    REQUIRE(run("mkdir " + quote(dir.file("one"))).status == 0);
    for (const std::string& name : names) REQUIRE(run(gpurotate_cli("--rot90 " + quote(dir.file(name)) + " -o " + quote(dir.file("one/" + name)))).status == 0);
    for (const char* signal : {"INT", "TERM"}) {
        CAPTURE(signal);
        const std::string out = dir.file(std::string("out-") + signal);
        REQUIRE(run("mkdir " + quote(out)).status == 0);
        // Every rename into place (a link to the new name, as no --overwrite is given) held for 3 s, so each
        // worker's temporary sits there, written; the signal goes to the process (as Ctrl-C's does) once at
        // least two are there, its pid read from a temporary's name.
        const std::string script =
            "strace -f -o /dev/null -e inject=linkat:delay_enter=3000000 " + gpurotate_cli("--rot90 --jobs 4 -o " + quote(out) + "/" + listed(dir, names)) +
            " & traced=$!; n=0; for i in $(seq 400); do n=$(ls -A " + quote(out) + " | grep -c 'gpurotate-.*[.]tmp$'); [ \"$n\" -ge 2 ] && break; sleep 0.05; done; "
            "echo in_flight=$n; pid=$(ls -A " + quote(out) + " | grep -m1 'gpurotate-' | sed 's/.*gpurotate-\\([0-9]*\\)-.*/\\1/'); "
            "kill -" + signal + " $pid; wait $traced; echo status=$?";
        const auto r = run(script);
        CAPTURE(r.output);
        CHECK(r.output.find("in_flight=") != std::string::npos);
        CHECK(r.output.find("in_flight=0") == std::string::npos);
        CHECK(r.output.find("in_flight=1\n") == std::string::npos);
        CHECK(r.output.find(std::string("status=") + (std::string(signal) == "INT" ? "130" : "143")) != std::string::npos);
        // Files finished before the signal stay, whole; no temporary does.
        CHECK(run("ls -A " + quote(out) + " | grep -c gpurotate-").output == "0\n");
        for (const std::string& name : names) {
            CAPTURE(name);
            if (test_support::file_exists(out + "/" + name)) CHECK(test_support::file_bytes(out + "/" + name) == test_support::file_bytes(dir.file("one/" + name)));
        }
    }
}

namespace {

// The flushes a command makes, as strace sees them: "fsync" and "syncfs" lines, one per call.
struct Flushes {
    int fsyncs = 0;
    int syncfs = 0;
};

Flushes flushes_of(const test_support::TempDir& dir, const std::string& args) {
    const std::string trace = dir.file("trace.txt");
    const auto traced = run(leaks_unchecked + "strace -f -qq -o " + quote(trace) + " -e trace=fsync,fdatasync,syncfs,sync " + gpurotate_cli(args));
    REQUIRE_MESSAGE(traced.status == 0, traced.output);
    Flushes counted;
    counted.fsyncs = std::stoi(run("grep -cE '(^|[^a-z])f(data)?sync[(]' " + quote(trace)).output);
    counted.syncfs = std::stoi(run("grep -cE '(^|[^a-z])(syncfs|sync)[(]' " + quote(trace)).output);
    return counted;
}

bool can_trace() { return has("strace") && run(leaks_unchecked + "strace -o /dev/null true").status == 0; }

std::vector<std::string> jpegs(const test_support::TempDir& dir, int count) {
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i) {
        names.push_back("p" + std::to_string(i) + ".jpg");
        gpurotate::write_image(dir.file(names.back()), test_support::random_image(23 + 8 * i, 17 + 3 * i, {gpurotate::SampleType::u8, 3}, static_cast<std::uint32_t>(40 + i)).view());
    }
    return names;
}

}  // namespace

TEST_CASE("many files into a folder are flushed once at the end, -i and a single file each fsync before the rename") {
    if (!can_trace()) {
        MESSAGE("SKIPPED: strace (which counts the fsync and syncfs calls) is missing or may not trace here");
        return;
    }
    test_support::TempDir dir;
    const std::vector<std::string> names = jpegs(dir, 5);
    REQUIRE(run("mkdir " + quote(dir.file("one")) + " " + quote(dir.file("in-place"))).status == 0);
    for (const std::string& name : names) {
        REQUIRE(run(gpurotate_cli("--rot90 " + quote(dir.file(name)) + " -o " + quote(dir.file("one/" + name)))).status == 0);
        REQUIRE(run("cp " + quote(dir.file(name)) + " " + quote(dir.file("in-place/" + name))).status == 0);
    }
    for (const char* jobs : {"1", "3"}) {
        CAPTURE(jobs);
        const std::string out = dir.file(std::string("out") + jobs);
        const Flushes into_folder = flushes_of(dir, "--rot90 --jobs " + std::string(jobs) + " -o " + quote(out) + "/" + listed(dir, names));
        CHECK(into_folder.fsyncs == 0);
        CHECK(into_folder.syncfs == 1);
        for (const std::string& name : names) {
            CAPTURE(name);
            CHECK(test_support::file_bytes(out + "/" + name) == test_support::file_bytes(dir.file("one/" + name)));
        }
        CHECK(run("ls -A " + quote(out) + " | grep -c gpurotate-").output == "0\n");
    }
    std::vector<std::string> in_place;
    for (const std::string& name : names) in_place.push_back("in-place/" + name);
    const Flushes replaced = flushes_of(dir, "--rot90 -i --jobs 2" + listed(dir, in_place));
    CHECK(replaced.fsyncs == static_cast<int>(names.size()));
    CHECK(replaced.syncfs == 0);
    const Flushes single = flushes_of(dir, "--rot90 " + quote(dir.file(names.front())) + " -o " + quote(dir.file("single/")));
    CHECK(single.fsyncs == 1);
    CHECK(single.syncfs == 0);
    CHECK(test_support::file_bytes(dir.file("single/" + names.front())) == test_support::file_bytes(dir.file("one/" + names.front())));
}

TEST_CASE("a flush that fails after many files into a folder is an error naming the folder, exit 4") {
    if (!can_trace()) {
        MESSAGE("SKIPPED: strace (which makes syncfs fail with EIO, as a disk's write-back error would) is missing or may not trace here");
        return;
    }
    test_support::TempDir dir;
    const std::vector<std::string> names = jpegs(dir, 3);
    const std::string out = dir.file("out");
    const auto r = run(leaks_unchecked + "strace -f -qq -o /dev/null -e inject=syncfs:error=EIO " + gpurotate_cli("--rot90 -o " + quote(out) + "/" + listed(dir, names)));
    CAPTURE(r.output);
    CHECK(r.status == 4);
    CHECK(r.output.find("gpurotate: error: cannot flush the outputs in '" + out + "' to disk: Input/output error") != std::string::npos);
    CHECK(run("ls -A " + quote(out) + " | grep -c gpurotate-").output == "0\n");
    // A file that failed decides the status before the flush does: the first failure in the inputs' order.
    test_support::write_bytes(dir.file("bad.jpg"), "not an image");
    const auto with_bad = run(leaks_unchecked + "strace -f -qq -o /dev/null -e inject=syncfs:error=EIO " +
                              gpurotate_cli("--overwrite --rot90 -o " + quote(out) + "/" + listed(dir, {"bad.jpg", names[0]})));
    CAPTURE(with_bad.output);
    CHECK(with_bad.status == 3);
    CHECK(with_bad.output.find("cannot flush the outputs in '" + out + "'") != std::string::npos);
    // augment's one flush is the same, and fails its run the same way.
    const auto augmented = run(leaks_unchecked + "strace -f -qq -o /dev/null -e inject=syncfs:error=EIO " +
                               gpurotate_cli("augment --ops rot90 -q -o " + quote(dir.file("aug")) + listed(dir, names)));
    CAPTURE(augmented.output);
    CHECK(augmented.status == 4);
    CHECK(augmented.output.find("cannot flush the outputs in '" + dir.file("aug") + "' to disk") != std::string::npos);
}
