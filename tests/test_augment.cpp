// `gpurotate augment` end to end on generated datasets with nested folders (CPU backend, as CI runs it):
// outputs against the reference, the manifest against the files, a corrupt input in the middle, resume
// after SIGKILL and after Ctrl-C, shards, dry runs and every refusal. Plus the pieces: the manifest's
// JSON lines, the shard hash, the name template, the option parsers.

#include "augment_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include "augment/augment_options.hpp"
#include "augment/input_list.hpp"
#include "augment/manifest.hpp"
#include "augment/output_plan.hpp"
#include "formats/file_bytes.hpp"
#include "formats/format_registry.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/transform.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <spawn.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using gpurotate::Orientation;
using test_support::quote;
using test_support::run;

using namespace augment_support;

namespace {

const std::string exe = GPUROTATE_EXE;

}  // namespace

TEST_CASE("augment writes every variant of a nested dataset, exactly, with a truthful manifest") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 12, 23, 100);
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops all --recursive --device cpu -j 2");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("12 inputs (0 failed), 84 outputs written") != std::string::npos);
    check_complete(dir.file("out"), images, seven, dir.file("out/manifest.jsonl"));
    CHECK(records_of(dir.file("out/manifest.jsonl")).size() == 84);
    // Without --recursive only the top folder's images are read.
    const auto top = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("top")) + " --ops rot90 --device cpu");
    CHECK(top.status == 0);
    CHECK(top.output.find("3 inputs (0 failed), 3 outputs written") != std::string::npos);
}

TEST_CASE("augment reports a corrupt input in the middle, skips it, and finishes the rest") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 6, 17, 200);
    const std::string good = test_support::file_bytes(dir.file("in/img1.png"));
    test_support::write_bytes(dir.file("in/cats/img3a.png"), good.substr(0, good.size() / 2));  // truncated
    test_support::write_bytes(dir.file("in/cats/notes.png"), "not an image at all");
    REQUIRE(test_support::run("ln -s nowhere.png " + test_support::quote(dir.file("in/cats/gone.png"))).status == 0);  // a dangling link
    // A JPEG cut short, of whole MCUs: its variants would be lossless, and are refused all the same.
    gpurotate::write_image(dir.file("cut.jpg"), test_support::random_image(64, 48, {gpurotate::SampleType::u8, 3}, 201).view());
    const std::string jpeg = test_support::file_bytes(dir.file("cut.jpg"));
    test_support::write_bytes(dir.file("in/cats/cut.jpg"), jpeg.substr(0, jpeg.size() / 2));
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) +
                       " --ops rot90,flip-v -r --device cpu -j 2");
    CAPTURE(r.output);
    CHECK(r.status == 3);  // some inputs failed: the documented exit status
    CHECK(r.output.find("img3a.png") != std::string::npos);
    CHECK(r.output.find("notes.png") != std::string::npos);
    CHECK(r.output.find("cut.jpg") != std::string::npos);
    CHECK(r.output.find("gone.png") != std::string::npos);
    check_complete(dir.file("out"), images, {Orientation::rot90, Orientation::flip_v}, dir.file("out/manifest.jsonl"));
    int failed = 0;
    for (const auto& record : records_of(dir.file("out/manifest.jsonl"))) {
        if (record.ok) continue;
        ++failed;
        CHECK((record.input.find("img3a.png") != std::string::npos || record.input.find("notes.png") != std::string::npos ||
               record.input.find("cut.jpg") != std::string::npos || record.input.find("gone.png") != std::string::npos));
        CHECK(!record.error.empty());
        CHECK_FALSE(test_support::file_exists(record.output));
    }
    CHECK(failed == 8);
}

TEST_CASE("augment killed with SIGKILL mid-run leaves no partial file, and --resume completes the set") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 60, 96, 300);
    const std::vector<Orientation> ops = {Orientation::rot90, Orientation::flip_h, Orientation::transpose};
    const std::string manifest = dir.file("out/manifest.jsonl");
    const pid_t pid = spawn_quietly({exe, "augment", dir.file("in"), "-o", dir.file("out"), "--ops", "rot90,flip-h,transpose", "-r",
                                     "--device", "cpu", "-j", "1"});
    int status = 0;
    const std::size_t seen = interrupt_when(pid, manifest, 8, SIGKILL, status);
    REQUIRE(status == 128 + SIGKILL);  // killed, not finished
    REQUIRE(seen < 180);
    // Whatever was left is whole: every output file present decodes.
    for (const auto& image : images) {
        for (Orientation o : ops) {
            const std::string path = dir.file("out/" + out_name(image.relative, o));
            if (test_support::file_exists(path)) CHECK_NOTHROW(gpurotate::read_image(path));
        }
    }
    // Without --resume the leftovers are refused; with it the set is completed with no duplicates.
    CHECK(run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90,flip-h,transpose -r --device cpu").status == 4);
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) +
                       " --ops rot90,flip-h,transpose -r --device cpu --resume");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    check_complete(dir.file("out"), images, ops, manifest);
}

TEST_CASE("augment stops cleanly on SIGINT, exits 130, and --resume finishes") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 60, 96, 400);
    const std::string manifest = dir.file("out/manifest.jsonl");
    const pid_t pid = spawn_quietly({exe, "augment", dir.file("in"), "-o", dir.file("out"), "--ops", "all", "-r", "--device", "cpu", "-j", "2"});
    int status = 0;
    const std::size_t seen = interrupt_when(pid, manifest, 8, SIGINT, status);
    REQUIRE(seen < 420);
    CHECK(status == 130);
    // After a clean stop every record is true: each "ok" output exists with the recorded size.
    const auto records = records_of(manifest);
    CHECK(records.size() == lines_of(manifest).size());
    CHECK(records.size() < 420);
    for (const auto& r : records) {
        CHECK(r.ok);
        CHECK(test_support::file_bytes(r.output).size() == r.bytes);
    }
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops all -r --device cpu --resume");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    check_complete(dir.file("out"), images, seven, manifest);
}

TEST_CASE("augment --shard K/N over N runs covers every input exactly once") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 20, 9, 500);
    std::map<std::string, int> outputs;
    for (int k = 0; k < 3; ++k) {
        const std::string m = dir.file("shard" + std::to_string(k) + ".jsonl");
        const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot270 -r --device cpu --shard " +
                           std::to_string(k) + "/3 --manifest " + quote(m));
        CAPTURE(r.output);
        CHECK(r.status == 0);
        for (const auto& record : records_of(m)) ++outputs[record.output];
    }
    CHECK(outputs.size() == images.size());
    for (const auto& [path, count] : outputs) CHECK(count == 1);
    REQUIRE(run("cat " + quote(dir.file("shard0.jsonl")) + " " + quote(dir.file("shard1.jsonl")) + " " + quote(dir.file("shard2.jsonl")) +
                " > " + quote(dir.file("all.jsonl"))).status == 0);
    check_complete(dir.file("out"), images, {Orientation::rot270}, dir.file("all.jsonl"));
}

TEST_CASE("augment --dry-run lists the outputs and writes nothing") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 4, 8, 600);
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90,flip-h -r --dry-run");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(r.output.find("8 outputs from 4 inputs would be written") != std::string::npos);
    CHECK(r.output.find("out/cats/img1_flip-h.png") != std::string::npos);
    struct stat info {};
    CHECK(::stat(dir.file("out").c_str(), &info) != 0);
}

TEST_CASE("augment refuses collisions, existing outputs, outputs onto inputs and bad options before any work") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 2, 8, 700);
    gpurotate::write_image(dir.file("in/img0.bmp"), test_support::random_image(5, 5, {gpurotate::SampleType::u8, 3}, 1).view());
    const std::string base = quote(exe) + " augment " + quote(dir.file("in")) + " --device cpu ";
    struct Case {
        std::string args;
        int status;
        std::string message;
    };
    const Case cases[] = {
        {"-o " + quote(dir.file("a")) + " --format png", 2, "would both be written to"},  // img0.png and img0.bmp
        // Its outputs would lie among its inputs, and the next run (--resume too) would read them as inputs.
        {"-o " + quote(dir.file("in")), 2, "is the output folder"},
        {"-o " + quote(dir.file("b")) + " --name '{stem}.png'", 2, "needs {op}"},
        {"-o " + quote(dir.file("b")) + " --name '../{stem}_{op}.png'", 2, "outputs stay inside the output folder"},
        {"-o " + quote(dir.file("b")) + " --name '{stem}_{op}.xyz'", 2, "names no output format"},
        {"-o " + quote(dir.file("b")) + " --ops rot45", 2, "unknown operation"},
        {"-o " + quote(dir.file("b")) + " --shard 3/3", 2, "0 <= K < N"},
        {"-o " + quote(dir.file("b")) + " --format xyz", 2, "--format xyz: unknown output extension"},
        {"-o " + quote(dir.file("b")) + " --resume --overwrite", 2, "excludes"},
        {"-o " + quote(dir.file("b")) + " " + quote(dir.file("missing")), 3, "No such file"},
    };
    for (const Case& c : cases) {
        const auto r = run(base + c.args);
        CAPTURE(c.args);
        CAPTURE(r.output);
        CHECK(r.status == c.status);
        CHECK(r.output.find(c.message) != std::string::npos);
        CHECK(r.output.find("gpurotate: error: ") != std::string::npos);
    }
    CHECK(run("ls " + quote(dir.file("a")) + " " + quote(dir.file("b"))).status != 0);  // nothing was created
    const auto onto_input = run(quote(exe) + " augment " + quote(dir.file("in/img0.png")) + " -o " + quote(dir.file("in")) +
                                " --ops identity --name '{stem}.{ext}' --device cpu");
    CHECK(onto_input.status == 4);
    CHECK(onto_input.output.find("is an input file") != std::string::npos);
    // A finished run is not silently redone: its outputs and its manifest are refused without --resume/--overwrite.
    REQUIRE(run(base + "-o " + quote(dir.file("c")) + " --ops rot90 --format png").status == 2);  // collision again
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("in/img0.png")) + " -o " + quote(dir.file("c")) + " --ops rot90 --device cpu").status == 0);
    const auto again = run(quote(exe) + " augment " + quote(dir.file("in/img0.png")) + " -o " + quote(dir.file("c")) + " --ops rot90 --device cpu");
    CHECK(again.status == 4);
    CHECK(again.output.find("already exist") != std::string::npos);
    CHECK(run(quote(exe) + " augment " + quote(dir.file("in/img0.png")) + " -o " + quote(dir.file("c")) + " --ops rot90 --device cpu --overwrite").status == 0);
    CHECK(records_of(dir.file("c/manifest.jsonl")).size() == 1);  // --overwrite starts a new manifest
}

TEST_CASE("augment never writes its manifest onto an input or an output") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 2, 8, 900);
    const std::string input = dir.file("in/img0.png"), before = test_support::file_bytes(input);
    for (const char* flag : {"--overwrite", "--resume", ""}) {
        const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90 --device cpu --manifest " +
                           quote(input) + " " + flag);
        CAPTURE(flag);
        CAPTURE(r.output);
        CHECK(r.status == 4);
        CHECK(r.output.find("is an input file") != std::string::npos);
        CHECK(test_support::file_bytes(input) == before);
    }
    const auto onto_output = run(quote(exe) + " augment " + quote(input) + " -o " + quote(dir.file("out2")) + " --ops rot90 --device cpu --manifest " +
                                 quote(dir.file("out2/img0_rot90.png")));
    CHECK(onto_output.status == 2);
    CHECK(onto_output.output.find("is also the path of the output") != std::string::npos);
}

TEST_CASE("augment reads @list files and keeps outputs out of its own input folder") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 4, 8, 800);
    // Blank lines, lines of blanks and comments after blanks are skipped.
    test_support::write_bytes(dir.file("list.txt"), "# two of them\n" + dir.file("in/img0.png") + "\n\n  \t\n   # indented comment\n" +
                                                        dir.file("in/cats/img1.png") + "\n");
    const auto r = run(quote(exe) + " augment @" + quote(dir.file("list.txt")) + " -o " + quote(dir.file("out")) + " --ops flip-h --device cpu");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(test_support::file_exists(dir.file("out/img0_flip-h.png")));
    CHECK(test_support::file_exists(dir.file("out/img1_flip-h.png")));
    // A listed path that is missing is named with its list file and line.
    test_support::write_bytes(dir.file("bad.txt"), dir.file("in/img0.png") + "\n" + dir.file("in/nope.png") + "\n");
    const auto bad = run(quote(exe) + " augment @" + quote(dir.file("bad.txt")) + " -o " + quote(dir.file("out2")) + " --ops flip-h --device cpu");
    CHECK(bad.status == 3);
    CHECK(bad.output.find("nope.png") != std::string::npos);
    CHECK(bad.output.find("line 2 of '" + dir.file("bad.txt") + "'") != std::string::npos);
    // Output folder inside the input folder: the second run must not read the first run's outputs.
    CHECK(run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("in/aug")) + " --ops rot90 --device cpu").status == 0);
    const auto again = run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("in/aug")) + " --ops rot90 --device cpu --resume");
    CAPTURE(again.output);
    CHECK(again.output.find("4 already complete") != std::string::npos);
}

TEST_CASE("augment --resume knows its outputs however OUTDIR is spelled, and from another working folder") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 4, 8, 810);
    const std::string args = " --ops rot90,flip-v -r --device cpu";
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + args).status == 0);
    for (const std::string& spelling : {dir.file("./out"), dir.file("out") + "//", dir.path() + "//./out"}) {
        const auto again = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(spelling) + args + " --resume");
        CAPTURE(spelling);
        CAPTURE(again.output);
        CHECK(again.status == 0);
        CHECK(again.output.find("0 outputs written") != std::string::npos);
        CHECK(again.output.find("8 already complete") != std::string::npos);
    }
    // Relative paths from the folder above, where the first run gave absolute ones.
    const auto relative = run("cd " + quote(dir.path()) + " && " + quote(exe) + " augment in -o out" + args + " --resume");
    CAPTURE(relative.output);
    CHECK(relative.output.find("8 already complete") != std::string::npos);
    CHECK(records_of(dir.file("out/manifest.jsonl")).size() == 8);  // nothing was recorded twice
}

TEST_CASE("augment: @list lines keep their folders, a file named twice is read once, and a cut manifest line is dropped on --resume") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 8, 8, 820);  // in/img0.png ... and in/cats/img1.png, in/dogs/img3.png, ...
    ::mkdir(dir.file("in/dogs2").c_str(), 0777);
    gpurotate::write_image(dir.file("in/dogs2/img3.png"), images[0].pixels.view());  // img3.png twice, in two folders
    test_support::write_bytes(dir.file("list.txt"), "in/dogs/img3.png\n./in/dogs2//img3.png\nin/dogs/img3.png\nin/img0.png\n" + dir.file("in/img4.png") + "\n");
    const auto r = run("cd " + quote(dir.path()) + " && " + quote(exe) + " augment @list.txt -o out --ops rot90 --device cpu");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("4 inputs (0 failed), 4 outputs written") != std::string::npos);
    CHECK(test_support::file_exists(dir.file("out/in/dogs/img3_rot90.png")));
    CHECK(test_support::file_exists(dir.file("out/in/dogs2/img3_rot90.png")));
    CHECK(test_support::file_exists(dir.file("out/in/img0_rot90.png")));
    CHECK(test_support::file_exists(dir.file("out/img4_rot90.png")));  // an absolute line: its file name
    // A PAM in a folder is an input like the other formats the readers take.
    test_support::write_bytes(dir.file("in/dogs2/plain.pam"), std::string("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nENDHDR\n") + "x");
    const auto with_pam = run(quote(exe) + " augment " + quote(dir.file("in/dogs2")) + " -o " + quote(dir.file("out-pam")) + " --ops rot90 --device cpu");
    CHECK(with_pam.status == 0);
    CHECK(test_support::file_exists(dir.file("out-pam/plain_rot90.png")));  // no PAM writer: PNG
    ::unlink(dir.file("in/dogs2/plain.pam").c_str());
    // A hard link at another path is a file of its own (a DVC cache's layout), read as such.
    REQUIRE(::link(dir.file("in/img0.png").c_str(), dir.file("in/dogs2/linked.png").c_str()) == 0);
    const auto linked = run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out-linked")) + " --ops rot90 --device cpu");
    CHECK(linked.status == 0);
    CHECK(test_support::file_exists(dir.file("out-linked/img0_rot90.png")));
    CHECK(test_support::file_exists(dir.file("out-linked/dogs2/linked_rot90.png")));
    // Files named on the command line keep their names only: the same name twice is refused, with the way out.
    const auto clash = run(quote(exe) + " augment " + quote(dir.file("in/dogs/img3.png")) + " " + quote(dir.file("in/dogs2/img3.png")) + " -o " +
                           quote(dir.file("out2")) + " --ops rot90 --device cpu");
    CHECK(clash.status == 2);
    CHECK(clash.output.find("@list") != std::string::npos);

    // A run killed while writing a record leaves part of a line: --resume cuts it off and redoes its output.
    const std::string manifest = dir.file("out/manifest.jsonl");
    const std::string whole = test_support::file_bytes(manifest);
    test_support::write_bytes(manifest, whole.substr(0, whole.size() - 40));
    const auto resumed = run("cd " + quote(dir.path()) + " && " + quote(exe) + " augment @list.txt -o out --ops rot90 --device cpu --resume");
    CAPTURE(resumed.output);
    CHECK(resumed.status == 0);
    CHECK(resumed.output.find("1 outputs written") != std::string::npos);
    const auto lines = lines_of(manifest);
    CHECK(lines.size() == 4);
    for (const std::string& line : lines) {
        gpurotate::augment::ManifestRecord record;
        CAPTURE(line);
        CHECK(gpurotate::augment::parse_json_line(line, record));
    }
}

TEST_CASE("augment --overwrite clears a killed run's temporaries, and an output folder that cannot be made fails only its outputs") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 4, 8, 830);  // in/img0.png, in/cats/img1.png, in/cats/small/img2.png, in/dogs/img3.png
    const std::string base = quote(exe) + " augment " + quote(dir.file("in")) + " -r --ops rot90 --device cpu -o " + quote(dir.file("out"));
    REQUIRE(run(base).status == 0);
    const std::string stale = dir.file("out/" + gpurotate::detail::temporary_name_prefix("img0_rot90.png") + "12345.tmp");
    test_support::write_bytes(stale, "left by a SIGKILL");
    CHECK(run(base + " --overwrite").status == 0);
    CHECK_FALSE(test_support::file_exists(stale));

    ::mkdir(dir.file("blocked2").c_str(), 0777);
    test_support::write_bytes(dir.file("blocked2/dogs"), "a file where a folder goes");
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -r --ops rot90 --device cpu -o " + quote(dir.file("blocked2")));
    CAPTURE(r.output);
    CHECK(r.status == 4);
    CHECK(r.output.find("/dogs' is not a folder (its outputs fail)") != std::string::npos);
    CHECK(test_support::file_exists(dir.file("blocked2/img0_rot90.png")));
    CHECK(test_support::file_exists(dir.file("blocked2/cats/img1_rot90.png")));
    const auto records = records_of(dir.file("blocked2/manifest.jsonl"));
    CHECK(records.size() == 4);
    CHECK(std::count_if(records.begin(), records.end(), [](const auto& rec) { return !rec.ok; }) == 1);
}

TEST_CASE("manifest lines round-trip any path, including bytes that are not UTF-8") {
    gpurotate::augment::ManifestRecord r{"in/caf\xc3\xa9 \"q\"\\x\n\x01\xff.png", "rot90", "out/a.png", "a.png", 3, 4, false, 17, "bad \xfe"};
    const std::string line = gpurotate::augment::to_json_line(r);
    CHECK(line.find('\n') == std::string::npos);
    // A byte outside UTF-8 is the lone surrogate of Python's surrogateescape, which json.loads and then
    // os.path.exists read as the file's own name; a control character is itself.
    CHECK(line.find("\\u0001\\udcff.png") != std::string::npos);
    // So are overlong forms and encoded surrogates, which a strict UTF-8 reader refuses whole.
    gpurotate::augment::ManifestRecord odd{"a\xe0\x80\x80" "b\xed\xa0\x80" "c\xf4\x90\x80\x80", "rot90", "o", "o", 1, 1, true, 1, {}};
    const std::string odd_line = gpurotate::augment::to_json_line(odd);
    CHECK(odd_line.find("a\\udce0\\udc80\\udc80b\\udced\\udca0\\udc80c\\udcf4\\udc90\\udc80\\udc80") != std::string::npos);
    gpurotate::augment::ManifestRecord odd_back;
    REQUIRE(gpurotate::augment::parse_json_line(odd_line, odd_back));
    CHECK(odd_back.input == odd.input);
    CHECK(line.find("caf\xc3\xa9") != std::string::npos);
    gpurotate::augment::ManifestRecord back;
    REQUIRE(gpurotate::augment::parse_json_line(line, back));
    CHECK(back.input == r.input);
    CHECK(back.file == "a.png");
    CHECK(back.error == r.error);
    CHECK(back.width == 3);
    CHECK(back.height == 4);
    CHECK_FALSE(back.ok);
    CHECK_FALSE(gpurotate::augment::parse_json_line(line.substr(0, line.size() - 5), back));  // a torn line
    // Older manifests wrote such a byte as \u00XX: still read as that byte, so that --resume takes them.
    const std::string older = "{\"input\":\"x\\u00ff.png\",\"op\":\"rot90\",\"output\":\"o/x\\u00ff.png\",\"width\":1,\"height\":1,\"status\":\"ok\",\"bytes\":5}";
    gpurotate::augment::ManifestRecord older_record;
    REQUIRE(gpurotate::augment::parse_json_line(older, older_record));
    CHECK(older_record.output == "o/x\xff.png");
}

TEST_CASE("shard hash, name template and option parsers") {
    using namespace gpurotate::augment;
    CHECK(shard_hash("") == 14695981039346656037ull);  // FNV-1a offset basis: the hash is the published one
    CHECK(shard_hash("a") == 0xaf63dc4c8601ec8cull);
    CHECK_NOTHROW(check_name_template("{op}/{stem}.{ext}", 7));
    CHECK_THROWS_AS(check_name_template("/abs/{stem}_{op}.png", 1), gpurotate::Error);
    CHECK_THROWS_AS(check_name_template("{stem}_{opx}.png", 1), gpurotate::Error);
    CHECK(parse_shard("2/5").index == 2);
    CHECK(parse_shard("2/5").count == 5);
    CHECK_THROWS_AS(parse_shard("5/5"), gpurotate::Error);
    CHECK_THROWS_AS(parse_shard("-1/5"), gpurotate::Error);
    CHECK(parse_operation_list("all").size() == 7);
    CHECK(parse_operation_list("rot90,rot90,identity").size() == 2);
    CHECK(parse_device_list("1,0,1") == std::vector<int>{1, 0});
    CHECK_THROWS_AS(parse_device_list("x"), gpurotate::Error);
}

TEST_CASE("augment's refusal of a format that cannot hold the pixels names --format, the file command's the extension") {
    test_support::TempDir dir;
    gpurotate::write_image(dir.file("deep.png"), test_support::random_image(5, 3, {gpurotate::SampleType::u16, 3}, 41).view());
    const auto augmented = run(quote(exe) + " augment " + quote(dir.file("deep.png")) + " -o " + quote(dir.file("out")) + " --format jpg --ops rot90 --device cpu -q");
    CAPTURE(augmented.output);
    CHECK(augmented.status == 3);
    CHECK(augmented.output.find("JPEG cannot hold 16-bit 3-channel pixels exactly") != std::string::npos);
    CHECK(augmented.output.find("choose another --format: e.g. png") != std::string::npos);
    CHECK(augmented.output.find("extension") == std::string::npos);
    const auto single = run(quote(exe) + " " + quote(dir.file("deep.png")) + " --rot90 -o " + quote(dir.file("x.jpg")));
    CAPTURE(single.output);
    CHECK(single.output.find("choose another extension: e.g. .png") != std::string::npos);
}

TEST_CASE("augment lists every extension the format registry reads, .jfif among them, in any case") {
    // The listing asks the registry: no extension of a format the decoders read is passed over.
    for (const auto& row : gpurotate::detail::format_rows()) {
        for (const auto* names : {&row.extensions, &row.other_extensions}) {
            for (const std::string& ext : *names) {
                CAPTURE(ext);
                std::string upper = ext;
                std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
                CHECK(gpurotate::augment::has_image_extension("folder/name" + ext));
                CHECK(gpurotate::augment::has_image_extension("NAME" + upper));
            }
        }
    }
    CHECK_FALSE(gpurotate::augment::has_image_extension("notes.txt"));
    CHECK_FALSE(gpurotate::augment::has_image_extension("jfif"));

    // A JPEG named .jfif in a dataset folder is augmented, as one named .jpg is (written as PNG, as a .jpe is:
    // .jfif is read, not written).
    test_support::TempDir dir;
    const gpurotate::Image made = test_support::random_image(32, 24, {gpurotate::SampleType::u8, 3}, 61);
    gpurotate::write_image(dir.file("made.jpg"), made.view());
    const std::string jpeg = test_support::file_bytes(dir.file("made.jpg"));
    REQUIRE(::mkdir(dir.file("in").c_str(), 0755) == 0);
    test_support::write_bytes(dir.file("in/a.jfif"), jpeg);
    test_support::write_bytes(dir.file("in/B.JFIF"), jpeg);
    test_support::write_bytes(dir.file("in/notes.txt"), "not an image");
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90 --device cpu");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("2 inputs (0 failed), 2 outputs written") != std::string::npos);
    const gpurotate::Image expected = reference::transform(gpurotate::read_image(dir.file("in/a.jfif")), Orientation::rot90);
    for (const char* output : {"out/a_rot90.png", "out/B_rot90.png"}) {
        CAPTURE(output);
        REQUIRE(test_support::file_exists(dir.file(output)));
        CHECK(test_support::first_difference(gpurotate::read_image(dir.file(output)).view(), expected.view()) == -1);
    }
    CHECK(records_of(dir.file("out/manifest.jsonl")).size() == 2);
}

TEST_CASE("augment's default device takes the GPU where there is one and, saying nothing, the CPU where there is none, with --device cpu's bytes") {
    test_support::TempDir dir;
    REQUIRE(run("mkdir -p " + quote(dir.file("in"))).status == 0);
    // JPEGs of whole MCUs (every variant lossless, the scans coded on the GPU where there is one) and a PNG
    // (the pixel route).
    for (int i = 0; i < 3; ++i) {
        gpurotate::write_image(dir.file("in/j" + std::to_string(i) + ".jpg"), test_support::random_image(64, 48, {gpurotate::SampleType::u8, 3}, 710 + i).view());
    }
    gpurotate::write_image(dir.file("in/p.png"), test_support::random_image(37, 21, {gpurotate::SampleType::u8, 4}, 714).view());
    const auto automatic = run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("auto")));
    const auto cpu = run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("cpu")) + " --device cpu");
    CAPTURE(automatic.output);
    REQUIRE(automatic.status == 0);
    REQUIRE(cpu.status == 0);
    CHECK(automatic.output.find("not usable") == std::string::npos);
    if (gpurotate::cuda_available()) {
        // The first files may be done on the CPU while the GPU starts: how many is not fixed.
        CHECK(automatic.output.find("backend cuda") != std::string::npos);
    } else {
        CHECK(automatic.output.find("backend cpu") != std::string::npos);
        CHECK(automatic.output.find("GPU") == std::string::npos);
    }
    for (const char* name : {"j0", "j1", "j2", "p"}) {
        for (const gpurotate::Orientation o : augment_support::seven) {
            const std::string file = std::string("/") + name + "_" + std::string(gpurotate::name(o)) + (name[0] == 'p' ? ".png" : ".jpg");
            CAPTURE(file);
            REQUIRE(test_support::file_exists(dir.file("cpu") + file));
            CHECK(test_support::file_bytes(dir.file("auto") + file) == test_support::file_bytes(dir.file("cpu") + file));
        }
    }
}

TEST_CASE("augment --device cuda without a usable GPU exits 5 and leaves OUTDIR as it found it, and with one writes --device cpu's bytes") {
    test_support::TempDir dir;
    augment_support::make_dataset(dir.file("in"), 6, 19, 720);  // PNGs in nested folders: OUTDIR mirrors them
    gpurotate::write_image(dir.file("in/cats/j.jpg"), test_support::random_image(64, 48, {gpurotate::SampleType::u8, 3}, 726).view());
    const std::string elsewhere = dir.file("logs/run.jsonl");
    REQUIRE(run("mkdir -p " + quote(dir.file("logs"))).status == 0);
    const auto cuda = run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("cuda")) + " --device cuda");
    const auto cuda_manifest = run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("cuda2")) +
                                   " --device cuda --manifest " + quote(elsewhere));
    CAPTURE(cuda.output);
    const auto files_below = [](const std::string& root) {
        std::vector<std::string> files;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
            files.push_back(entry.path().string().substr(root.size()) + (entry.is_directory() ? "/" : ""));
        }
        std::sort(files.begin(), files.end());
        return files;
    };
    if (gpurotate::cuda_available()) {
        REQUIRE(cuda.status == 0);
        REQUIRE(cuda_manifest.status == 0);
        REQUIRE(run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("cpu")) + " --device cpu").status == 0);
        const std::vector<std::string> expected = files_below(dir.file("cpu"));
        CHECK(expected.size() == 1 + 3 + 7 * 7);  // the manifest, three folders, seven variants of seven images
        CHECK(files_below(dir.file("cuda")) == expected);
        for (const std::string& file : expected) {
            if (file.back() == '/' || file == "/manifest.jsonl") continue;
            CAPTURE(file);
            CHECK(test_support::file_bytes(dir.file("cuda") + file) == test_support::file_bytes(dir.file("cpu") + file));
        }
        CHECK(test_support::file_exists(elsewhere));
    } else {
        for (const auto* r : {&cuda, &cuda_manifest}) {
            CHECK(r->status == 5);
            CHECK(r->output.find("the CUDA backend has no usable GPU") != std::string::npos);
        }
        // OUTDIR made (as mkdir -p does before the run looks further), and nothing in it: no manifest, no folders.
        CHECK(files_below(dir.file("cuda")).empty());
        CHECK(files_below(dir.file("cuda2")).empty());
        CHECK_FALSE(test_support::file_exists(elsewhere));
        // A folder that was there before the run stays, empty as it was.
        REQUIRE(run("mkdir -p " + quote(dir.file("cuda3/cats"))).status == 0);
        CHECK(run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("cuda3")) + " --device cuda").status == 5);
        CHECK(files_below(dir.file("cuda3")) == std::vector<std::string>{"/cats/"});
        // The runs that ask the driver first: one shard of several (its folders may be another shard's), a
        // WebDataset shard (its samples fail alone), and a --resume with nothing left to do.
        CHECK(run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("cuda4")) + " --device cuda --shard 0/2").status == 5);
        CHECK(files_below(dir.file("cuda4")).empty());
        REQUIRE(run("cd " + quote(dir.file("in/cats")) + " && tar -cf " + quote(dir.file("shard.tar")) + " j.jpg").status == 0);
        CHECK(run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("shard.tar")) + " -o " + quote(dir.file("cuda5")) + " --device cuda").status == 5);
        CHECK(files_below(dir.file("cuda5")).empty());
        REQUIRE(run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("done")) + " --device cpu").status == 0);
        CHECK(run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("done")) + " --device cuda --resume").status == 5);
    }
}
