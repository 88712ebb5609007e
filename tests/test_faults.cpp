// Faults during a run, and awkward paths: a full disk (RLIMIT_FSIZE with SIGXFSZ ignored, so that write()
// fails with EFBIG as on a full file system), the output folder removed mid-run, inputs that vanish
// between listing and reading, and file names with spaces, bytes that are not UTF-8, and names too long
// for the file system. Each must leave no partial or temporary file, a manifest that tells the truth, and
// a state from which --resume completes the job.

#include "augment_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <set>

using gpurotate::Orientation;
using test_support::quote;
using test_support::run;
using namespace augment_support;

namespace {

const std::string exe = GPUROTATE_EXE;
const std::string samples = GPUROTATE_SAMPLES;

// `command` run by a shell whose files may not grow beyond `kib` KiB, with SIGXFSZ ignored (the child
// inherits both), so that writing past the limit fails with EFBIG like a full disk.
test_support::CommandResult run_with_file_limit(int kib, const std::string& command) {
    return run("bash -c " + quote("trap '' XFSZ; ulimit -f " + std::to_string(kib) + "; exec " + command));
}

std::set<std::string> files_in(const std::string& dir) {
    std::set<std::string> names;
    const auto listing = run("find " + quote(dir) + " -type f -printf '%P\\n'");
    std::string line;
    for (char c : listing.output) {
        if (c != '\n') {
            line += c;
        } else {
            names.insert(line);
            line.clear();
        }
    }
    return names;
}

// Images written beside a generated dataset, with their pixels for check_complete.
DatasetImage add_image(const std::string& root, const std::string& relative, std::int64_t w, std::int64_t h, std::uint32_t seed) {
    auto pixels = test_support::random_image(w, h, {gpurotate::SampleType::u8, 3}, seed);
    gpurotate::write_image(root + "/" + relative, pixels.view());
    return {relative, std::move(pixels)};
}

}  // namespace

TEST_CASE("a full disk fails the output cleanly: exit 4, the cause named, nothing left behind") {
    test_support::TempDir dir;
    // astronaut.png is 512x512 RGB: 768 KiB stored at --png-level 0, over a 64 KiB limit.
    const auto r = run_with_file_limit(64, quote(exe) + " " + quote(samples + "/astronaut.png") + " --rot90 --png-level 0 -o " + quote(dir.file("out.png")));
    CAPTURE(r.output);
    CHECK(r.status == 4);
    CHECK(r.output.rfind("gpurotate: error: cannot write '" + dir.file("out.png") + "': File too large", 0) == 0);
    CHECK(files_in(dir.path()).empty());  // neither the output nor its temporary file
}

TEST_CASE("a TIFF coded into its file on a full disk fails cleanly: exit 4, the cause named, nothing left behind") {
    test_support::TempDir dir;
    // 1500x1000 16-bit RGB: 9 MB of pixels, coded on several threads where LZW, over a 1 MiB limit either way.
    gpurotate::WriteOptions lzw;
    lzw.tiff.compression = gpurotate::TiffCompression::lzw;
    gpurotate::write_image(dir.file("in.tif"), test_support::random_image(1500, 1000, {gpurotate::SampleType::u16, 3}, 77u).view(), lzw);
    for (const char* compression : {"lzw", "none"}) {
        CAPTURE(compression);
        const auto r = run_with_file_limit(1024, quote(exe) + " " + quote(dir.file("in.tif")) + " --rot90 --tiff-compression " + compression + " -o " +
                                                     quote(dir.file("out.tif")));
        CAPTURE(r.output);
        CHECK(r.status == 4);
        CHECK(r.output.rfind("gpurotate: error: cannot write '" + dir.file("out.tif") + "': ", 0) == 0);
        CHECK(r.output.find("File too large") != std::string::npos);
        CHECK(files_in(dir.path()) == std::set<std::string>{"in.tif"});  // neither the output nor its temporary file
    }
}

TEST_CASE("augment on a full disk: the outputs that fit are written, the rest recorded as failed, --resume completes") {
    test_support::TempDir dir;
    auto images = make_dataset(dir.file("in"), 8, 16, 900);  // outputs of about 1 KiB
    for (int i = 0; i < 3; ++i) {  // noise of 200x150 RGB: about 90 KiB a file, over the 48 KiB limit
        images.push_back(add_image(dir.file("in"), "dogs/big" + std::to_string(i) + ".png", 200, 150, 950 + static_cast<std::uint32_t>(i)));
    }
    const std::string args = " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out")) + " --ops rot90,flip-h --device cpu -j 2";
    const auto full = run_with_file_limit(48, quote(exe) + args);
    CAPTURE(full.output);
    CHECK(full.status == 4);
    CHECK(full.output.find("File too large") != std::string::npos);
    int failed = 0, ok = 0;
    for (const auto& record : records_of(dir.file("out/manifest.jsonl"))) {
        CAPTURE(record.output);
        if (record.ok) {
            ++ok;
            CHECK(test_support::file_bytes(record.output).size() == record.bytes);  // what it says is there, is
        } else {
            ++failed;
            CHECK(record.input.find("/big") != std::string::npos);
            CHECK(record.error.find("File too large") != std::string::npos);
            CHECK_FALSE(test_support::file_exists(record.output));
        }
    }
    CHECK(failed == 6);
    CHECK(ok == 16);
    CHECK(run("find " + quote(dir.file("out")) + " -name '*.tmp' | grep -q .").status != 0);

    const auto resumed = run(quote(exe) + args + " --resume");
    CAPTURE(resumed.output);
    CHECK(resumed.status == 0);
    check_complete(dir.file("out"), images, {Orientation::rot90, Orientation::flip_h}, dir.file("out/manifest.jsonl"));
}

TEST_CASE("augment with its output folder removed mid-run: failures recorded, --resume completes") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 60, 96, 1000);
    const std::vector<Orientation> ops = {Orientation::rot90, Orientation::flip_h, Orientation::transpose};
    const std::string manifest = dir.file("manifest.jsonl");  // outside OUTDIR, which is about to vanish
    const pid_t pid = spawn_quietly({exe, "augment", dir.file("in"), "-o", dir.file("out"), "--ops", "rot90,flip-h,transpose", "-r",
                                     "--device", "cpu", "-j", "1", "--manifest", manifest});
    wait_for_records(manifest, 6);
    // Held still, and renamed away in one step (rm -rf races the run's new files): from here OUTDIR is gone.
    ::kill(pid, SIGSTOP);
    REQUIRE(::rename(dir.file("out").c_str(), dir.file("gone").c_str()) == 0);
    ::kill(pid, SIGCONT);
    const int status = wait_status(pid);
    CHECK(status == 4);
    const auto records = records_of(manifest);
    CHECK(records.size() == lines_of(manifest).size());  // every line whole
    int failed = 0;
    for (const auto& record : records) {
        if (record.ok) continue;
        ++failed;
        CHECK_FALSE(record.error.empty());
    }
    CHECK(failed > 0);
    CHECK(records.size() == 180);  // the run went on and recorded every output, written or not

    const auto resumed = run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out")) +
                             " --ops rot90,flip-h,transpose --device cpu --resume --manifest " + quote(manifest));
    CAPTURE(resumed.output);
    CHECK(resumed.status == 0);
    check_complete(dir.file("out"), images, ops, manifest, /*redone=*/true);
}

TEST_CASE("augment with inputs that vanish after listing: those fail alone, the rest are written") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 60, 96, 1100);
    const std::string args_in = dir.file("in");
    // The order the run takes the inputs in, from a dry run: the last three vanish once it is under way.
    const auto dry = run(quote(exe) + " augment " + quote(args_in) + " -r -o " + quote(dir.file("out")) + " --ops rot90 --dry-run");
    std::vector<std::string> order;
    std::string line;
    for (char c : dry.output) {
        if (c != '\n') {
            line += c;
            continue;
        }
        const auto arrow = line.find(" -> ");
        if (arrow != std::string::npos) order.push_back(line.substr(0, arrow));
        line.clear();
    }
    REQUIRE(order.size() == 60);
    const std::string manifest = dir.file("out/manifest.jsonl");
    const pid_t pid = spawn_quietly({exe, "augment", args_in, "-r", "-o", dir.file("out"), "--ops", "rot90", "--device", "cpu", "-j", "1"});
    wait_for_records(manifest, 1);
    ::kill(pid, SIGSTOP);  // hold it still while the files go
    const std::vector<std::string> vanished(order.end() - 3, order.end());
    for (const auto& path : vanished) REQUIRE(::unlink(path.c_str()) == 0);
    ::kill(pid, SIGCONT);
    CHECK(wait_status(pid) == 3);
    int failed = 0;
    for (const auto& record : records_of(manifest)) {
        const bool gone = std::find(vanished.begin(), vanished.end(), record.input) != vanished.end();
        CAPTURE(record.input);
        CHECK(record.ok == !gone);
        if (gone) {
            ++failed;
            CHECK(record.error.find("No such file") != std::string::npos);
        }
    }
    CHECK(failed == 3);
    CHECK(records_of(manifest).size() == 60);
}

TEST_CASE("paths with spaces, bytes that are not UTF-8, and names too long for the file system") {
    test_support::TempDir dir;
    const std::string odd = dir.file("caf\xe9 au lait \xff.png");  // Latin-1 and a byte UTF-8 never uses
    REQUIRE(run("cp " + quote(samples + "/coffee.png") + " " + quote(odd)).status == 0);
    const std::string out = dir.file("r\xe9sultat final.png");
    const auto r = run(quote(exe) + " " + quote(odd) + " --rot90 -o " + quote(out));
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(out).view(),
                                         reference::transform(gpurotate::read_image(odd), Orientation::rot90).view()) == -1);

    // The same names through augment: outputs named after them, the manifest round-trips the bytes.
    REQUIRE(run("mkdir " + quote(dir.file("in")) + " && cp " + quote(odd) + " " + quote(dir.file("in/")) + " && cp " +
                quote(samples + "/chelsea.png") + " " + quote(dir.file("in/")))
                .status == 0);
    // A 250-byte name: its variants' names ("_transverse.png" added) exceed NAME_MAX (255).
    const std::string long_stem(250 - 4, 'n');
    REQUIRE(run("cp " + quote(samples + "/chelsea.png") + " " + quote(dir.file("in/" + long_stem + ".png"))).status == 0);
    const auto aug = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90,transverse --device cpu");
    CAPTURE(aug.output);
    CHECK(aug.status == 4);  // the long name's outputs fail, alone
    CHECK(aug.output.find("File name too long") != std::string::npos);
    CHECK(test_support::file_exists(dir.file("out/caf\xe9 au lait \xff_rot90.png")));
    CHECK(test_support::file_exists(dir.file("out/chelsea_transverse.png")));
    int failed = 0;
    for (const auto& record : records_of(dir.file("out/manifest.jsonl"))) {
        if (record.input.find("caf\xe9") != std::string::npos) CHECK(record.ok);
        if (!record.ok) {
            ++failed;
            CHECK(record.input.find(long_stem) != std::string::npos);
        }
    }
    CHECK(failed == 2);
    CHECK(run("find " + quote(dir.file("out")) + " -name '*.tmp' | grep -q .").status != 0);
}
