// The README's table of what users of ImageMagick, jpegtran and exiftran type and the gpurotate command
// that does the same: each gpurotate command there runs as written, in a folder holding the files it names.

#include "exif_support.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <sstream>
#include <vector>

using test_support::quote;
using test_support::run;

namespace {

// The last backticked command of each row between the README's equivalents markers.
std::vector<std::string> readme_gpurotate_commands() {
    const std::string readme = test_support::file_bytes(GPUROTATE_README);
    const std::size_t begin = readme.find("<!-- equivalents: begin -->"), end = readme.find("<!-- equivalents: end -->");
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    std::vector<std::string> commands;
    std::istringstream rows(readme.substr(begin, end - begin));
    for (std::string row; std::getline(rows, row);) {
        const std::size_t close = row.rfind('`');
        if (close == std::string::npos || close == 0) continue;
        const std::size_t open = row.rfind('`', close - 1);
        const std::string command = row.substr(open + 1, close - open - 1);
        if (command.rfind("gpurotate ", 0) == 0) commands.push_back(command);
    }
    return commands;
}

// The files the table's commands name: in.jpg (with EXIF orientation 6), in.png (RGBA), in16.png (16-bit)
// and a folder out/.
void make_fixture(const test_support::TempDir& dir) {
    gpurotate::ImageMetadata meta;
    meta.exif = test_support::exif_with(6, 48, 32);
    gpurotate::WriteOptions with_exif;
    with_exif.metadata = &meta;
    gpurotate::write_image(dir.file("in.jpg"), test_support::random_image(48, 32, {gpurotate::SampleType::u8, 3}, 1).view(), with_exif);
    gpurotate::write_image(dir.file("in.png"), test_support::random_image(30, 20, {gpurotate::SampleType::u8, 4}, 2).view());
    gpurotate::write_image(dir.file("in16.png"), test_support::random_image(30, 20, {gpurotate::SampleType::u16, 3}, 3).view());
    REQUIRE(run("mkdir " + quote(dir.file("out"))).status == 0);
}

}  // namespace

TEST_CASE("every gpurotate command of the README's table of other tools' equivalents runs as written") {
    const std::vector<std::string> commands = readme_gpurotate_commands();
    CHECK(commands.size() >= 10);
    const std::string exe = GPUROTATE_EXE;
    const std::string bin = exe.substr(0, exe.find_last_of('/'));
    for (const std::string& command : commands) {
        CAPTURE(command);
        test_support::TempDir dir;
        make_fixture(dir);
        const std::string before = test_support::file_bytes(dir.file("in.jpg"));
        const auto r = run("cd " + quote(dir.path()) + " && PATH=" + quote(bin) + ":\"$PATH\" sh -c " + quote(command));
        CAPTURE(r.output);
        CHECK(r.status == 0);
        if (command.find(" -i ") != std::string::npos) {
            CHECK(test_support::file_bytes(dir.file("in.jpg")) != before);
        } else if (command.find("-o out/") != std::string::npos) {
            CHECK(test_support::file_exists(dir.file("out/in.png")));
            CHECK(test_support::file_exists(dir.file("out/in16.png")));
        } else {
            const std::size_t at = command.find("out.");
            REQUIRE(at != std::string::npos);
            const std::string out = dir.file(command.substr(at, command.find(' ', at) - at));
            CHECK(test_support::file_exists(out));
            CHECK_NOTHROW(gpurotate::read_image(out));
        }
    }
}
