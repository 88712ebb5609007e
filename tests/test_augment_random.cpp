// `augment --random`: the draw function against hand-computed distributions (chi-square over 10,000 draws
// for each key: paths, draw indices, seeds), the planner's names ({dir}, {parent}, {index}, {draw}) and its
// independence from shards, and end to end through the binary: reproducible bytes and manifests across
// --jobs and --shard, the manifest's element/seed/draw fields, the seed chosen, printed and resumed.

#include "augment_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include "augment/augment_options.hpp"
#include "augment/manifest.hpp"
#include "augment/output_plan.hpp"
#include "augment/random_draw.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using gpurotate::Orientation;
using gpurotate::augment::RandomModel;
using test_support::quote;
using test_support::run;

using namespace augment_support;

namespace {

const std::string exe = GPUROTATE_EXE;

constexpr int draw_count = 10000;

// The chi-square distribution's upper 1e-6 quantiles for 1..7 degrees of freedom, and for 48: the statistic
// a correct draw exceeds once in a million runs. Computed from the survival function's closed form for integer
// degrees of freedom (Q(k/2, x/2) by the recurrence from Q(1, y) = e^-y and Q(1/2, y) = erfc(sqrt y)), bisected.
double chi_square_limit(std::size_t degrees) {
    constexpr double limits[] = {0, 23.928, 27.631, 30.665, 33.377, 35.888, 38.258, 40.522};
    if (degrees == 48) return 109.659;
    REQUIRE(degrees >= 1);
    REQUIRE(degrees <= 7);
    return limits[degrees];
}

// Pearson's statistic of `counts` against `probabilities` (of `total` draws), over the cells that can occur;
// a cell that cannot occur must be empty.
double chi_square(const std::vector<long>& counts, const std::vector<double>& probabilities, long total, std::size_t& degrees) {
    double statistic = 0;
    std::size_t cells = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (probabilities[i] == 0) {
            CHECK(counts[i] == 0);
            continue;
        }
        const double expected = probabilities[i] * static_cast<double>(total);
        statistic += (static_cast<double>(counts[i]) - expected) * (static_cast<double>(counts[i]) - expected) / expected;
        ++cells;
    }
    degrees = cells - 1;
    return statistic;
}

template <class Draw>
void check_distribution(const std::array<double, 8>& expected, Draw&& draw) {
    std::vector<long> counts(8, 0);
    for (int i = 0; i < draw_count; ++i) ++counts[static_cast<std::size_t>(draw(i))];
    std::size_t degrees = 0;
    const double statistic = chi_square(counts, std::vector<double>(expected.begin(), expected.end()), draw_count, degrees);
    CAPTURE(statistic);
    CAPTURE(degrees);
    CHECK(statistic < chi_square_limit(degrees));
}

struct NamedModel {
    const char* what;
    RandomModel model;
    std::array<double, 8> expected;  // by hand, indexed by element number: identity, rot90, rot180, rot270, flip-h, flip-v, transpose, transverse
};

std::vector<NamedModel> models() {
    using O = Orientation;
    const double seventh = 1.0 / 7;
    return {
        {"--ops all", {{O::rot90, O::rot180, O::rot270, O::flip_h, O::flip_v, O::transpose, O::transverse}, std::vector<double>(7, 1.0), 0, 0},
         {0, seventh, seventh, seventh, seventh, seventh, seventh, seventh}},
        {"--ops rot90,flip-h,transpose --weights 2,1,0", {{O::rot90, O::flip_h, O::transpose}, {2, 1, 0}, 0, 0}, {0, 2.0 / 3, 0, 0, 1.0 / 3, 0, 0, 0}},
        // albumentations' HorizontalFlip(p=0.5) then VerticalFlip(p=0.3): (1-.5)(1-.3), .5(1-.3), (1-.5).3, .5*.3.
        {"--p-flip-h 0.5 --p-flip-v 0.3", {{O::identity}, {1}, 0.5, 0.3}, {0.35, 0, 0.15, 0, 0.35, 0.15, 0, 0}},
        // rot90 (3/4) or transpose (1/4), then flip-h (1/4), then flip-v (0.6). rot90 then flip-h is transpose,
        // then flip-v transverse, then both rot270; transpose then flip-h is rot90, then flip-v rot270, then
        // both transverse. rot90: .75*.75*.4 + .25*.25*.4 = .25; transpose: .75*.25*.4 + .25*.75*.4 = .15;
        // transverse: .75*.75*.6 + .25*.25*.6 = .375; rot270: .75*.25*.6 + .25*.75*.6 = .225.
        {"--ops rot90,transpose --weights 3,1 --p-flip-h 0.25 --p-flip-v 0.6", {{O::rot90, O::transpose}, {3, 1}, 0.25, 0.6},
         {0, 0.25, 0, 0.225, 0, 0, 0.15, 0.375}},
    };
}

constexpr std::uint64_t test_seed = 20261201;

std::string dataset_path(int i) { return "class" + std::to_string(i % 10) + "/img" + std::to_string(i) + ".png"; }

std::string tree_bytes(const std::string& root) {
    // Every file below `root` with its bytes, but the manifest: the outputs as a comparable string.
    const auto listing = run("cd " + quote(root) + " && find . -type f ! -name manifest.jsonl | sort");
    std::string all;
    for (std::size_t start = 0; start < listing.output.size();) {
        const std::size_t end = listing.output.find('\n', start);
        const std::string file = listing.output.substr(start, end - start);
        all += file + "\n" + test_support::file_bytes(root + "/" + file) + "\n";
        start = end + 1;
    }
    return all;
}

std::vector<std::string> sorted_lines(const std::string& path) {
    auto lines = lines_of(path);
    std::sort(lines.begin(), lines.end());
    return lines;
}

}  // namespace

TEST_CASE("random draws: the model's probabilities are the hand-computed ones") {
    for (const NamedModel& m : models()) {
        const std::string what = m.what;
        CAPTURE(what);
        const auto p = gpurotate::augment::element_probabilities(m.model);
        for (std::size_t i = 0; i < 8; ++i) CHECK(p[i] == doctest::Approx(m.expected[i]).epsilon(1e-12));
    }
}

TEST_CASE("random draws: 10,000 draws over paths, draw indices and seeds match the distribution (chi-square, p > 1e-6)") {
    using gpurotate::augment::draw_element;
    for (const NamedModel& m : models()) {
        const std::string what = m.what;
        CAPTURE(what);
        // Over a dataset's paths (draw 0), as a run draws once per input.
        check_distribution(m.expected, [&](int i) { return draw_element(m.model, test_seed, dataset_path(i), 0); });
        // Over the draws of one input, as --random 10000 would.
        check_distribution(m.expected, [&](int i) { return draw_element(m.model, test_seed, "one/image.png", static_cast<std::uint64_t>(i)); });
        // Over seeds, for one input and draw.
        check_distribution(m.expected, [&](int i) { return draw_element(m.model, static_cast<std::uint64_t>(i), "one/image.png", 0); });
    }
    // Draws 0 and 1 of one input are independent: their joint counts over 10,000 paths are uniform over 7 x 7.
    const RandomModel all = models()[0].model;
    std::vector<long> pairs(64, 0);
    for (int i = 0; i < draw_count; ++i) {
        const auto a = static_cast<std::size_t>(draw_element(all, test_seed, dataset_path(i), 0));
        const auto b = static_cast<std::size_t>(draw_element(all, test_seed, dataset_path(i), 1));
        ++pairs[a * 8 + b];
    }
    std::vector<double> joint(64, 0);
    for (std::size_t a = 1; a < 8; ++a) {
        for (std::size_t b = 1; b < 8; ++b) joint[a * 8 + b] = 1.0 / 49;
    }
    std::size_t degrees = 0;
    const double statistic = chi_square(pairs, joint, draw_count, degrees);
    CAPTURE(statistic);
    CHECK(degrees == 48);
    CHECK(statistic < chi_square_limit(degrees));
}

TEST_CASE("random draws depend on the seed, the path and the draw index only, and p = 0 or 1 is never or always") {
    using gpurotate::augment::draw_element;
    const RandomModel all = models()[0].model;
    int seed_differs = 0, path_differs = 0, draw_differs = 0;
    for (int i = 0; i < 100; ++i) {
        const Orientation e = draw_element(all, test_seed, dataset_path(i), 0);
        CHECK(e == draw_element(all, test_seed, dataset_path(i), 0));
        seed_differs += e != draw_element(all, test_seed + 1, dataset_path(i), 0);
        path_differs += e != draw_element(all, test_seed, dataset_path(i) + "x", 0);
        draw_differs += e != draw_element(all, test_seed, dataset_path(i), 1);
    }
    // Each would be the same by chance 1 time in 7: about 86 of 100 differ.
    CHECK(seed_differs > 60);
    CHECK(path_differs > 60);
    CHECK(draw_differs > 60);
    const RandomModel always{{Orientation::rot90}, {1}, 1.0, 0.0};
    for (int i = 0; i < 1000; ++i) CHECK(draw_element(always, test_seed, dataset_path(i), 0) == Orientation::transpose);  // rot90 then flip-h
}

TEST_CASE("random options: --weights and --seed parsers") {
    using gpurotate::augment::parse_seed;
    using gpurotate::augment::parse_weights;
    const std::vector<Orientation> ops{Orientation::rot90, Orientation::flip_h, Orientation::transpose};
    CHECK(parse_weights("rot90=2,flip-h=0.5", ops) == std::vector<double>{2, 0.5, 1});
    CHECK(parse_weights("3,0,1", ops) == std::vector<double>{3, 0, 1});
    std::string message;
    CHECK(test_support::code_of([&] { parse_weights("rot180=1", ops); }, &message) == gpurotate::ErrorCode::usage);
    CHECK(message.find("'rot180' is not one of --ops rot90,flip-h,transpose") != std::string::npos);
    CHECK(test_support::code_of([&] { parse_weights("1,2", ops); }, &message) == gpurotate::ErrorCode::usage);
    CHECK(message.find("one weight for each") != std::string::npos);
    CHECK(test_support::code_of([&] { parse_weights("rot90=0,flip-h=0,transpose=0", ops); }, &message) == gpurotate::ErrorCode::usage);
    CHECK(message.find("every weight is 0") != std::string::npos);
    CHECK_THROWS_AS(parse_weights("rot90=-1", ops), gpurotate::Error);
    CHECK_THROWS_AS(parse_weights("rot90=x", ops), gpurotate::Error);
    CHECK_THROWS_AS(parse_weights("rot90=inf", ops), gpurotate::Error);
    CHECK_THROWS_AS(parse_weights("rot90=1,rot90=2", ops), gpurotate::Error);
    CHECK_THROWS_AS(parse_weights("rot90=1,2", ops), gpurotate::Error);
    CHECK(parse_seed("0") == 0);
    CHECK(parse_seed("18446744073709551615") == 18446744073709551615ull);
    CHECK_THROWS_AS(parse_seed("18446744073709551616"), gpurotate::Error);
    CHECK_THROWS_AS(parse_seed("-1"), gpurotate::Error);
    CHECK_THROWS_AS(parse_seed(" 7"), gpurotate::Error);
    CHECK_THROWS_AS(parse_seed(""), gpurotate::Error);
}

TEST_CASE("--name fields {dir}, {parent}, {index} and {draw} in the plan") {
    using namespace gpurotate::augment;
    const std::vector<InputFile> inputs{{"/data/train/a.png", "a.png"},
                                        {"/data/train/cat/1.png", "cat/1.png"},
                                        {"/data/train/cat/small/2.jpg", "cat/small/2.jpg"},
                                        {"/data/train/dog/1.png", "dog/1.png"}};
    AugmentOptions options;
    options.output_dir = "/out";
    options.operations = {Orientation::rot90};
    const auto files = [&] {
        std::vector<std::string> all;
        for (const Job& job : plan_jobs(inputs, options)) {
            for (const PlannedOutput& out : job.outputs) all.push_back(out.relative);
        }
        return all;
    };
    // Without {dir} and {parent}: the input's mirrored folder, as before; {index} is the place in the list.
    options.name_template = "{index}_{stem}_{op}.{ext}";
    CHECK(files() == std::vector<std::string>{"0_a_rot90.png", "cat/1_1_rot90.png", "cat/small/2_2_rot90.jpg", "dog/3_1_rot90.png"});
    // {dir} places the output itself; an empty {dir} leaves no empty folder name.
    options.name_template = "{op}/{dir}/{stem}.{ext}";
    CHECK(files() == std::vector<std::string>{"rot90/a.png", "rot90/cat/1.png", "rot90/cat/small/2.jpg", "rot90/dog/1.png"});
    // {parent}: the name of the folder the file is in, the input folder's own for a file at its top.
    options.name_template = "{parent}_{stem}_{op}.{ext}";
    CHECK(files() == std::vector<std::string>{"train_a_rot90.png", "cat_1_rot90.png", "small_2_rot90.jpg", "dog_1_rot90.png"});
    options.name_template = "{parent}/{stem}.{ext}";
    CHECK(files() == std::vector<std::string>{"train/a.png", "cat/1.png", "small/2.jpg", "dog/1.png"});
    options.name_template = "{dir}{stem}.{ext}";
    CHECK(files() == std::vector<std::string>{"a.png", "cat1.png", "cat/small2.jpg", "dog1.png"});
    // Two inputs given one name by the fields are refused before any work.
    std::string message;
    std::vector<InputFile> twins = inputs;
    twins.push_back({"/elsewhere/dog/1.png", "x/1.png"});
    options.name_template = "{parent}_{stem}_{op}.{ext}";
    CHECK(test_support::code_of([&] { plan_jobs(twins, options); }, &message) == gpurotate::ErrorCode::usage);
    CHECK(message.find("would both be written to '/out/dog_1_rot90.png'") != std::string::npos);

    // The templates' checks.
    CHECK_NOTHROW(check_name_template("{dir}/{parent}/{index}_{stem}.{ext}", 1));
    CHECK_THROWS_AS(check_name_template("{stem}_{draw}.{ext}", 1), gpurotate::Error);      // {draw} without --random
    CHECK_NOTHROW(check_name_template("{stem}.{ext}", 7, 1));                                // one draw: one output per input
    CHECK_THROWS_AS(check_name_template("{stem}_{op}.{ext}", 7, 2), gpurotate::Error);     // two draws can be one element
    CHECK_NOTHROW(check_name_template("{stem}_{draw}.{ext}", 7, 2));
    CHECK_THROWS_AS(check_name_template("{stem}_{indx}.{ext}", 1), gpurotate::Error);
}

TEST_CASE("--random plans the drawn elements, the same for every shard as for the whole run") {
    using namespace gpurotate::augment;
    std::vector<InputFile> inputs;
    for (int i = 0; i < 60; ++i) inputs.push_back({"/in/" + dataset_path(i), dataset_path(i)});
    std::sort(inputs.begin(), inputs.end(), [](const InputFile& a, const InputFile& b) { return a.relative < b.relative; });
    AugmentOptions options;
    options.output_dir = "/out";
    options.operations = parse_operation_list("identity,all");
    options.random.draws = 3;
    options.random.seed = test_seed;
    options.random.p_flip_h = 0.5;
    options.random.with_replacement = true;  // each draw draw_element's on its own
    options.name_template = "{stem}_{draw}_{op}.{ext}";
    const RandomModel model{options.operations, std::vector<double>(8, 1.0), 0.5, 0};
    std::map<std::string, Orientation> whole;
    for (const Job& job : plan_jobs(inputs, options)) {
        REQUIRE(job.outputs.size() == 3);
        for (unsigned d = 0; d < 3; ++d) {
            const PlannedOutput& out = job.outputs[d];
            REQUIRE(out.draw);
            CHECK(out.draw->seed == test_seed);
            CHECK(out.draw->index == d);
            CHECK(out.operation == draw_element(model, test_seed, job.input.relative, d));
            whole[out.relative] = out.operation;
        }
    }
    CHECK(whole.size() == 180);
    std::map<std::string, Orientation> shards;
    for (unsigned k = 0; k < 4; ++k) {
        options.shard = {k, 4};
        for (const Job& job : plan_jobs(inputs, options)) {
            for (const PlannedOutput& out : job.outputs) CHECK(shards.emplace(out.relative, out.operation).second);
        }
    }
    CHECK(shards == whole);
}

TEST_CASE("manifest lines carry the element's number, and --random's seed and draw") {
    using namespace gpurotate::augment;
    ManifestRecord r;
    r.input = "in/a.png";
    r.operation = "transverse";
    r.output = "out/a_0_transverse.png";
    r.file = "a_0_transverse.png";
    r.ok = true;
    r.seed = 18446744073709551615ull;
    r.draw = 4;
    const std::string line = to_json_line(r);
    CHECK(line.find("\"op\":\"transverse\",\"element\":7,\"seed\":18446744073709551615,\"draw\":4,") != std::string::npos);
    ManifestRecord back;
    REQUIRE(parse_json_line(line, back));
    CHECK(back.element == 7);
    CHECK(back.seed == r.seed);
    CHECK(back.draw == r.draw);
    r.seed.reset();
    r.draw.reset();
    r.operation = "flip-h";
    CHECK(to_json_line(r).find("\"op\":\"flip-h\",\"element\":4,\"output\"") != std::string::npos);
    CHECK(!parse_json_line("{\"input\":\"a\",\"seed\":18446744073709551616}", back));  // over 2^64-1: not a record of ours
}

TEST_CASE("augment --random --seed: the same bytes and manifest with any --jobs and across shards, each output its recorded element") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 14, 13, 300);
    for (const char* run_dir : {"j1", "j2", "shards", "other"}) ::mkdir(dir.file(run_dir).c_str(), 0777);
    const std::string common = " augment ../in -r -o out --random 2 --p-flip-v 0.5 --ops all --device cpu";
    const auto in = [&](const std::string& where, const std::string& args) { return run("cd " + quote(dir.file(where)) + " && " + quote(exe) + args); };
    REQUIRE(in("j1", common + " --seed 99 -j 1").status == 0);
    const auto two = in("j2", common + " --seed 99 -j 2");
    CAPTURE(two.output);
    REQUIRE(two.status == 0);
    CHECK(two.output.find("seed") == std::string::npos);  // a --seed given is not said again
    CHECK(tree_bytes(dir.file("j1/out")) == tree_bytes(dir.file("j2/out")));
    CHECK(sorted_lines(dir.file("j1/out/manifest.jsonl")) == sorted_lines(dir.file("j2/out/manifest.jsonl")));
    // Shards into one folder, each with its own manifest: the same files as the whole run.
    for (const char* k : {"0", "1", "2"}) {
        REQUIRE(in("shards", common + " --seed 99 --shard " + k + "/3 --manifest m" + k + ".jsonl --resume").status == 0);
    }
    CHECK(tree_bytes(dir.file("j1/out")) == tree_bytes(dir.file("shards/out")));
    // Another seed draws otherwise (2 x 14 draws alike by chance: 1 in 10^9 or so).
    REQUIRE(in("other", common + " --seed 100 -j 2").status == 0);
    CHECK(sorted_lines(dir.file("other/out/manifest.jsonl")) != sorted_lines(dir.file("j1/out/manifest.jsonl")));

    // Every record: ok, element matching op, seed 99, draw 0 or 1; every output the recorded element of its
    // input, and named {stem}_{draw}_{op}.{ext} in the mirrored folder.
    std::map<std::string, const DatasetImage*> by_input;
    for (const auto& image : images) by_input["../in/" + image.relative] = &image;
    const auto records = records_of(dir.file("j1/out/manifest.jsonl"));
    CHECK(records.size() == 28);
    std::set<std::pair<std::string, std::uint64_t>> draws;
    for (const auto& r : records) {
        CAPTURE(r.output);
        CHECK(r.ok);
        const auto element = gpurotate::parse_orientation(r.operation);
        REQUIRE(element);
        CHECK(r.element == static_cast<int>(*element));
        CHECK(r.seed == std::uint64_t{99});
        REQUIRE(r.draw);
        CHECK(*r.draw < 2);
        draws.insert({r.input, *r.draw});
        const DatasetImage& image = *by_input.at(r.input);
        const std::string stem = image.relative.substr(0, image.relative.size() - 4);
        CHECK(r.file == stem + "_" + std::to_string(*r.draw) + "_" + r.operation + ".png");
        const auto got = gpurotate::read_image(dir.file("j1/out/" + r.file));
        CHECK(test_support::first_difference(got.view(), reference::transform(image.pixels, *element).view()) == -1);
    }
    CHECK(draws.size() == 28);
}

TEST_CASE("augment --random end to end: the binary draws what the draw function draws") {
    test_support::TempDir dir;
    ::mkdir(dir.file("in").c_str(), 0777);
    for (int i = 0; i < 40; ++i) {
        gpurotate::write_image(dir.file("in/p" + std::to_string(i) + ".png"),
                               test_support::random_image(3, 2, {gpurotate::SampleType::u8, 1}, static_cast<std::uint32_t>(i)).view());
    }
    const auto r = run(quote(exe) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) +
                       " --random --ops rot90,flip-h,transpose --weights rot90=2,transpose=0 --p-flip-h 0.5 --seed 12345 --device cpu -q");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    const RandomModel model{{Orientation::rot90, Orientation::flip_h, Orientation::transpose}, {2, 1, 0}, 0.5, 0};
    std::map<std::string, int> seen;
    const auto records = records_of(dir.file("out/manifest.jsonl"));
    CHECK(records.size() == 40);  // the dataset's size kept
    for (const auto& rec : records) {
        const std::string relative = rec.input.substr(rec.input.find_last_of('/') + 1);
        CAPTURE(relative);
        CHECK(rec.operation == gpurotate::name(gpurotate::augment::draw_element(model, 12345, relative, 0)));
        CHECK(rec.file == relative.substr(0, relative.size() - 4) + "_" + rec.operation + ".png");
        ++seen[rec.operation];
    }
    // rot90 (2/3) or flip-h (1/3), then flip-h (1/2): rot90, transpose, flip-h, identity; transpose never drawn
    // from --ops, but made by rot90 then flip-h.
    for (const char* name : {"rot90", "transpose", "flip-h", "identity"}) CHECK(seen[name] > 0);
    CHECK(seen.size() == 4);
}

TEST_CASE("augment --random without --seed: a seed is chosen, printed, recorded, and --resume keeps it") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 8, 9, 400);
    const std::string base = quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out")) + " --random 2 --device cpu";
    const auto first = run(base);
    CAPTURE(first.output);
    REQUIRE(first.status == 0);
    const std::string said = "augment --random: seed ";
    const auto at = first.output.find(said);
    REQUIRE(at != std::string::npos);
    const std::string seed = first.output.substr(at + said.size(), first.output.find(' ', at + said.size()) - at - said.size());
    CHECK(first.output.find("--seed " + seed + " repeats this run") != std::string::npos);
    const auto records = records_of(dir.file("out/manifest.jsonl"));
    REQUIRE(records.size() == 16);
    for (const auto& r : records) CHECK(r.seed == std::stoull(seed));
    // The same seed again: the same outputs.
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("again")) + " --random 2 --device cpu -q --seed " + seed).status == 0);
    const std::string before = tree_bytes(dir.file("out"));
    CHECK(before == tree_bytes(dir.file("again")));
    // --resume without --seed finishes with the manifest's seed: a removed output comes back as it was.
    ::unlink(dir.file("out/" + records[3].file).c_str());
    const auto resumed = run(base + " --resume");
    CAPTURE(resumed.output);
    CHECK(resumed.status == 0);
    CHECK(resumed.output.find("seed " + seed + ", from manifest") != std::string::npos);
    CHECK(resumed.output.find("1 outputs written") != std::string::npos);
    CHECK(tree_bytes(dir.file("out")) == before);
    // Another seed with --resume would draw other outputs: refused.
    const auto other = run(base + " --resume --seed " + std::to_string(std::stoull(seed) + 1));
    CHECK(other.status == 2);
    CHECK(other.output.find("records seed " + seed) != std::string::npos);
}

TEST_CASE("augment --random and --name fields on the command line: spellings and refusals") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 4, 9, 500);
    const std::string in = quote(dir.file("in"));
    // A bare --random before the inputs leaves them inputs; {dir}, {parent} and {index} through the binary.
    const auto bare = run("cd " + quote(dir.path()) + " && " + quote(exe) + " augment --random in -r -o out --seed 3 --device cpu -q " +
                          "--name '{op}/{dir}/{index}_{parent}_{stem}.{ext}'");
    CAPTURE(bare.output);
    REQUIRE(bare.status == 0);
    std::set<std::string> files;
    for (const auto& r : records_of(dir.file("out/manifest.jsonl"))) files.insert(r.file);
    // make_dataset(4): img0.png, cats/img1.png, cats/small/img2.png, dogs/img3.png; sorted: cats/img1,
    // cats/small/img2, dogs/img3, img0.
    std::set<std::string> expected;
    const gpurotate::augment::RandomModel all{gpurotate::augment::parse_operation_list("all"), std::vector<double>(7, 1.0), 0, 0};
    const std::pair<const char*, const char*> listed[] = {{"cats/img1.png", "cats/0_cats_img1.png"}, {"cats/small/img2.png", "cats/small/1_small_img2.png"},
                                                          {"dogs/img3.png", "dogs/2_dogs_img3.png"}, {"img0.png", "3_in_img0.png"}};
    for (const auto& [relative, name] : listed) {
        expected.insert(std::string(gpurotate::name(gpurotate::augment::draw_element(all, 3, relative, 0))) + "/" + name);
    }
    CHECK(files == expected);

    const struct {
        std::string args;
        const char* says;
    } refusals[] = {
        {" --random 0", "N is 1 to 1000"},
        {" --random 1001", "N is 1 to 1000"},
        {" --seed 4", "--seed requires --random"},
        {" --p-flip-h 0.5", "--p-flip-h requires --random"},
        {" --random --p-flip-v 1.5", "--p-flip-v"},
        {" --random --seed 1e3", "--seed 1e3: expected a whole number"},
        {" --random --ops rot90 --weights transpose=1", "'transpose' is not one of --ops rot90"},
        {" --random 2 --name '{stem}_{op}.{ext}'", "needs {draw} with --random 2"},
        {" --name '{stem}_{draw}_{op}.{ext}'", "{draw} is the number of a --random draw"},
        {" --ops rot90 --name '{stem}.{ext}'", ""},  // accepted: one operation
    };
    int i = 0;
    for (const auto& refusal : refusals) {
        const std::string out = dir.file("r" + std::to_string(i++));
        const auto r = run(quote(exe) + " augment " + in + " -r -o " + quote(out) + " --device cpu -q" + refusal.args);
        CAPTURE(refusal.args);
        CAPTURE(r.output);
        if (*refusal.says == 0) {
            CHECK(r.status == 0);
            continue;
        }
        CHECK(r.status == 2);
        CHECK(r.output.find(refusal.says) != std::string::npos);
        CHECK(!test_support::file_exists(out + "/manifest.jsonl"));
    }
    // Without --random, the manifest carries the element's number and no seed.
    for (const auto& r : records_of(dir.file("r9/manifest.jsonl"))) {
        CHECK(r.element == 1);
        CHECK(!r.seed);
        CHECK(!r.draw);
    }
}

namespace {

// The draw as it was written before weights could overflow, kept here as the reference that ordinary weights
// still draw bit for bit (a Python port reimplements it).
Orientation draw_as_before(const RandomModel& model, std::uint64_t seed, const std::string& relative, std::uint64_t draw) {
    using namespace gpurotate::augment::draw_detail;
    double total = 0;
    for (double w : model.weights) total += w;
    const double u = unit_interval(random_bits(seed, relative, draw, DrawStream::element)) * total;
    Orientation element = Orientation::identity;
    double cumulative = 0;
    for (std::size_t i = 0; i < model.elements.size(); ++i) {
        if (model.weights[i] <= 0) continue;
        element = model.elements[i];
        cumulative += model.weights[i];
        if (u < cumulative) break;
    }
    if (unit_interval(random_bits(seed, relative, draw, DrawStream::flip_h)) < model.p_flip_h) element = gpurotate::then(element, Orientation::flip_h);
    if (unit_interval(random_bits(seed, relative, draw, DrawStream::flip_v)) < model.p_flip_v) element = gpurotate::then(element, Orientation::flip_v);
    return element;
}

}  // namespace

TEST_CASE("random draws: ordinary weights draw as before, and weights whose sum overflows draw every element") {
    using gpurotate::augment::draw_element;
    for (const NamedModel& m : models()) {
        CAPTURE(m.what);
        for (int i = 0; i < 2000; ++i) CHECK(draw_element(m.model, test_seed + i % 3, dataset_path(i), i % 5) == draw_as_before(m.model, test_seed + i % 3, dataset_path(i), i % 5));
    }
    const auto ops = gpurotate::augment::parse_operation_list("rot90,rot180");
    const RandomModel huge{ops, gpurotate::augment::parse_weights("rot90=1e308,rot180=1e308", ops), 0, 0};
    const auto p = gpurotate::augment::element_probabilities(huge);
    CHECK(p[1] == 0.5);
    CHECK(p[2] == 0.5);
    check_distribution(p, [&](int i) { return draw_element(huge, test_seed, dataset_path(i), 0); });
}

TEST_CASE("random draws without replacement: distinct, draw 0 as with replacement, pairs as successive sampling (chi-square, p > 1e-6)") {
    using namespace gpurotate::augment;
    // rot90 1/2, flip-h 1/4, transpose 1/4: the pair (a, b) has probability p_a * p_b / (1 - p_a).
    const RandomModel model{{Orientation::rot90, Orientation::flip_h, Orientation::transpose}, {2, 1, 1}, 0, 0};
    const std::map<Orientation, double> p = {{Orientation::rot90, 0.5}, {Orientation::flip_h, 0.25}, {Orientation::transpose, 0.25}};
    std::vector<std::pair<Orientation, Orientation>> cells;
    std::vector<double> expected;
    for (const auto& [a, pa] : p) {
        for (const auto& [b, pb] : p) {
            if (a == b) continue;
            cells.push_back({a, b});
            expected.push_back(pa * pb / (1 - pa));
        }
    }
    std::vector<long> counts(cells.size(), 0);
    for (int i = 0; i < draw_count; ++i) {
        const auto drawn = draw_elements(model, test_seed, dataset_path(i), 3, false);
        REQUIRE(drawn.size() == 3);
        CHECK(std::set<Orientation>(drawn.begin(), drawn.end()).size() == 3);
        CHECK(drawn[0] == draw_element(model, test_seed, dataset_path(i), 0));
        ++counts[static_cast<std::size_t>(std::find(cells.begin(), cells.end(), std::make_pair(drawn[0], drawn[1])) - cells.begin())];
    }
    std::size_t degrees = 0;
    const double statistic = chi_square(counts, expected, draw_count, degrees);
    CAPTURE(statistic);
    CHECK(degrees == 5);
    CHECK(statistic < chi_square_limit(degrees));
    // --ops identity,all --random 8: every element once; a flip with p = 1 leaves as many as --ops has, with
    // p = 1/2 twice as many (four times with both); with replacement, draws repeat.
    const RandomModel d4{parse_operation_list("identity,all"), std::vector<double>(8, 1.0), 0, 0};
    CHECK(distinct_elements(d4) == 8);
    const auto all = draw_elements(d4, test_seed, "a.png", 8, false);
    CHECK(std::set<Orientation>(all.begin(), all.end()).size() == 8);
    CHECK(distinct_elements({{Orientation::identity, Orientation::rot90}, {1, 1}, 1, 0}) == 2);  // flip-h and transpose
    CHECK(distinct_elements({{Orientation::identity}, {1}, 0.5, 0.5}) == 4);
    const auto repeated = draw_elements(d4, test_seed, "a.png", 100, true);
    CHECK(std::set<Orientation>(repeated.begin(), repeated.end()).size() == 8);
    for (unsigned d = 0; d < 100; ++d) CHECK(repeated[d] == draw_element(d4, test_seed, "a.png", d));
}

TEST_CASE("manifest lines carry every draw parameter and read them back") {
    using namespace gpurotate::augment;
    ManifestRecord r;
    r.input = "in/a.png";
    r.operation = "rot90";
    r.ok = true;
    r.seed = 7;
    r.draw = 1;
    r.parameters = DrawParameters{"identity,rot90", "20,1", "0.5", "1e-05", 3, true};
    const std::string line = to_json_line(r);
    CHECK(line.find(R"("draw":1,"ops":"identity,rot90","weights":"20,1","p_flip_h":0.5,"p_flip_v":1e-05,"draws":3,"replacement":true,)") != std::string::npos);
    ManifestRecord back;
    REQUIRE(parse_json_line(line, back));
    REQUIRE(back.parameters);
    CHECK(back.parameters->ops == "identity,rot90");
    CHECK(back.parameters->weights == "20,1");
    CHECK(back.parameters->p_flip_h == "0.5");
    CHECK(back.parameters->p_flip_v == "1e-05");
    CHECK(back.parameters->draws == 3);
    CHECK(back.parameters->with_replacement);
}

TEST_CASE("augment --random 9 and 1000 write every variant of PNG inputs, --random N distinct by default, and bad probabilities are refused") {
    test_support::TempDir dir;
    const auto images = make_dataset(dir.file("in"), 3, 6, 600);
    const auto augment = [&](const std::string& out, const std::string& flags) {
        return run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file(out)) + " --device cpu -q " + (flags.find("--random") != std::string::npos ? "--seed 5 " : "") + flags);
    };
    for (const auto& run_of : {std::pair<unsigned, std::string>{9, "--random 9 --with-replacement"}, {1000, "--random 1000 --with-replacement"},
                               {8, "--random 8 --ops identity,all"}}) {
        // Copies, not structured bindings: clang 14 does not let CAPTURE's lambda name a binding.
        const unsigned n = run_of.first;
        const std::string flags = run_of.second;
        CAPTURE(flags);
        const std::string out = "r" + std::to_string(n);
        const auto r = augment(out, flags);
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        const auto records = records_of(dir.file(out + "/manifest.jsonl"));
        CHECK(records.size() == 3 * n);
        std::map<std::string, std::set<std::string>> ops_of_input;
        for (const auto& rec : records) {
            CHECK(rec.ok);
            ops_of_input[rec.input].insert(rec.operation);
            const auto element = gpurotate::parse_orientation(rec.operation);
            REQUIRE(element);
            const DatasetImage& image = *std::find_if(images.begin(), images.end(), [&](const DatasetImage& i) { return rec.input == dir.file("in/" + i.relative); });
            const auto got = gpurotate::read_image(dir.file(out + "/" + rec.file));
            CHECK(test_support::first_difference(got.view(), reference::transform(image.pixels, *element).view()) == -1);
        }
        if (n == 8) {
            for (const auto& [input, ops] : ops_of_input) CHECK(ops.size() == 8);  // distinct: all of D4
        }
    }
    const std::pair<std::string, const char*> refused[] = {
        {"--random 9", "--random 9: an input's draws are distinct elements, and --ops, --weights and --p-flip-h/-v give 7 (add --with-replacement"},
        {"--random 2 --ops identity --p-flip-h 1", "give 1 (add --with-replacement"},
        {"--random --p-flip-h nan", "--p-flip-h nan: expected a probability from 0 to 1"},
        {"--random --p-flip-v inf", "--p-flip-v inf: expected a probability"},
        {"--random --p-flip-h -0.1", "--p-flip-h -0.1: expected a probability"},
        {"--random --p-flip-v 1.5", "--p-flip-v 1.5: expected a probability"},
        {"--with-replacement", "--with-replacement requires --random"},
    };
    for (const auto& refusal : refused) {
        const std::string flags = refusal.first, says = refusal.second;
        CAPTURE(flags);
        const auto r = augment("refused", flags);
        CAPTURE(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.find(says) != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("refused/manifest.jsonl")));
    }
}

TEST_CASE("augment --resume refuses every draw parameter that differs from the manifest's, naming it and both values") {
    test_support::TempDir dir;
    make_dataset(dir.file("in"), 6, 6, 700);
    const std::string base = quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out")) + " --device cpu -q --random 2";
    const std::string recorded = " --ops identity,all --weights identity=20 --p-flip-h 0.25";
    REQUIRE(run(base + recorded + " --seed 11").status == 0);
    const std::string manifest = test_support::file_bytes(dir.file("out/manifest.jsonl"));
    const std::pair<std::string, std::string> differing[] = {
        {" --ops identity,all --p-flip-h 0.25", "records --weights 20,1,1,1,1,1,1,1, and this run has --weights 1,1,1,1,1,1,1,1"},
        {" --ops all --p-flip-h 0.25", "records --ops identity,rot90,rot180,rot270,flip-h,flip-v,transpose,transverse, and this run has --ops rot90,"},
        {recorded.substr(0, recorded.find(" --p-flip-h")) + " --p-flip-h 0.5", "records --p-flip-h 0.25, and this run has --p-flip-h 0.5"},
        {recorded + " --p-flip-v 0.1", "records --p-flip-v 0, and this run has --p-flip-v 0.1"},
        {recorded + " --with-replacement", "records --with-replacement off, and this run has --with-replacement on"},
    };
    for (const auto& difference : differing) {
        const std::string flags = difference.first, says = difference.second;
        CAPTURE(flags);
        const auto r = run(base + flags + " --resume");
        CAPTURE(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.find("augment --resume: manifest '" + dir.file("out/manifest.jsonl") + "' " + says) != std::string::npos);
        CHECK(test_support::file_bytes(dir.file("out/manifest.jsonl")) == manifest);
    }
    const auto three = run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out")) + " --device cpu -q --random 3" + recorded + " --resume");
    CHECK(three.status == 2);
    CHECK(three.output.find("records --random 2, and this run has --random 3") != std::string::npos);
    const auto plain = run(quote(exe) + " augment " + quote(dir.file("in")) + " -r -o " + quote(dir.file("out")) + " --device cpu -q --resume");
    CHECK(plain.status == 2);
    CHECK(plain.output.find("records a --random run, and this run has no --random") != std::string::npos);
    // The same parameters finish the run.
    const auto same = run(base + recorded + " --resume");
    CAPTURE(same.output);
    CHECK(same.status == 0);
}
