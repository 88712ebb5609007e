// The promises of the file command's outputs and of -i, through the executable, as a careless or hostile
// user would test them: outputs that are not regular files, files the caller may not write, links, the
// format a file's content names, JPEG edges, standard input without an end, signals, and refusals made once.
// The references are independent: the bytes of a plain -o run, jpegtran's bytes, the file system's own
// answers (stat, getxattr).

#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;

std::string gpurotate_cli(const std::string& args) { return quote(exe) + " " + args; }

// A 37x23 RGB PNG, and what --rot90 makes of it written to a plain file (the reference for every other kind of output).
std::string make_png(const test_support::TempDir& dir, const std::string& name, std::uint32_t seed = 7) {
    const std::string path = dir.file(name);
    gpurotate::write_image(path, test_support::random_image(37, 23, {gpurotate::SampleType::u8, 3}, seed).view());
    return path;
}

std::string rotated_reference(const test_support::TempDir& dir, const std::string& input) {
    const std::string out = dir.file("reference-" + std::to_string(::getpid()) + "-" + input.substr(input.find_last_of('/') + 1) + ".png");
    REQUIRE(run(gpurotate_cli(quote(input) + " --rot90 --format png --overwrite -o " + quote(out))).status == 0);
    return test_support::file_bytes(out);
}

bool has(const std::string& command) { return run("command -v " + command + " >/dev/null").status == 0; }

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return true;
#endif
#endif
    return false;
}

struct stat stat_of(const std::string& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info;
}

}  // namespace

TEST_CASE("a FIFO, /dev/stdout on a pipe and /dev/null receive the bytes as streams, and stay what they are") {
    test_support::TempDir dir;
    const std::string input = make_png(dir, "a.png");
    const std::string expected = rotated_reference(dir, input);
    // A named pipe: its reader gets the PNG, the pipe stays a pipe (it was replaced by a file before).
    const std::string fifo = dir.file("pipe");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = test_support::file_bytes(fifo); });
    const auto into_fifo = run(gpurotate_cli(quote(input) + " --rot90 -o png:" + quote(fifo)));
    if (const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); unblock >= 0) ::close(unblock);  // a reader still waiting, had nothing come
    reader.join();
    CAPTURE(into_fifo.output);
    CHECK(into_fifo.status == 0);
    CHECK(received == expected);
    CHECK(S_ISFIFO(stat_of(fifo).st_mode));
    // /dev/stdout, a link to the pipe of this shell: the bytes come out of the pipe.
    const auto through_stdout = run(gpurotate_cli(quote(input) + " --rot90 --format png --overwrite -o /dev/stdout") + " | cat > " + quote(dir.file("piped.png")));
    CHECK(through_stdout.status == 0);
    CHECK(test_support::file_bytes(dir.file("piped.png")) == expected);
    // A character device, with and without --overwrite: written into, never replaced.
    for (const char* overwrite : {"", " --overwrite"}) {
        CAPTURE(overwrite);
        const auto into_null = run(gpurotate_cli(quote(input) + " --rot90 -o png:/dev/null" + overwrite));
        CAPTURE(into_null.output);
        CHECK(into_null.status == 0);
        CHECK(S_ISCHR(stat_of("/dev/null").st_mode));
    }
}

TEST_CASE("-i and --overwrite refuse a file the caller may not write, and leave it as it was") {
    test_support::TempDir dir;
    const std::string file = make_png(dir, "ro.png");
    const std::string before = test_support::file_bytes(file);
    REQUIRE(::chmod(file.c_str(), 0444) == 0);
    for (const std::string& args : {"--rot90 -i " + quote(file), quote(make_png(dir, "other.png")) + " --rot90 --overwrite -o " + quote(file)}) {
        CAPTURE(args);
        const auto r = run(gpurotate_cli(args));
        CAPTURE(r.output);
        CHECK(r.status == 4);
        CHECK(r.output.find("cannot replace '" + file + "'") != std::string::npos);
        CHECK(test_support::file_bytes(file) == before);
        CHECK((stat_of(file).st_mode & 07777) == 0444);
    }
}

TEST_CASE("-i run by another user in a shared folder leaves root's file, its bytes and its owner alone") {
    if (::geteuid() != 0 || !has("setpriv")) {
        MESSAGE("SKIPPED: needs root and setpriv to run gpurotate as another user");
        return;
    }
    test_support::TempDir dir;
    REQUIRE(::chmod(dir.path().c_str(), 01777) == 0);  // a shared folder, as /tmp
    const std::string file = make_png(dir, "roots.png");
    REQUIRE(::chmod(file.c_str(), 0644) == 0);
    const std::string before = test_support::file_bytes(file);
    const auto r = run("setpriv --reuid=65534 --regid=65534 --clear-groups " + gpurotate_cli("--rot90 -i " + quote(file)));
    CAPTURE(r.output);
    CHECK(r.status == 4);
    CHECK(r.output.find("you may not write it") != std::string::npos);
    CHECK(test_support::file_bytes(file) == before);
    CHECK(stat_of(file).st_uid == 0);
}

TEST_CASE("-i replaces a symbolic link by the turned file and leaves its target alone, and --follow-symlinks turns the target") {
    test_support::TempDir dir;
    REQUIRE(run("mkdir " + quote(dir.file("elsewhere"))).status == 0);
    const std::string target = make_png(dir, "elsewhere/target.png");
    const std::string before = test_support::file_bytes(target);
    const std::string expected = rotated_reference(dir, target);
    const std::string link = dir.file("link.png");
    REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
    const auto replaced = run(gpurotate_cli("--rot90 -i " + quote(link)));
    CAPTURE(replaced.output);
    CHECK(replaced.status == 0);
    CHECK(S_ISREG(stat_of(link).st_mode));
    CHECK(test_support::file_bytes(link) == expected);
    CHECK(test_support::file_bytes(target) == before);

    const std::string link2 = dir.file("link2.png");
    REQUIRE(::symlink(target.c_str(), link2.c_str()) == 0);
    const auto followed = run(gpurotate_cli("--rot90 -i --follow-symlinks " + quote(link2)));
    CAPTURE(followed.output);
    CHECK(followed.status == 0);
    CHECK(S_ISLNK(stat_of(link2).st_mode));
    CHECK(test_support::file_bytes(target) == expected);
}

TEST_CASE("-i keeps the mode, extended attributes and ACL entries of the file it replaces") {
    test_support::TempDir dir;
    const std::string file = make_png(dir, "tagged.png");
    REQUIRE(::chmod(file.c_str(), 0640) == 0);
    const std::string value = "kept by -i";
    if (::setxattr(file.c_str(), "user.gpurotate-test", value.data(), value.size(), 0) != 0) {
        MESSAGE("SKIPPED: this file system takes no extended attributes (" << std::strerror(errno) << ")");
        return;
    }
    const bool acl = has("setfacl") && run("setfacl -m u:65534:r " + quote(file)).status == 0;
    const std::string acl_before = acl ? run("getfacl -cn " + quote(file)).output : "";
    const auto r = run(gpurotate_cli("--rot90 -i " + quote(file)));
    CAPTURE(r.output);
    CHECK(r.status == 0);
    char got[64] = {};
    CHECK(::getxattr(file.c_str(), "user.gpurotate-test", got, sizeof got) == static_cast<ssize_t>(value.size()));
    CHECK(std::string(got) == value);
    if (acl) {
        CHECK(run("getfacl -cn " + quote(file)).output == acl_before);
        CHECK(acl_before.find("user:65534:r--") != std::string::npos);
    } else {
        MESSAGE("ACLs not checked: setfacl is missing or the file system takes none");
    }
    CHECK((stat_of(file).st_mode & 07777) == 0640u);
}

TEST_CASE("-i keeps the format the content names: a PNG called .jpg stays a PNG") {
    test_support::TempDir dir;
    const std::string png = make_png(dir, "a.png");
    const std::string expected = rotated_reference(dir, png);
    const std::string misnamed = dir.file("x.jpg");
    REQUIRE(run("cp " + quote(png) + " " + quote(misnamed)).status == 0);
    const auto r = run(gpurotate_cli("--rot90 -i " + quote(misnamed)));
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(test_support::file_bytes(misnamed) == expected);
}

TEST_CASE("four --rot90 -i of a 61x45 JPEG give back its bytes, each step jpegtran's (--jpeg-edge keep, -i's default)") {
    if (!has("jpegtran")) {
        MESSAGE("SKIPPED: jpegtran (libjpeg-turbo-progs) is the reference");
        return;
    }
    test_support::TempDir dir;
    const std::string file = dir.file("edge.jpg");
    gpurotate::write_image(file, test_support::random_image(61, 45, {gpurotate::SampleType::u8, 3}, 11).view());
    const std::string original = test_support::file_bytes(file);
    for (int turn = 0; turn < 4; ++turn) {
        CAPTURE(turn);
        REQUIRE(run("jpegtran -rotate 90 -copy all -outfile " + quote(dir.file("jpegtran.jpg")) + " " + quote(file)).status == 0);
        const auto r = run(gpurotate_cli("--rot90 -i " + quote(file)));
        CAPTURE(r.output);
        CHECK(r.status == 0);
        CHECK(r.output.find("re-encoded") == std::string::npos);
        CHECK(test_support::file_bytes(file) == test_support::file_bytes(dir.file("jpegtran.jpg")));
    }
    CHECK(test_support::file_bytes(file) == original);
    // The single-file command takes the same edge rule when asked, for every element: jpegtran without -trim.
    const std::pair<const char*, const char*> elements[] = {{"--rot90", "-rotate 90"},         {"--rot180", "-rotate 180"},
                                                            {"--rot270", "-rotate 270"},       {"--flip-h", "-flip horizontal"},
                                                            {"--flip-v", "-flip vertical"},    {"--transpose", "-transpose"},
                                                            {"--transverse", "-transverse"}};
    for (const auto& element : elements) {
        const std::string ours = element.first;
        CAPTURE(ours);
        const auto keep = run(gpurotate_cli(quote(file) + " " + ours + " --jpeg-edge keep --overwrite -o " + quote(dir.file("kept.jpg"))));
        CHECK(keep.status == 0);
        REQUIRE(run("jpegtran " + std::string(element.second) + " -copy all -outfile " + quote(dir.file("jt.jpg")) + " " + quote(file)).status == 0);
        CHECK(test_support::file_bytes(dir.file("kept.jpg")) == test_support::file_bytes(dir.file("jt.jpg")));
    }
}

TEST_CASE("--auto-orient -i leaves an upright file untouched, bytes and modification time") {
    test_support::TempDir dir;
    const std::string file = make_png(dir, "upright.png");
    const std::string before = test_support::file_bytes(file);
    REQUIRE(run("touch -d '2001-02-03 04:05:06' " + quote(file)).status == 0);
    const auto mtime = stat_of(file).st_mtime;
    for (const char* ops : {"--auto-orient", "--rot90 --rot270"}) {
        CAPTURE(ops);
        const auto r = run(gpurotate_cli(std::string(ops) + " -i " + quote(file)));
        CAPTURE(r.output);
        CHECK(r.status == 0);
        CHECK(test_support::file_bytes(file) == before);
        CHECK(stat_of(file).st_mtime == mtime);
    }
}

// The bound is 256 MiB of address space: on Ubuntu 24.04 the executable no longer started under 64 MiB once
// it linked libarchive (whose libxml2 maps ICU's 30 MiB data file), and an endless stream or the 400 MB that
// follow the PNG below would pass any bound if they were read.
TEST_CASE("standard input that is no image is refused after its first bytes, under 256 MiB, and what follows an image is said") {
    if (sanitized()) {
        MESSAGE("SKIPPED: a sanitizer's shadow memory does not run under ulimit -v");
        return;
    }
    test_support::TempDir dir;
    for (const char* source : {"yes", "cat /dev/zero"}) {
        CAPTURE(source);
        const auto r = run("bash -c " + quote("ulimit -v 262144; " + std::string(source) + " | timeout 60 " + gpurotate_cli("- --rot90 -o " + quote(dir.file("y.png")))));
        CAPTURE(r.output);
        CHECK(r.status == 3);
        CHECK(r.output.find("does not begin as an image") != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("y.png")));
    }
    // A PNG followed by 400 MB of zeros: the PNG is turned, the rest is not read (nor held), and it is said.
    const std::string input = make_png(dir, "a.png");
    const auto trailing = run("bash -c " + quote("ulimit -v 262144; { cat " + quote(input) + "; head -c 400000000 /dev/zero; } | " +
                                                 gpurotate_cli("- --rot90 -o " + quote(dir.file("t.png")))));
    CAPTURE(trailing.output);
    CHECK(trailing.status == 0);
    CHECK(trailing.output.find("goes on after the end of its PNG image") != std::string::npos);
    CHECK(test_support::file_bytes(dir.file("t.png")) == rotated_reference(dir, input));
    // A file with bytes after its image: turned, and the bytes no output carries are said.
    test_support::write_bytes(dir.file("trailer.png"), test_support::file_bytes(input) + std::string(1000, 'x'));
    const auto trailer = run(gpurotate_cli(quote(dir.file("trailer.png")) + " --rot90 -o " + quote(dir.file("u.png"))));
    CAPTURE(trailer.output);
    CHECK(trailer.status == 0);
    CHECK(trailer.output.find("has 1000 bytes after the end of its image") != std::string::npos);
    // --max-input-bytes bounds a file too.
    const auto bounded = run(gpurotate_cli(quote(input) + " --rot90 --max-input-bytes 1K -o " + quote(dir.file("v.png"))));
    CHECK(bounded.status == 3);
    CHECK(bounded.output.find("--max-input-bytes") != std::string::npos);
}

TEST_CASE("SIGINT while the file command writes leaves no temporary file, and ends the process as the signal does") {
    if (!has("strace") || run("strace -o /dev/null true").status != 0) {
        MESSAGE("SKIPPED: strace (which delivers the signal at the fsync, inside the write) is missing or may not trace here");
        return;
    }
    test_support::TempDir dir;
    const std::string input = make_png(dir, "a.png");
    REQUIRE(run("mkdir " + quote(dir.file("out"))).status == 0);
    for (const char* signal : {"SIGINT", "SIGTERM"}) {
        CAPTURE(signal);
        const auto r = run("strace -f -o /dev/null -e inject=fsync:signal=" + std::string(signal) + " " +
                           gpurotate_cli(quote(input) + " --rot90 -o " + quote(dir.file("out/a.png"))) + "; echo status=$?");
        CAPTURE(r.output);
        CHECK(r.output.find(std::string("status=") + (std::string(signal) == "SIGINT" ? "130" : "143")) != std::string::npos);
        CHECK(run("ls -A " + quote(dir.file("out"))).output.empty());
    }
    // A temporary left by a writer that is gone (a killed run) is removed by the next run into that folder.
    const std::string stale = dir.file("out/.a.png.gpurotate-999999999-1.tmp");
    test_support::write_bytes(stale, "partial");
    CHECK(run(gpurotate_cli(quote(input) + " --rot90 -o " + quote(dir.file("out/a.png")))).status == 0);
    CHECK_FALSE(test_support::file_exists(stale));
}

TEST_CASE("many files: a bad --format, two formats named, a file named twice to -i are refused once, before any work") {
    test_support::TempDir dir;
    std::string files;
    for (int i = 0; i < 5; ++i) files += " " + quote(make_png(dir, "f" + std::to_string(i) + ".png", static_cast<std::uint32_t>(i)));
    const auto bad = run(gpurotate_cli("--rot90 --format xyz -o " + quote(dir.file("out")) + "/" + files));
    CAPTURE(bad.output);
    CHECK(bad.status == 2);
    CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
    CHECK_FALSE(test_support::file_exists(dir.file("out")));
    const auto two = run(gpurotate_cli("--rot90 --format png -o jpg:" + quote(dir.file("out")) + "/" + files));
    CHECK(two.status == 2);
    CHECK(two.output.find("name two formats") != std::string::npos);
    const std::string f0 = dir.file("f0.png"), before = test_support::file_bytes(f0);
    const auto twice = run(gpurotate_cli("--rot90 -i " + quote(f0) + " " + quote(dir.path() + "/./f0.png")));
    CHECK(twice.status == 2);
    CHECK(twice.output.find("are the same file") != std::string::npos);
    CHECK(test_support::file_bytes(f0) == before);
    // -o DIR/ makes DIR, as mkdir -p; -o FILE/ on a file says it is a file.
    const auto made = run(gpurotate_cli("--rot90 -o " + quote(dir.file("new/deeper")) + "/" + files));
    CAPTURE(made.output);
    CHECK(made.status == 0);
    CHECK(test_support::file_exists(dir.file("new/deeper/f4.png")));
    const auto file_as_folder = run(gpurotate_cli("--rot90 -o " + quote(f0) + "/" + files));
    CHECK(file_as_folder.status == 4);
    CHECK(file_as_folder.output.find("is a file, not a folder") != std::string::npos);
}
