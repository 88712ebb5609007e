// YOLO label files turned with their images: every row kind under every element against the per-element
// formulas written out here, four rot90s giving back the bytes, and each error naming its file and line.

#include "labels/yolo_labels.hpp"

#include <gpurotate/error.hpp>

#include "label_reference.hpp"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using gpurotate::Orientation;
using namespace gpurotate::labels;

namespace {

// Where (x, y) of the unit square goes, per element (not derived from orientation.hpp).
std::pair<double, double> expected_point(Orientation o, double x, double y) {
    return label_reference::point(o, x, y, 1, 1);
}

bool swaps(Orientation o) {
    return o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse;
}
bool mirrors(Orientation o) {
    return o == Orientation::flip_h || o == Orientation::flip_v || o == Orientation::transpose || o == Orientation::transverse;
}

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

using Points = std::vector<std::pair<double, double>>;

// The points of a row's values from index `first` on, `stride` values per point.
Points points_of(const std::vector<std::string>& w, std::size_t first, std::size_t count, std::size_t stride = 2) {
    Points p;
    for (std::size_t i = 0; i < count; ++i) p.emplace_back(std::stod(w[first + i * stride]), std::stod(w[first + i * stride + 1]));
    return p;
}

void check_points(const Points& got, const Points& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i].first == doctest::Approx(want[i].first).epsilon(1e-12));
        CHECK(got[i].second == doctest::Approx(want[i].second).epsilon(1e-12));
    }
}

double signed_area(const Points& p) {  // the shoelace formula
    double a = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const auto& [x0, y0] = p[i];
        const auto& [x1, y1] = p[(i + 1) % p.size()];
        a += x0 * y1 - x1 * y0;
    }
    return a / 2;
}

std::string turn(const std::string& text, Orientation o, const YoloSchema& schema = {}) { return turn_yolo_labels(text, o, schema, "labels/a.txt"); }

std::string error_of(const std::string& text, Orientation o, const YoloSchema& schema = {}) {
    try {
        turn(text, o, schema);
    } catch (const gpurotate::Error& e) {
        CHECK(e.code() == gpurotate::ErrorCode::input);
        return e.what();
    }
    return "(no error)";
}

// A data.yaml written to a temporary file, removed after.
struct YamlFile {
    explicit YamlFile(const std::string& text) {
        static int count = 0;
        path = (std::filesystem::temp_directory_path() / ("gpurotate_test_data_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + ".yaml")).string();
        std::ofstream(path, std::ios::binary) << text;
    }
    ~YamlFile() { std::filesystem::remove(path); }
    std::string path;
};

std::string schema_error(const std::string& yaml) {
    const YamlFile file(yaml);
    try {
        read_yolo_schema(file.path);
    } catch (const gpurotate::Error& e) {
        CHECK(e.code() == gpurotate::ErrorCode::input);
        const std::string message = e.what();
        CHECK(message.find("'" + file.path + "'") != std::string::npos);
        return message.substr(file.path.size() + 2);  // what follows the quoted file name
    }
    return "(no error)";
}

YoloSchema pose_schema(int k, int d, std::vector<int> flip) {
    YoloSchema s;
    s.keypoints = k;
    s.keypoint_values = d;
    s.flip_idx = std::move(flip);
    return s;
}

}  // namespace

TEST_CASE("yolo labels: detect rows, every element against its formula") {
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const auto w = words(turn("3 0.25 0.125 0.5 0.375\n", o));
        REQUIRE(w.size() == 5);
        CHECK(w[0] == "3");
        check_points(points_of(w, 1, 1), {expected_point(o, 0.25, 0.125)});
        CHECK(std::stod(w[3]) == (swaps(o) ? 0.375 : 0.5));
        CHECK(std::stod(w[4]) == (swaps(o) ? 0.5 : 0.375));
    }
    // The digits: 1 - 0.987650 is written 0.012350, the places kept.
    CHECK(turn("0 0.1234 0.987650 0.5 0.25", Orientation::rot90) == "0 0.012350 0.1234 0.25 0.5");
    CHECK(turn("17 0.1234 0.987650 0.5 0.25\n", Orientation::flip_h) == "17 0.8766 0.987650 0.5 0.25\n");
}

TEST_CASE("yolo labels: oriented boxes keep their corners' winding under every element") {
    const Points corners = {{0.1, 0.2}, {0.7, 0.25}, {0.65, 0.9}, {0.05, 0.8}};
    std::string row = "1";
    for (const auto& [x, y] : corners) row += " " + std::to_string(x) + " " + std::to_string(y);
    const double area = signed_area(corners);
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const auto w = words(turn(row, o));
        REQUIRE(w.size() == 9);
        CHECK(w[0] == "1");
        const Points got = points_of(w, 1, 4);
        // A reflection reverses the order around the box: corners 2, 1, 4, 3 (torchvision's order) restore it.
        const int order[4] = {mirrors(o) ? 1 : 0, mirrors(o) ? 0 : 1, mirrors(o) ? 3 : 2, mirrors(o) ? 2 : 3};
        Points want;
        for (int i : order) want.push_back(expected_point(o, corners[static_cast<std::size_t>(i)].first, corners[static_cast<std::size_t>(i)].second));
        check_points(got, want);
        CHECK((signed_area(got) > 0) == (area > 0));
        CHECK(std::abs(signed_area(got)) == doctest::Approx(std::abs(area)));
    }
}

TEST_CASE("yolo labels: segment polygons, points mapped in order") {
    const Points polygon = {{0.1, 0.2}, {0.5, 0.05}, {0.95, 0.4}, {0.6, 0.99}, {0.2, 0.7}};
    std::string row = "4";
    for (const auto& [x, y] : polygon) row += " " + std::to_string(x) + " " + std::to_string(y);
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const auto w = words(turn(row, o));
        REQUIRE(w.size() == 11);
        CHECK(w[0] == "4");
        Points want;
        for (const auto& [x, y] : polygon) want.push_back(expected_point(o, x, y));
        check_points(points_of(w, 1, 5), want);
    }
    // Three points (6 values) is the smallest polygon.
    CHECK(turn("2 0 0 1 0 1 1", Orientation::rot180) == "2 1 1 0 1 0 0");
}

TEST_CASE("yolo labels: pose rows with 2 values a keypoint, flip_idx trading left and right under reflections") {
    const YoloSchema schema = pose_schema(3, 2, {1, 0, 2});
    const Points keypoints = {{0.2, 0.3}, {0.6, 0.35}, {0.4, 0.8}};
    const std::string row = "0 0.4 0.5 0.6 0.7 0.2 0.3 0.6 0.35 0.4 0.8";
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const auto w = words(turn(row, o, schema));
        REQUIRE(w.size() == 11);
        check_points(points_of(w, 1, 1), {expected_point(o, 0.4, 0.5)});
        CHECK(std::stod(w[3]) == (swaps(o) ? 0.7 : 0.6));
        CHECK(std::stod(w[4]) == (swaps(o) ? 0.6 : 0.7));
        Points want;
        for (std::size_t i = 0; i < 3; ++i) {
            const std::size_t source = mirrors(o) ? static_cast<std::size_t>(schema.flip_idx[i]) : i;
            want.push_back(expected_point(o, keypoints[source].first, keypoints[source].second));
        }
        check_points(points_of(w, 5, 3), want);
    }
}

TEST_CASE("yolo labels: pose rows with visibility, the unlabelled 0 0 0 kept as written and carried by flip_idx") {
    const YoloSchema schema = pose_schema(3, 3, {1, 0, 2});
    // Keypoint 0 unlabelled, 1 and 2 labelled with visibilities 2 and 1; one labelled point at (0, 0.5)
    // with visibility 0 is mapped all the same (only 0 0 0 is the marker).
    const std::string row = "5 0.5 0.5 0.4 0.2 0 0 0 0.6 0.7 2 0 0.5 0";
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const auto w = words(turn(row, o, schema));
        REQUIRE(w.size() == 14);
        CHECK(w[0] == "5");
        const std::vector<std::vector<std::string>> source = {{"0", "0", "0"}, {"0.6", "0.7", "2"}, {"0", "0.5", "0"}};
        for (std::size_t i = 0; i < 3; ++i) {
            CAPTURE(i);
            const auto& kp = source[mirrors(o) ? static_cast<std::size_t>(schema.flip_idx[i]) : i];
            const std::size_t at = 5 + 3 * i;
            CHECK(w[at + 2] == kp[2]);
            if (kp[0] == "0" && kp[1] == "0" && kp[2] == "0") {
                CHECK(w[at] == "0");
                CHECK(w[at + 1] == "0");
            } else {
                check_points(points_of(w, at, 1), {expected_point(o, std::stod(kp[0]), std::stod(kp[1]))});
            }
        }
    }
    // The marker's text is kept as written, whatever its places.
    CHECK(turn("0 0.5 0.5 0.4 0.2 0.0 0.00 0 0.25 0.75 1 0.5 0.5 2", Orientation::flip_h, schema) ==
          "0 0.5 0.5 0.4 0.2 0.75 0.75 1 0.0 0.00 0 0.5 0.5 2");
}

TEST_CASE("yolo labels: four rot90s give back the bytes: tabs, double spaces, CRLF, blank lines, no final line end") {
    const std::string text =
        "0 0.481719 0.634028 0.690625 0.713278\r\n"
        "\r\n"
        "12\t0.1234  0.987650\t\t0.5 0.25   \r\n"
        "1 0.1 0.2 0.7 0.25 0.65 0.9 0.05 0.8\n"
        "\n"
        "3 0.1 0.2 0.3 0.4 0.5 0.6 0.9\t0.95\n"
        "   \t\n"
        "4  0.000001 0 1 0.5 0.99999 1.000000 0.3 0.300 \n"
        "7 -0.0000005 1.0000004 0.5 0";
    std::string turned = text;
    for (int i = 0; i < 4; ++i) {
        turned = turn(turned, Orientation::rot90);
        if (i < 3) CHECK(turned != text);
    }
    CHECK(turned == text);
    CHECK(turn(text, Orientation::identity) == text);
    // And every element followed by its inverse.
    const std::pair<Orientation, Orientation> inverses[] = {{Orientation::rot180, Orientation::rot180}, {Orientation::flip_h, Orientation::flip_h},
                                                            {Orientation::flip_v, Orientation::flip_v}, {Orientation::transpose, Orientation::transpose},
                                                            {Orientation::transverse, Orientation::transverse}, {Orientation::rot270, Orientation::rot90}};
    for (const auto& pair : inverses) {  // not a structured binding: clang 14's CAPTURE cannot name one
        CAPTURE(gpurotate::name(pair.first));
        CHECK(turn(turn(text, pair.first), pair.second) == text);
    }
    // Pose rows too, with flip_idx applied twice.
    const YoloSchema schema = pose_schema(3, 3, {1, 0, 2});
    const std::string pose = "0 0.5\t0.5 0.4 0.2  0 0 0 0.6 0.70 2 0.125 0.5 1\r\n\r\n1 0.25 0.75 0.1 0.1 0.3 0.3 1 0 0 0 0.9 0.9 2\r\n";
    turned = pose;
    for (int i = 0; i < 4; ++i) turned = turn(turned, Orientation::rot90, schema);
    CHECK(turned == pose);
    CHECK(turn(turn(pose, Orientation::transverse, schema), Orientation::transverse, schema) == pose);
    CHECK(turn("", Orientation::rot90).empty());
    CHECK(turn("\n\n", Orientation::rot90) == "\n\n");
}

TEST_CASE("yolo labels: each error names the file and the line") {
    const std::string pose_row = "0 0.5 0.5 0.2 0.2 0.1 0.1 2 0.3 0.3 1";
    const auto at_line_3 = [&](const std::string& row, const YoloSchema& schema = {}, Orientation o = Orientation::rot90) {
        const std::string ok = (schema.keypoints > 0 ? pose_row : std::string("0 0.5 0.5 0.2 0.2")) + "\n";
        const std::string message = error_of(ok + "\n" + row + "\n" + ok, o, schema);
        CAPTURE(message);
        CHECK(message.rfind("'labels/a.txt' line 3: ", 0) == 0);
        return message;
    };
    CHECK(at_line_3("0 0.5 abc 0.2 0.2").find("'abc' is not a number") != std::string::npos);
    CHECK(at_line_3("0 0.5 0x1 0.2 0.2").find("'0x1' is not a number") != std::string::npos);
    CHECK(at_line_3("-1 0.5 0.5 0.2 0.2").find("class '-1'") != std::string::npos);
    CHECK(at_line_3("a 0.5 0.5 0.2 0.2").find("class 'a'") != std::string::npos);
    CHECK(at_line_3("1.5 0.5 0.5 0.2 0.2").find("class '1.5'") != std::string::npos);
    CHECK(at_line_3("0 0.5 0.5 0.2").find("3 values") != std::string::npos);
    CHECK(at_line_3("0 0.5 0.5 0.2 0.2 0.1").find("5 values") != std::string::npos);
    CHECK(at_line_3("0 0.5 0.5 0.2 0.2 0.1 0.1 0.3").find("7 values") != std::string::npos);
    CHECK(at_line_3("0").find("0 values") != std::string::npos);
    CHECK(at_line_3("0 1.1 0.5 0.2 0.2").find("'1.1' lies outside [0, 1]") != std::string::npos);
    CHECK(at_line_3("0 0.5 -0.01 0.2 0.2").find("'-0.01' lies outside") != std::string::npos);
    CHECK(at_line_3("0 0.5 0.5 1.2 0.2").find("'1.2' lies outside") != std::string::npos);
    CHECK(at_line_3("0 0.5 0.5 0.2 -0.0000011").find("'-0.0000011' lies outside") != std::string::npos);
    CHECK(at_line_3("0 0.1 0.1 0.9 0.1 0.9 1.5 0.1 0.9").find("'1.5' lies outside") != std::string::npos);
    CHECK(at_line_3("0 0.5 1e-60 0.2 0.2").find("digits") != std::string::npos);
    // Within 1e-6 of the edge is allowed, and kept as written.
    CHECK(turn("0 1.000001 -0.000001 0.5 0.5", Orientation::identity) == "0 1.000001 -0.000001 0.5 0.5");
    // Pose: the count kpt_shape gives, and flip_idx for a reflection (none needed for a rotation).
    const YoloSchema pose = pose_schema(2, 3, {});
    CHECK(at_line_3("0 0.5 0.5 0.2 0.2 0.1 0.1 2", pose).find("7 values after the class; kpt_shape [2, 3] needs 10") != std::string::npos);
    CHECK(at_line_3("0 0.5 0.5 0.2 0.2", pose).find("4 values") != std::string::npos);
    CHECK(error_of("\n" + pose_row, Orientation::flip_v, pose) == "'labels/a.txt' line 2: a reflection of a pose row needs flip_idx in data.yaml");
    CHECK(turn("\n", Orientation::flip_v, pose) == "\n");  // no rows, nothing to reflect
    CHECK_NOTHROW(turn(pose_row, Orientation::rot90, pose));
    CHECK(at_line_3("0 0.5 0.5 0.2 0.2 0.1 0.1 2 0.3 1.3 1", pose).find("'1.3' lies outside") != std::string::npos);
}

TEST_CASE("yolo data.yaml: kpt_shape and flip_idx read, and each bad one named with its line") {
    {
        const YamlFile file("path: ../datasets/coco-pose\ntrain: images/train\nkpt_shape: [4, 3]\nflip_idx: [1, 0, 3, 2]\nnames:\n  0: person\n");
        const YoloSchema s = read_yolo_schema(file.path);
        CHECK(s.keypoints == 4);
        CHECK(s.keypoint_values == 3);
        CHECK(s.flip_idx == std::vector<int>{1, 0, 3, 2});
    }
    {
        const YamlFile file("path: x\nkpt_shape:\n  - 2\n  - 2\n");
        const YoloSchema s = read_yolo_schema(file.path);
        CHECK(s.keypoints == 2);
        CHECK(s.keypoint_values == 2);
        CHECK(s.flip_idx.empty());
    }
    {
        const YamlFile file("path: x\nnames: [a, b]\n");
        CHECK(read_yolo_schema(file.path).keypoints == 0);
    }
    CHECK(schema_error("path: x\nkpt_shape: [17, 4]\n") == " line 2: kpt_shape is not [K, 2] or [K, 3] with K >= 1");
    CHECK(schema_error("path: x\n\nkpt_shape: [17]\n") == " line 3: kpt_shape is not [K, 2] or [K, 3] with K >= 1");
    CHECK(schema_error("kpt_shape: seventeen\n") == " line 1: kpt_shape is not [K, 2] or [K, 3] with K >= 1");
    CHECK(schema_error("kpt_shape: [0, 2]\n") == " line 1: kpt_shape is not [K, 2] or [K, 3] with K >= 1");
    CHECK(schema_error("kpt_shape: [2.5, 2]\n") == " line 1: kpt_shape is not [K, 2] or [K, 3] with K >= 1");
    CHECK(schema_error("kpt_shape: [3, 3]\nflip_idx: [0, 1]\n") == " line 2: flip_idx is not a list of 3 keypoint indices (kpt_shape's K)");
    CHECK(schema_error("kpt_shape: [3, 3]\nflip_idx: [0, 1, 1]\n") == " line 2: flip_idx is not a permutation of 0..2");
    CHECK(schema_error("kpt_shape: [3, 3]\nflip_idx:\n  - 0\n  - 3\n  - 1\n") == " line 4: flip_idx is not a permutation of 0..2");
    CHECK(schema_error("kpt_shape: [3, 3]\nflip_idx: [0, -1, 2]\n") == " line 2: flip_idx is not a permutation of 0..2");
    CHECK(schema_error("flip_idx: [0]\n").find(" line 1: flip_idx is not a list of 0") == 0);
    CHECK(schema_error("path: x\nnames: [a, b\n").find(" line ") == 0);
    CHECK(schema_error("- a\n- b\n") == " line 1: data.yaml is not a mapping");
    CHECK_THROWS_AS(read_yolo_schema("/nonexistent/gpurotate/data.yaml"), gpurotate::Error);
}

TEST_CASE("yolo data.yaml: path set to the output root, every other line kept") {
    CHECK(yolo_yaml_for_root("path: ../datasets/coco8  # dataset root dir\ntrain: images/train\nval: images/val\n", "/out/coco8") ==
          "path: /out/coco8  # dataset root dir\ntrain: images/train\nval: images/val\n");
    CHECK(yolo_yaml_for_root("# Ultralytics\r\ntrain: images/train\r\n", "/out") == "path: /out\r\n# Ultralytics\r\ntrain: images/train\r\n");
    CHECK(yolo_yaml_for_root("", "/out") == "path: /out\n");
    CHECK(yolo_yaml_for_root("train: a\npath: 'old dir'\nval: b", "/out") == "train: a\npath: /out\nval: b");
    CHECK(yolo_yaml_for_root("path:\n  /a/long\n  name\ntrain: a\n", "/out") == "path: /out\ntrain: a\n");
    CHECK(yolo_yaml_for_root("path: \"a # b\" # why\ntrain: a\n", "/out") == "path: /out # why\ntrain: a\n");
    CHECK(yolo_yaml_for_root("# header\n---\ntrain: a\n", "/out") == "# header\n---\npath: /out\ntrain: a\n");
    // Only the top-level key: an indented path: belongs to something else.
    CHECK(yolo_yaml_for_root("download:\n  path: x\n", "/out") == "path: /out\ndownload:\n  path: x\n");
    CHECK(yolo_yaml_for_root("paths: x\n", "/o") == "path: /o\npaths: x\n");
    // Roots that need quoting read back as themselves.
    for (const std::string root : {"/data/out", "out dir/with spaces", "#hash", "a: b", "a #b", "yes", "No", "null", "~", "123", "1e3", ".inf", "it's",
                                   "C:\\data\\out", "-dash", "tab\there", "[x]", "{x}", "*star", "&anchor", "!tag", "%p", "@at", "`tick", "", " lead",
                                   "trail ", "ends:", "quote\"d", "new\nline", "\xC3\xA9t\xC3\xA9/out"}) {
        CAPTURE(root);
        const std::string yaml = yolo_yaml_for_root("path: old\ntrain: images/train\n", root);
        const YAML::Node node = YAML::Load(yaml);
        CHECK(node["path"].as<std::string>() == root);
        CHECK(node["train"].as<std::string>() == "images/train");
        const YAML::Node inserted = YAML::Load(yolo_yaml_for_root("train: images/train\n", root));
        CHECK(inserted["path"].as<std::string>() == root);
    }
    CHECK(yolo_yaml_for_root("path: x\n", "it's") == "path: it's\n");
    CHECK(yolo_yaml_for_root("path: x\n", "it's: here") == "path: 'it''s: here'\n");
    CHECK(yolo_yaml_for_root("path: x\n", "a\tb") == "path: \"a\\x09b\"\n");
}
