// Pascal VOC annotations turned with their images, on a 61x37 image: object and part boxes under every
// element against the per-element formulas for 1-based pixels written out here, the size, the names, the
// layout kept, and the errors naming their line.

#include "labels/voc_annotation.hpp"

#include <gpurotate/error.hpp>

#include <doctest/doctest.h>
#include <tinyxml2.h>

#include <string>
#include <vector>

using gpurotate::Orientation;
using namespace gpurotate::labels;

namespace {

constexpr int W = 61, H = 37;

// Where 1-based pixel (x, y) of a W x H image goes, per element (not derived from orientation.hpp).
std::pair<double, double> expected_pixel(Orientation o, double x, double y) {
    switch (o) {
        case Orientation::identity: return {x, y};
        case Orientation::rot90: return {H + 1 - y, x};
        case Orientation::rot180: return {W + 1 - x, H + 1 - y};
        case Orientation::rot270: return {y, W + 1 - x};
        case Orientation::flip_h: return {W + 1 - x, y};
        case Orientation::flip_v: return {x, H + 1 - y};
        case Orientation::transpose: return {y, x};
        case Orientation::transverse: return {H + 1 - y, W + 1 - x};
    }
    return {0, 0};
}

bool swaps(Orientation o) {
    return o == Orientation::rot90 || o == Orientation::rot270 || o == Orientation::transpose || o == Orientation::transverse;
}

// As the VOC devkit writes them: tabs, no XML declaration, a line end after the root.
const std::string annotation =
    "<annotation>\n"
    "\t<folder>VOC2007</folder>\n"
    "\t<filename>000001.jpg</filename>\n"
    "\t<path>/data/VOC2007/JPEGImages/000001.jpg</path>\n"
    "\t<source>\n"
    "\t\t<database>The VOC2007 Database</database>\n"
    "\t</source>\n"
    "\t<size>\n"
    "\t\t<width>61</width>\n"
    "\t\t<height>37</height>\n"
    "\t\t<depth>3</depth>\n"
    "\t</size>\n"
    "\t<segmented>0</segmented>\n"
    "\t<object>\n"
    "\t\t<name>person</name>\n"
    "\t\t<pose>Left</pose>\n"
    "\t\t<bndbox>\n"
    "\t\t\t<xmin>5</xmin>\n"
    "\t\t\t<ymin>2</ymin>\n"
    "\t\t\t<xmax>48.5</xmax>\n"
    "\t\t\t<ymax>30</ymax>\n"
    "\t\t</bndbox>\n"
    "\t\t<part>\n"
    "\t\t\t<name>head</name>\n"
    "\t\t\t<bndbox>\n"
    "\t\t\t\t<xmin>1</xmin>\n"
    "\t\t\t\t<ymin>3</ymin>\n"
    "\t\t\t\t<xmax>61</xmax>\n"
    "\t\t\t\t<ymax>37</ymax>\n"
    "\t\t\t</bndbox>\n"
    "\t\t</part>\n"
    "\t</object>\n"
    "\t<object>\n"
    "\t\t<name>dog</name>\n"
    "\t\t<bndbox>\n"
    "\t\t\t<xmin>12</xmin>\n"
    "\t\t\t<ymin>7.25</ymin>\n"
    "\t\t\t<xmax>20</xmax>\n"
    "\t\t\t<ymax>9</ymax>\n"
    "\t\t</bndbox>\n"
    "\t</object>\n"
    "</annotation>\n";

std::string turn(const std::string& xml, Orientation o, const std::string& file = "000001.jpg",
                 const std::string& path = "/data/VOC2007/JPEGImages/000001.jpg") {
    return turn_voc_annotation(xml, o, {W, H}, file, path, "Annotations/000001.xml");
}

std::string error_of(const std::string& xml) {
    try {
        turn(xml, Orientation::rot90);
    } catch (const gpurotate::Error& e) {
        CHECK(e.code() == gpurotate::ErrorCode::input);
        return e.what();
    }
    return "(no error)";
}

double number(const tinyxml2::XMLElement* parent, const char* name) {
    REQUIRE(parent);
    REQUIRE(parent->FirstChildElement(name));
    return std::stod(parent->FirstChildElement(name)->GetText());
}

struct PixelBox {
    double x0, y0, x1, y1;
};

// The box a turned inclusive pixel box covers: both corners mapped, then ordered.
PixelBox expected_box(Orientation o, PixelBox b) {
    const auto [ax, ay] = expected_pixel(o, b.x0, b.y0);
    const auto [bx, by] = expected_pixel(o, b.x1, b.y1);
    return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

void check_box(const tinyxml2::XMLElement* box, PixelBox want) {
    CHECK(number(box, "xmin") == want.x0);
    CHECK(number(box, "ymin") == want.y0);
    CHECK(number(box, "xmax") == want.x1);
    CHECK(number(box, "ymax") == want.y1);
}

}  // namespace

TEST_CASE("voc annotations: object and part boxes, size, filename and path under every element") {
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const std::string out = turn(annotation, o, "000001_" + std::string(gpurotate::name(o)) + ".jpg", "/out/000001.jpg");
        tinyxml2::XMLDocument doc;
        REQUIRE(doc.Parse(out.c_str()) == tinyxml2::XML_SUCCESS);
        const tinyxml2::XMLElement* root = doc.RootElement();
        CHECK(std::string(root->FirstChildElement("filename")->GetText()) == "000001_" + std::string(gpurotate::name(o)) + ".jpg");
        CHECK(std::string(root->FirstChildElement("path")->GetText()) == "/out/000001.jpg");
        CHECK(std::string(root->FirstChildElement("folder")->GetText()) == "VOC2007");
        const tinyxml2::XMLElement* size = root->FirstChildElement("size");
        CHECK(number(size, "width") == (swaps(o) ? H : W));
        CHECK(number(size, "height") == (swaps(o) ? W : H));
        CHECK(number(size, "depth") == 3);
        const tinyxml2::XMLElement* person = root->FirstChildElement("object");
        check_box(person->FirstChildElement("bndbox"), expected_box(o, {5, 2, 48.5, 30}));
        check_box(person->FirstChildElement("part")->FirstChildElement("bndbox"), expected_box(o, {1, 3, 61, 37}));
        check_box(person->NextSiblingElement("object")->FirstChildElement("bndbox"), expected_box(o, {12, 7.25, 20, 9}));
        CHECK(std::string(person->FirstChildElement("pose")->GetText()) == "Left");
    }
    // The digits, for one element: x -> 62 - x, written with the places it had.
    const std::string flipped = turn(annotation, Orientation::flip_h);
    CHECK(flipped.find("<xmin>13.5</xmin>") != std::string::npos);
    CHECK(flipped.find("<xmax>57</xmax>") != std::string::npos);
    CHECK(flipped.find("<ymin>7.25</ymin>") != std::string::npos);
    // Whitespace around a value stays around the new one.
    const std::string spaced = turn("<annotation><object><bndbox><xmin> 5 </xmin><ymin>2</ymin><xmax>\t48\t</xmax><ymax>30</ymax></bndbox></object></annotation>",
                                    Orientation::flip_h);
    CHECK(spaced.find("<xmin> 14 </xmin>") != std::string::npos);
    CHECK(spaced.find("<xmax>\t57\t</xmax>") != std::string::npos);
}

TEST_CASE("voc annotations: the identity and four rot90s give back the text") {
    CHECK(turn(annotation, Orientation::identity) == annotation);
    std::string turned = annotation;
    for (int i = 0; i < 4; ++i) turned = turn_voc_annotation(turned, Orientation::rot90, i % 2 ? ImageSize{H, W} : ImageSize{W, H}, "000001.jpg",
                                                             "/data/VOC2007/JPEGImages/000001.jpg", "a.xml");
    CHECK(turned == annotation);
    // The layouts tinyxml2 does not keep by itself, given back: 2-space and 4-space indents, CRLF, a
    // declaration, no final line end, all on one line, a comment, a byte order mark, entities.
    const std::vector<std::string> layouts = {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<annotation>\n  <filename>000001.jpg</filename>\n  <size>\n    <width>61</width>\n"
        "    <height>37</height>\n  </size>\n</annotation>",
        "<annotation>\r\n    <filename>000001.jpg</filename>\r\n    <!-- made by hand -->\r\n    <object>\r\n        <name>a &amp; b</name>\r\n"
        "        <bndbox>\r\n            <xmin>1</xmin>\r\n            <ymin>1</ymin>\r\n            <xmax>3</xmax>\r\n"
        "            <ymax>4</ymax>\r\n        </bndbox>\r\n    </object>\r\n</annotation>\r\n",
        "<annotation><filename>000001.jpg</filename><size><width>61</width><height>37</height></size></annotation>",
        "\xEF\xBB\xBF<annotation verified=\"yes\">\n\t<filename>000001.jpg</filename>\n</annotation>\n\n",
    };
    for (const std::string& xml : layouts) {
        CAPTURE(xml);
        CHECK(turn(xml, Orientation::identity) == xml);
    }
}

TEST_CASE("voc annotations: what tinyxml2 changes in a document it prints") {
    // Empty elements are written <x/>, attributes in double quotes; the declaration is kept as written.
    const std::string xml = "<?xml version='1.0'?>\n<annotation a='1'>\n\t<filename>000001.jpg</filename>\n\t<occluded></occluded>\n</annotation>\n";
    CHECK(turn(xml, Orientation::identity) ==
          "<?xml version='1.0'?>\n<annotation a=\"1\">\n\t<filename>000001.jpg</filename>\n\t<occluded/>\n</annotation>\n");
}

TEST_CASE("voc annotations: a 0x0 size is the image's, and is written as the turned size") {
    std::string xml = annotation;
    xml.replace(xml.find("<width>61</width>"), 17, "<width>0</width>");
    xml.replace(xml.find("<height>37</height>"), 19, "<height>0</height>");
    for (Orientation o : gpurotate::all_orientations) {
        CAPTURE(gpurotate::name(o));
        const std::string out = turn(xml, o);
        tinyxml2::XMLDocument doc;
        REQUIRE(doc.Parse(out.c_str()) == tinyxml2::XML_SUCCESS);
        const tinyxml2::XMLElement* size = doc.RootElement()->FirstChildElement("size");
        CHECK(number(size, "width") == (swaps(o) ? H : W));
        CHECK(number(size, "height") == (swaps(o) ? W : H));
        check_box(doc.RootElement()->FirstChildElement("object")->FirstChildElement("bndbox"), expected_box(o, {5, 2, 48.5, 30}));
    }
    // Where the file has no <path>, none is added; a missing <filename> is added after <folder>.
    CHECK(turn("<annotation><folder>f</folder><size><width>61</width><height>37</height></size></annotation>", Orientation::rot90, "b.jpg", "/x/b.jpg") ==
          "<annotation><folder>f</folder><filename>b.jpg</filename><size><width>37</width><height>61</height></size></annotation>");
}

TEST_CASE("voc annotations: each error names the file and the line") {
    const auto starts = [](const std::string& message, const std::string& prefix) {
        CAPTURE(message);
        CHECK(message.rfind(prefix, 0) == 0);
        return message;
    };
    std::string mismatched = annotation;
    mismatched.replace(mismatched.find("<width>61</width>"), 17, "<width>60</width>");
    CHECK(starts(error_of(mismatched), "'Annotations/000001.xml' line 8: ").find("<size> 60x37 is not the image's 61x37") != std::string::npos);
    std::string half_zero = annotation;
    half_zero.replace(half_zero.find("<width>61</width>"), 17, "<width>0</width>");
    CHECK(starts(error_of(half_zero), "'Annotations/000001.xml' line 8: ").find("<size> 0x37") != std::string::npos);
    std::string not_number = annotation;
    not_number.replace(not_number.find("<xmin>12</xmin>"), 15, "<xmin>12px</xmin>");
    CHECK(starts(error_of(not_number), "'Annotations/000001.xml' line 36: ").find("<xmin> '12px' is not a number") != std::string::npos);
    std::string empty = annotation;
    empty.replace(empty.find("<ymax>37</ymax>"), 15, "<ymax></ymax>");
    CHECK(starts(error_of(empty), "'Annotations/000001.xml' line 29: ").find("<ymax> '' is not a number") != std::string::npos);
    std::string reversed = annotation;
    reversed.replace(reversed.find("<xmax>20</xmax>"), 15, "<xmax>10</xmax>");
    CHECK(starts(error_of(reversed), "'Annotations/000001.xml' line 38: ").find("less than <xmin>") != std::string::npos);
    std::string missing = annotation;
    missing.replace(missing.find("\t\t\t<ymin>2</ymin>\n"), 18, "");
    CHECK(starts(error_of(missing), "'Annotations/000001.xml' line 17: ").find("<bndbox> has no <ymin>") != std::string::npos);
    starts(error_of("<annotation>\n<size>\n</annotation>\n"), "'Annotations/000001.xml' line ");
    CHECK(starts(error_of("<?xml version=\"1.0\"?>\n<voc/>\n"), "'Annotations/000001.xml' line 2: ").find("not <annotation>") != std::string::npos);
    starts(error_of(""), "'Annotations/000001.xml' line ");
    // check_voc_annotation: the same checks before the image is read, all but the size's (it knows none).
    CHECK_NOTHROW(check_voc_annotation(annotation, "a.xml"));
    CHECK_NOTHROW(check_voc_annotation(mismatched, "a.xml"));
    for (const std::string* bad : {&not_number, &empty, &reversed, &missing}) {
        std::string checked = "(no error)";
        try {
            check_voc_annotation(*bad, "Annotations/000001.xml");
        } catch (const gpurotate::Error& e) {
            checked = e.what();
        }
        CHECK(checked == error_of(*bad));
    }
    CHECK_THROWS_AS(check_voc_annotation("<annotation><size><width>x</width><height>0</height></size></annotation>", "a.xml"), gpurotate::Error);
    CHECK_THROWS_AS(check_voc_annotation("<annotation>", "a.xml"), gpurotate::Error);
}
