// COCO labels turned with their images, against references written out here: the point formula of each
// element, and for masks a plain loop that moves every pixel of a dense mask where that element sends it.
// pycocotools' strings are derived by hand from its rleToString (the derivation beside each).

#include "labels/coco_labels.hpp"
#include "labels/coco_rle.hpp"
#include "test_support.hpp"

#include <gpurotate/error.hpp>

#include "label_reference.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

using gpurotate::Orientation;
using namespace gpurotate::labels;
using Json = nlohmann::ordered_json;

namespace {

constexpr std::int64_t W = 61, H = 37;  // odd and not square, so a missed swap or an off-by-one shows

bool swaps(Orientation o) {
    return o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse;
}
bool reflects_by_name(Orientation o) {
    return o == Orientation::flip_h || o == Orientation::flip_v || o == Orientation::transpose || o == Orientation::transverse;
}

// A point of the image spanning [0, W] x [0, H], where each element sends it.
std::pair<double, double> expected_point(Orientation o, double x, double y) {
    return label_reference::point(o, x, y, W, H);
}

// Pixel (x, y) of 0..W-1 x 0..H-1, where each element sends it.
std::pair<std::int64_t, std::int64_t> expected_pixel(Orientation o, std::int64_t x, std::int64_t y) {
    switch (o) {
        case Orientation::identity: return {x, y};
        case Orientation::rot90: return {H - 1 - y, x};
        case Orientation::rot180: return {W - 1 - x, H - 1 - y};
        case Orientation::rot270: return {y, W - 1 - x};
        case Orientation::flip_h: return {W - 1 - x, y};
        case Orientation::flip_v: return {x, H - 1 - y};
        case Orientation::transpose: return {y, x};
        case Orientation::transverse: return {H - 1 - y, W - 1 - x};
    }
    return {0, 0};
}

// A dense mask, column-major (pixel (x, y) at x * height + y), of blobs and noise.
std::vector<std::uint8_t> random_mask(std::uint32_t seed) {
    std::mt19937 random(seed);
    std::vector<std::uint8_t> mask(static_cast<std::size_t>(W * H));
    for (std::int64_t x = 0; x < W; ++x) {
        for (std::int64_t y = 0; y < H; ++y) {
            const bool blob = (x - 20) * (x - 20) + (y - 15) * (y - 15) < 120 || (x > 45 && y > 30);
            mask[static_cast<std::size_t>(x * H + y)] = blob != (random() % 13 == 0) ? 1 : 0;
        }
    }
    return mask;
}

// The mask each element makes of `mask`: every source pixel moved to where the element sends it.
std::vector<std::uint8_t> reference_turn(const std::vector<std::uint8_t>& mask, Orientation o) {
    const std::int64_t out_height = swaps(o) ? W : H;
    std::vector<std::uint8_t> out(mask.size(), 2);  // 2: never written, which the comparison would catch
    for (std::int64_t x = 0; x < W; ++x) {
        for (std::int64_t y = 0; y < H; ++y) {
            const auto [tx, ty] = expected_pixel(o, x, y);
            out[static_cast<std::size_t>(tx * out_height + ty)] = mask[static_cast<std::size_t>(x * H + y)];
        }
    }
    return out;
}

// Runs of a column-major mask, counted here rather than by the code under test.
std::vector<std::uint64_t> reference_runs(const std::vector<std::uint8_t>& mask) {
    std::vector<std::uint64_t> runs{0};
    std::uint8_t value = 0;
    for (const std::uint8_t m : mask) {
        if (m != value) {
            runs.push_back(0);
            value = m;
        }
        ++runs.back();
    }
    return runs;
}

std::vector<std::uint8_t> dense(const std::vector<std::uint64_t>& runs, std::size_t pixels) {
    std::vector<std::uint8_t> mask;
    std::uint8_t value = 0;
    for (const std::uint64_t r : runs) {
        mask.insert(mask.end(), static_cast<std::size_t>(r), value);
        value ^= 1;
    }
    CHECK(mask.size() == pixels);
    return mask;
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

CocoLabels load_text(const test_support::TempDir& dir, const std::string& text, const std::string& name = "labels.json") {
    write_file(dir.file(name), text);
    return CocoLabels::load(dir.file(name));
}

std::string element_file(Orientation o) { return "e_" + std::string(gpurotate::name(o)) + ".png"; }

// One variant per element of the image `source_id`, new ids 100, 101, ...
std::vector<CocoLabels::Variant> every_element(std::int64_t source_id) {
    std::vector<CocoLabels::Variant> variants;
    for (Orientation o : gpurotate::all_orientations) {
        variants.push_back({source_id, o, element_file(o), 100 + static_cast<std::int64_t>(variants.size())});
    }
    return variants;
}

const char* const keypoint_names[] = {"nose", "left_eye", "right_eye", "left_ankle", "right_ankle"};
// The source keypoint each output keypoint comes from under a reflection: the eyes and ankles trade.
constexpr int reflected_source[] = {0, 2, 1, 4, 3};

}  // namespace

TEST_CASE("coco rle: pycocotools strings, derived by hand from rleToString, decoded and written back") {
    // [2,3,1,1]: 2 -> '2', 3 -> '3', 1 -> '1' (the third count is written as is), then 1 - counts[1] = -2:
    // low 5 bits 11110 (sign bit set), nothing left but sign bits -> one character, 30 + 48 = 'N'.
    // [10,50,10,10]: 10 -> ':'; 50 = 1*32 + 18, 18 has the sign bit, so another character follows: 18|32 + 48 =
    // 'b', then 1 -> '1'; 10 -> ':'; 10 - 50 = -40: low bits 11000 -> 24|32 + 48 = 'h', rest -2 -> 30 + 48 = 'N'.
    // [0,5,100,3,95]: '0', '5', 100 = 3*32 + 4 -> 'T' then '3', 3 - 5 = -2 -> 'N', 95 - 100 = -5 -> 27 + 48 = 'K'.
    const std::pair<const char*, std::vector<std::uint64_t>> known[] = {
        {"231N", {2, 3, 1, 1}},
        {":b1:hN", {10, 50, 10, 10}},
        {"05T3NK", {0, 5, 100, 3, 95}},
        {"", {}},
    };
    for (const auto& entry : known) {  // not a structured binding: clang 14's CAPTURE cannot name one
        const char* const text = entry.first;
        const std::vector<std::uint64_t>& counts = entry.second;
        CAPTURE(text);
        const auto decoded = decode_rle_string(text);
        REQUIRE(decoded.has_value());
        CHECK(*decoded == counts);
        CHECK(encode_rle_string(counts) == text);
        CHECK(encode_rle_string(*decoded) == text);
    }
    for (const char* bad : {"p", "b", "N", "0 ", "2N\x7f"}) {  // past 'o'; ends asking for more; negative first count
        CAPTURE(bad);
        CHECK_FALSE(decode_rle_string(bad).has_value());
    }
    CHECK_FALSE(decode_rle_string("12N").has_value());  // the third count is written as is: -2, a negative run
}

TEST_CASE("coco rle: strings pycocotools wrote read back as masks of their size, and are written back the same") {
    // A 3x3 square at x, y = 1..3 of a 10x10 mask ("size": [10, 10]), as a public test fixture has it.
    const auto square = decode_rle_string(";37000k1");
    REQUIRE(square.has_value());
    std::vector<std::uint8_t> expected(100, 0);
    for (int x = 1; x <= 3; ++x) {
        for (int y = 1; y <= 3; ++y) expected[static_cast<std::size_t>(x * 10 + y)] = 1;
    }
    CHECK(dense(*square, 100) == expected);
    CHECK(encode_rle_string(*square) == ";37000k1");
    // A blob of a 600x500 image (another public fixture): its runs total 600 * 500, and it comes back the same.
    const char* blob = "_lm26^b09I4L4M2M3N2O1N2N2O1N101N101O0O100000O1O100N2K6L3M3N2N2O2N1O3L5L3N2M`bb5";
    const auto runs = decode_rle_string(blob);
    REQUIRE(runs.has_value());
    CHECK(run_total(*runs) == 600 * 500);
    CHECK(runs->size() == 71);
    CHECK(encode_rle_string(*runs) == blob);
}

TEST_CASE("coco rle: random runs survive the string both ways") {
    std::mt19937 random(47);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::uint64_t> counts(random() % 40);
        for (auto& c : counts) c = random() % (trial % 2 ? 5 : 100000);
        const std::string text = encode_rle_string(counts);
        const auto back = decode_rle_string(text);
        REQUIRE(back.has_value());
        CHECK(*back == counts);
        CHECK(encode_rle_string(*back) == text);
    }
}

TEST_CASE("coco rle: every element turns a 61x37 mask as the pixel loop does") {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        const std::vector<std::uint8_t> mask = random_mask(seed);
        const std::vector<std::uint64_t> runs = reference_runs(mask);
        CHECK(runs_from_mask(mask) == runs);
        CHECK(mask_from_runs(runs, {W, H}) == mask);
        for (Orientation o : gpurotate::all_orientations) {
            CAPTURE(gpurotate::name(o));
            CHECK(turn_runs(runs, {W, H}, o) == reference_runs(reference_turn(mask, o)));
        }
    }
    // A mask that starts with a 1: the runs start with an empty run of 0s, in and out.
    std::vector<std::uint8_t> corner(static_cast<std::size_t>(W * H), 0);
    corner[0] = 1;
    CHECK(reference_runs(corner).front() == 0);
    CHECK(turn_runs(reference_runs(corner), {W, H}, Orientation::identity) == reference_runs(corner));
    CHECK(turn_runs(reference_runs(corner), {W, H}, Orientation::rot180).back() == 1);
}

namespace {

// One image of 61x37 with a box and polygon, a pose, and the same mask as a compressed and as a list RLE.
Json sample_document(const std::vector<std::uint8_t>& mask) {
    const std::vector<std::uint64_t> runs = reference_runs(mask);
    Json doc = Json::parse(R"({
      "info": {"description": "test"},
      "images": [{"license": 3, "file_name": "train/a.png", "coco_url": "u", "height": 37, "width": 61, "id": 7}],
      "annotations": [
        {"id": 10, "image_id": 7, "category_id": 1, "bbox": [3.5, 4, 20.25, 30], "area": 123.5, "iscrowd": 0,
         "segmentation": [[1, 2, 30.5, 2, 30.5, 20.75, 1, 20.75], [0, 0, 61, 0, 61, 37]], "note": "kept"},
        {"id": 20, "image_id": 7, "category_id": 2, "bbox": [10, 5, 30, 31], "area": 930, "num_keypoints": 4,
         "keypoints": [30, 10, 2, 25.5, 8, 2, 35, 8.25, 1, 0, 0, 0, 40, 36, 2]},
        {"id": 30, "image_id": 7, "category_id": 1, "iscrowd": 1, "area": 1, "bbox": [0, 0, 61, 37]},
        {"id": 40, "image_id": 7, "category_id": 1, "iscrowd": 1, "area": 2, "bbox": [0, 0, 61, 37]}
      ],
      "categories": [{"id": 1, "name": "blob"},
                     {"id": 2, "name": "person", "keypoints": ["nose", "left_eye", "right_eye", "left_ankle", "right_ankle"]}]
    })");
    doc["annotations"][2]["segmentation"] = {{"size", {H, W}}, {"counts", encode_rle_string(runs)}};
    doc["annotations"][3]["segmentation"] = {{"size", {H, W}}, {"counts", runs}};
    return doc;
}

void check_point(const Json& x, const Json& y, Orientation o, double sx, double sy) {
    const auto [ex, ey] = expected_point(o, sx, sy);
    CHECK(x.get<double>() == ex);  // quarters: exact in binary too
    CHECK(y.get<double>() == ey);
}

}  // namespace

TEST_CASE("coco labels: every element turns boxes, polygons, keypoints and both RLE forms of a 61x37 image") {
    test_support::TempDir dir;
    const std::vector<std::uint8_t> mask = random_mask(9);
    const Json source = sample_document(mask);
    const CocoLabels labels = load_text(dir, source.dump());
    const CocoLabels::Image* image = labels.find("train/a.png");
    REQUIRE(image != nullptr);
    CHECK(image->error == "");
    CHECK(image->annotations == 4);
    CHECK(labels.unattached_errors().empty());

    const Json out = Json::parse(labels.turned_json(every_element(7)));
    // Top-level members in their order, "info" and "categories" as they were.
    std::vector<std::string> keys;
    for (auto m = out.begin(); m != out.end(); ++m) keys.push_back(m.key());
    CHECK(keys == std::vector<std::string>{"info", "images", "annotations", "categories"});
    CHECK(out["info"] == source["info"]);
    CHECK(out["categories"] == source["categories"]);
    REQUIRE(out["images"].size() == 8);
    REQUIRE(out["annotations"].size() == 32);

    for (std::size_t e = 0; e < 8; ++e) {
        const Orientation o = gpurotate::all_orientations[e];
        CAPTURE(gpurotate::name(o));
        const std::int64_t out_w = swaps(o) ? H : W, out_h = swaps(o) ? W : H;
        const Json& entry = out["images"][e];
        CHECK(entry.dump() == Json{{"license", 3}, {"file_name", element_file(o)}, {"coco_url", "u"}, {"height", out_h},
                                   {"width", out_w}, {"id", 100 + static_cast<std::int64_t>(e)}}.dump());
        for (std::size_t a = 0; a < 4; ++a) {
            const Json& turned = out["annotations"][4 * e + a];
            const Json& was = source["annotations"][a];
            CHECK(turned["id"] == 4 * e + a + 1);  // renumbered in output order
            CHECK(turned["image_id"] == 100 + e);
            CHECK(turned["area"] == was["area"]);
            CHECK(turned["category_id"] == was["category_id"]);
            CHECK(turned.size() == was.size());
            // bbox: both corners mapped, the top-left one kept; w and h as written, swapped with the axes.
            const Json& b = was["bbox"];
            const double bx = b[0].get<double>(), by = b[1].get<double>(), bw = b[2].get<double>(), bh = b[3].get<double>();
            const auto [p, q] = expected_point(o, bx, by);
            const auto [r, s] = expected_point(o, bx + bw, by + bh);
            CHECK(turned["bbox"][0].get<double>() == std::min(p, r));
            CHECK(turned["bbox"][1].get<double>() == std::min(q, s));
            CHECK(turned["bbox"][2].dump() == (swaps(o) ? b[3] : b[2]).dump());
            CHECK(turned["bbox"][3].dump() == (swaps(o) ? b[2] : b[3]).dump());
        }
        // Integers stay integers: the pose's box is all integers, the first box's y side (4, 30) too.
        for (const auto& v : out["annotations"][4 * e + 1]["bbox"]) CHECK(v.is_number_integer());
        CHECK(out["annotations"][4 * e]["bbox"][swaps(o) ? 0 : 1].is_number_integer());
        CHECK(out["annotations"][4 * e]["bbox"][swaps(o) ? 1 : 0].is_number_float());
        CHECK(out["annotations"][4 * e]["note"] == "kept");

        const Json& polygons = out["annotations"][4 * e]["segmentation"];
        const Json& polygons_was = source["annotations"][0]["segmentation"];
        REQUIRE(polygons.size() == 2);
        for (std::size_t k = 0; k < 2; ++k) {
            REQUIRE(polygons[k].size() == polygons_was[k].size());
            for (std::size_t i = 0; i < polygons[k].size(); i += 2) {
                check_point(polygons[k][i], polygons[k][i + 1], o, polygons_was[k][i].get<double>(), polygons_was[k][i + 1].get<double>());
                CHECK(polygons[k][i].is_number_integer() == polygons_was[k][swaps(o) ? i + 1 : i].is_number_integer());
            }
        }

        const Json& keypoints = out["annotations"][4 * e + 1]["keypoints"];
        const Json& keypoints_was = source["annotations"][1]["keypoints"];
        REQUIRE(keypoints.size() == 15);
        for (std::size_t i = 0; i < 5; ++i) {
            CAPTURE(keypoint_names[i]);
            const std::size_t from = 3 * static_cast<std::size_t>(reflects_by_name(o) ? reflected_source[i] : static_cast<int>(i));
            CHECK(keypoints[3 * i + 2] == keypoints_was[from + 2]);  // visibility travels with its point
            if (keypoints_was[from + 2] == 0) {  // the 0,0,0 of an unlabelled keypoint stays
                CHECK(keypoints[3 * i] == 0);
                CHECK(keypoints[3 * i + 1] == 0);
            } else {
                check_point(keypoints[3 * i], keypoints[3 * i + 1], o, keypoints_was[from].get<double>(), keypoints_was[from + 1].get<double>());
            }
        }
        CHECK(out["annotations"][4 * e + 1]["num_keypoints"] == 4);

        const std::vector<std::uint8_t> expected_mask = reference_turn(mask, o);
        const Json& compressed = out["annotations"][4 * e + 2]["segmentation"];
        const Json& listed = out["annotations"][4 * e + 3]["segmentation"];
        CHECK(compressed["size"] == Json{out_h, out_w});
        CHECK(listed["size"] == Json{out_h, out_w});
        REQUIRE(compressed["counts"].is_string());
        REQUIRE(listed["counts"].is_array());
        const auto decoded = decode_rle_string(compressed["counts"].get<std::string>());
        REQUIRE(decoded.has_value());
        CHECK(dense(*decoded, mask.size()) == expected_mask);
        CHECK(dense(listed["counts"].get<std::vector<std::uint64_t>>(), mask.size()) == expected_mask);
    }
}

TEST_CASE("coco labels: decimals keep their short text, and four rot90s give back every value") {
    test_support::TempDir dir;
    const std::string text = R"({"images": [{"id": 1, "file_name": "a.jpg", "width": 1000, "height": 800}],
      "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [0.01, 12.34, 5.5, 7], "area": 38.5,
                       "segmentation": [[0.01, 12.34, 100.1, 0.3, 999.99, 799.9, 17, 0.07]],
                       "keypoints": [0.01, 12.34, 2, 0, 0, 0]}]})";
    const CocoLabels labels = load_text(dir, text);
    const std::string flipped = labels.turned_json({{1, Orientation::flip_h, "a.jpg", 1}});
    CHECK(flipped.find("[994.49,12.34,5.5,7]") != std::string::npos);  // the left edge: 1000 - (0.01 + 5.5)
    CHECK(flipped.find("[999.99,12.34,899.9,0.3,0.01,799.9,983,0.07]") != std::string::npos);

    const Json original = Json::parse(text);
    std::string current = text;
    for (int turn = 0; turn < 4; ++turn) {
        current = load_text(dir, current, "turn" + std::to_string(turn) + ".json").turned_json({{1, Orientation::rot90, "a.jpg", 1}});
    }
    const Json back = Json::parse(current);
    CHECK(back["images"][0]["width"] == 1000);
    CHECK(back["images"][0]["height"] == 800);
    const Json& a = back["annotations"][0];
    const Json& b = original["annotations"][0];
    for (const char* key : {"bbox", "segmentation", "keypoints", "area"}) {
        CAPTURE(key);
        CHECK(a[key] == b[key]);
        CHECK(a[key].dump() == b[key].dump());  // the same text: 12.34 stays 12.34, 7 stays 7
    }
}

TEST_CASE("coco labels: the output has one line per image and per annotation") {
    test_support::TempDir dir;
    const CocoLabels labels = load_text(dir, sample_document(random_mask(4)).dump());
    const std::string text = labels.turned_json(every_element(7));
    std::size_t lines = 0;
    for (const char c : text) lines += c == '\n' ? 1 : 0;
    // "{", info, "images": [, 8 images, ], "annotations": [, 32 annotations, ], "categories": [, 2, ], "}"
    CHECK(lines == 1 + 1 + 1 + 8 + 1 + 1 + 32 + 1 + 1 + 2 + 1 + 1);
    CHECK(text.back() == '\n');
    CHECK(text.compare(0, 2, "{\n") == 0);
}

TEST_CASE("coco labels: an image entry is found by its path, or by the input's file name where one entry has it") {
    test_support::TempDir dir;
    const CocoLabels labels = load_text(dir, R"({"images": [
        {"id": 1, "file_name": "train/a.jpg", "width": 4, "height": 3},
        {"id": 2, "file_name": "b.jpg", "width": 4, "height": 3},
        {"id": 3, "file_name": "c.jpg", "width": 4, "height": 3},
        {"id": 4, "file_name": "c.jpg", "width": 4, "height": 3}]})");
    REQUIRE(labels.find("train/a.jpg") != nullptr);
    CHECK(labels.find("train/a.jpg")->id == 1);
    CHECK(labels.find("train/a.jpg")->size.width == 4);
    CHECK(labels.find("val/a.jpg") == nullptr);  // another folder's a.jpg: the entry names its folder
    CHECK(labels.find("a.jpg") == nullptr);
    CHECK(labels.find("b.jpg")->id == 2);
    CHECK(labels.find("sub/b.jpg")->id == 2);
    CHECK(labels.find("c.jpg") == nullptr);  // two entries are named c.jpg
    CHECK(labels.find("z/c.jpg") == nullptr);
    CHECK(labels.find("d.jpg") == nullptr);
    // No "annotations" at all: an empty list goes out after the images.
    const Json out = Json::parse(labels.turned_json({{2, Orientation::rot90, "b_rot90.jpg", 1}}));
    CHECK(out["annotations"] == Json::array());
    CHECK(out["images"][0]["width"] == 3);
}

TEST_CASE("coco labels: bad files and bad annotations, each named") {
    test_support::TempDir dir;
    const auto load_error = [&](const std::string& text) -> std::string {
        try {
            load_text(dir, text, "bad.json");
        } catch (const gpurotate::Error& e) {
            CHECK(e.code() == gpurotate::ErrorCode::input);
            return e.what();
        }
        return "";
    };
    const std::string path = dir.file("bad.json");
    CHECK(load_error("{\"images\": [").find("'" + path + "' is not JSON") == 0);
    // fuzz_labels' finding (tests/fuzz/regressions/fuzz_labels-number-overflow): a number past a double's range
    // is nlohmann's out_of_range, not a parse_error; it escaped as an unnamed failure.
    CHECK(load_error("666666e666666666").find("'" + path + "' is not JSON") == 0);
    CHECK(load_error("{\"images\": [{\"id\": 1, \"width\": 1e400}]}").find("'" + path + "' is not JSON") == 0);
    CHECK(load_error("{\"annotations\": []}") == "'" + path + "' has no \"images\" list");
    CHECK(load_error("[1]").find("'" + path + "'") == 0);
    CHECK(load_error(R"({"images": [{"id": 1, "file_name": "a", "width": 0, "height": 3}]})").find("'" + path + "' images[0]") == 0);
    CHECK(load_error(R"({"images": [{"id": 1, "file_name": "a", "width": 2, "height": 3}, {"id": 1, "file_name": "b", "width": 2, "height": 3}]})")
              .find("comes twice") != std::string::npos);
    CHECK_THROWS_AS(CocoLabels::load(dir.file("missing.json")), gpurotate::Error);

    std::string images;
    for (int i = 1; i <= 9; ++i) {
        images += std::string(i > 1 ? "," : "") + R"({"id": )" + std::to_string(i) + R"(, "file_name": "i)" + std::to_string(i) +
                  R"(.png", "width": 61, "height": 37})";
    }
    const CocoLabels labels = load_text(dir, R"({"images": [)" + images + R"(],
      "categories": [{"id": 2, "name": "person", "keypoints": ["nose", "left_eye", "right_eye"]}],
      "annotations": [
        {"id": 5, "image_id": 1, "bbox": [1, 2, 3]},
        {"id": 6, "image_id": 2, "segmentation": [[1, 2, 3, 4, 5, 6, 7]]},
        {"id": 7, "image_id": 3, "segmentation": {"size": [61, 37], "counts": [2257]}},
        {"id": 8, "image_id": 4, "category_id": 2, "keypoints": [1, 2, 2, 3, 4, 2]},
        {"id": 9, "image_id": 99, "bbox": [1, 2, 3, 4]},
        {"id": 11, "image_id": 5, "bbox": [1, 2, -3, 4]},
        {"id": 12, "image_id": 6, "segmentation": {"size": [37, 61], "counts": "231N"}},
        {"id": 13, "image_id": 7, "keypoints": [1, 2, 2, 3]},
        {"id": 14, "image_id": 8, "bbox": [1, 2, 3, 4]},
        {"id": 15, "image_id": 8, "segmentation": [[1, 2, 3, 4]]},
        {"id": 16, "image_id": 8, "bbox": ["1", 2, 3, 4]},
        {"id": 17, "image_id": 9, "segmentation": {"size": [37, 61], "counts": [2257]}, "bbox": [0, 0, 61, 37]},
        {"image_id": 9}
      ]})",
                                         "annotations.json");
    const std::string file = "'" + dir.file("annotations.json") + "' ";
    const auto error_of = [&](const char* name) { return labels.find(name)->error; };
    CHECK(error_of("i1.png").find(file + "annotation id 5: bbox") == 0);
    CHECK(error_of("i2.png").find(file + "annotation id 6: segmentation polygon") == 0);
    CHECK(error_of("i3.png").find(file + "annotation id 7: segmentation RLE \"size\" [61,37]") == 0);
    CHECK(error_of("i4.png") == file + "annotation id 8: keypoints has 2 points, its category names 3");
    CHECK(error_of("i5.png") == file + "annotation id 11: bbox has a negative width or height");
    CHECK(error_of("i6.png") == file + "annotation id 12: segmentation RLE counts total 7, not the image's 2257 pixels");
    CHECK(error_of("i7.png").find(file + "annotation id 13: keypoints") == 0);
    CHECK(error_of("i8.png").find(file + "annotation id 15: segmentation polygon") == 0);  // the first bad one
    CHECK(labels.find("i8.png")->annotations == 3);
    CHECK(error_of("i9.png") == "");  // the annotation without an id still belongs to its image
    CHECK(labels.find("i9.png")->annotations == 2);
    REQUIRE(labels.unattached_errors().size() == 1);
    CHECK(labels.unattached_errors()[0] == file + "annotation id 9: image_id 99 is not in \"images\"");
    // A bad image is not turned; a good one is.
    CHECK_THROWS_AS(labels.turned_json({{1, Orientation::rot90, "x.png", 1}}), gpurotate::Error);
    CHECK(Json::parse(labels.turned_json({{9, Orientation::rot90, "x.png", 1}}))["annotations"].size() == 2);
}
