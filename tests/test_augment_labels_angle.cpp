// `augment --labels --masks --random --degrees` through the executable: each variant's labels against its
// image's element (tests/label_reference.hpp) then its angle (tests/angle_reference.hpp), as the manifest
// records them; each mask against a plain nearest-neighbour loop, whatever --interpolate says; the labels the
// same under every interpolation.

#include "angle_reference.hpp"
#include "augment_support.hpp"
#include "label_reference.hpp"
#include "reference.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>
#include <gpurotate/rotate.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using gpurotate::Orientation;
using test_support::file_bytes;
using test_support::quote;
using test_support::run;
using test_support::TempDir;
using test_support::write_bytes;

const std::string exe = quote(GPUROTATE_EXE);

using angle_reference::rows_of;

// A grey 8-bit mask of w x h with classes 0..3 in bands, written as PNG.
void write_mask(const std::string& path, std::int64_t w, std::int64_t h) {
    gpurotate::Image mask(w, h, {gpurotate::SampleType::u8, 1});
    for (std::int64_t y = 0; y < h; ++y) {
        for (std::int64_t x = 0; x < w; ++x) reinterpret_cast<std::uint8_t*>(mask.view().row(y))[x] = static_cast<std::uint8_t>((x / 7 + y / 5) % 4);
    }
    gpurotate::write_image(path, mask.view());
}

std::vector<std::uint8_t> bytes_of(const gpurotate::Image& image) {
    std::vector<std::uint8_t> out;
    for (std::int64_t y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const std::uint8_t*>(image.view().row(y));
        out.insert(out.end(), row, row + image.width());
    }
    return out;
}

constexpr const char* label_text = "0 0.5 0.5 0.3 0.4\n1 0.05 0.93 0.08 0.1\n2 0.1 0.2 0.9 0.1 0.8 0.95 0.5 0.9 0.3 0.7\n";

// Every variant: its labels and mask checked; returns the label texts by output file, to compare runs.
std::map<std::string, std::string> check_run(const std::string& root, const std::string& out, std::int64_t W, std::int64_t H, bool keep) {
    std::map<std::string, std::string> texts;
    int rotated = 0;
    for (const std::string& line : augment_support::lines_of(out + "/manifest.jsonl")) {
        const nlohmann::json r = nlohmann::json::parse(line);
        REQUIRE(r.at("status") == "ok");
        const auto o = static_cast<Orientation>(r.at("element").get<int>());
        const double degrees = r.value("angle", 0.0);
        rotated += degrees != 0;
        CAPTURE(degrees);
        const bool swap = label_reference::swaps(o);
        const std::int64_t tw = swap ? H : W, th = swap ? W : H;
        const angle_reference::Canvas k = angle_reference::canvas(tw, th, degrees, keep);
        CHECK(r.at("width") == k.ow);
        CHECK(r.at("height") == k.oh);
        const std::string text = file_bytes(out + "/" + r.at("labels").get<std::string>());
        texts[r.at("file")] = text;
        const auto rows = rows_of(text);
        // The reference: the element on normalised values, then the angle in pixel edges, then the clip.
        const auto place = [&](double x, double y) {
            const auto [tx, ty] = label_reference::point(o, x, y, 1, 1);
            return angle_reference::rotate(k, {tx * tw, ty * th});
        };
        std::size_t at = 0;
        for (const auto& in : rows_of(label_text)) {
            if (in.size() == 5) {  // detect: corners placed, re-boxed, clipped
                angle_reference::Box b{1e300, 1e300, -1e300, -1e300};
                for (const double dx : {-0.5, 0.5}) {
                    for (const double dy : {-0.5, 0.5}) {
                        const angle_reference::P p = place(in[1] + dx * in[3], in[2] + dy * in[4]);
                        b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
                    }
                }
                b = angle_reference::clipped(k, b);
                if (b.x1 <= b.x0 || b.y1 <= b.y0) continue;  // nothing left: dropped
                REQUIRE(at < rows.size());
                const auto& got = rows[at++];
                CHECK(got[0] == in[0]);
                CHECK(std::fabs(got[1] - (b.x0 + b.x1) / 2 / k.ow) <= 2e-6);
                CHECK(std::fabs(got[2] - (b.y0 + b.y1) / 2 / k.oh) <= 2e-6);
                CHECK(std::fabs(got[3] - (b.x1 - b.x0) / k.ow) <= 2e-6);
                CHECK(std::fabs(got[4] - (b.y1 - b.y0) / k.oh) <= 2e-6);
            } else {  // segment: the polygon's area on the canvas
                std::vector<angle_reference::P> want, got;
                for (std::size_t i = 1; i + 1 < in.size(); i += 2) want.push_back(place(in[i], in[i + 1]));
                REQUIRE(at < rows.size());
                const auto& row = rows[at++];
                CHECK(row[0] == in[0]);
                for (std::size_t i = 1; i + 1 < row.size(); i += 2) got.push_back({row[i] * k.ow, row[i + 1] * k.oh});
                CHECK(angle_reference::area_on_canvas(k, got) == doctest::Approx(angle_reference::area_on_canvas(k, want)).epsilon(0.02));
            }
        }
        CHECK(at == rows.size());
        // The mask: its element exact, then nearest, whatever the image's interpolation.
        const gpurotate::Image turned = reference::transform(gpurotate::read_image(root + "/masks/train/a.png"), o);
        const std::vector<std::uint8_t> want = degrees != 0 ? angle_reference::nearest(k, bytes_of(turned)) : bytes_of(turned);
        CHECK(bytes_of(gpurotate::read_image(out + "/" + r.at("mask").get<std::string>())) == want);
    }
    CHECK(rotated > 0);
    return texts;
}

}  // namespace

TEST_CASE("augment --labels yolo --masks --degrees: labels follow element and angle, masks by nearest, under every interpolation") {
    TempDir dir;
    const std::string root = dir.file("data");
    const std::int64_t W = 61, H = 37;
    CHECK(std::system(("mkdir -p " + quote(root + "/images/train") + " " + quote(root + "/labels/train") + " " + quote(root + "/masks/train")).c_str()) == 0);
    gpurotate::write_image(root + "/images/train/a.png", test_support::random_image(W, H, {gpurotate::SampleType::u8, 3}, 7).view());
    write_bytes(root + "/labels/train/a.txt", label_text);
    write_mask(root + "/masks/train/a.png", W, H);
    for (const bool keep : {false, true}) {
        std::map<std::string, std::string> first;
        for (const gpurotate::Interpolation interpolation : gpurotate::all_interpolations) {
            const std::string name(gpurotate::name(interpolation));
            CAPTURE(name);
            CAPTURE(keep);
            const std::string out = dir.file("out-" + name + (keep ? "-keep" : ""));
            const auto result = run(exe + " augment " + quote(root) + " -r --device cpu -o " + quote(out) + " --labels yolo --masks " + quote(root + "/masks") +
                                    " --random 4 --with-replacement --seed 3 --degrees 170 --interpolate " + name + (keep ? " --keep-size" : ""));
            INFO(result.output);
            REQUIRE(result.status == 0);
            const auto texts = check_run(root, out, W, H, keep);
            if (first.empty()) first = texts;
            CHECK(texts == first);  // labels do not depend on the interpolation
        }
    }
}
