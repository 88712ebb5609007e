// The installed package from another CMake project's side: `cmake --install` of this build tree into a
// prefix, then a project of its own that finds it with find_package(gpurotate CONFIG), links
// gpurotate::gpurotate, and rotates a sample exactly; the installed CLI runs too. Built in the plain tree
// only (a sanitizer tree's library needs its sanitizer's runtime at link time).

#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <algorithm>

#include <sstream>

using test_support::quote;
using test_support::run;

TEST_CASE("the installed package gives another CMake project gpurotate::gpurotate through find_package") {
    test_support::TempDir dir;
    const std::string cmake = quote(GPUROTATE_CMAKE_COMMAND), prefix = dir.file("prefix");
    const auto install = run(cmake + " --install " + quote(GPUROTATE_BUILD_DIR) + " --prefix " + quote(prefix));
    CAPTURE(install.output);
    REQUIRE(install.status == 0);

    REQUIRE(run("mkdir " + quote(dir.file("app"))).status == 0);
    test_support::write_bytes(dir.file("app/CMakeLists.txt"),
                              "cmake_minimum_required(VERSION 3.24)\n"
                              "project(app CXX)\n"
                              "find_package(gpurotate 0.1 CONFIG REQUIRED)\n"
                              "add_executable(app app.cpp)\n"
                              "target_link_libraries(app PRIVATE gpurotate::gpurotate)\n");
    test_support::write_bytes(dir.file("app/app.cpp"),
                              "#include <gpurotate/gpurotate.hpp>\n"
                              "int main(int, char** argv) {\n"
                              "    const gpurotate::Image in = gpurotate::read_image(argv[1]);\n"
                              "    const gpurotate::Image out = gpurotate::transform(in, gpurotate::Orientation::rot90, gpurotate::Backend::cpu);\n"
                              "    gpurotate::write_image(argv[2], out.view());\n"
                              "}\n");
    const auto configure = run(cmake + " -S " + quote(dir.file("app")) + " -B " + quote(dir.file("app/build")) + " -G " +
                               quote(GPUROTATE_CMAKE_GENERATOR) + " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + quote(prefix));
    CAPTURE(configure.output);
    REQUIRE(configure.status == 0);
    const auto build = run(cmake + " --build " + quote(dir.file("app/build")));
    CAPTURE(build.output);
    REQUIRE(build.status == 0);

    const std::string sample = std::string(GPUROTATE_SAMPLES) + "/chelsea.png";
    REQUIRE(run(quote(dir.file("app/build/app")) + " " + quote(sample) + " " + quote(dir.file("out.png"))).status == 0);
    CHECK(test_support::first_difference(gpurotate::read_image(dir.file("out.png")).view(),
                                         reference::transform(gpurotate::read_image(sample), gpurotate::Orientation::rot90).view()) == -1);
    const auto version = run(quote(prefix + "/bin/gpurotate") + " --version");
    CHECK(version.status == 0);
    CHECK(version.output.rfind("gpurotate ", 0) == 0);
    // The installed CLI augments a labelled dataset as the build tree's does: the same label files.
    const std::string yolo = dir.file("yolo");
    REQUIRE(run("mkdir -p " + quote(yolo + "/images/train") + " " + quote(yolo + "/labels/train")).status == 0);
    REQUIRE(run("cp " + quote(sample) + " " + quote(yolo + "/images/train/s.png")).status == 0);
    test_support::write_bytes(yolo + "/labels/train/s.txt", "0 0.5 0.25 0.2 0.125\n3 0.1 0.2 0.3 0.25 0.9 0.75\n");
    for (const std::string& exe : {prefix + "/bin/gpurotate", std::string(GPUROTATE_EXE)}) {
        const std::string out = dir.file(exe == GPUROTATE_EXE ? "built" : "installed");
        const auto labelled = run(quote(exe) + " augment " + quote(yolo) + " -r -q --device cpu --ops rot90,transverse -o " + quote(out) + " --labels yolo");
        INFO(labelled.output);
        CHECK(labelled.status == 0);
    }
    CHECK(test_support::file_bytes(dir.file("installed/labels/train/s_rot90.txt")) == "0 0.75 0.5 0.125 0.2\n3 0.8 0.1 0.75 0.3 0.25 0.9\n");
    for (const char* label : {"labels/train/s_rot90.txt", "labels/train/s_transverse.txt"}) {
        CHECK(test_support::file_bytes(dir.file(std::string("installed/") + label)) == test_support::file_bytes(dir.file(std::string("built/") + label)));
    }
    // The man pages and completions, written from the option table at build time, installed where man and
    // the shells look.
    for (const char* page : {"share/man/man1/gpurotate.1", "share/man/man1/gpurotate-augment.1"}) {
        CAPTURE(page);
        REQUIRE(test_support::file_exists(prefix + "/" + page));
        if (run("command -v man").status != 0) {
            MESSAGE("SKIPPED: no man here to read it with");
            continue;
        }
        const auto shown = run("MANWIDTH=100 man -l " + quote(prefix + "/" + page));
        if (shown.output.find("minimized") != std::string::npos) {  // Ubuntu's container images: man is a stub
            MESSAGE("SKIPPED: this system's man is a stub that renders nothing");
            continue;
        }
        CHECK(shown.status == 0);
        CHECK(shown.output.find("SYNOPSIS") != std::string::npos);
        CHECK(shown.output.find("--output") != std::string::npos);
        CHECK(shown.output.find("EXAMPLES") != std::string::npos);
    }
    const std::string bash = prefix + "/share/bash-completion/completions/gpurotate";
    REQUIRE(test_support::file_exists(bash));
    const auto completed = run("bash -c " + quote("source " + quote(bash) + "; COMP_WORDS=(gpurotate in.png --rot); COMP_CWORD=2; _gpurotate; echo ${COMPREPLY[@]}"));
    CHECK(completed.output.find("--rot90 --rot180 --rot270") != std::string::npos);
    const auto augment = run("bash -c " + quote("source " + quote(bash) + "; COMP_WORDS=(gpurotate augment --op); COMP_CWORD=2; _gpurotate; echo ${COMPREPLY[@]}"));
    CHECK(augment.output.find("--ops") != std::string::npos);
    CHECK(test_support::file_exists(prefix + "/share/zsh/site-functions/_gpurotate"));
}

namespace {

// -DCMAKE_PREFIX_PATH=... as this tree was configured with it (where its libraries are in a prefix of their own), or "".
std::string prefix_path_argument() {
    std::string paths = GPUROTATE_CMAKE_PREFIX_PATH;
    if (paths.empty()) return "";
    std::replace(paths.begin(), paths.end(), '|', ';');
    return " " + quote("-DCMAKE_PREFIX_PATH=" + paths);
}

}  // namespace

TEST_CASE("the gpurotate target alone makes the man pages and completions, and cmake --install after it installs them without the bench") {
    // `scripts/bootstrap.sh demo` builds `--target gpurotate` alone. What building that target runs, as Ninja
    // lists it: the generated pages and scripts come with the tool's own link, and no bench is built.
    const std::string build = GPUROTATE_BUILD_DIR;
    if (std::string(GPUROTATE_CMAKE_GENERATOR) != "Ninja") {
        MESSAGE("SKIPPED: the commands of a target are read from Ninja; this tree is built by " GPUROTATE_CMAKE_GENERATOR);
        return;
    }
    const auto commands = run(quote(GPUROTATE_MAKE_PROGRAM) + " -C " + quote(build) + " -t commands gpurotate");
    REQUIRE(commands.status == 0);
    for (const char* made : {"--generate man > ", "share/man1/gpurotate.1", "--generate man-augment > ", "share/man1/gpurotate-augment.1",
                             "--generate bash > ", "share/bash-completion/gpurotate", "--generate zsh > ", "share/zsh/_gpurotate"}) {
        CAPTURE(made);
        CHECK(commands.output.find(made) != std::string::npos);
    }
    CHECK(commands.output.find("-o gpurotate-bench") == std::string::npos);

    // A tree of its own, configured as this one is but without tests, holding what the gpurotate target makes
    // (the tool, its plugin, the library it links and the generated files, copied from this tree: building them
    // again would take minutes) and no gpurotate-bench; its install must succeed and install them all.
    test_support::TempDir dir;
    const std::string cmake = quote(GPUROTATE_CMAKE_COMMAND), tree = dir.file("tree"), prefix = dir.file("prefix");
    const auto configure = run(cmake + " -S " + quote(GPUROTATE_SOURCE_DIR) + " -B " + quote(tree) + " -G Ninja -DCMAKE_BUILD_TYPE=Release" +
                               " -DGPUROTATE_BUILD_TESTS=OFF -DGPUROTATE_WITH_CUDA=OFF -DGPUROTATE_WITH_OPENCV=" +
                               (GPUROTATE_TEST_WITH_OPENCV ? "ON" : "OFF") + prefix_path_argument());
    CAPTURE(configure.output);
    REQUIRE(configure.status == 0);
    // The configure summary: a label, then its value; a version and its parenthesis one space apart (an empty
    // version once made it "libtiff  (").
    std::istringstream summary(configure.output);
    for (std::string line; std::getline(summary, line);) {
        if (line.rfind("--   ", 0) != 0) continue;
        CAPTURE(line);
        CHECK(line.find("  (") == std::string::npos);
    }
    std::string made = "gpurotate libgpurotate.a share";
    if (GPUROTATE_TEST_WITH_OPENCV) made += " libgpurotate-opencv.so";
    REQUIRE(run("cd " + quote(build) + " && cp -R " + made + " " + quote(tree)).status == 0);
    const auto install = run(cmake + " --install " + quote(tree) + " --prefix " + quote(prefix));
    CAPTURE(install.output);
    REQUIRE(install.status == 0);
    for (const char* file : {"bin/gpurotate", "share/man/man1/gpurotate.1", "share/man/man1/gpurotate-augment.1",
                             "share/bash-completion/completions/gpurotate", "share/zsh/site-functions/_gpurotate", "lib/libgpurotate.a"}) {
        CAPTURE(file);
        CHECK(test_support::file_exists(prefix + "/" + file));
    }
    CHECK_FALSE(test_support::file_exists(prefix + "/bin/gpurotate-bench"));
    CHECK(run(quote(prefix + "/bin/gpurotate") + " --version").status == 0);
    // `gpurotate bench` without the bench says how to build it.
    const auto bench = run(quote(prefix + "/bin/gpurotate") + " bench");
    CAPTURE(bench.output);
    CHECK(bench.status == 2);
    CHECK(bench.output.rfind("gpurotate: error: bench: cannot run " + prefix + "/bin/gpurotate-bench", 0) == 0);
    CHECK(bench.output.find("cmake --build build --target gpurotate-bench") != std::string::npos);
}
