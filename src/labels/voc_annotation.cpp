#include "labels/voc_annotation.hpp"

#include <gpurotate/error.hpp>

#include "labels/canvas_clip.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <optional>
#include <stdexcept>

namespace gpurotate::labels {
namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& why) {
    throw Error(ErrorCode::input, "'" + path + "' line " + std::to_string(line) + ": " + why);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// ---- the layout tinyxml2 does not keep ----

// tinyxml2 drops the whitespace between elements and prints its own: a line per element, indented by a
// unit per depth, "\n" line ends. What the input used instead is read here and given back, so that the
// usual VOC files (tab-indented, LabelImg's and the VOC devkit's) come out as they went in.
struct Layout {
    bool compact = false;          // all on one line
    std::string indent = "    ";   // one depth's indentation
    bool crlf = false;
    std::string trailing;          // what follows the root element's end tag
};

Layout layout_of(std::string_view xml) {
    Layout layout;
    std::size_t end = xml.size();
    while (end > 0 && is_space(xml[end - 1])) --end;
    layout.trailing = std::string(xml.substr(end));
    const std::size_t first_nl = xml.find('\n');
    layout.compact = first_nl == std::string_view::npos || first_nl >= end;
    layout.crlf = first_nl != std::string_view::npos && first_nl > 0 && xml[first_nl - 1] == '\r';
    for (std::size_t nl = first_nl; nl != std::string_view::npos && nl < end; nl = xml.find('\n', nl + 1)) {
        std::size_t i = nl + 1;
        while (i < end && (xml[i] == ' ' || xml[i] == '\t')) ++i;
        if (i > nl + 1 && i < end && xml[i] == '<') {
            layout.indent = std::string(xml.substr(nl + 1, i - nl - 1));
            break;
        }
    }
    return layout;
}

class LayoutPrinter : public tinyxml2::XMLPrinter {
public:
    explicit LayoutPrinter(const Layout& layout) : XMLPrinter(nullptr, layout.compact), indent_(layout.indent) {}

protected:
    void PrintSpace(int depth) override {
        for (int i = 0; i < depth; ++i) Write(indent_.data(), indent_.size());
    }

private:
    std::string indent_;
};

std::string print(const tinyxml2::XMLDocument& doc, const Layout& layout) {
    LayoutPrinter printer(layout);
    doc.Print(&printer);
    std::string printed(printer.CStr(), static_cast<std::size_t>(printer.CStrSize() > 0 ? printer.CStrSize() - 1 : 0));
    while (!printed.empty() && is_space(printed.back())) printed.pop_back();
    std::string out;
    out.reserve(printed.size() + printed.size() / 16 + layout.trailing.size());
    for (char c : printed) {
        if (c == '\n' && layout.crlf) out += '\r';
        out += c;
    }
    return out + layout.trailing;
}

// ---- values ----

class Annotation {
public:
    explicit Annotation(const std::string& path) : path_(path) {}

    [[noreturn]] void fail(const tinyxml2::XMLElement& at, const std::string& why) const { labels::fail(path_, at.GetLineNum(), why); }

    // The child `name` of `parent`, which must be there.
    tinyxml2::XMLElement& child(tinyxml2::XMLElement& parent, const char* name) const {
        tinyxml2::XMLElement* c = parent.FirstChildElement(name);
        if (!c) fail(parent, "<" + std::string(parent.Name()) + "> has no <" + name + ">");
        return *c;
    }

    Decimal number(const tinyxml2::XMLElement& e) const {
        const std::string_view text = trimmed(e);
        const auto value = Decimal::parse(text);
        if (!value) fail(e, "<" + std::string(e.Name()) + "> '" + std::string(text) + "' is not a number");
        return *value;
    }

    // New text for `e`, inside the whitespace its old text had around it.
    static void set_text(tinyxml2::XMLElement& e, const std::string& text) {
        const std::string_view old = e.GetText() ? e.GetText() : "";
        const std::string_view inner = trimmed(e);
        const std::size_t lead = inner.empty() ? 0 : static_cast<std::size_t>(inner.data() - old.data());
        const std::string value = std::string(old.substr(0, lead)) + text + std::string(old.substr(lead + inner.size()));
        e.SetText(value.c_str());
    }

private:
    static std::string_view trimmed(const tinyxml2::XMLElement& e) {
        std::string_view text = e.GetText() ? e.GetText() : "";
        while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
        while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
        return text;
    }

    const std::string& path_;
};

// Every <bndbox> under `e` (objects', and their parts' however deep), in document order.
template <typename Visit>
void for_each_box(tinyxml2::XMLElement& e, const Visit& visit) {
    for (tinyxml2::XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
        if (std::string_view(c->Name()) == "bndbox") {
            visit(*c);
        } else {
            for_each_box(*c, visit);
        }
    }
}

// A box's four values, checked: numbers, min <= max.
struct BoxValues {
    tinyxml2::XMLElement* corners[4];
    Decimal v[4];
};

BoxValues box_values(tinyxml2::XMLElement& box, const Annotation& a) {
    BoxValues b{{&a.child(box, "xmin"), &a.child(box, "ymin"), &a.child(box, "xmax"), &a.child(box, "ymax")}, {}};
    for (int i = 0; i < 4; ++i) b.v[i] = a.number(*b.corners[i]);
    if (b.v[2] < b.v[0]) a.fail(*b.corners[2], "<xmax> " + b.v[2].text() + " is less than <xmin> " + b.v[0].text());
    if (b.v[3] < b.v[1]) a.fail(*b.corners[3], "<ymax> " + b.v[3].text() + " is less than <ymin> " + b.v[1].text());
    return b;
}

void turn_bndbox(tinyxml2::XMLElement& box, const Annotation& a, Orientation element, ImageSize image) {
    const BoxValues b = box_values(box, a);
    tinyxml2::XMLElement* const* corners = b.corners;
    const Decimal* v = b.v;
    // VOC's pixels are 1-based and inclusive: pixel i of W goes to W + 1 - i.
    Box turned;
    try {
        turned = turn_box({v[0], v[1], v[2], v[3]}, one_based_extent(image), element);
    } catch (const std::overflow_error&) {
        a.fail(box, "a <bndbox> value has more digits than a label value can hold");
    }
    const Decimal* out[4] = {&turned.x0, &turned.y0, &turned.x1, &turned.y1};
    for (int i = 0; i < 4; ++i) Annotation::set_text(*corners[i], out[i]->text());
}

// <size>: the image's, or 0x0 (written by some tools, which then mean the image's); the turned size after.
void turn_size_element(tinyxml2::XMLElement& size, const Annotation& a, Orientation element, ImageSize image) {
    tinyxml2::XMLElement& width = a.child(size, "width");
    tinyxml2::XMLElement& height = a.child(size, "height");
    const Decimal w = a.number(width), h = a.number(height);
    const Decimal zero = Decimal::integer(0);
    const ImageSize turned = turned_size(image, element);
    if (w == zero && h == zero) {
        Annotation::set_text(width, Decimal::integer(turned.width).text());
        Annotation::set_text(height, Decimal::integer(turned.height).text());
        return;
    }
    if (w != Decimal::integer(image.width) || h != Decimal::integer(image.height)) {
        a.fail(size, "<size> " + w.text() + "x" + h.text() + " is not the image's " + std::to_string(image.width) + "x" + std::to_string(image.height));
    }
    // Swapped as written ("61" stays "61", not re-spelt).
    if (axis_map(element).swap_axes) {
        const std::string w_text = width.GetText() ? width.GetText() : "";
        const std::string h_text = height.GetText() ? height.GetText() : "";
        width.SetText(h_text.c_str());
        height.SetText(w_text.c_str());
    }
}

// What the rotation did to a box: left it out, kept it whole, or cut it at the canvas's edge.
enum class BoxFate { left_out, whole, clipped };

// A turned box on the rotated canvas, written as the 1-based pixels that cover it.
BoxFate rotate_bndbox(tinyxml2::XMLElement& box, const Annotation& a, const AngleMap& angle, double min_visibility) {
    const BoxValues b = box_values(box, a);
    // Pixel i (1-based) spans the edges i - 1 .. i.
    const Bounds pixels{b.v[0].to_double() - 1, b.v[1].to_double() - 1, b.v[2].to_double(), b.v[3].to_double()};
    Polygon corners;
    for (const Point& c : corners_of(pixels)) corners.push_back(angle.map(c));
    const Bounds rotated = bounds_of(corners);
    const Bounds kept = clip_to_canvas(rotated, angle.output());
    if (!stays(rotated.area(), kept.area(), !kept.empty(), min_visibility)) return BoxFate::left_out;
    // Outward to whole pixels, a millionth of one forgiven (so 3.0000000001 stays 3).
    constexpr double forgiven = 1e-6;
    const auto first = [](double edge, std::int64_t side) { return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(edge + forgiven)) + 1, 1, side); };
    const auto last = [](double edge, std::int64_t side) { return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(edge - forgiven)), 1, side); };
    const std::int64_t x0 = first(kept.x0, angle.output().width), y0 = first(kept.y0, angle.output().height);
    const std::int64_t values[4] = {x0, y0, std::max(x0, last(kept.x1, angle.output().width)), std::max(y0, last(kept.y1, angle.output().height))};
    for (int i = 0; i < 4; ++i) Annotation::set_text(*b.corners[i], std::to_string(values[i]));
    // The same millionth forgiven here, so that a box the written pixels do not cut is not called cut.
    const double w = static_cast<double>(angle.output().width), h = static_cast<double>(angle.output().height);
    const bool cut = rotated.x0 < -forgiven || rotated.y0 < -forgiven || rotated.x1 > w + forgiven || rotated.y1 > h + forgiven;
    return cut ? BoxFate::clipped : BoxFate::whole;
}

// The VOC devkit writes an object's children as name, pose, truncated, difficult, bndbox: a <truncated>
// added goes after <pose>, else after <name>, else first.
void mark_truncated(tinyxml2::XMLElement& object) {
    if (tinyxml2::XMLElement* truncated = object.FirstChildElement("truncated")) {
        Annotation::set_text(*truncated, "1");
        return;
    }
    tinyxml2::XMLElement* truncated = object.GetDocument()->NewElement("truncated");
    truncated->SetText("1");
    tinyxml2::XMLElement* before = object.FirstChildElement("pose");
    if (!before) before = object.FirstChildElement("name");
    if (before) {
        object.InsertAfterChild(before, truncated);
    } else {
        object.InsertFirstChild(truncated);
    }
}

// Every object and part under `e` whose <bndbox> the rotation keeps, rotated; the others taken out (an
// element's own <bndbox> is its parent's to rotate: the root's, which no VOC file has, is kept). An <object>
// whose box the canvas cuts now extends beyond the image, which VOC marks <truncated>1; parts carry no
// <truncated> in VOC and are left as they are.
void rotate_boxes(tinyxml2::XMLElement& e, const Annotation& a, const AngleMap& angle, double min_visibility, bool root) {
    std::vector<tinyxml2::XMLElement*> children;
    for (tinyxml2::XMLElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) children.push_back(c);
    for (tinyxml2::XMLElement* c : children) {
        if (std::string_view(c->Name()) == "bndbox") {
            if (root) rotate_bndbox(*c, a, angle, min_visibility);
            continue;
        }
        if (tinyxml2::XMLElement* box = c->FirstChildElement("bndbox")) {
            const BoxFate fate = rotate_bndbox(*box, a, angle, min_visibility);
            if (fate == BoxFate::left_out) {
                e.DeleteChild(c);
                continue;
            }
            if (fate == BoxFate::clipped && std::string_view(c->Name()) == "object") mark_truncated(*c);
        }
        rotate_boxes(*c, a, angle, min_visibility, false);
    }
}

void set_or_add(tinyxml2::XMLElement& root, const char* name, const std::string& text) {
    tinyxml2::XMLElement* e = root.FirstChildElement(name);
    if (!e) {
        e = root.GetDocument()->NewElement(name);
        if (tinyxml2::XMLElement* folder = root.FirstChildElement("folder")) {
            root.InsertAfterChild(folder, e);
        } else {
            root.InsertFirstChild(e);
        }
    }
    Annotation::set_text(*e, text);
}

// The parsed document's <annotation>, or an error naming the line.
tinyxml2::XMLElement& parse_annotation(tinyxml2::XMLDocument& doc, std::string_view xml, const std::string& path) {
    if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) fail(path, doc.ErrorLineNum(), doc.ErrorStr());
    tinyxml2::XMLElement* root = doc.RootElement();
    if (!root) fail(path, 1, "no root element");
    if (std::string_view(root->Name()) != "annotation") fail(path, root->GetLineNum(), "the root element is <" + std::string(root->Name()) + ">, not <annotation>");
    return *root;
}

}  // namespace

std::string turn_voc_annotation(std::string_view xml, Orientation element, ImageSize image, const std::string& output_file_name,
                                const std::string& output_path, const std::string& path, const AngleMap* angle, double min_visibility) {
    tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
    tinyxml2::XMLElement& root = parse_annotation(doc, xml, path);
    const Annotation a(path);
    tinyxml2::XMLElement* size = root.FirstChildElement("size");
    if (size) turn_size_element(*size, a, element, image);
    for_each_box(root, [&](tinyxml2::XMLElement& box) { turn_bndbox(box, a, element, image); });
    if (angle) {
        if (size) {
            Annotation::set_text(a.child(*size, "width"), std::to_string(angle->output().width));
            Annotation::set_text(a.child(*size, "height"), std::to_string(angle->output().height));
        }
        rotate_boxes(root, a, *angle, min_visibility, true);
    }
    set_or_add(root, "filename", output_file_name);
    if (tinyxml2::XMLElement* p = root.FirstChildElement("path")) Annotation::set_text(*p, output_path);
    return print(doc, layout_of(xml));
}

void check_voc_annotation(std::string_view xml, const std::string& path) {
    tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
    tinyxml2::XMLElement& root = parse_annotation(doc, xml, path);
    const Annotation a(path);
    if (tinyxml2::XMLElement* size = root.FirstChildElement("size")) {
        a.number(a.child(*size, "width"));
        a.number(a.child(*size, "height"));
    }
    for_each_box(root, [&](tinyxml2::XMLElement& box) { box_values(box, a); });
}

}  // namespace gpurotate::labels
