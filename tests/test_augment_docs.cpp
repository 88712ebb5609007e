// docs/augment.md's shard examples, run as written: the Slurm array (every task at once) and the 4 shards on
// one machine, each into one OUTDIR, from the code blocks between the doc's "shard examples" markers, with
// /data/ moved into a temporary folder.

#include "augment_support.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

using test_support::quote;
using test_support::run;

namespace {

// The ```sh blocks between the markers.
std::vector<std::string> shard_examples() {
    const std::string doc = test_support::file_bytes(GPUROTATE_DOCS "/augment.md");
    const std::size_t begin = doc.find("<!-- shard examples: begin -->"), end = doc.find("<!-- shard examples: end -->");
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    std::vector<std::string> blocks;
    for (std::size_t at = doc.find("```sh\n", begin); at < end; at = doc.find("```sh\n", at)) {
        at += 6;
        const std::size_t close = doc.find("```", at);
        blocks.push_back(doc.substr(at, close - at));
        at = close + 3;
    }
    return blocks;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
    return text;
}

// All the manifests of OUTDIR in one file, for check_complete.
std::string joined_manifests(const std::string& out_dir) {
    const std::string joined = out_dir + ".all.jsonl";
    REQUIRE(run("cat " + quote(out_dir) + "/*.jsonl > " + quote(joined)).status == 0);
    return joined;
}

}  // namespace

TEST_CASE("augment docs: the Slurm array and the 4 shards on one machine run as written, at once, into one OUTDIR each") {
    const std::vector<std::string> examples = shard_examples();
    REQUIRE(examples.size() == 2);
    test_support::TempDir dir;
    ::mkdir(dir.file("data").c_str(), 0777);
    const auto images = augment_support::make_dataset(dir.file("data/train"), 24, 9, 905);
    const std::string exe = GPUROTATE_EXE;
    const std::string path = "PATH=" + quote(exe.substr(0, exe.find_last_of('/'))) + ":\"$PATH\" ";

    // The Slurm script: every task of its --array at once, as a scheduler with room for them all would.
    const std::string slurm = replaced(examples[0], "/data/", dir.file("data") + "/");
    const std::size_t array = slurm.find("--array=0-");
    REQUIRE(array != std::string::npos);
    const int tasks = std::stoi(slurm.substr(array + 10)) + 1;
    CHECK(tasks == 16);
    {
        std::ofstream(dir.file("job.sh")) << slurm;
    }
    std::string all_at_once;
    for (int task = 0; task < tasks; ++task) {
        const std::string id = std::to_string(task);
        all_at_once += "(SLURM_ARRAY_TASK_ID=" + id + " bash " + quote(dir.file("job.sh")) + " > " + quote(dir.file("task" + id + ".log")) +
                       " 2>&1; echo $? > " + quote(dir.file("task" + id + ".rc")) + ") & ";
    }
    REQUIRE(run(path + "sh -c " + quote(all_at_once + "wait")).status == 0);
    for (int task = 0; task < tasks; ++task) {
        const std::string id = std::to_string(task);
        CAPTURE(id);
        CAPTURE(test_support::file_bytes(dir.file("task" + id + ".log")));
        CHECK(test_support::file_bytes(dir.file("task" + id + ".rc")) == "0\n");
    }
    augment_support::check_complete(dir.file("data/train-aug"), images, augment_support::seven, joined_manifests(dir.file("data/train-aug")));

    // The one-machine line: 4 shards at once.
    const std::string local = replaced(examples[1], "/data/", dir.file("data") + "/");
    const auto r = run(path + "sh -c " + quote(local));
    CAPTURE(local);
    CAPTURE(r.output);
    CHECK(r.status == 0);
    augment_support::check_complete(dir.file("data/aug"), images, augment_support::seven, joined_manifests(dir.file("data/aug")));
    for (const char* k : {"0", "1", "2", "3"}) CHECK(test_support::file_exists(dir.file(std::string("data/aug/m") + k + ".jsonl")));
}
