// The conventions that users of ImageMagick, jpegtran, exiftran and vips reach for, through the executable:
// many files in place or into a folder, each failing alone; near misses and other tools' spellings pointed
// to our flags; usage lines and examples in --help.

#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <vector>

using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;

std::string gpurotate_cli(const std::string& args) { return quote(exe) + " " + args; }

// File `i` of a mixed set: PNG of 8 and 16 bits, with and without alpha, JPEG and BMP.
std::string make_mixed_file(const test_support::TempDir& dir, int i) {
    static const char* extensions[] = {"png", "jpg", "bmp", "png", "jpg"};
    const std::string ext = extensions[i % 5];
    const gpurotate::PixelFormat format = i % 5 == 3 ? gpurotate::PixelFormat{gpurotate::SampleType::u16, 4} : gpurotate::PixelFormat{gpurotate::SampleType::u8, 3};
    const auto image = test_support::random_image(17 + i % 13, 9 + i % 7, format, static_cast<std::uint32_t>(i));
    const std::string path = dir.file("f" + std::to_string(i) + "." + ext);
    gpurotate::write_image(path, image.view());
    return path;
}

}  // namespace

TEST_CASE("-i replaces 100 mixed files in place with the bytes -o FOLDER/ and the one-file command write") {
    test_support::TempDir dir;
    std::vector<std::string> files;
    std::string all;
    for (int i = 0; i < 100; ++i) {
        files.push_back(make_mixed_file(dir, i));
        all += " " + quote(files.back());
    }
    std::vector<std::string> before;
    for (const auto& f : files) before.push_back(test_support::file_bytes(f));
    REQUIRE(run("mkdir " + quote(dir.file("into"))).status == 0);
    const auto into = run(gpurotate_cli("--rot90 --flip-h" + all + " -o " + quote(dir.file("into")) + "/"));
    CAPTURE(into.output);
    REQUIRE(into.status == 0);
    const auto in_place = run(gpurotate_cli("--rot90 --flip-h -i" + all));
    CAPTURE(in_place.output);
    REQUIRE(in_place.status == 0);
    for (std::size_t i = 0; i < files.size(); ++i) {
        CAPTURE(files[i]);
        const std::string name = files[i].substr(files[i].find_last_of('/') + 1);
        const std::string replaced = test_support::file_bytes(files[i]);
        CHECK(replaced != before[i]);
        CHECK(replaced == test_support::file_bytes(dir.file("into/" + name)));
    }
    // The one-file command, from the original bytes: a JPEG stays lossless (the same route for every mode).
    for (int i : {0, 1, 2, 3}) {
        const std::string original = dir.file("original" + std::to_string(i) + files[i].substr(files[i].find_last_of('.')));
        test_support::write_bytes(original, before[i]);
        const std::string single = dir.file("single" + std::to_string(i) + files[i].substr(files[i].find_last_of('.')));
        const auto one = run(gpurotate_cli(quote(original) + " --rot90 --flip-h -o " + quote(single) + " -v"));
        CAPTURE(one.output);
        REQUIRE(one.status == 0);
        CHECK(test_support::file_bytes(single) == test_support::file_bytes(files[i]));
        if (files[i].size() > 4 && files[i].substr(files[i].size() - 4) == ".jpg") CHECK(one.output.find("lossless JPEG transform") != std::string::npos);
    }
}

TEST_CASE("many files: each fails alone, named, and the exit status is the first failure's") {
    test_support::TempDir dir;
    const std::string good1 = make_mixed_file(dir, 0), good2 = make_mixed_file(dir, 2);
    const std::string bad = dir.file("bad.png");
    test_support::write_bytes(bad, "\x89PNG\r\n\x1a\nnot really");
    const std::string bad_before = test_support::file_bytes(bad);
    const auto r = run(gpurotate_cli("--rot180 -i " + quote(good1) + " " + quote(bad) + " " + quote(good2)));
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(r.output.find(bad) != std::string::npos);
    CHECK(r.output.find("1 of 3 files failed; the others were written") != std::string::npos);
    CHECK(test_support::file_bytes(bad) == bad_before);
    const auto rerun = run(gpurotate_cli("--rot180 -i " + quote(good1) + " " + quote(good2)));
    CHECK(rerun.status == 0);
}

TEST_CASE("many files: what a folder output refuses, before any work") {
    test_support::TempDir dir;
    const std::string a = make_mixed_file(dir, 0);
    REQUIRE(run("mkdir " + quote(dir.file("sub"))).status == 0);
    const std::string b = dir.file("sub/f0.png");
    REQUIRE(run("cp " + quote(a) + " " + quote(b)).status == 0);
    const auto two_names = run(gpurotate_cli(quote(a) + " " + quote(b) + " --rot90 -o " + quote(dir.path()) + "/out/"));
    CHECK(two_names.status == 2);  // refused before the missing folder is made
    CHECK(two_names.output.find("would both be written to") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("out")));
    REQUIRE(run("mkdir " + quote(dir.file("out"))).status == 0);
    const auto clash = run(gpurotate_cli(quote(a) + " " + quote(b) + " --rot90 -o " + quote(dir.file("out"))));
    CHECK(clash.status == 2);
    CHECK(clash.output.find("would both be written to") != std::string::npos);
    const auto no_folder = run(gpurotate_cli(quote(a) + " " + quote(b) + " --rot90 -o " + quote(dir.file("x.png"))));
    CHECK(no_folder.status == 2);
    CHECK(no_folder.output.find("2 inputs need a folder to write into: -o FOLDER/ (or -i to replace each input)") != std::string::npos);
    CHECK(run(gpurotate_cli("-i " + quote(a) + " --rot90 -o " + quote(dir.file("y.png")))).status == 2);
    CHECK_FALSE(test_support::file_exists(dir.file("out/f0.png")));
    // One input into a folder keeps its name.
    const auto one = run(gpurotate_cli(quote(a) + " --rot90 -o " + quote(dir.file("out"))));
    CHECK(one.status == 0);
    CHECK(test_support::file_exists(dir.file("out/f0.png")));
}

TEST_CASE("a folder or a pattern that matched nothing, as input, is pointed to what works") {
    test_support::TempDir dir;
    const auto folder = run(gpurotate_cli(quote(dir.path()) + " --rot90 -o " + quote(dir.file("o.png"))));
    CHECK(folder.status == 3);
    CHECK(folder.output.find("is a folder") != std::string::npos);
    CHECK(folder.output.find("gpurotate augment") != std::string::npos);
    const auto pattern = run(gpurotate_cli(quote(dir.file("*.jpg")) + " --rot90 -o " + quote(dir.file("o.png"))));
    CHECK(pattern.status == 3);
    CHECK(pattern.output.find("matched no file") != std::string::npos);
}

TEST_CASE("near misses and other tools' spellings are pointed to the flag meant") {
    test_support::TempDir dir;
    const std::string in = make_mixed_file(dir, 0), out = quote(dir.file("o.png"));
    struct Case {
        const char* args;
        const char* says;
    };
    const Case cases[] = {
        {"--rot91", "did you mean --rot90?"},
        {"--rotat90", "did you mean --rot90?"},
        {"--flip-hh", "did you mean --flip-h?"},
        {"--overwirte", "did you mean --overwrite?"},
        {"-rotate 90", "'-rotate 90' is --rot90 here"},
        {"-rotate 270", "is --rot270 here"},
        {"-rotate 180", "is --rot180 here"},
        {"-rotate 45", "'-rotate 45' is --rotate 45 here"},
        {"-flip", "'-flip' is --flip-v here"},
        {"--flip", "'--flip' is --flip-v here"},
        {"-flop", "'-flop' is --flip-h here"},
        {"--flop", "'--flop' is --flip-h here"},
        {"-flip horizontal", "'-flip horizontal' is --flip-h here"},
        {"-auto-orient", "two dashes here: --auto-orient"},
        {"-strip", "two dashes here: --strip"},
        {"-9", "exiftran's -9 is --rot90 here"},
        {"--rotate90", "'--rotate90' is --rot90 here"},
        {"--rotate-270", "'--rotate-270' is --rot270 here"},
        {"--rotate_180", "'--rotate_180' is --rot180 here"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const auto r = run(gpurotate_cli(quote(in) + " " + c.args + " -o " + out));
        CAPTURE(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.find(c.says) != std::string::npos);
        CHECK(r.output.find("(see gpurotate --help)") != std::string::npos);
    }
    const auto augment = run(gpurotate_cli("augment " + quote(dir.path()) + " -o " + quote(dir.file("aug")) + " --opps all"));
    CHECK(augment.status == 2);
    CHECK(augment.output.find("did you mean --ops? (see gpurotate augment --help)") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("o.png")));
}

TEST_CASE("--help shows the usage lines, the operations and examples, for both commands, and -V prints the version") {
    const auto help = run(gpurotate_cli("--help"));
    CHECK(help.status == 0);
    CHECK(help.output.find("Usage: gpurotate INPUT [OPERATION...] -o OUTPUT [OPTIONS]") != std::string::npos);
    CHECK(help.output.find("--rot90 --rot180 --rot270 --flip-h --flip-v --transpose --transverse") != std::string::npos);
    CHECK(help.output.find("Examples:") != std::string::npos);
    CHECK(help.output.find("gpurotate --rot90 -i *.jpg") != std::string::npos);
    const auto augment = run(gpurotate_cli("augment --help"));
    CHECK(augment.status == 0);
    CHECK(augment.output.find("Usage: gpurotate augment INPUT... -o OUTDIR") != std::string::npos);
    CHECK(augment.output.find("identity rot90 rot180 rot270 flip-h flip-v transpose transverse") != std::string::npos);
    CHECK(augment.output.find("Examples:") != std::string::npos);
    const auto version = run(gpurotate_cli("-V"));
    CHECK(version.status == 0);
    CHECK(version.output.rfind("gpurotate ", 0) == 0);
}

TEST_CASE("a format that cannot hold the input names the option that makes it fit, and the option does") {
    test_support::TempDir dir;
    const std::string rgba = dir.file("rgba.png"), deep = dir.file("deep.png");
    gpurotate::write_image(rgba, test_support::random_image(20, 12, {gpurotate::SampleType::u8, 4}, 3).view());
    gpurotate::write_image(deep, test_support::random_image(20, 12, {gpurotate::SampleType::u16, 3}, 4).view());
    const auto alpha = run(gpurotate_cli(quote(rgba) + " --rot90 -o " + quote(dir.file("a.jpg"))));
    CHECK(alpha.status == 4);
    CHECK(alpha.output.find("--background COLOR composes the alpha over a colour") != std::string::npos);
    const auto sixteen = run(gpurotate_cli(quote(deep) + " --rot90 -o " + quote(dir.file("b.jpg"))));
    CHECK(sixteen.status == 4);
    CHECK(sixteen.output.find("--depth 8 writes 8-bit samples") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("a.jpg")));
    CHECK(run(gpurotate_cli(quote(rgba) + " --rot90 --background '#fff' -o " + quote(dir.file("a.jpg")))).status == 0);
    CHECK(gpurotate::read_image(dir.file("a.jpg")).format() == gpurotate::PixelFormat{gpurotate::SampleType::u8, 3});
    CHECK(run(gpurotate_cli(quote(deep) + " --rot90 --depth 8 -o " + quote(dir.file("b.jpg")))).status == 0);
    // Flattened already, a 16-bit image is pointed to --depth 8 alone.
    const std::string deep_alpha = dir.file("deep-alpha.png");
    gpurotate::write_image(deep_alpha, test_support::random_image(20, 12, {gpurotate::SampleType::u16, 4}, 5).view());
    const auto flattened = run(gpurotate_cli(quote(deep_alpha) + " --rot90 --flatten -o " + quote(dir.file("e.jpg"))));
    CHECK(flattened.status == 4);
    CHECK(flattened.output.find("--depth 8 writes 8-bit samples") != std::string::npos);
    CHECK(flattened.output.find("--background COLOR") == std::string::npos);
    // --background alone leaves alpha where the format holds it.
    CHECK(run(gpurotate_cli(quote(rgba) + " --rot90 --background black -o " + quote(dir.file("c.png")))).status == 0);
    CHECK(gpurotate::read_image(dir.file("c.png")).format() == gpurotate::PixelFormat{gpurotate::SampleType::u8, 4});
    const auto bad = run(gpurotate_cli(quote(rgba) + " --rot90 --background purple -o " + quote(dir.file("d.jpg"))));
    CHECK(bad.status == 2);
    CHECK(bad.output.find("--background purple: expected #rgb, #rrggbb, white or black") != std::string::npos);
    // augment takes the same options: a mixed dataset to JPEG.
    const std::string in = dir.file("in");
    REQUIRE(run("mkdir " + quote(in) + " && cp " + quote(rgba) + " " + quote(deep) + " " + quote(in)).status == 0);
    const auto refused = run(gpurotate_cli("augment " + quote(in) + " -o " + quote(dir.file("out1")) + " --ops rot90 --format jpg -q"));
    CHECK(refused.status == 3);
    const auto augmented =
        run(gpurotate_cli("augment " + quote(in) + " -o " + quote(dir.file("out2")) + " --ops rot90 --format jpg --background white --depth 8 -q"));
    CAPTURE(augmented.output);
    CHECK(augmented.status == 0);
    CHECK(test_support::file_exists(dir.file("out2/rgba_rot90.jpg")));
    CHECK(test_support::file_exists(dir.file("out2/deep_rot90.jpg")));
}

TEST_CASE("pipes: standard input and output carry the bytes the file paths do, a lossless JPEG included") {
    test_support::TempDir dir;
    const std::string png = dir.file("in.png"), jpg = dir.file("in.jpg");
    gpurotate::write_image(png, test_support::random_image(33, 21, {gpurotate::SampleType::u16, 3}, 5).view());
    gpurotate::WriteOptions q80;
    q80.quality = 80;
    gpurotate::write_image(jpg, test_support::random_image(48, 32, {gpurotate::SampleType::u8, 3}, 6).view(), q80);
    for (const std::string& in : {png, jpg}) {
        const std::string ext = in.substr(in.size() - 3);
        const std::string by_file = dir.file("file." + ext), by_pipe = dir.file("pipe." + ext), by_prefix = dir.file("prefix." + ext);
        const auto file = run(gpurotate_cli(quote(in) + " --rot90 -o " + quote(by_file) + " -v"));
        CAPTURE(file.output);
        REQUIRE(file.status == 0);
        if (ext == "jpg") CHECK(file.output.find("lossless JPEG transform") != std::string::npos);
        CHECK(run("cat " + quote(in) + " | " + gpurotate_cli("- --rot90 -o - > " + quote(by_pipe))).status == 0);
        CHECK(test_support::file_bytes(by_pipe) == test_support::file_bytes(by_file));
        CHECK(run(gpurotate_cli("- --rot90 -o " + ext + ":- < " + quote(in) + " > " + quote(by_prefix))).status == 0);
        CHECK(test_support::file_bytes(by_prefix) == test_support::file_bytes(by_file));
    }
    // --format names the format of standard output, or of a name without an extension.
    const std::string as_png = dir.file("as.png"), noext = dir.file("noext");
    REQUIRE(run(gpurotate_cli(quote(jpg) + " --rot180 -o " + quote(as_png))).status == 0);
    CHECK(run(gpurotate_cli(quote(jpg) + " --rot180 --format png -o - > " + quote(dir.file("p1")))).status == 0);
    CHECK(test_support::file_bytes(dir.file("p1")) == test_support::file_bytes(as_png));
    CHECK(run(gpurotate_cli(quote(jpg) + " --rot180 -o png:" + quote(noext))).status == 0);
    CHECK(test_support::file_bytes(noext) == test_support::file_bytes(as_png));
    // A format the input does not give and nothing names is refused before anything is written.
    const std::string bmp = dir.file("in.bmp");
    gpurotate::write_image(bmp, test_support::random_image(8, 8, {gpurotate::SampleType::u8, 3}, 7).view());
    const auto unnamed = run("(" + gpurotate_cli(quote(bmp) + " --rot90 -o - > " + quote(dir.file("x"))) + ")");
    CHECK(unnamed.status == 2);
    CHECK(unnamed.output.find("--format EXT") != std::string::npos);
    CHECK(test_support::file_bytes(dir.file("x")).empty());
    // A terminal or nothing on standard input is refused, as an input error.
    CHECK(run(gpurotate_cli("- --rot90 -o " + quote(dir.file("y.png")) + " < /dev/null")).status == 3);
}

TEST_CASE("augment --ops takes a list typed with spaces after its commas") {
    test_support::TempDir dir;
    REQUIRE(run("mkdir " + quote(dir.file("in"))).status == 0);
    gpurotate::write_image(dir.file("in/a.png"), test_support::random_image(9, 7, {gpurotate::SampleType::u8, 3}, 8).view());
    const auto r = run(gpurotate_cli("augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops 'rot90, flip-h' -q"));
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(test_support::file_exists(dir.file("out/a_rot90.png")));
    CHECK(test_support::file_exists(dir.file("out/a_flip-h.png")));
}

TEST_CASE("a misspelt subcommand, an output without extension, a file given as a folder and a misused --generate get the remedy") {
    test_support::TempDir dir;
    const std::string in = make_mixed_file(dir, 0), cd = "cd " + quote(dir.path()) + " && ";
    // The first word, no file, nearly a subcommand: said before augment's options are read as unknown.
    for (const char* typed : {"augmnet", "agument", "Augment", "augmen"}) {
        CAPTURE(typed);
        const auto r = run(cd + gpurotate_cli(std::string(typed) + " . -o aug --ops rot90"));
        CAPTURE(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.rfind("gpurotate: error: '" + std::string(typed) + "' is neither a file nor a command: did you mean gpurotate augment?", 0) == 0);
    }
    const auto bench = run(cd + gpurotate_cli("bnech --size 64"));
    CHECK(bench.status == 2);
    CHECK(bench.output.find("did you mean gpurotate bench?") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("aug")));
    // A file of that name is an input like any other: here one that is not an image.
    test_support::write_bytes(dir.file("augmnet"), "not an image");
    const auto file = run(cd + gpurotate_cli("augmnet --rot90 -o o.png"));
    CAPTURE(file.output);
    CHECK(file.status == 3);
    CHECK(file.output.find("did you mean") == std::string::npos);

    // An output name without an extension: how to name the format, and both ways work.
    const auto bare = run(gpurotate_cli(quote(in) + " --rot90 -o " + quote(dir.file("e1"))));
    CAPTURE(bare.output);
    CHECK(bare.status == 4);
    CHECK(bare.output.find("unknown output extension ''") == std::string::npos);
    CHECK(bare.output.find("its name has no extension to pick the format by") != std::string::npos);
    CHECK(bare.output.find("--format EXT or as EXT:PATH (png:" + dir.file("e1") + ")") != std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("e1")));
    CHECK(run(gpurotate_cli(quote(in) + " --rot90 -o " + quote("png:" + dir.file("e1")))).status == 0);
    CHECK(run(gpurotate_cli(quote(in) + " --rot90 --format png -o " + quote(dir.file("e2")))).status == 0);
    CHECK(gpurotate::read_image(dir.file("e1")).view().height == gpurotate::read_image(in).view().width);
    CHECK(test_support::file_bytes(dir.file("e1")) == test_support::file_bytes(dir.file("e2")));

    // -o FILE/ where FILE is a regular file: a file, not a missing folder; the file keeps its bytes.
    const std::string before = test_support::file_bytes(in);
    const auto not_folder = run(gpurotate_cli(quote(in) + " " + quote(in) + " --rot90 -o " + quote(in + "/")));
    CAPTURE(not_folder.output);
    CHECK(not_folder.status == 4);
    CHECK(not_folder.output.find("'" + in + "' is a file, not a folder") != std::string::npos);
    CHECK(not_folder.output.find("no such folder") == std::string::npos);
    CHECK(test_support::file_bytes(in) == before);
    // A missing folder is made, as mkdir -p makes it.
    const auto missing = run(gpurotate_cli(quote(in) + " --rot90 -o " + quote(dir.file("nowhere/"))));
    CHECK(missing.status == 0);
    CHECK(test_support::file_exists(dir.file("nowhere/" + in.substr(in.find_last_of('/') + 1))));

    // --generate prints its file and nothing else: with a job, or without a value, it says so by name.
    const auto with_job = run(gpurotate_cli(quote(in) + " --rot90 -o " + quote(dir.file("g.png")) + " --generate man"));
    CAPTURE(with_job.output);
    CHECK(with_job.status == 2);
    CHECK(with_job.output.rfind("gpurotate: error: --generate man prints its file and runs no job", 0) == 0);
    CHECK(with_job.output.find(".TH") == std::string::npos);
    CHECK_FALSE(test_support::file_exists(dir.file("g.png")));
    for (const char* bare_generate : {"--generate", "--generate="}) {
        CAPTURE(bare_generate);
        const auto r = run(gpurotate_cli(bare_generate));
        CAPTURE(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.rfind("gpurotate: error: --generate: name what to write: man, man-augment, bash or zsh", 0) == 0);
    }
    const auto alone = run(gpurotate_cli("--generate man"));
    CHECK(alone.status == 0);
    CHECK(alone.output.rfind(".TH gpurotate 1", 0) == 0);
}

TEST_CASE("the zsh completion offers augment's options after augment and the main command's elsewhere") {
    if (run("command -v zsh").status != 0) {
        MESSAGE("SKIPPED: no zsh here (apt-get install zsh) to complete with");
        return;
    }
    test_support::TempDir dir;
    REQUIRE(run(gpurotate_cli("--generate zsh > " + quote(dir.file("_gpurotate")))).status == 0);
    // What zsh's completion system offers at the end of `line`, one candidate a line (tests/zsh_completion.zsh).
    const auto offered = [&](const std::string& line) {
        const auto r = run("timeout 60 zsh -f " + quote(std::string(GPUROTATE_TESTS_SOURCE_DIR) + "/zsh_completion.zsh") + " " + quote(dir.path()) + " " + quote(line));
        CAPTURE(line);
        CAPTURE(r.output);
        CHECK(r.status == 0);
        std::vector<std::string> words;
        std::istringstream lines(r.output);
        for (std::string word; std::getline(lines, word);) words.push_back(word);
        return words;
    };
    const auto has = [](const std::vector<std::string>& words, const std::string& word) { return std::find(words.begin(), words.end(), word) != words.end(); };
    const auto augment = offered("gpurotate augment --");
    CAPTURE(augment.size());
    CHECK(has(augment, "--ops"));
    CHECK(has(augment, "--random"));
    CHECK(has(augment, "--resume"));
    CHECK_FALSE(has(augment, "--rot90"));
    CHECK_FALSE(has(augment, "--in-place"));
    const auto main_command = offered("gpurotate in.png --");
    CHECK(has(main_command, "--rot90"));
    CHECK(has(main_command, "--in-place"));
    CHECK_FALSE(has(main_command, "--ops"));
    const auto first = offered("gpurotate a");
    CHECK(has(first, "augment"));
}
