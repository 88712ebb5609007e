// ctest runs each doctest case by the name it registered (doctest_discover_tests writes them into
// *_tests-*.cmake in this folder). A name that selects no case, or another one, never runs what it says:
// on the GPU machine two GPU cases once did not, because a ';' in a case's name made CMake split it in two.

#include "test_support.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The arguments of a CMake command line as doctestAddTests writes them: bare words or [==[bracket]==] ones.
std::vector<std::string> cmake_arguments(const std::string& line) {
    std::vector<std::string> args;
    std::size_t i = line.find('(') + 1;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ') ++i;
        if (i >= line.size() || line[i] == ')') break;
        if (line.compare(i, 4, "[==[") == 0) {
            const std::size_t end = line.find("]==]", i + 4);
            args.push_back(line.substr(i + 4, end - i - 4));
            i = end + 4;
        } else {
            std::size_t end = i;
            while (end < line.size() && line[end] != ' ' && line[end] != ')') ++end;
            args.push_back(line.substr(i, end - i));
            i = end;
        }
    }
    return args;
}

// The case names that `filter` selects in `executable`.
std::vector<std::string> cases_selected(const std::string& executable, const std::string& filter) {
    const auto listed = test_support::run(test_support::quote(executable) + " " + test_support::quote(filter) + " --list-test-cases");
    REQUIRE(listed.status == 0);
    std::vector<std::string> names;
    std::istringstream lines(listed.output);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line.rfind("[doctest]", 0) == 0 || line.rfind("=====", 0) == 0) continue;
        names.push_back(line);
    }
    return names;
}

}  // namespace

TEST_CASE("every test ctest registers selects exactly its own doctest case") {
    int registered = 0;
    for (const auto& entry : std::filesystem::directory_iterator(GPUROTATE_TEST_BINARY_DIR)) {
        const std::string file = entry.path().filename().string();
        if (file.find("_tests-") == std::string::npos || entry.path().extension() != ".cmake") continue;
        std::ifstream in(entry.path());
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("add_test(", 0) != 0) continue;
            const std::vector<std::string> args = cmake_arguments(line);
            REQUIRE(args.size() >= 3);
            CAPTURE(file);
            CAPTURE(args[0]);
            CAPTURE(args[2]);
            const std::vector<std::string> selected = cases_selected(args[1], args[2]);
            REQUIRE(selected.size() == 1);
            CHECK(selected.front() == args[0]);
            ++registered;
        }
    }
    // The CPU suite alone has more than 50 cases: a folder without the files would pass vacuously.
    CHECK(registered > 50);
}
