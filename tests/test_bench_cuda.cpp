// `gpurotate bench` as a test: every kernel of the study (the seeds' kernels, the tuning variants, the
// production kernels, the copies) runs on an odd, a square and a batched size, every pixel width and every
// element, and the bench's own verification (against the CPU backend, output poisoned first) must pass for
// each. The kernels the product never launches are covered here and nowhere else. Skipped without a GPU.

#include "test_support.hpp"

#include "bench/bench.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Listed {
    std::string name, family;
};

/// The kernels `gpurotate bench --list` names, with their families.
std::vector<Listed> listed_kernels() {
    gpurotate::bench::BenchOptions options;
    options.list_kernels = true;
    std::ostringstream out;
    REQUIRE(gpurotate::bench::run_bench(options, out) == 0);
    std::vector<Listed> kernels;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        Listed k;
        if (line.empty() || line.front() == ' ' || !(words >> k.name >> k.family)) continue;  // continuation lines
        kernels.push_back(k);
    }
    return kernels;
}

}  // namespace

TEST_CASE("every kernel of the bench's study is verified on odd, square and batched sizes, every pixel width and element") {
    const std::vector<Listed> kernels = listed_kernels();
    REQUIRE(kernels.size() > 20);
    test_support::TempDir dir;
    struct Run {
        std::int64_t width, height;
        int batch;
        double degrees;  ///< a rotation by any angle's rows instead of the elements'; 0: none
    };
    std::set<std::string> ran;
    for (const Run run : {Run{97, 61, 1, 0}, Run{96, 96, 1, 0}, Run{33, 17, 3, 0}, Run{97, 61, 1, 30}}) {
        gpurotate::bench::BenchOptions options;  // every type, every element, every kernel that applies
        options.width = run.width;
        options.height = run.height;
        options.batch = run.batch;
        if (run.degrees != 0) options.rotations = {run.degrees};
        options.reps = 1;
        options.json_path = dir.path() + "/rows.json";
        std::ostringstream out;
        CAPTURE(run.width);
        CAPTURE(run.height);
        CAPTURE(run.batch);
        CAPTURE(run.degrees);
        CHECK(gpurotate::bench::run_bench(options, out) == 0);
        std::istringstream lines(out.str());
        for (std::string line; std::getline(lines, line);) {
            CHECK_MESSAGE(line.find("WRONG OUTPUT") == std::string::npos, line);
        }
        std::ifstream json(options.json_path);
        const std::string rows{std::istreambuf_iterator<char>(json), std::istreambuf_iterator<char>()};
        CHECK(rows.find("\"verified\": false") == std::string::npos);
        for (const Listed& k : kernels) {
            if (rows.find("\"kernel\": \"" + k.name + "\"") != std::string::npos) ran.insert(k.name);
        }
    }
    for (const Listed& k : kernels) {
        if (k.family == "peer") continue;  // NPP and cuBLAS are there only where the toolkit has them
        CAPTURE(k.name);
        CHECK(ran.count(k.name) == 1);
    }
}
