// `augment --labels` and `--masks` through the executable, on generated datasets of odd, non-square
// images: every label and mask output checked against the element the manifest records for its image,
// with the per-element formulas written out here (not the code under test), and the bad-label cases
// failing their own sample alone.

#include "augment_support.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/orientation.hpp>

#include "label_reference.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <tinyxml2.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace {

using gpurotate::Orientation;
using test_support::file_bytes;
using test_support::file_exists;
using test_support::quote;
using test_support::run;
using test_support::TempDir;
using test_support::write_bytes;

const std::string exe = quote(GPUROTATE_EXE);

struct Point {
    double x, y;
};

// Where (x, y) goes in an image spanning [0, W] x [0, H] (W = H = 1 for YOLO's normalised values; W + 1
// and H + 1 for VOC's 1-based pixels), per element.
Point expected(Orientation o, Point p, double W, double H) {
    const auto [x, y] = label_reference::point(o, p.x, p.y, W, H);
    return {x, y};
}

bool swaps(Orientation o) { return o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse; }
bool mirrors(Orientation o) { return o == Orientation::flip_h || o == Orientation::flip_v || o == Orientation::transpose || o == Orientation::transverse; }

std::vector<double> numbers_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<double> values;
    for (double v; in >> v;) values.push_back(v);
    return values;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

void make_folders(const std::string& path) { CHECK(std::system(("mkdir -p " + quote(path)).c_str()) == 0); }

// The manifest's records, as JSON objects (parsed here by nlohmann, not by the product's reader).
std::vector<nlohmann::json> manifest_of(const std::string& path) {
    std::vector<nlohmann::json> records;
    for (const std::string& line : augment_support::lines_of(path)) records.push_back(nlohmann::json::parse(line));
    return records;
}

Orientation element_of(const nlohmann::json& record) { return static_cast<Orientation>(record.at("element").get<int>()); }

// A palette PNG (colour type 3, 8-bit indices) of w x h with index (x * 3 + y * 5) % 4, written by hand.
std::string palette_png(int w, int h) {
    const auto chunk = [](const std::string& type, const std::string& data) {
        std::string c(4, '\0');
        test_support::put_be(c, 0, static_cast<std::uint32_t>(data.size()), 4);
        c += type + data;
        const std::uint32_t crc = test_support::png_crc(c, 4, c.size() - 4);
        std::string tail(4, '\0');  // the CRC
        test_support::put_be(tail, 0, crc, 4);
        return c + tail;
    };
    std::string ihdr(13, '\0');
    test_support::put_be(ihdr, 0, static_cast<std::uint32_t>(w), 4);
    test_support::put_be(ihdr, 4, static_cast<std::uint32_t>(h), 4);
    ihdr[8] = 8;
    ihdr[9] = 3;
    std::string raw;
    for (int y = 0; y < h; ++y) {
        raw += '\0';
        for (int x = 0; x < w; ++x) raw += static_cast<char>((x * 3 + y * 5) % 4);
    }
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string packed(size, '\0');
    compress(reinterpret_cast<Bytef*>(packed.data()), &size, reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()));
    packed.resize(size);
    const std::string plte("\0\0\0\xff\0\0\0\xff\0\0\0\xff", 12);
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("PLTE", plte) + chunk("IDAT", packed) + chunk("IEND", "");
}

void write_png(const std::string& path, std::int64_t w, std::int64_t h, std::uint32_t seed) {
    const auto pixels = test_support::random_image(w, h, {gpurotate::SampleType::u8, 3}, seed);
    gpurotate::write_image(path, pixels.view());
}

// The YOLO pose dataset: kpt_shape [3, 3] with flip_idx [0, 2, 1], two labelled images, one background
// image, one label file without an image, and a palette mask per image.
struct YoloDataset {
    std::map<std::string, std::string> labels;  // image stem -> label text
};

YoloDataset make_yolo(const std::string& root) {
    make_folders(root + "/images/train");
    make_folders(root + "/labels/train");
    make_folders(root + "/masks/train");
    write_bytes(root + "/data.yaml", "# a pose dataset\npath: /somewhere/else\ntrain: images/train\nval: images/train\nkpt_shape: [3, 3]\nflip_idx: [0, 2, 1]\nnames:\n  0: person\n");
    YoloDataset d;
    d.labels["a"] = "0 0.5 0.25 0.2 0.3 0.45 0.125 2 0.625 0.375 1 0 0 0\n1 0.1 0.9 0.05 0.1 0.1 0.9 2 0.12 0.88 2 0.08 0.91 1\n";
    d.labels["b"] = "3 0.75 0.5 0.5 1 0.7 0.25 2 0.8 0.75 2 0.6 0.5 0\n";
    write_png(root + "/images/train/a.png", 61, 37, 1);
    write_png(root + "/images/train/b.png", 45, 33, 2);
    write_png(root + "/images/train/c.png", 39, 27, 3);  // no label file: a background image
    for (const auto& [stem, text] : d.labels) write_bytes(root + "/labels/train/" + stem + ".txt", text);
    write_bytes(root + "/labels/train/orphan.txt", "0 0.5 0.5 0.1 0.1 0.5 0.5 2 0.5 0.5 2 0.5 0.5 2\n");
    write_bytes(root + "/masks/train/a.png", palette_png(61, 37));
    write_bytes(root + "/masks/train/b.png", palette_png(45, 33));
    write_bytes(root + "/masks/train/c.png", palette_png(39, 27));
    return d;
}

// Each output label row against its input row turned by the formulas (flip_idx [0, 2, 1] under
// reflections; an unlabelled 0 0 0 keypoint stays so).
void check_yolo_rows(const std::string& input, const std::string& output, Orientation o) {
    const auto in_lines = lines_of(input), out_lines = lines_of(output);
    REQUIRE(in_lines.size() == out_lines.size());
    const int flip_idx[3] = {0, 2, 1};
    for (std::size_t l = 0; l < in_lines.size(); ++l) {
        const auto a = numbers_of(in_lines[l]), b = numbers_of(out_lines[l]);
        REQUIRE(a.size() == 14);
        REQUIRE(b.size() == 14);
        CHECK(b[0] == a[0]);
        const Point centre = expected(o, {a[1], a[2]}, 1, 1);
        CHECK(b[1] == doctest::Approx(centre.x).epsilon(1e-12));
        CHECK(b[2] == doctest::Approx(centre.y).epsilon(1e-12));
        CHECK(b[3] == a[swaps(o) ? 4 : 3]);
        CHECK(b[4] == a[swaps(o) ? 3 : 4]);
        for (int k = 0; k < 3; ++k) {
            const int from = mirrors(o) ? flip_idx[k] : k;
            const double x = a[5 + 3 * from], y = a[6 + 3 * from], v = a[7 + 3 * from];
            CHECK(b[7 + 3 * k] == v);
            if (v == 0 && x == 0 && y == 0) {
                CHECK(b[5 + 3 * k] == 0);
                CHECK(b[6 + 3 * k] == 0);
                continue;
            }
            const Point p = expected(o, {x, y}, 1, 1);
            CHECK(b[5 + 3 * k] == doctest::Approx(p.x).epsilon(1e-12));
            CHECK(b[6 + 3 * k] == doctest::Approx(p.y).epsilon(1e-12));
        }
    }
}

// Every written variant's label and mask against its image's element; returns how many were checked.
int check_yolo_outputs(const std::string& root, const std::string& out, const YoloDataset& d) {
    int checked = 0;
    for (const nlohmann::json& r : manifest_of(out + "/manifest.jsonl")) {
        REQUIRE(r.at("status") == "ok");
        const Orientation o = element_of(r);
        const std::string input = r.at("input"), stem = input.substr(input.find_last_of('/') + 1, 1);
        CAPTURE(input);
        CAPTURE(gpurotate::name(o));
        const std::string label = out + "/" + r.at("labels").get<std::string>();
        REQUIRE(file_exists(label));
        const std::string file = r.at("file");
        CHECK(r.at("labels").get<std::string>() == "labels/" + file.substr(7, file.size() - 7 - 4) + ".txt");  // images/train/x.png
        if (d.labels.count(stem)) {
            check_yolo_rows(d.labels.at(stem), file_bytes(label), o);
        } else {
            CHECK(file_bytes(label).empty());  // the background image's
        }
        // The mask: still a palette PNG (colour type 3, the same PLTE), its indices turned as its image's pixels.
        const std::string mask = out + "/" + r.at("mask").get<std::string>();
        CHECK(r.at("mask").get<std::string>() == "masks/" + file.substr(7));  // images/ made masks/
        const std::string bytes = file_bytes(mask);
        REQUIRE(bytes.size() > 33);
        CHECK(bytes[25] == 3);
        CHECK(bytes.find(std::string("PLTE\0\0\0\xff\0\0\0\xff\0\0\0\xff", 16)) != std::string::npos);
        const gpurotate::Image source_mask = gpurotate::read_image(root + "/masks/train/" + stem + ".png");
        const gpurotate::Image turned = gpurotate::read_image(mask);
        CHECK(test_support::first_difference(turned.view(), reference::transform(source_mask, o).view()) == -1);
        const gpurotate::Image image = gpurotate::read_image(out + "/" + file);
        const gpurotate::Image source = gpurotate::read_image(input);
        CHECK(test_support::first_difference(image.view(), reference::transform(source, o).view()) == -1);
        ++checked;
    }
    return checked;
}

}  // namespace

TEST_CASE("augment --labels yolo --masks: pose rows, flip_idx, background images and palette masks turned with each image's element") {
    TempDir dir;
    const std::string root = dir.file("data"), out = dir.file("out");
    const YoloDataset d = make_yolo(root);
    SUBCASE("--ops all") {
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(out) + " --labels yolo --masks " + quote(root + "/masks"));
        INFO(result.output);
        REQUIRE(result.status == 0);
        CHECK(check_yolo_outputs(root, out, d) == 21);
        CHECK(result.output.find("1 images had no label file") != std::string::npos);
        CHECK(result.output.find("orphan.txt") != std::string::npos);
        // data.yaml for the new root: path set, the rest as written.
        const std::string yaml = file_bytes(out + "/data.yaml");
        CHECK(yaml.find("path: " + out) != std::string::npos);
        CHECK(yaml.find("/somewhere/else") == std::string::npos);
        CHECK(yaml.find("flip_idx: [0, 2, 1]") != std::string::npos);
        CHECK_FALSE(file_exists(out + "/masks/masks"));  // the mask folder is not read as more images
    }
    SUBCASE("--random 2 --seed 5: one draw per sample, the one augment --random gives the image alone") {
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(out) + " --labels yolo --masks " + quote(root + "/masks") +
                                " --random 2 --seed 5");
        INFO(result.output);
        REQUIRE(result.status == 0);
        CHECK(check_yolo_outputs(root, out, d) == 6);
        const std::string plain = dir.file("plain");
        REQUIRE(run(exe + " augment " + quote(root + "/images") + " -r --device cpu -o " + quote(plain) + " --random 2 --seed 5").status == 0);
        std::multiset<std::string> with_labels, without;
        for (const auto& r : manifest_of(out + "/manifest.jsonl")) with_labels.insert(r.at("input").get<std::string>().substr(root.size() + 7) + r.at("op").get<std::string>());
        for (const auto& r : manifest_of(plain + "/manifest.jsonl")) without.insert(r.at("input").get<std::string>().substr(root.size() + 7) + r.at("op").get<std::string>());
        // The draw is keyed by the path relative to the folder given: the same images, other folders given,
        // draw alike only where the relative paths are alike, so compare against a run on the same root.
        const std::string again = dir.file("again");
        REQUIRE(run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(again) + " --random 2 --seed 5 --masks " + quote(root + "/masks")).status == 0);
        std::multiset<std::string> masks_only;
        for (const auto& r : manifest_of(again + "/manifest.jsonl")) masks_only.insert(r.at("input").get<std::string>().substr(root.size() + 7) + r.at("op").get<std::string>());
        CHECK(with_labels == masks_only);
        CHECK(with_labels.size() == without.size());
    }
}

TEST_CASE("augment --labels yolo: four rot90s give back every label file byte for byte") {
    TempDir dir;
    const std::string root = dir.file("data");
    make_yolo(root);
    write_bytes(root + "/labels/train/a.txt", "0\t0.5  0.25 0.2 0.3 0.45 0.125 2 0.625 0.375 1 0 0 0\r\n\r\n1 0.1 0.9 0.05 0.1 0.1 0.9 2 0.12 0.88 2 0.08 0.91 1");
    std::string in = root;
    for (int turn = 1; turn <= 4; ++turn) {
        const std::string next = dir.file("turn" + std::to_string(turn));
        const auto result = run(exe + " augment " + quote(in) + " -r --device cpu --ops rot90 --name {stem}.{ext} -o " + quote(next) + " --labels yolo --masks " +
                                quote(in + "/masks"));
        INFO(result.output);
        REQUIRE(result.status == 0);
        in = next;
    }
    CHECK(file_bytes(in + "/labels/train/a.txt") == file_bytes(root + "/labels/train/a.txt"));
    CHECK(file_bytes(in + "/labels/train/b.txt") == file_bytes(root + "/labels/train/b.txt"));
}

namespace {

// A COCO RLE's counts from its compressed string: the reading pycocotools documents, written here.
std::vector<long> rle_counts(const std::string& s) {
    std::vector<long> counts;
    std::size_t p = 0;
    while (p < s.size()) {
        long x = 0;
        int k = 0;
        bool more = true;
        while (more) {
            const long c = s[p] - 48;
            x |= (c & 0x1f) << (5 * k);
            more = (c & 0x20) != 0;
            ++p;
            ++k;
            if (!more && (c & 0x10)) x |= -1L << (5 * k);
        }
        if (counts.size() > 2) x += counts[counts.size() - 2];
        counts.push_back(x);
    }
    return counts;
}

// A dense mask (row-major, h x w) from column-major counts starting with zeros.
std::vector<int> dense(const std::vector<long>& counts, int h, int w) {
    std::vector<int> column_major;
    int value = 0;
    for (long c : counts) {
        column_major.insert(column_major.end(), static_cast<std::size_t>(c), value);
        value = 1 - value;
    }
    REQUIRE(column_major.size() == static_cast<std::size_t>(h * w));
    std::vector<int> m(static_cast<std::size_t>(h * w));
    for (int x = 0; x < w; ++x) {
        for (int y = 0; y < h; ++y) m[static_cast<std::size_t>(y * w + x)] = column_major[static_cast<std::size_t>(x * h + y)];
    }
    return m;
}

// Pixel (x, y) of a w x h source: where it lands, 0-based (the same formulas over [0, W-1]).
Point pixel(Orientation o, int x, int y, int w, int h) { return expected(o, {double(x), double(y)}, w - 1, h - 1); }

const char* coco_file = R"({"info":{"description":"test"},"licenses":[],
"categories":[{"id":1,"name":"person","keypoints":["nose","left_eye","right_eye"]},{"id":2,"name":"blob"}],
"images":[{"id":10,"file_name":"p.png","width":61,"height":37,"license":0},{"id":11,"file_name":"q.png","width":45,"height":33}],
"annotations":[
{"id":1,"image_id":10,"category_id":1,"bbox":[3.5,4,20.25,12],"area":243,"iscrowd":0,"segmentation":[[3.5,4,23.75,4,23.75,16,3.5,16]],"keypoints":[10,8,2,12.5,7,1,0,0,0],"num_keypoints":2},
{"id":2,"image_id":10,"category_id":2,"bbox":[2,1,5,3],"area":15,"iscrowd":1,"segmentation":{"size":[37,61],"counts":[75,3,34,3,34,3,34,3,34,3,2031]}},
{"id":3,"image_id":11,"category_id":2,"bbox":[5,3,15,7],"area":105,"iscrowd":1,"segmentation":{"size":[33,45],"counts":"X57j0000000000000000000000000000fi0"}}]})";

void check_coco_annotation(const nlohmann::json& in, const nlohmann::json& out, Orientation o, int W, int H) {
    CHECK(out.at("area") == in.at("area"));
    CHECK(out.at("category_id") == in.at("category_id"));
    const auto& b = in.at("bbox");
    const Point a = expected(o, {b[0].get<double>(), b[1].get<double>()}, W, H);
    const Point c = expected(o, {b[0].get<double>() + b[2].get<double>(), b[1].get<double>() + b[3].get<double>()}, W, H);
    CHECK(out.at("bbox")[0].get<double>() == doctest::Approx(std::min(a.x, c.x)));
    CHECK(out.at("bbox")[1].get<double>() == doctest::Approx(std::min(a.y, c.y)));
    CHECK(out.at("bbox")[2].get<double>() == b[swaps(o) ? 3 : 2].get<double>());
    CHECK(out.at("bbox")[3].get<double>() == b[swaps(o) ? 2 : 3].get<double>());
    const auto& seg = in.at("segmentation");
    if (seg.is_array()) {
        for (std::size_t p = 0; p < seg.size(); ++p) {
            for (std::size_t i = 0; i + 1 < seg[p].size(); i += 2) {
                const Point q = expected(o, {seg[p][i].get<double>(), seg[p][i + 1].get<double>()}, W, H);
                CHECK(out.at("segmentation")[p][i].get<double>() == doctest::Approx(q.x));
                CHECK(out.at("segmentation")[p][i + 1].get<double>() == doctest::Approx(q.y));
            }
        }
    } else {
        const int oh = swaps(o) ? W : H, ow = swaps(o) ? H : W;
        CHECK(out.at("segmentation").at("size") == nlohmann::json::array({oh, ow}));
        const bool compressed = seg.at("counts").is_string();
        CHECK(out.at("segmentation").at("counts").is_string() == compressed);
        const auto counts_of = [&](const nlohmann::json& counts) { return compressed ? rle_counts(counts.get<std::string>()) : counts.get<std::vector<long>>(); };
        const std::vector<int> source = dense(counts_of(seg.at("counts")), H, W);
        const std::vector<int> turned = dense(counts_of(out.at("segmentation").at("counts")), oh, ow);
        for (int y = 0; y < H; ++y) {
            for (int x = 0; x < W; ++x) {
                const Point q = pixel(o, x, y, W, H);
                CHECK(turned[static_cast<std::size_t>(q.y * ow + q.x)] == source[static_cast<std::size_t>(y * W + x)]);
            }
        }
    }
    if (in.contains("keypoints")) {
        // nose, left_eye, right_eye: the eyes trade places under reflections; 0,0,0 stays.
        const int from_of[3] = {0, mirrors(o) ? 2 : 1, mirrors(o) ? 1 : 2};
        const auto& k = in.at("keypoints");
        for (int i = 0; i < 3; ++i) {
            const int f = from_of[i];
            const double x = k[3 * f].get<double>(), y = k[3 * f + 1].get<double>(), v = k[3 * f + 2].get<double>();
            CHECK(out.at("keypoints")[3 * i + 2].get<double>() == v);
            const Point q = v == 0 && x == 0 && y == 0 ? Point{0, 0} : expected(o, {x, y}, W, H);
            CHECK(out.at("keypoints")[3 * i].get<double>() == doctest::Approx(q.x));
            CHECK(out.at("keypoints")[3 * i + 1].get<double>() == doctest::Approx(q.y));
        }
    }
}

int check_coco_outputs(const std::string& root, const std::string& out) {
    const nlohmann::json source = nlohmann::json::parse(coco_file);
    const nlohmann::json turned = nlohmann::json::parse(file_bytes(out + "/ann.json"));
    CHECK(turned.at("categories") == source.at("categories"));
    CHECK(turned.at("info") == source.at("info"));
    std::map<long, nlohmann::json> images;
    for (const auto& image : turned.at("images")) images[image.at("id").get<long>()] = image;
    std::set<long> annotation_ids;
    int checked = 0;
    for (const nlohmann::json& r : manifest_of(out + "/manifest.jsonl")) {
        if (r.at("status") != "ok") continue;
        const Orientation o = element_of(r);
        CAPTURE(r.dump());
        CHECK(r.at("labels") == "ann.json");
        const long id = r.at("image_id").get<long>();
        REQUIRE(images.count(id));
        const auto& image = images[id];
        CHECK(image.at("file_name") == r.at("file"));
        const std::string name = r.at("input").get<std::string>().substr(root.size() + 1);
        const nlohmann::json* src_image = nullptr;
        for (const auto& i : source.at("images")) {
            if (i.at("file_name") == name) src_image = &i;
        }
        REQUIRE(src_image);
        const int W = src_image->at("width"), H = src_image->at("height");
        CHECK(image.at("width") == (swaps(o) ? H : W));
        CHECK(image.at("height") == (swaps(o) ? W : H));
        CHECK(image.at("width") == r.at("width"));
        std::vector<nlohmann::json> ins, outs;
        for (const auto& a : source.at("annotations")) {
            if (a.at("image_id") == src_image->at("id")) ins.push_back(a);
        }
        for (const auto& a : turned.at("annotations")) {
            if (a.at("image_id") == id) outs.push_back(a);
        }
        REQUIRE(ins.size() == outs.size());
        for (std::size_t i = 0; i < ins.size(); ++i) {
            CHECK(annotation_ids.insert(outs[i].at("id").get<long>()).second);
            check_coco_annotation(ins[i], outs[i], o, W, H);
        }
        ++checked;
    }
    CHECK(turned.at("images").size() == static_cast<std::size_t>(checked));
    return checked;
}

}  // namespace

TEST_CASE("augment --labels coco: boxes, polygons, RLE both ways and keypoints turned with each image, one file out") {
    TempDir dir;
    const std::string root = dir.file("imgs"), out = dir.file("out");
    make_folders(root);
    write_png(root + "/p.png", 61, 37, 4);
    write_png(root + "/q.png", 45, 33, 5);
    write_bytes(dir.file("ann.json"), coco_file);
    SUBCASE("--ops all") {
        const auto result = run(exe + " augment " + quote(root) + " --device cpu -o " + quote(out) + " --labels coco=" + quote(dir.file("ann.json")));
        INFO(result.output);
        REQUIRE(result.status == 0);
        CHECK(check_coco_outputs(root, out) == 14);
    }
    SUBCASE("--random 2 --seed 5") {
        const auto result = run(exe + " augment " + quote(root) + " --device cpu -o " + quote(out) + " --random 2 --seed 5 --labels coco=" + quote(dir.file("ann.json")));
        INFO(result.output);
        REQUIRE(result.status == 0);
        CHECK(check_coco_outputs(root, out) == 4);
    }
}

namespace {

const char* voc_xml = "<annotation>\n\t<folder>VOC</folder>\n\t<filename>v.png</filename>\n\t<path>/data/v.png</path>\n\t<size>\n\t\t<width>61</width>\n\t\t"
                      "<height>37</height>\n\t\t<depth>3</depth>\n\t</size>\n\t<object>\n\t\t<name>dog</name>\n\t\t<bndbox>\n\t\t\t<xmin>3</xmin>\n\t\t\t"
                      "<ymin>5</ymin>\n\t\t\t<xmax>20</xmax>\n\t\t\t<ymax>37</ymax>\n\t\t</bndbox>\n\t\t<part>\n\t\t\t<name>head</name>\n\t\t\t<bndbox>\n\t\t\t\t"
                      "<xmin>1</xmin>\n\t\t\t\t<ymin>1</ymin>\n\t\t\t\t<xmax>61</xmax>\n\t\t\t\t<ymax>2</ymax>\n\t\t\t</bndbox>\n\t\t</part>\n\t</object>\n</annotation>\n";

double child_number(const tinyxml2::XMLElement* e, const char* name) { return std::stod(e->FirstChildElement(name)->GetText()); }

}  // namespace

TEST_CASE("augment --labels voc: 1-based boxes of objects and parts, size and file name, turned with each image") {
    TempDir dir;
    const std::string root = dir.file("VOC"), out = dir.file("out");
    make_folders(root + "/JPEGImages");
    make_folders(root + "/Annotations");
    write_png(root + "/JPEGImages/v.png", 61, 37, 6);
    write_png(root + "/JPEGImages/w.png", 45, 33, 7);  // no annotation: written with none
    write_bytes(root + "/Annotations/v.xml", voc_xml);
    const auto result = run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(out) + " --labels voc");
    INFO(result.output);
    REQUIRE(result.status == 0);
    int checked = 0;
    for (const nlohmann::json& r : manifest_of(out + "/manifest.jsonl")) {
        const Orientation o = element_of(r);
        CAPTURE(r.dump());
        const std::string file = r.at("file");
        const std::string stem = file.substr(11, file.find('.') - 11);  // JPEGImages/v_rot90.png
        CHECK(r.at("labels") == "Annotations/" + stem + ".xml");
        tinyxml2::XMLDocument doc;
        REQUIRE(doc.Parse(file_bytes(out + "/" + r.at("labels").get<std::string>()).c_str()) == tinyxml2::XML_SUCCESS);
        const auto* annotation = doc.FirstChildElement("annotation");
        CHECK(std::string(annotation->FirstChildElement("filename")->GetText()) == stem + ".png");
        const bool is_v = stem[0] == 'v';
        const int W = is_v ? 61 : 45, H = is_v ? 37 : 33;
        CHECK(child_number(annotation->FirstChildElement("size"), "width") == (swaps(o) ? H : W));
        CHECK(child_number(annotation->FirstChildElement("size"), "height") == (swaps(o) ? W : H));
        if (!is_v) {
            CHECK(annotation->FirstChildElement("object") == nullptr);
            ++checked;
            continue;
        }
        CHECK(std::string(annotation->FirstChildElement("path")->GetText()) == out + "/" + file);
        const struct {
            const tinyxml2::XMLElement* box;
            double x0, y0, x1, y1;
        } boxes[] = {{annotation->FirstChildElement("object")->FirstChildElement("bndbox"), 3, 5, 20, 37},
                     {annotation->FirstChildElement("object")->FirstChildElement("part")->FirstChildElement("bndbox"), 1, 1, 61, 2}};
        for (const auto& b : boxes) {
            // 1-based inclusive pixels: the formulas over [0, W + 1].
            const Point a = expected(o, {b.x0, b.y0}, W + 1, H + 1), c = expected(o, {b.x1, b.y1}, W + 1, H + 1);
            CHECK(child_number(b.box, "xmin") == std::min(a.x, c.x));
            CHECK(child_number(b.box, "ymin") == std::min(a.y, c.y));
            CHECK(child_number(b.box, "xmax") == std::max(a.x, c.x));
            CHECK(child_number(b.box, "ymax") == std::max(a.y, c.y));
        }
        ++checked;
    }
    CHECK(checked == 14);
}

namespace {

// Every file below `root`, relative, hidden ones (temporaries) included.
std::set<std::string> files_below(const std::string& root) {
    const auto listed = run("cd " + quote(root) + " && find . -type f | sort");
    std::set<std::string> files;
    for (const std::string& line : lines_of(listed.output)) files.insert(line.substr(2));
    return files;
}

// The bad sample's image stem `bad` has nothing below OUTDIR; every other sample's variants are there.
void check_failed_alone(const std::string& out, const std::string& bad, const std::string& good) {
    bool good_seen = false;
    for (const std::string& file : files_below(out)) {
        const std::string f = "/" + file;
        CAPTURE(f);
        CHECK(f.find("/" + bad + "_") == std::string::npos);
        CHECK(f.find("/." ) == std::string::npos);  // no temporary left
        if (f.find("/" + good + "_rot90") != std::string::npos) good_seen = true;
    }
    CHECK(good_seen);
}

}  // namespace

TEST_CASE("augment --labels: a bad label fails its own sample alone, named with its line, nothing of it written") {
    TempDir dir;
    const std::string root = dir.file("data"), out = dir.file("out");
    const int input_error = static_cast<int>(gpurotate::ErrorCode::input);
    make_yolo(root);
    const struct {
        const char* what;
        const char* text;
        const char* said;
    } cases[] = {
        {"a row that does not parse", "0 0.5 0.25 0.2 0.3 0.45 0.125 2 0.625 0.375 1 0 0 0\n0 0.5 abc 0.2 0.3 0.45 0.125 2 0.625 0.375 1 0 0 0\n", "line 2"},
        {"a value outside [0, 1]", "0 0.5 1.5 0.2 0.3 0.45 0.125 2 0.625 0.375 1 0 0 0\n", "line 1"},
        {"a keypoint count that is not kpt_shape's", "0 0.5 0.25 0.2 0.3 0.45 0.125 2 0.625 0.375 1\n", "line 1"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        write_bytes(root + "/labels/train/a.txt", c.text);
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu --overwrite -o " + quote(out) + " --labels yolo --masks " + quote(root + "/masks"));
        CHECK(result.status == input_error);
        CHECK(result.output.find(root + "/labels/train/a.txt") != std::string::npos);
        CHECK(result.output.find(c.said) != std::string::npos);
        check_failed_alone(out, "a", "b");
        bool recorded = false;
        for (const auto& r : manifest_of(out + "/manifest.jsonl")) {
            if (r.at("status") == "failed") recorded = recorded || r.at("error").get<std::string>().find("a.txt") != std::string::npos;
        }
        CHECK(recorded);
    }
    SUBCASE("a missing mask fails its sample alone") {
        write_bytes(root + "/labels/train/a.txt", "");
        REQUIRE(std::remove((root + "/masks/train/a.png").c_str()) == 0);
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu --overwrite -o " + quote(out) + " --labels yolo --masks " + quote(root + "/masks"));
        CHECK(result.status == input_error);
        CHECK(result.output.find("no mask") != std::string::npos);
        check_failed_alone(out, "a", "b");
    }
    SUBCASE("--jpeg-edge trim would leave labels that no longer match: refused") {
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(out) + " --labels yolo --jpeg-edge trim --masks " + quote(root + "/masks"));
        CHECK(result.status == static_cast<int>(gpurotate::ErrorCode::usage));
        CHECK(result.output.find("no longer match") != std::string::npos);
    }
}

TEST_CASE("augment --labels coco and voc: an annotation of a missing image, and a box that does not parse, are input errors named by id and line") {
    TempDir dir;
    const int input_error = static_cast<int>(gpurotate::ErrorCode::input);
    SUBCASE("coco") {
        const std::string root = dir.file("imgs"), out = dir.file("out");
        make_folders(root);
        write_png(root + "/p.png", 61, 37, 4);
        write_png(root + "/q.png", 45, 33, 5);
        nlohmann::json file = nlohmann::json::parse(coco_file);
        file["annotations"].push_back({{"id", 77}, {"image_id", 99}, {"category_id", 2}, {"bbox", {1, 1, 2, 2}}, {"area", 4}});
        file["annotations"].push_back({{"id", 78}, {"image_id", 11}, {"category_id", 2}, {"bbox", {1, 1, 2}}, {"area", 4}});  // q's: 3 numbers
        write_bytes(dir.file("ann.json"), file.dump());
        const auto result = run(exe + " augment " + quote(root) + " --device cpu -o " + quote(out) + " --labels coco=" + quote(dir.file("ann.json")));
        CHECK(result.status == input_error);
        CHECK(result.output.find("annotation id 77") != std::string::npos);
        CHECK(result.output.find("annotation id 78") != std::string::npos);
        check_failed_alone(out, "q", "p");
        const nlohmann::json turned = nlohmann::json::parse(file_bytes(out + "/ann.json"));
        CHECK(turned.at("images").size() == 7);  // p's variants only
        bool recorded = false;
        for (const auto& r : manifest_of(out + "/manifest.jsonl")) {
            if (r.at("status") == "failed") recorded = recorded || r.at("error").get<std::string>().find("annotation id 77") != std::string::npos;
        }
        CHECK(recorded);
    }
    SUBCASE("voc") {
        const std::string root = dir.file("VOC"), out = dir.file("out");
        make_folders(root + "/JPEGImages");
        make_folders(root + "/Annotations");
        write_png(root + "/JPEGImages/v.png", 61, 37, 6);
        write_png(root + "/JPEGImages/w.png", 45, 33, 7);
        std::string bad = voc_xml;
        bad.replace(bad.find("<xmin>3</xmin>"), 14, "<xmin>abc</xmin>");
        write_bytes(root + "/Annotations/v.xml", bad);
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(out) + " --labels voc");
        CHECK(result.status == input_error);
        CHECK(result.output.find(root + "/Annotations/v.xml") != std::string::npos);
        CHECK(result.output.find("line 13") != std::string::npos);
        check_failed_alone(out, "v", "w");
    }
}

TEST_CASE("augment --labels: one file for two variants, a resumed run without labels, a dangling label, shards, mask folders spelled otherwise") {
    TempDir dir;
    const std::string root = dir.file("data"), out = dir.file("out");
    const YoloDataset d = make_yolo(root);
    const std::string masks = " --masks " + quote(root + "/masks");
    SUBCASE("a.png and a.jpg would share labels/train/a_rot90.txt: refused before any work") {
        REQUIRE(run("cp " + quote(root + "/images/train/a.png") + " " + quote(root + "/images/train/a.bmp")).status == 0);
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu --ops rot90 -o " + quote(out) + " --labels yolo" + masks);
        CHECK(result.status == static_cast<int>(gpurotate::ErrorCode::usage));
        CHECK(result.output.find("labels/train/a_rot90.txt") != std::string::npos);
        CHECK_FALSE(file_exists(out + "/manifest.jsonl"));
    }
    SUBCASE("--resume after a run without --labels makes each variant again with its label and mask") {
        REQUIRE(run(exe + " augment " + quote(root + "/images") + " -r -q --device cpu --ops rot90 --name {stem}_{op}.{ext} -o " + quote(out + "/images")).status == 0);
        REQUIRE(run(exe + " augment " + quote(root) + " -r -q --device cpu --ops rot90 -o " + quote(out) + " --labels yolo" + masks).status ==
                static_cast<int>(gpurotate::ErrorCode::output));  // the images exist, and no --resume
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu --ops rot90 -o " + quote(out) + " --labels yolo --resume" + masks);
        INFO(result.output);
        CHECK(result.status == 0);
        for (const char* stem : {"a", "b", "c"}) {
            CHECK(file_exists(out + "/labels/train/" + stem + "_rot90.txt"));
            CHECK(file_exists(out + "/masks/train/" + stem + "_rot90.png"));
        }
        check_yolo_rows(d.labels.at("a"), file_bytes(out + "/labels/train/a_rot90.txt"), Orientation::rot90);
    }
    SUBCASE("a label file that is a link to nothing fails its sample, not a background image") {
        REQUIRE(std::remove((root + "/labels/train/b.txt").c_str()) == 0);
        REQUIRE(::symlink("/nonexistent/b.txt", (root + "/labels/train/b.txt").c_str()) == 0);
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu --ops rot90 -o " + quote(out) + " --labels yolo" + masks);
        CHECK(result.status == static_cast<int>(gpurotate::ErrorCode::input));
        CHECK(result.output.find("b.txt' is a symbolic link to nothing") != std::string::npos);
        CHECK_FALSE(file_exists(out + "/images/train/b_rot90.png"));
        CHECK(file_exists(out + "/labels/train/a_rot90.txt"));
    }
    SUBCASE("shards write one data.yaml between them, and a mask folder spelled with a slash or through a link is not read as images") {
        REQUIRE(::symlink(root.c_str(), dir.file("link").c_str()) == 0);
        for (const char* shard : {"0/2", "1/2"}) {
            const auto result = run(exe + " augment " + quote(root) + " -r -q --device cpu --ops rot90 -o " + quote(out) + " --labels yolo --shard " + shard +
                                    " --manifest " + quote(out + "/m" + std::string(1, shard[0]) + ".jsonl") + " --masks " + quote(dir.file("link") + "/masks/"));
            INFO(result.output);
            CHECK(result.status == 0);
        }
        CHECK(file_exists(out + "/data.yaml"));
        CHECK(files_below(out).count("masks/masks/train/a_rot90.png") == 0);
        CHECK(file_exists(out + "/labels/train/a_rot90.txt"));
        CHECK(file_exists(out + "/labels/train/b_rot90.txt"));
    }
    SUBCASE("a mask of another size fails its sample as an input error; a missing mask folder and --auto-orient are refused") {
        write_bytes(root + "/masks/train/b.png", palette_png(44, 33));
        const auto result = run(exe + " augment " + quote(root) + " -r --device cpu --ops rot90 -o " + quote(out) + " --labels yolo" + masks);
        CHECK(result.status == static_cast<int>(gpurotate::ErrorCode::input));
        CHECK(result.output.find("must have its image's size") != std::string::npos);
        check_failed_alone(out, "b", "a");
        CHECK(run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(dir.file("o2")) + " --masks " + quote(root + "/nomasks")).status ==
              static_cast<int>(gpurotate::ErrorCode::usage));
        CHECK(run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(dir.file("o3")) + " --labels yolo --auto-orient" + masks).status ==
              static_cast<int>(gpurotate::ErrorCode::usage));
    }
}
