// `augment` over WebDataset shards, end to end through the binary: shards packed by GNU tar (and, for the
// bad members GNU tar will not write, by Python's tarfile), read back by GNU tar. Each variant's image is
// compared with the folder mode's output of the same file (another path through the file code), each
// companion with its input, each listing with the names --name gives, in WebDataset's order.

#include "augment_support.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using test_support::quote;
using test_support::run;

namespace {

const std::string exe = GPUROTATE_EXE;
const std::vector<std::string> ops = {"rot90", "flip-h"};

struct Sample {
    std::string key;                // "cat/s3"
    std::string image_ext;          // "png" or "jpg"
    std::vector<std::string> companions = {"json", "cls", "txt"};
};

// Samples in folder `root` (their members as files), and the same images alone in `images_root`.
std::vector<Sample> make_samples(const std::string& root, const std::string& images_root, int count) {
    std::vector<Sample> samples;
    for (const std::string& base : {root, images_root}) {
        ::mkdir(base.c_str(), 0777);
        ::mkdir((base + "/cat").c_str(), 0777);
    }
    for (int i = 0; i < count; ++i) {
        Sample s{"cat/s" + std::to_string(i), i % 2 ? "jpg" : "png"};
        const auto pixels = test_support::random_image(13 + i, 8 + 2 * i, {gpurotate::SampleType::u8, 3}, 900 + static_cast<std::uint32_t>(i));
        for (const std::string& base : {root, images_root}) gpurotate::write_image(base + "/" + s.key + "." + s.image_ext, pixels.view());
        test_support::write_bytes(root + "/" + s.key + ".json", "{\"sample\": " + std::to_string(i) + "}");
        test_support::write_bytes(root + "/" + s.key + ".cls", std::to_string(i % 3));
        test_support::write_bytes(root + "/" + s.key + ".txt", "caption " + std::to_string(i) + "\n");
        samples.push_back(s);
    }
    return samples;
}

// Packs `samples` into `tar_path` with GNU tar, each sample's members consecutive, the image first.
void pack(const std::string& root, const std::vector<Sample>& samples, const std::string& tar_path) {
    std::string members;
    for (const Sample& s : samples) {
        members += " " + quote(s.key + "." + s.image_ext);
        for (const std::string& c : s.companions) members += " " + quote(s.key + "." + c);
    }
    REQUIRE(run("tar --format=pax -cf " + quote(tar_path) + " -C " + quote(root) + members).status == 0);
}

// A command's output, line by line.
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
}

// The members of an output shard, in its order, as GNU tar lists them.
std::vector<std::string> listing(const std::string& tar_path) {
    const auto r = run("tar -tf " + quote(tar_path));
    REQUIRE(r.status == 0);
    return lines_of(r.output);
}

// What --name {stem}_{op}.{ext} gives the samples, each variant's image first, then its companions.
std::vector<std::string> expected_listing(const std::vector<Sample>& samples) {
    std::vector<std::string> names;
    for (const Sample& s : samples) {
        for (const std::string& op : ops) {
            names.push_back(s.key + "_" + op + "." + s.image_ext);
            for (const std::string& c : s.companions) names.push_back(s.key + "_" + op + "." + c);
        }
    }
    return names;
}

// Every member of `tar_path` extracted: images equal to the folder mode's variants in `folder_out`,
// companions equal to the sample's input members in `root`.
void check_members(const std::string& tar_path, const std::vector<Sample>& samples, const std::string& root, const std::string& folder_out,
                   const std::string& scratch) {
    REQUIRE(run("rm -rf " + quote(scratch) + " && mkdir -p " + quote(scratch) + " && tar -xf " + quote(tar_path) + " -C " + quote(scratch)).status == 0);
    for (const Sample& s : samples) {
        for (const std::string& op : ops) {
            const std::string variant = s.key + "_" + op;
            CAPTURE(variant);
            const std::string image = test_support::file_bytes(scratch + "/" + variant + "." + s.image_ext);
            CHECK(!image.empty());
            CHECK(image == test_support::file_bytes(folder_out + "/" + variant + "." + s.image_ext));
            for (const std::string& c : s.companions) {
                CHECK(test_support::file_bytes(scratch + "/" + variant + "." + c) == test_support::file_bytes(root + "/" + s.key + "." + c));
            }
        }
    }
}

// The names in `folder` (no hidden-file filter: a temporary left behind would show).
std::set<std::string> entries(const std::string& folder) {
    const std::vector<std::string> names = lines_of(run("ls -A " + quote(folder)).output);
    return {names.begin(), names.end()};
}

struct FourShards {
    test_support::TempDir dir;
    std::vector<Sample> samples = make_samples(dir.file("members"), dir.file("images"), 12);
    std::vector<std::vector<Sample>> shards{4};
    std::string folder_out = dir.file("folder_out");
    FourShards() {
        ::mkdir(dir.file("shards").c_str(), 0777);
        for (std::size_t i = 0; i < samples.size(); ++i) shards[i / 3].push_back(samples[i]);
        for (int k = 0; k < 4; ++k) pack(dir.file("members"), shards[k], shard(k));
        const auto r = run(quote(exe) + " augment " + quote(dir.file("images")) + " -r -o " + quote(folder_out) + " --ops rot90,flip-h --device cpu -q");
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
    }
    std::string shard(int k) const { return dir.file("shards/part-" + std::to_string(k) + ".tar"); }
    std::string name(int k) const { return "part-" + std::to_string(k) + ".tar"; }
};

}  // namespace

TEST_CASE("augment of 4 WebDataset shards writes the folder mode's bytes, companions unchanged, keys from --name in order") {
    FourShards data;
    const std::string out = data.dir.file("out");
    const auto r = run(quote(exe) + " augment " + quote(data.dir.file("shards")) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    for (int k = 0; k < 4; ++k) {
        CAPTURE(k);
        CHECK(listing(out + "/" + data.name(k)) == expected_listing(data.shards[k]));
        check_members(out + "/" + data.name(k), data.shards[k], data.dir.file("members"), data.folder_out, data.dir.file("x"));
    }
    CHECK(entries(out) == std::set<std::string>{"manifest.jsonl", data.name(0), data.name(1), data.name(2), data.name(3)});
    // The manifest: a record for each variant image and one for each shard, with its size.
    int variant_records = 0, shard_records = 0;
    for (const auto& record : augment_support::records_of(out + "/manifest.jsonl")) {
        CHECK(record.ok);
        if (record.operation.empty()) {
            ++shard_records;
            struct stat info {};
            REQUIRE(::stat(record.output.c_str(), &info) == 0);
            CHECK(record.bytes == static_cast<std::uint64_t>(info.st_size));
        } else {
            ++variant_records;
        }
    }
    CHECK(shard_records == 4);
    CHECK(variant_records == 12 * 2);
}

TEST_CASE("augment of WebDataset shards: --resume skips complete shards and remakes a missing one, --shard K/N splits by shard") {
    FourShards data;
    const std::string out = data.dir.file("out");
    const std::string command = quote(exe) + " augment " + quote(data.dir.file("shards")) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu";
    REQUIRE(run(command).status == 0);
    std::map<std::string, std::string> first;
    for (int k = 0; k < 4; ++k) first[data.name(k)] = test_support::file_bytes(out + "/" + data.name(k));
    auto again = run(command + " --resume");
    CAPTURE(again.output);
    CHECK(again.status == 0);
    CHECK(again.output.find("0 outputs written (0 failed, 4 already complete)") != std::string::npos);
    REQUIRE(::unlink((out + "/" + data.name(2)).c_str()) == 0);
    again = run(command + " --resume");
    CHECK(again.status == 0);
    CHECK(again.output.find("3 already complete") != std::string::npos);
    for (int k = 0; k < 4; ++k) CHECK(test_support::file_bytes(out + "/" + data.name(k)) == first[data.name(k)]);
    // Without --resume or --overwrite, the outputs that exist are refused.
    CHECK(run(command).status == 4);

    // Two runs of --shard K/2 write each shard once, the same bytes as the single run.
    const std::string split = data.dir.file("split");
    std::map<std::string, int> written;
    for (int k = 0; k < 2; ++k) {
        const std::string manifest = data.dir.file("m" + std::to_string(k) + ".jsonl");
        const auto r = run(quote(exe) + " augment " + quote(data.dir.file("shards")) + " -o " + quote(split) + " --ops rot90,flip-h --device cpu --shard " +
                           std::to_string(k) + "/2 --manifest " + quote(manifest));
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        for (const auto& record : augment_support::records_of(manifest)) {
            if (record.operation.empty()) ++written[record.file];
        }
    }
    CHECK(written.size() == 4);
    for (const auto& entry : written) {  // not a structured binding: clang 14 cannot CAPTURE one
        const std::string& file = entry.first;
        CAPTURE(file);
        CHECK(entry.second == 1);
        CHECK(test_support::file_bytes(split + "/" + file) == first[file]);
    }
}

TEST_CASE("augment of a WebDataset shard: each bad sample is left out alone, named, and the input is never changed") {
    test_support::TempDir dir;
    const auto samples = make_samples(dir.file("members"), dir.file("images"), 2);
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("images")) + " -r -o " + quote(dir.file("folder_out")) + " --ops rot90,flip-h --device cpu -q").status == 0);
    const std::string shard = dir.file("bad.tar");
    pack(dir.file("members"), {samples[0]}, shard);
    // Appended by Python's tarfile: a non-image with an image's extension, a path that climbs out, two members
    // of one key and extension, a keyless member; then a good sample after them.
    const std::string script =
        "import tarfile, io, sys\n"
        "t = tarfile.open(sys.argv[1], 'a')\n"
        "def add(name, data):\n"
        "    info = tarfile.TarInfo(name); info.size = len(data); t.addfile(info, io.BytesIO(data))\n"
        "add('cat/fake.png', b'not a png'); add('cat/fake.json', b'{}')\n"
        "add('../up.png', open(sys.argv[2], 'rb').read())\n"
        "add('cat/twice.png', open(sys.argv[2], 'rb').read()); add('cat/twice.png', open(sys.argv[2], 'rb').read())\n"
        "add('README', b'no extension')\n"
        "for ext in ['jpg', 'json', 'cls', 'txt']: add('cat/s1.' + ext, open(sys.argv[3] + '/cat/s1.' + ext, 'rb').read())\n"
        "t.close()\n";
    test_support::write_bytes(dir.file("bad.py"), script);
    const auto made = run("/usr/bin/python3 " + quote(dir.file("bad.py")) + " " + quote(shard) + " " + quote(dir.file("members/cat/s0.png")) + " " +
                          quote(dir.file("members")));
    CAPTURE(made.output);
    REQUIRE(made.status == 0);
    const std::string before = test_support::file_bytes(shard);

    const std::string out = dir.file("out");
    const auto r = run(quote(exe) + " augment " + quote(shard) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu");
    CAPTURE(r.output);
    CHECK(r.status == 3);
    for (const char* named : {"sample 'cat/fake'", "cat/fake.png", "'../up.png'", "'cat/twice.png'", "'README'"}) {
        CAPTURE(named);
        CHECK(r.output.find(named) != std::string::npos);
    }
    CHECK(r.output.find("bad.tar") != std::string::npos);
    CHECK(listing(out + "/bad.tar") == expected_listing(samples));
    check_members(out + "/bad.tar", samples, dir.file("members"), dir.file("folder_out"), dir.file("x"));
    CHECK(entries(out) == std::set<std::string>{"bad.tar", "manifest.jsonl"});
    CHECK(entries(dir.path()).count("up.png") == 0);
    CHECK(test_support::file_bytes(shard) == before);
}

TEST_CASE("augment of a truncated WebDataset shard writes no output for it, and the other shards whole") {
    FourShards data;
    const std::string good = data.shard(0);
    const std::string whole = test_support::file_bytes(data.shard(1));
    test_support::write_bytes(data.shard(1), whole.substr(0, whole.size() / 2 + 100));
    const std::string out = data.dir.file("out");
    const auto r = run(quote(exe) + " augment " + quote(good) + " " + quote(data.shard(1)) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu");
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(r.output.find("part-1.tar") != std::string::npos);
    CHECK(entries(out) == std::set<std::string>{"manifest.jsonl", data.name(0)});
    CHECK(listing(out + "/" + data.name(0)) == expected_listing(data.shards[0]));
}

TEST_CASE("augment --labels yolo turns each WebDataset sample's .txt member with its image") {
    test_support::TempDir dir;
    ::mkdir(dir.file("m").c_str(), 0777);
    gpurotate::write_image(dir.file("m/a.png"), test_support::random_image(10, 6, {gpurotate::SampleType::u8, 3}, 77).view());
    test_support::write_bytes(dir.file("m/a.txt"), "3 0.25 0.5 0.1 0.2\n");
    REQUIRE(run("tar -cf " + quote(dir.file("s.tar")) + " -C " + quote(dir.file("m")) + " a.png a.txt").status == 0);
    const auto r = run(quote(exe) + " augment " + quote(dir.file("s.tar")) + " -o " + quote(dir.file("out")) + " --ops rot90,flip-h --labels yolo --device cpu");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    // A point (x, y) of the unit square goes to (1 - y, x) turned clockwise, to (1 - x, y) flipped; w and h swap with rot90.
    const auto rot90 = run("tar -xOf " + quote(dir.file("out/s.tar")) + " a_rot90.txt");
    CHECK(rot90.output == "3 0.5 0.25 0.2 0.1\n");
    const auto flip = run("tar -xOf " + quote(dir.file("out/s.tar")) + " a_flip-h.txt");
    CHECK(flip.output == "3 0.75 0.5 0.1 0.2\n");
}

TEST_CASE("augment of a WebDataset shard: a sample whose members together exceed a worker's share of --host-memory fails alone") {
    // Members of one key with dotted suffixes (s.0.bin, s.1.bin, ...): each under the share, together over it.
    test_support::TempDir dir;
    const auto samples = make_samples(dir.file("members"), dir.file("images"), 1);
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("images")) + " -r -o " + quote(dir.file("folder_out")) + " --ops rot90,flip-h --device cpu -q").status == 0);
    const std::size_t share = 1 << 20;
    const std::string part(share / 3 + 1000, 'x');
    ::mkdir(dir.file("big").c_str(), 0777);
    ::mkdir(dir.file("big/cat").c_str(), 0777);
    test_support::write_bytes(dir.file("big/cat/big.png"), test_support::file_bytes(dir.file("members/cat/s0.png")));
    std::string big_members = " cat/big.png";
    for (int i = 0; i < 3; ++i) {
        test_support::write_bytes(dir.file("big/cat/big." + std::to_string(i) + ".bin"), part);
        big_members += " cat/big." + std::to_string(i) + ".bin";
    }
    const std::string shard = dir.file("s.tar");
    REQUIRE(run("tar -cf " + quote(shard) + " -C " + quote(dir.file("big")) + big_members).status == 0);
    pack(dir.file("members"), samples, dir.file("good.tar"));
    REQUIRE(run("tar -Af " + quote(shard) + " " + quote(dir.file("good.tar"))).status == 0);

    const std::string out = dir.file("out");
    const auto r = run(quote(exe) + " augment " + quote(shard) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu -j 1 --host-memory " +
                       std::to_string(share));
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(r.output.find("sample 'cat/big'") != std::string::npos);
    CHECK(r.output.find("--host-memory") != std::string::npos);
    CHECK(listing(out + "/s.tar") == expected_listing(samples));
    check_members(out + "/s.tar", samples, dir.file("members"), dir.file("folder_out"), dir.file("x"));
}

TEST_CASE("augment of a WebDataset shard refuses a --name that puts a field after the file name's first dot, writing nothing") {
    // WebDataset's key ends at the file name's first dot: {stem}.{op}.{ext} would give every variant the key {stem}.
    test_support::TempDir dir;
    const auto samples = make_samples(dir.file("members"), dir.file("images"), 1);
    pack(dir.file("members"), samples, dir.file("s.tar"));
    for (const char* name : {"{stem}.{op}.{ext}", "v/{stem}.aug_{op}.{ext}"}) {
        CAPTURE(name);
        const std::string out = dir.file("out");
        const auto r = run(quote(exe) + " augment " + quote(dir.file("s.tar")) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu --name '" + name + "'");
        CAPTURE(r.output);
        CHECK(r.status == 2);
        CHECK(r.output.find(std::string("--name '") + name + "'") != std::string::npos);
        CHECK(::access(out.c_str(), F_OK) != 0);
    }
    // A dot in a folder of --name, or before {ext} alone, keeps the keys apart.
    const auto r = run(quote(exe) + " augment " + quote(dir.file("s.tar")) + " -o " + quote(dir.file("ok")) + " --ops rot90,flip-h --device cpu -q --name 'v1.0/{stem}_{op}.{ext}'");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(listing(dir.file("ok/s.tar")).size() == 2 * 4);
}

TEST_CASE("augment of a WebDataset shard: a key that comes again after another sample fails that part alone, saying why") {
    // WebDataset's readers need a sample's members consecutive: s0.png s0.json s1.jpg ... s0.cls splits s0.
    test_support::TempDir dir;
    const auto samples = make_samples(dir.file("members"), dir.file("images"), 2);
    const std::string shard = dir.file("s.tar");
    REQUIRE(run("tar -cf " + quote(shard) + " -C " + quote(dir.file("members")) + " cat/s0.png cat/s0.json cat/s0.txt cat/s1.jpg cat/s1.json cat/s1.cls cat/s1.txt cat/s0.cls")
                .status == 0);
    const auto r = run(quote(exe) + " augment " + quote(shard) + " -o " + quote(dir.file("out")) + " --ops rot90,flip-h --device cpu");
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(r.output.find("sample 'cat/s0': key 'cat/s0' comes again after other samples") != std::string::npos);
    CHECK(r.output.find("--name gives") == std::string::npos);
    const std::vector<std::string> listed = listing(dir.file("out/s.tar"));
    CHECK(listed.size() == 2 * 3 + 2 * 4);
}

TEST_CASE("augment --format of a WebDataset shard converts the sample's image, and its other image members (a mask) keep their format") {
    // A segmentation mask beside its JPEG: --format png/jpg is for the image; a mask made JPEG would lose its classes.
    test_support::TempDir dir;
    ::mkdir(dir.file("m").c_str(), 0777);
    gpurotate::write_image(dir.file("m/a.png"), test_support::random_image(16, 8, {gpurotate::SampleType::u8, 3}, 5).view());
    gpurotate::write_image(dir.file("m/a.seg.png"), test_support::random_image(16, 8, {gpurotate::SampleType::u8, 1}, 6).view());
    REQUIRE(run("tar -cf " + quote(dir.file("s.tar")) + " -C " + quote(dir.file("m")) + " a.png a.seg.png").status == 0);
    const auto r = run(quote(exe) + " augment " + quote(dir.file("s.tar")) + " -o " + quote(dir.file("out")) + " --ops rot90 --format jpg --device cpu -q");
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(listing(dir.file("out/s.tar")) == std::vector<std::string>{"a_rot90.jpg", "a_rot90.seg.png"});
    // Each as the single-image command writes it.
    REQUIRE(run(quote(exe) + " " + quote(dir.file("m/a.png")) + " --rot90 -o " + quote(dir.file("a.jpg"))).status == 0);
    REQUIRE(run(quote(exe) + " " + quote(dir.file("m/a.seg.png")) + " --rot90 -o " + quote(dir.file("seg.png"))).status == 0);
    CHECK(run("tar -xOf " + quote(dir.file("out/s.tar")) + " a_rot90.jpg").output == test_support::file_bytes(dir.file("a.jpg")));
    CHECK(run("tar -xOf " + quote(dir.file("out/s.tar")) + " a_rot90.seg.png").output == test_support::file_bytes(dir.file("seg.png")));
}

namespace {

// The last manifest record of each shard (the records with no op), by its file below OUTDIR: the last wins,
// as --resume reads them.
std::map<std::string, gpurotate::augment::ManifestRecord> shard_records(const std::string& manifest) {
    std::map<std::string, gpurotate::augment::ManifestRecord> last;
    for (const auto& record : augment_support::records_of(manifest)) {
        if (record.operation.empty() && record.file.find(':') == std::string::npos && !record.file.empty()) last[record.file] = record;
    }
    return last;
}

}  // namespace

TEST_CASE("augment of WebDataset shards: a shard with a failed sample is recorded failed, and --resume remakes it whole, skipping the others") {
    FourShards data;
    // A sample whose image is no image, in the middle of shard 1 (after its first sample).
    const Sample bad{"cat/bad", "png", {"json"}};
    test_support::write_bytes(data.dir.file("members/cat/bad.png"), "not a png");
    test_support::write_bytes(data.dir.file("members/cat/bad.json"), "{}");
    std::vector<Sample> with_bad = data.shards[1];
    with_bad.insert(with_bad.begin() + 1, bad);
    REQUIRE(::unlink(data.shard(1).c_str()) == 0);
    pack(data.dir.file("members"), with_bad, data.shard(1));

    const std::string out = data.dir.file("out");
    const std::string command = quote(exe) + " augment " + quote(data.dir.file("shards")) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu";
    auto r = run(command);
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(listing(out + "/" + data.name(1)) == expected_listing(data.shards[1]));
    auto records = shard_records(out + "/manifest.jsonl");
    REQUIRE(records.size() == 4);
    CHECK(!records[data.name(1)].ok);
    CHECK(records[data.name(1)].error.find("incomplete") != std::string::npos);
    CHECK(records[data.name(1)].error.find(data.shard(1)) != std::string::npos);
    CHECK(records[data.name(1)].bytes == test_support::file_bytes(out + "/" + data.name(1)).size());
    for (int k : {0, 2, 3}) CHECK(records[data.name(k)].ok);

    // --resume tries the incomplete shard again (it fails again, as its input is unchanged) and skips the others.
    r = run(command + " --resume");
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(r.output.find("3 already complete") != std::string::npos);
    CHECK(r.output.find("sample 'cat/bad'") != std::string::npos);

    // Once the sample is mended, --resume makes the shard whole, and after that finds all four complete.
    const auto pixels = test_support::random_image(7, 5, {gpurotate::SampleType::u8, 3}, 4242);
    REQUIRE(::unlink(data.dir.file("members/cat/bad.png").c_str()) == 0);
    gpurotate::write_image(data.dir.file("members/cat/bad.png"), pixels.view());
    REQUIRE(::unlink(data.shard(1).c_str()) == 0);
    pack(data.dir.file("members"), with_bad, data.shard(1));
    r = run(command + " --resume");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(r.output.find("3 already complete") != std::string::npos);
    CHECK(listing(out + "/" + data.name(1)) == expected_listing(with_bad));
    records = shard_records(out + "/manifest.jsonl");
    CHECK(records[data.name(1)].ok);
    r = run(command + " --resume");
    CHECK(r.status == 0);
    CHECK(r.output.find("4 already complete") != std::string::npos);
}

TEST_CASE("augment of a WebDataset shard passes over members with no key as WebDataset does, with a warning, keeping their sample whole") {
    // webdataset's group_by_keys skips a member base_plus_ext finds no key in ("README"): it neither ends nor fails
    // the sample around it.
    test_support::TempDir dir;
    const auto samples = make_samples(dir.file("members"), dir.file("images"), 2);
    REQUIRE(run(quote(exe) + " augment " + quote(dir.file("images")) + " -r -o " + quote(dir.file("folder_out")) + " --ops rot90,flip-h --device cpu -q").status == 0);
    test_support::write_bytes(dir.file("members/README"), "no extension");
    test_support::write_bytes(dir.file("members/cat/LICENSE"), "no extension either");
    const std::string shard = dir.file("s.tar");
    REQUIRE(run("tar -cf " + quote(shard) + " -C " + quote(dir.file("members")) +
                " cat/s0.png cat/s0.json README cat/s0.cls cat/s0.txt cat/s1.jpg cat/s1.json cat/LICENSE cat/s1.cls cat/s1.txt")
                .status == 0);
    const std::string before = test_support::file_bytes(shard);
    const auto r = run(quote(exe) + " augment " + quote(shard) + " -o " + quote(dir.file("out")) + " --ops rot90,flip-h --device cpu");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    for (const char* member : {"member 'README'", "member 'cat/LICENSE'"}) {
        CAPTURE(member);
        const auto at = r.output.find(member);
        REQUIRE(at != std::string::npos);
        const std::string line = r.output.substr(r.output.rfind('\n', at) + 1, r.output.find('\n', at) - r.output.rfind('\n', at) - 1);
        CHECK(line.find("warning") != std::string::npos);
        CHECK(line.find(shard) != std::string::npos);
    }
    CHECK(listing(dir.file("out/s.tar")) == expected_listing(samples));
    check_members(dir.file("out/s.tar"), samples, dir.file("members"), dir.file("folder_out"), dir.file("x"));
    for (const auto& entry : shard_records(dir.file("out/manifest.jsonl"))) CHECK(entry.second.ok);
    CHECK(test_support::file_bytes(shard) == before);
}

TEST_CASE("augment of .tar.gz and .tgz WebDataset shards writes gzip shards of the same names, holding the plain shards' bytes") {
    FourShards data;
    const std::string plain = data.dir.file("plain");
    REQUIRE(run(quote(exe) + " augment " + quote(data.dir.file("shards")) + " -o " + quote(plain) + " --ops rot90,flip-h --device cpu -q").status == 0);
    // The same shards compressed by gzip(1): two named .tar.gz, two .tgz (one in capitals).
    const std::vector<std::string> names = {"part-0.tar.gz", "part-1.tar.gz", "part-2.tgz", "part-3.TGZ"};
    ::mkdir(data.dir.file("gz").c_str(), 0777);
    for (int k = 0; k < 4; ++k) REQUIRE(run("gzip -c " + quote(data.shard(k)) + " > " + quote(data.dir.file("gz/" + names[k]))).status == 0);

    for (const char* out_name : {"out", "again"}) {
        const std::string out = data.dir.file(out_name);
        const auto r = run(quote(exe) + " augment " + quote(data.dir.file("gz")) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu");
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        CHECK(entries(out) == std::set<std::string>{"manifest.jsonl", names[0], names[1], names[2], names[3]});
    }
    for (int k = 0; k < 4; ++k) {
        const std::string shard = data.dir.file("out/" + names[k]);
        CAPTURE(shard);
        CHECK(run("gzip -t " + quote(shard)).status == 0);
        const auto listed = run("tar tzf " + quote(shard));
        CHECK(listed.status == 0);
        CHECK(lines_of(listed.output) == expected_listing(data.shards[k]));
        check_members(shard, data.shards[k], data.dir.file("members"), data.folder_out, data.dir.file("x"));
        // Decompressed, the plain run's tar byte for byte; and a second run writes the same gzip bytes (no time in its header).
        CHECK(run("gzip -dc " + quote(shard)).output == test_support::file_bytes(plain + "/" + data.name(k)));
        CHECK(test_support::file_bytes(shard) == test_support::file_bytes(data.dir.file("again/" + names[k])));
    }
    for (const auto& entry : shard_records(data.dir.file("out/manifest.jsonl"))) {
        CHECK(entry.second.ok);
        CHECK(entry.second.bytes == test_support::file_bytes(data.dir.file("out/" + entry.first)).size());
    }
}

TEST_CASE("augment of a truncated .tar.gz WebDataset shard writes no output for it, and the other shard whole") {
    FourShards data;
    ::mkdir(data.dir.file("gz").c_str(), 0777);
    for (int k = 0; k < 2; ++k) REQUIRE(run("gzip -c " + quote(data.shard(k)) + " > " + quote(data.dir.file("gz/" + data.name(k) + ".gz"))).status == 0);
    const std::string damaged = data.dir.file("gz/part-1.tar.gz");
    const std::string whole = test_support::file_bytes(damaged);
    test_support::write_bytes(damaged, whole.substr(0, whole.size() / 2 + 100));
    const std::string before = test_support::file_bytes(damaged);
    const std::string out = data.dir.file("out");
    const auto r = run(quote(exe) + " augment " + quote(data.dir.file("gz")) + " -o " + quote(out) + " --ops rot90,flip-h --device cpu");
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(r.output.find("part-1.tar.gz") != std::string::npos);
    CHECK(entries(out) == std::set<std::string>{"manifest.jsonl", "part-0.tar.gz"});
    CHECK(lines_of(run("tar tzf " + quote(out + "/part-0.tar.gz")).output) == expected_listing(data.shards[0]));
    CHECK(test_support::file_bytes(damaged) == before);
}
