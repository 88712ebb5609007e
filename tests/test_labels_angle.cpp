// Labels under an angle that is not a multiple of 90 (augment --degrees), format by format, against
// tests/angle_reference.hpp: the rotation formula on the points, boxes re-boxed and clipped by hand,
// polygon areas by point sampling, masks by a plain nearest-neighbour loop.

#include "angle_reference.hpp"

#include "labels/angle_map.hpp"
#include "labels/coco_annotation_rotate.hpp"
#include "labels/coco_rle.hpp"
#include "labels/voc_annotation.hpp"
#include "labels/yolo_angle.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <tinyxml2.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace {

using angle_reference::Box;
using angle_reference::Canvas;
using angle_reference::P;
using gpurotate::labels::AngleMap;
using gpurotate::labels::ImageSize;
using Json = nlohmann::ordered_json;

const double angles[] = {7.5, 30, -60, 135};
constexpr std::int64_t W = 61, H = 37;
constexpr double tolerance = 2e-6;  // the 6 places written, and a double's rounding

using angle_reference::rows_of;

// A YOLO detect row's expected values: the normalised box rotated, re-boxed, clipped, as centre and size.
std::vector<double> yolo_box(const Canvas& k, double cx, double cy, double w, double h) {
    const Box b = angle_reference::clipped(k, angle_reference::rotated_box(k, {(cx - w / 2) * W, (cy - h / 2) * H, (cx + w / 2) * W, (cy + h / 2) * H}));
    return {(b.x0 + b.x1) / 2 / k.ow, (b.y0 + b.y1) / 2 / k.oh, (b.x1 - b.x0) / k.ow, (b.y1 - b.y0) / k.oh};
}

void check_close(const std::vector<double>& got, std::size_t from, const std::vector<double>& want) {
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(std::fabs(got.at(from + i) - want[i]) <= tolerance);
}

}  // namespace

TEST_CASE("labels under an angle: the map is the pixels' rotation about the centre, the canvas rotated_extent's") {
    for (const double degrees : angles) {
        for (const bool keep : {false, true}) {
            CAPTURE(degrees);
            CAPTURE(keep);
            const AngleMap map({W, H}, degrees, keep);
            const Canvas k = angle_reference::canvas(W, H, degrees, keep);
            CHECK(map.output().width == k.ow);
            CHECK(map.output().height == k.oh);
            for (const P p : {P{0, 0}, P{W, 0}, P{3.25, 30.5}, P{W / 2.0, H / 2.0}}) {
                const auto got = map.map({p.x, p.y});
                const P want = angle_reference::rotate(k, p);
                CHECK(got.x == doctest::Approx(want.x).epsilon(1e-12));
                CHECK(got.y == doctest::Approx(want.y).epsilon(1e-12));
            }
        }
    }
}

TEST_CASE("labels under an angle: YOLO detect, segment, oriented-box and pose rows rotated, clipped and dropped by the reference") {
    for (const double degrees : angles) {
        for (const bool keep : {false, true}) {
            CAPTURE(degrees);
            CAPTURE(keep);
            const AngleMap map({W, H}, degrees, keep);
            const Canvas k = angle_reference::canvas(W, H, degrees, keep);
            SUBCASE("detect: a box in the middle and one in a corner") {
                const std::string text = "0 0.5 0.5 0.2 0.3\n7 0.06 0.9 0.1 0.15\n";
                const auto rows = rows_of(gpurotate::labels::rotate_yolo_labels(text, map, {}, 0, "l.txt"));
                std::vector<std::vector<double>> want = {yolo_box(k, 0.5, 0.5, 0.2, 0.3), yolo_box(k, 0.06, 0.9, 0.1, 0.15)};
                const std::vector<double> classes = {0, 7};
                std::size_t r = 0;
                for (std::size_t i = 0; i < want.size(); ++i) {
                    if (want[i][2] <= 0 || want[i][3] <= 0) continue;  // nothing left: dropped
                    REQUIRE(r < rows.size());
                    CHECK(rows[r][0] == classes[i]);
                    check_close(rows[r], 1, want[i]);
                    ++r;
                }
                CHECK(r == rows.size());
            }
            SUBCASE("segment: vertices rotated exactly where they stay on the canvas; the area on it where cut") {
                const std::vector<P> poly = {{0.1, 0.2}, {0.9, 0.1}, {0.8, 0.95}, {0.5, 0.9}, {0.3, 0.7}};  // 5: 4 would be an oriented box
                std::string text = "2";
                std::vector<P> rotated;
                for (const P p : poly) {
                    text += " " + std::to_string(p.x) + " " + std::to_string(p.y);
                    rotated.push_back(angle_reference::rotate(k, {p.x * W, p.y * H}));
                }
                const auto rows = rows_of(gpurotate::labels::rotate_yolo_labels(text + "\n", map, {}, 0, "l.txt"));
                REQUIRE(rows.size() == 1);
                std::vector<P> got;
                for (std::size_t i = 1; i + 1 < rows[0].size(); i += 2) got.push_back({rows[0][i] * k.ow, rows[0][i + 1] * k.oh});
                for (const P p : got) {  // on the canvas
                    CHECK(p.x >= -1e-9);
                    CHECK(p.y >= -1e-9);
                    CHECK(p.x <= k.ow + 1e-9);
                    CHECK(p.y <= k.oh + 1e-9);
                }
                if (!keep) {
                    REQUIRE(got.size() == rotated.size());
                    for (std::size_t i = 0; i < got.size(); ++i) {
                        CHECK(std::fabs(got[i].x - rotated[i].x) <= tolerance * k.ow);  // 6 places of the side
                        CHECK(std::fabs(got[i].y - rotated[i].y) <= tolerance * k.oh);
                    }
                }
                // What is left is the rotated polygon's part on the canvas: the areas agree (point sampling).
                CHECK(angle_reference::area_on_canvas(k, got) == doctest::Approx(angle_reference::area_on_canvas(k, rotated)).epsilon(0.02));
            }
            SUBCASE("oriented box: four corners, each moved onto the canvas where it is cut") {
                const std::string text = "1 0.2 0.2 0.7 0.25 0.65 0.8 0.15 0.75\n";
                const auto rows = rows_of(gpurotate::labels::rotate_yolo_labels(text, map, {}, 0, "l.txt"));
                REQUIRE(rows.size() == 1);
                REQUIRE(rows[0].size() == 9);
                const double in[8] = {0.2, 0.2, 0.7, 0.25, 0.65, 0.8, 0.15, 0.75};
                for (int c = 0; c < 4; ++c) {
                    const P q = angle_reference::rotate(k, {in[2 * c] * W, in[2 * c + 1] * H});
                    CHECK(std::fabs(rows[0][1 + 2 * c] - (std::clamp(q.x, 0.0, double(k.ow)) / k.ow)) <= tolerance);
                    CHECK(std::fabs(rows[0][2 + 2 * c] - (std::clamp(q.y, 0.0, double(k.oh)) / k.oh)) <= tolerance);
                }
            }
            SUBCASE("pose: the box re-boxed, keypoints rotated, one off the canvas 0 0 0, an unlabelled one kept 0 0 0") {
                gpurotate::labels::YoloSchema schema;
                schema.keypoints = 3;
                schema.keypoint_values = 3;
                const std::string text = "0 0.5 0.5 0.9 0.9 0.01 0.01 2 0.5 0.4 1 0 0 0\n";
                const auto rows = rows_of(gpurotate::labels::rotate_yolo_labels(text, map, schema, 0, "l.txt"));
                REQUIRE(rows.size() == 1);
                REQUIRE(rows[0].size() == 14);
                check_close(rows[0], 1, yolo_box(k, 0.5, 0.5, 0.9, 0.9));
                const double kp[3][3] = {{0.01, 0.01, 2}, {0.5, 0.4, 1}, {0, 0, 0}};
                for (int i = 0; i < 3; ++i) {
                    const P q = angle_reference::rotate(k, {kp[i][0] * W, kp[i][1] * H});
                    const bool on = kp[i][2] != 0 && q.x >= 0 && q.y >= 0 && q.x <= k.ow && q.y <= k.oh;
                    CHECK(std::fabs(rows[0][5 + 3 * i] - (on ? q.x / k.ow : 0)) <= tolerance);
                    CHECK(std::fabs(rows[0][6 + 3 * i] - (on ? q.y / k.oh : 0)) <= tolerance);
                    CHECK(rows[0][7 + 3 * i] == (on ? kp[i][2] : 0));
                }
            }
        }
    }
}

TEST_CASE("labels under an angle: --min-visibility drops what the canvas cuts off below it, and 0 only what has nothing left") {
    // keep-size, 45 degrees: a box at the left side is partly cut off, one at the centre is whole, and one in
    // the corner has nothing left.
    const AngleMap map({W, H}, 45, true);
    const Canvas k = angle_reference::canvas(W, H, 45, true);
    const std::string text = "0 0.1 0.5 0.2 0.3\n1 0.5 0.5 0.1 0.1\n2 0.001 0.001 0.002 0.002\n";
    const Box corner = angle_reference::rotated_box(k, {0, 0.35 * H, 0.2 * W, 0.65 * H});
    const double visible = (angle_reference::clipped(k, corner).x1 - angle_reference::clipped(k, corner).x0) *
                           (angle_reference::clipped(k, corner).y1 - angle_reference::clipped(k, corner).y0) / ((corner.x1 - corner.x0) * (corner.y1 - corner.y0));
    REQUIRE(visible > 0);
    REQUIRE(visible < 0.9);
    const auto kept = rows_of(gpurotate::labels::rotate_yolo_labels(text, map, {}, 0, "l.txt"));
    REQUIRE(kept.size() == 2);  // the tiny corner box has nothing left
    CHECK(kept[0][0] == 0);
    CHECK(kept[1][0] == 1);
    const auto strict = rows_of(gpurotate::labels::rotate_yolo_labels(text, map, {}, visible + 0.01, "l.txt"));
    REQUIRE(strict.size() == 1);
    CHECK(strict[0][0] == 1);
    CHECK(rows_of(gpurotate::labels::rotate_yolo_labels(text, map, {}, visible - 0.01, "l.txt")).size() == 2);
}

TEST_CASE("labels under an angle: COCO boxes re-boxed from polygons, RLE masks by nearest, keypoints, area, num_keypoints") {
    for (const double degrees : angles) {
        for (const bool keep : {false, true}) {
            CAPTURE(degrees);
            CAPTURE(keep);
            const AngleMap map({W, H}, degrees, keep);
            const Canvas k = angle_reference::canvas(W, H, degrees, keep);
            SUBCASE("polygon: the box is the clipped polygon's, tight") {
                const Json a = Json::parse(R"({"id": 4, "bbox": [5, 4, 50, 30], "area": 900, "segmentation": [[5, 4, 55, 10, 40, 34, 8, 30]], "category_id": 1})");
                const auto out = gpurotate::labels::rotate_annotation(a, map, 0);
                REQUIRE(out);
                const Json& poly = (*out)["segmentation"][0];
                Box b{1e300, 1e300, -1e300, -1e300};
                std::vector<P> got;
                for (std::size_t i = 0; i < poly.size(); i += 2) {
                    const P p{poly[i].get<double>(), poly[i + 1].get<double>()};
                    got.push_back(p);
                    b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
                }
                std::vector<P> rotated;
                for (std::size_t i = 0; i < 8; i += 2) rotated.push_back(angle_reference::rotate(k, {a["segmentation"][0][i].get<double>(), a["segmentation"][0][i + 1].get<double>()}));
                if (!keep) {  // nothing cut: the rotated vertices themselves, and the box theirs
                    REQUIRE(got.size() == 4);
                    b = {1e300, 1e300, -1e300, -1e300};
                    for (std::size_t i = 0; i < 4; ++i) {
                        CHECK(got[i].x == doctest::Approx(rotated[i].x).epsilon(1e-6));
                        CHECK(got[i].y == doctest::Approx(rotated[i].y).epsilon(1e-6));
                        b = {std::min(b.x0, rotated[i].x), std::min(b.y0, rotated[i].y), std::max(b.x1, rotated[i].x), std::max(b.y1, rotated[i].y)};
                    }
                }
                const Json& box = (*out)["bbox"];
                CHECK(box[0].get<double>() == doctest::Approx(b.x0).epsilon(1e-6));
                CHECK(box[1].get<double>() == doctest::Approx(b.y0).epsilon(1e-6));
                CHECK(box[2].get<double>() == doctest::Approx(b.x1 - b.x0).epsilon(1e-6));
                CHECK(box[3].get<double>() == doctest::Approx(b.y1 - b.y0).epsilon(1e-6));
                CHECK((*out)["area"].get<double>() == doctest::Approx(angle_reference::area_on_canvas(k, rotated)).epsilon(0.02));
                CHECK((*out)["id"] == 4);
                CHECK((*out)["category_id"] == 1);
            }
            SUBCASE("box only: its corners re-boxed and clipped") {
                const Json a = Json::parse(R"({"bbox": [2.5, 3, 20, 10], "area": 200})");
                const auto out = gpurotate::labels::rotate_annotation(a, map, 0);
                REQUIRE(out);
                const Box b = angle_reference::clipped(k, angle_reference::rotated_box(k, {2.5, 3, 22.5, 13}));
                const Json& box = (*out)["bbox"];
                CHECK(box[0].get<double>() == doctest::Approx(b.x0).epsilon(1e-6));
                CHECK(box[1].get<double>() == doctest::Approx(b.y0).epsilon(1e-6));
                CHECK(box[2].get<double>() == doctest::Approx(b.x1 - b.x0).epsilon(1e-6));
                CHECK(box[3].get<double>() == doctest::Approx(b.y1 - b.y0).epsilon(1e-6));
                CHECK((*out)["area"].get<double>() == doctest::Approx((b.x1 - b.x0) * (b.y1 - b.y0)).epsilon(1e-6));
            }
            SUBCASE("RLE: the mask rotated as the pixels are by nearest, its box and area from it") {
                std::vector<std::uint8_t> rows(static_cast<std::size_t>(W * H));  // row-major, for the reference
                std::vector<std::uint8_t> columns(rows.size());                  // column-major, for the RLE
                for (std::int64_t y = 0; y < H; ++y) {
                    for (std::int64_t x = 0; x < W; ++x) {
                        const std::uint8_t v = (x - 20) * (x - 20) + (y - 15) * (y - 15) < 120 || (x > 40 && y < 8) ? 1 : 0;
                        rows[static_cast<std::size_t>(y * W + x)] = v;
                        columns[static_cast<std::size_t>(x * H + y)] = v;
                    }
                }
                Json a = Json::object();
                a["segmentation"] = {{"size", {H, W}}, {"counts", gpurotate::labels::runs_from_mask(columns)}};
                a["bbox"] = {0, 0, 1, 1};
                a["area"] = 1;
                const auto out = gpurotate::labels::rotate_annotation(a, map, 0);
                REQUIRE(out);
                const std::vector<std::uint8_t> want = angle_reference::nearest(k, rows);
                CHECK((*out)["segmentation"]["size"] == Json::array({k.oh, k.ow}));
                // The runs decoded here, by hand: column-major, starting with zeros.
                std::vector<std::uint8_t> got;
                std::uint8_t v = 0;
                for (const auto& run : (*out)["segmentation"]["counts"]) {
                    got.insert(got.end(), run.get<std::size_t>(), v);
                    v ^= 1;
                }
                REQUIRE(got.size() == want.size());
                double count = 0;
                Box b{1e300, 1e300, -1e300, -1e300};
                int differing = 0;
                for (std::int64_t y = 0; y < k.oh; ++y) {
                    for (std::int64_t x = 0; x < k.ow; ++x) {
                        const std::uint8_t w = want[static_cast<std::size_t>(y * k.ow + x)];
                        differing += got[static_cast<std::size_t>(x * k.oh + y)] != w;
                        if (!w) continue;
                        ++count;
                        b = {std::min(b.x0, double(x)), std::min(b.y0, double(y)), std::max(b.x1, x + 1.0), std::max(b.y1, y + 1.0)};
                    }
                }
                CHECK(differing == 0);
                CHECK((*out)["area"].get<double>() == count);
                CHECK((*out)["bbox"] == Json::array({b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0}));
            }
            SUBCASE("keypoints: rotated, off the canvas 0, 0, 0, num_keypoints recounted") {
                const Json a = Json::parse(R"({"bbox": [1, 1, 59, 35], "keypoints": [0.5, 0.5, 2, 30, 18, 1, 0, 0, 0, 60, 36.5, 2], "num_keypoints": 3})");
                const auto out = gpurotate::labels::rotate_annotation(a, map, 0);
                REQUIRE(out);
                const Json& kp = (*out)["keypoints"];
                int labelled = 0;
                for (int i = 0; i < 4; ++i) {
                    const double x = a["keypoints"][3 * i].get<double>(), y = a["keypoints"][3 * i + 1].get<double>(), v = a["keypoints"][3 * i + 2].get<double>();
                    const P q = angle_reference::rotate(k, {x, y});
                    const bool on = v != 0 && q.x >= 0 && q.y >= 0 && q.x <= k.ow && q.y <= k.oh;
                    labelled += on ? 1 : 0;
                    CHECK(kp[3 * i].get<double>() == doctest::Approx(on ? q.x : 0).epsilon(1e-6));
                    CHECK(kp[3 * i + 1].get<double>() == doctest::Approx(on ? q.y : 0).epsilon(1e-6));
                    CHECK(kp[3 * i + 2].get<double>() == (on ? v : 0));
                }
                CHECK((*out)["num_keypoints"] == labelled);
            }
        }
    }
}

TEST_CASE("labels under an angle: VOC boxes as the 1-based pixels that cover the rotated, clipped box, and the canvas's size") {
    const std::string xml =
        "<annotation>\n\t<size>\n\t\t<width>61</width>\n\t\t<height>37</height>\n\t\t<depth>3</depth>\n\t</size>\n"
        "\t<object>\n\t\t<name>dog</name>\n\t\t<bndbox>\n\t\t\t<xmin>10</xmin>\n\t\t\t<ymin>5</ymin>\n\t\t\t<xmax>40</xmax>\n\t\t\t<ymax>30</ymax>\n\t\t</bndbox>\n"
        "\t\t<part>\n\t\t\t<name>head</name>\n\t\t\t<bndbox>\n\t\t\t\t<xmin>1</xmin>\n\t\t\t\t<ymin>1</ymin>\n\t\t\t\t<xmax>2</xmax>\n\t\t\t\t<ymax>2</ymax>\n\t\t\t</bndbox>\n\t\t</part>\n"
        "\t</object>\n</annotation>\n";
    for (const double degrees : angles) {
        for (const bool keep : {false, true}) {
            CAPTURE(degrees);
            CAPTURE(keep);
            const AngleMap map({W, H}, degrees, keep);
            const Canvas k = angle_reference::canvas(W, H, degrees, keep);
            const std::string out = gpurotate::labels::turn_voc_annotation(xml, gpurotate::Orientation::identity, {W, H}, "x.jpg", "/x.jpg", "a.xml", &map, 0);
            tinyxml2::XMLDocument doc;
            REQUIRE(doc.Parse(out.c_str()) == tinyxml2::XML_SUCCESS);
            const tinyxml2::XMLElement* root = doc.RootElement();
            CHECK(root->FirstChildElement("size")->FirstChildElement("width")->IntText() == k.ow);
            CHECK(root->FirstChildElement("size")->FirstChildElement("height")->IntText() == k.oh);
            // Pixel i spans the edges i - 1 .. i; the output covers the rotated, clipped box with whole pixels.
            const auto expect = [&](const tinyxml2::XMLElement* box, Box pixels) {
                const Box b = angle_reference::clipped(k, angle_reference::rotated_box(k, {pixels.x0 - 1, pixels.y0 - 1, pixels.x1, pixels.y1}));
                CHECK(box->FirstChildElement("xmin")->IntText() == static_cast<int>(std::floor(b.x0 + 1e-6)) + 1);
                CHECK(box->FirstChildElement("ymin")->IntText() == static_cast<int>(std::floor(b.y0 + 1e-6)) + 1);
                CHECK(box->FirstChildElement("xmax")->IntText() == static_cast<int>(std::ceil(b.x1 - 1e-6)));
                CHECK(box->FirstChildElement("ymax")->IntText() == static_cast<int>(std::ceil(b.y1 - 1e-6)));
                return b;
            };
            const tinyxml2::XMLElement* object = root->FirstChildElement("object");
            REQUIRE(object);
            expect(object->FirstChildElement("bndbox"), {10, 5, 40, 30});
            const Box head = angle_reference::clipped(k, angle_reference::rotated_box(k, {0, 0, 2, 2}));
            const tinyxml2::XMLElement* part = object->FirstChildElement("part");
            if (head.x1 > head.x0 && head.y1 > head.y0) {
                REQUIRE(part);
                expect(part->FirstChildElement("bndbox"), {1, 1, 2, 2});
            } else {
                CHECK_FALSE(part);  // the canvas cut it off: left out
            }
        }
    }
}

namespace {

// A VOC file in the devkit's layout: one object per box, each with the children given before its box
// (`lead`, already indented) and the box's four values.
std::string voc_file(const std::vector<std::pair<std::string, Box>>& objects, std::int64_t w, std::int64_t h) {
    std::ostringstream out;
    out << "<annotation>\n\t<filename>x.jpg</filename>\n\t<size>\n\t\t<width>" << w << "</width>\n\t\t<height>" << h
        << "</height>\n\t\t<depth>3</depth>\n\t</size>\n";
    for (const auto& [lead, b] : objects) {
        out << "\t<object>\n" << lead << "\t\t<bndbox>\n\t\t\t<xmin>" << b.x0 << "</xmin>\n\t\t\t<ymin>" << b.y0 << "</ymin>\n\t\t\t<xmax>"
            << b.x1 << "</xmax>\n\t\t\t<ymax>" << b.y1 << "</ymax>\n\t\t</bndbox>\n\t</object>\n";
    }
    out << "</annotation>\n";
    return out.str();
}

// The 1-based pixels that cover a rotated, clipped box, and whether the canvas cut it: from the formula.
std::pair<Box, bool> voc_rotated(const Canvas& k, Box pixels) {
    const Box r = angle_reference::rotated_box(k, {pixels.x0 - 1, pixels.y0 - 1, pixels.x1, pixels.y1});
    const Box b = angle_reference::clipped(k, r);
    const bool cut = r.x0 < -1e-6 || r.y0 < -1e-6 || r.x1 > k.ow + 1e-6 || r.y1 > k.oh + 1e-6;
    return {{std::floor(b.x0 + 1e-6) + 1, std::floor(b.y0 + 1e-6) + 1, std::ceil(b.x1 - 1e-6), std::ceil(b.y1 - 1e-6)}, cut};
}

}  // namespace

TEST_CASE("labels under an angle: a VOC object whose box the canvas cuts says truncated 1, the others keep theirs") {
    const Box corner{1, 1, 12, 9}, centre{27, 15, 35, 23};
    const Canvas k = angle_reference::canvas(W, H, 30, true);
    const auto [corner_out, corner_cut] = voc_rotated(k, corner);
    const auto [centre_out, centre_cut] = voc_rotated(k, centre);
    REQUIRE(corner_cut);      // the test's premise, from the formula: 30 degrees at the kept size cuts the corner
    REQUIRE_FALSE(centre_cut);
    const AngleMap map({W, H}, 30, true);
    const auto rotate = [&](const std::string& xml) {
        return gpurotate::labels::turn_voc_annotation(xml, gpurotate::Orientation::identity, {W, H}, "x.jpg", "/x.jpg", "a.xml", &map, 0);
    };
    const std::string name = "\t\t<name>dog</name>\n", pose = "\t\t<pose>Left</pose>\n", difficult = "\t\t<difficult>0</difficult>\n";
    const std::string zero = "\t\t<truncated>0</truncated>\n", one = "\t\t<truncated>1</truncated>\n";

    SUBCASE("a truncated element: the cut object's replaced, the whole object's kept") {
        const std::string in = voc_file({{name + pose + zero + difficult, corner}, {name + pose + zero + difficult, centre}}, W, H);
        CHECK(rotate(in) == voc_file({{name + pose + one + difficult, corner_out}, {name + pose + zero + difficult, centre_out}}, W, H));
    }
    SUBCASE("no truncated element: one added after pose, else after name, for the cut object alone") {
        const std::string in = voc_file({{name + pose + difficult, corner}, {name + difficult, corner}, {name + pose + difficult, centre}}, W, H);
        const std::string want = voc_file({{name + pose + one + difficult, corner_out}, {name + one + difficult, corner_out}, {name + pose + difficult, centre_out}}, W, H);
        CHECK(rotate(in) == want);
    }
    SUBCASE("the expanded canvas cuts nothing, and a D4 turn adds nothing") {
        const std::string in = voc_file({{name + pose + difficult, corner}}, W, H);
        const AngleMap grown({W, H}, 30, false);
        const std::string out = gpurotate::labels::turn_voc_annotation(in, gpurotate::Orientation::identity, {W, H}, "x.jpg", "/x.jpg", "a.xml", &grown, 0);
        CHECK(out.find("truncated") == std::string::npos);
        const std::string turned = gpurotate::labels::turn_voc_annotation(in, gpurotate::Orientation::rot90, {W, H}, "x.jpg", "/x.jpg", "a.xml");
        CHECK(turned.find("truncated") == std::string::npos);
    }
}
