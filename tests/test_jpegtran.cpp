// JPEG to JPEG against jpegtran (libjpeg-turbo-progs), which transforms in the compressed domain as we do:
// on JPEGs of every chroma subsampling, with sides that are and are not whole MCUs, every element must
// decode to the same pixels as jpegtran's (-perfect, or -trim for --jpeg-edge trim), and four rot90 must
// give the file back bit for bit, its markers kept. Files are made by cjpeg and decoded by djpeg, comments
// written and read by wrjpgcom and rdjpgcom, all outside gpurotate.

#include "test_support.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>

using test_support::quote;
using test_support::run;

namespace {

struct Element {
    const char* ours;
    const char* jpegtran;
    bool moves_right_edge, moves_bottom_edge;  // the edges an imperfect transform would move to the start
};

constexpr Element elements[] = {
    {"--rot90", "-rotate 90", false, true},     {"--rot180", "-rotate 180", true, true}, {"--rot270", "-rotate 270", true, false},
    {"--flip-h", "-flip horizontal", true, false}, {"--flip-v", "-flip vertical", false, true}, {"--transpose", "-transpose", false, false},
    {"--transverse", "-transverse", true, true}};

struct Sampling {
    const char* cjpeg;  // cjpeg -sample, or "grey"
    int mcu_width, mcu_height;
};

constexpr Sampling samplings[] = {{"1x1", 8, 8}, {"2x1", 16, 8}, {"2x2", 16, 16}, {"1x2", 8, 16}, {"grey", 8, 8}};

// A PPM or PGM of smooth gradients and a few edges (JPEG-friendly, unlike noise).
void write_pnm(const std::string& path, int width, int height, bool grey) {
    std::ofstream out(path, std::ios::binary);
    out << (grey ? "P5" : "P6") << "\n" << width << " " << height << "\n255\n";
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int channels = grey ? 1 : 3;
            for (int c = 0; c < channels; ++c) out.put(static_cast<char>((x * (3 + c) + y * (5 - c) + ((x / 7 + y / 5) % 2) * 60) % 256));
        }
    }
}

std::string decoded(const std::string& jpeg) {
    const auto result = run(std::string(GPUROTATE_DJPEG) + " " + quote(jpeg));
    REQUIRE(result.status == 0);
    return result.output;
}

}  // namespace

TEST_CASE("JPEG to JPEG is jpegtran's lossless transform for every element, subsampling and edge") {
    test_support::TempDir dir;
    for (const Sampling& s : samplings) {
        const bool grey = std::string(s.cjpeg) == "grey";
        for (const auto& sides : {std::pair{4 * 16, 3 * 16}, std::pair{4 * 16 + 5, 3 * 16 + 3}}) {
            const int width = sides.first, height = sides.second;  // not a structured binding: CAPTURE cannot take one in clang 14
            const std::string pnm = dir.file("in.pnm"), in = dir.file("in.jpg");
            write_pnm(pnm, width, height, grey);
            const std::string sampling = grey ? " -grayscale" : std::string(" -sample ") + s.cjpeg;
            REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -quality 80" + sampling + " -outfile " + quote(in) + " " + quote(pnm)).status == 0);
            for (const Element& e : elements) {
                const bool perfect = !(e.moves_right_edge && width % s.mcu_width) && !(e.moves_bottom_edge && height % s.mcu_height);
                CAPTURE(s.cjpeg);
                CAPTURE(width);
                CAPTURE(height);
                CAPTURE(e.ours);
                const std::string ours = dir.file("ours.jpg"), theirs = dir.file("theirs.jpg");
                const auto by_default = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + e.ours + " -v --overwrite -o " + quote(ours));
                CAPTURE(by_default.output);
                REQUIRE(by_default.status == 0);
                if (perfect) {
                    CHECK(by_default.output.find("lossless JPEG transform") != std::string::npos);
                    REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " " + e.jpegtran + " -perfect -copy all -outfile " + quote(theirs) + " " + quote(in)).status ==
                            0);
                    CHECK(test_support::file_bytes(ours) == test_support::file_bytes(theirs));
                } else {
                    // The default re-encodes every pixel; trim is jpegtran -trim; error refuses and writes nothing.
                    CHECK(by_default.output.find("JPEG re-encoded") != std::string::npos);
                    const auto trimmed = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + e.ours + " --jpeg-edge trim --overwrite -o " + quote(ours));
                    CAPTURE(trimmed.output);
                    REQUIRE(trimmed.status == 0);
                    CHECK(trimmed.output.find("dropped the partial edge blocks") != std::string::npos);
                    REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " " + e.jpegtran + " -trim -copy all -outfile " + quote(theirs) + " " + quote(in)).status == 0);
                    CHECK(test_support::file_bytes(ours) == test_support::file_bytes(theirs));
                    const std::string refused = dir.file("refused.jpg");
                    const auto error = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + e.ours + " --jpeg-edge error -o " + quote(refused));
                    CHECK(error.status == 4);
                    CHECK(error.output.find("not lossless") != std::string::npos);
                    CHECK(!test_support::file_exists(refused));
                }
            }
        }
    }
}

TEST_CASE("--jpeg-edge trim on an image under one MCU across re-encodes it whole: trimming would leave nothing") {
    test_support::TempDir dir;
    const std::string pnm = dir.file("in.pnm"), in = dir.file("in.jpg"), out = dir.file("out.jpg");
    write_pnm(pnm, 10, 12, false);
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -sample 2x2 -outfile " + quote(in) + " " + quote(pnm)).status == 0);
    const auto flipped = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --flip-h --jpeg-edge trim -v -o " + quote(out));
    CAPTURE(flipped.output);
    REQUIRE(flipped.status == 0);
    CHECK(flipped.output.find("trimming would leave nothing") != std::string::npos);
    const std::string pixels = decoded(out);  // djpeg's PPM: its header names the size
    CHECK(pixels.rfind("P6\n10 12\n", 0) == 0);
    // augment does the same for such a variant: re-encoded, not failed.
    const std::string in_dir = dir.file("in"), out_dir = dir.file("out");
    REQUIRE(run("mkdir -p " + quote(in_dir) + " && cp " + quote(in) + " " + quote(in_dir + "/tiny.jpg")).status == 0);
    const auto augmented = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(out_dir) + " --ops flip-h --jpeg-edge trim -j 1");
    CAPTURE(augmented.output);
    CHECK(augmented.status == 0);
    CHECK(decoded(out_dir + "/tiny_flip-h.jpg").rfind("P6\n10 12\n", 0) == 0);
}

TEST_CASE("four rot90 of a JPEG give the file back bit for bit") {
    test_support::TempDir dir;
    for (const Sampling& s : samplings) {
        const bool grey = std::string(s.cjpeg) == "grey";
        const std::string pnm = dir.file("in.pnm"), in = dir.file("in.jpg");
        write_pnm(pnm, 96, 64, grey);
        const std::string sampling = grey ? " -grayscale" : std::string(" -sample ") + s.cjpeg;
        REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -quality 75" + sampling + " -outfile " + quote(in) + " " + quote(pnm)).status == 0);
        std::string current = in;
        for (int turn = 0; turn < 4; ++turn) {
            const std::string next = dir.file("turn" + std::to_string(turn) + ".jpg");
            REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(current) + " --rot90 --overwrite -o " + quote(next)).status == 0);
            current = next;
        }
        CAPTURE(s.cjpeg);
        CHECK(test_support::file_bytes(current) == test_support::file_bytes(in));
    }
}

TEST_CASE("a lossless transform keeps the input's coding: progressive stays progressive, arithmetic stays arithmetic") {
    test_support::TempDir dir;
    const std::string pnm = dir.file("in.pnm");
    write_pnm(pnm, 48, 32, false);
    const auto frame_marker = [](const std::string& path) {  // the first SOFn: 0xc0 baseline, 0xc2 progressive, 0xc9 arithmetic
        const std::string bytes = test_support::file_bytes(path);
        for (std::size_t i = 2; i + 1 < bytes.size(); ++i) {
            const auto marker = static_cast<unsigned char>(bytes[i + 1]);
            if (static_cast<unsigned char>(bytes[i]) == 0xff && marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
                return static_cast<int>(marker);
            }
        }
        return 0;
    };
    for (const auto& coding : {std::pair{"-progressive", 0xc2}, std::pair{"-arithmetic", 0xc9}}) {
        CAPTURE(coding.first);
        const std::string in = dir.file("in.jpg"), ours = dir.file("ours.jpg"), theirs = dir.file("theirs.jpg");
        REQUIRE(run(std::string(GPUROTATE_CJPEG) + " " + coding.first + " -outfile " + quote(in) + " " + quote(pnm)).status == 0);
        REQUIRE(frame_marker(in) == coding.second);
        REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --overwrite -o " + quote(ours)).status == 0);
        CHECK(frame_marker(ours) == coding.second);
        REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " -rotate 90 -perfect -outfile " + quote(theirs) + " " + quote(in)).status == 0);
        CHECK(decoded(ours) == decoded(theirs));
    }
}

TEST_CASE("a lossless transform keeps the file's markers (a comment here), a re-encode the comment, and --strip drops them") {
    test_support::TempDir dir;
    const std::string pnm = dir.file("in.pnm"), plain = dir.file("plain.jpg"), in = dir.file("in.jpg");
    write_pnm(pnm, 64, 48, false);
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -outfile " + quote(plain) + " " + quote(pnm)).status == 0);
    REQUIRE(run(std::string(GPUROTATE_WRJPGCOM) + " -comment 'made by a camera' " + quote(plain) + " > " + quote(in)).status == 0);
    const std::string kept = dir.file("kept.jpg"), stripped = dir.file("stripped.jpg");
    REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -o " + quote(kept)).status == 0);
    REQUIRE(run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --strip -o " + quote(stripped)).status == 0);
    CHECK(run(std::string(GPUROTATE_RDJPGCOM) + " " + quote(kept)).output == "made by a camera\n");
    CHECK(run(std::string(GPUROTATE_RDJPGCOM) + " " + quote(stripped)).output.empty());
    CHECK(decoded(kept) == decoded(stripped));
    // A re-encode writes the comment too; a PNG has no place for it, and says so.
    const auto reencoded = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 --quality 80 -v -o " + quote(dir.file("reencoded.jpg")));
    CHECK(reencoded.status == 0);
    CHECK(reencoded.output.find("comment") == std::string::npos);
    CHECK(run(std::string(GPUROTATE_RDJPGCOM) + " " + quote(dir.file("reencoded.jpg"))).output == "made by a camera\n");
    const auto png = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -v -o " + quote(dir.file("out.png")));
    CHECK(png.status == 0);
    CHECK(png.output.find("PNG output: not written: the input's JPEG comment") != std::string::npos);
}

TEST_CASE("augment makes a JPEG's JPEG variants losslessly, from one decode, as jpegtran does") {
    test_support::TempDir dir;
    // 4:2:0 (16x16 MCUs) at 69x51: rot90, rot180, rot270, flip-h, flip-v and transverse are not perfect.
    const std::string pnm = dir.file("in.pnm"), in_dir = dir.file("in"), in = in_dir + "/photo.jpg";
    REQUIRE(run("mkdir -p " + quote(in_dir)).status == 0);
    write_pnm(pnm, 69, 51, false);
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -quality 73 -sample 2x2 -outfile " + quote(in) + " " + quote(pnm)).status == 0);
    const std::string op_names[] = {"rot90", "rot180", "rot270", "flip-h", "flip-v", "transpose", "transverse"};

    // --jpeg-edge trim: every variant lossless, each jpegtran -trim's pixels.
    const std::string trimmed = dir.file("trimmed");
    const auto trim = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(trimmed) + " --jpeg-edge trim -j 1");
    CAPTURE(trim.output);
    REQUIRE(trim.status == 0);
    CHECK(trim.output.find("7 JPEG variants transformed losslessly") != std::string::npos);
    for (std::size_t k = 0; k < 7; ++k) {
        CAPTURE(op_names[k]);
        const std::string theirs = dir.file("theirs.jpg");
        REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " " + elements[k].jpegtran + " -trim -copy all -outfile " + quote(theirs) + " " + quote(in)).status == 0);
        CHECK(test_support::file_bytes(trimmed + "/photo_" + op_names[k] + ".jpg") == test_support::file_bytes(theirs));
    }

    // The default: transpose (always perfect) lossless, the others re-encoded at the input's quality.
    const std::string by_default = dir.file("default");
    const auto plain = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(by_default) + " -j 1");
    CAPTURE(plain.output);
    REQUIRE(plain.status == 0);
    CHECK(plain.output.find("1 JPEG variants transformed losslessly") != std::string::npos);
    const std::string theirs = dir.file("theirs.jpg");
    REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " -transpose -perfect -outfile " + quote(theirs) + " " + quote(in)).status == 0);
    CHECK(test_support::file_bytes(by_default + "/photo_transpose.jpg") == test_support::file_bytes(theirs));

    // --jpeg-edge error: the imperfect variants fail (exit 4, output error), the perfect one is written.
    const std::string refused = dir.file("refused");
    const auto error = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(refused) + " --jpeg-edge error -j 1");
    CAPTURE(error.output);
    CHECK(error.status == 4);
    CHECK(error.output.find("not lossless") != std::string::npos);
    CHECK(test_support::file_exists(refused + "/photo_transpose.jpg"));
    CHECK_FALSE(test_support::file_exists(refused + "/photo_rot90.jpg"));

    // --quality asks for new pixels: nothing lossless.
    const std::string requality = dir.file("requality");
    const auto quality = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(requality) + " --quality 90 -j 1");
    CHECK(quality.status == 0);
    CHECK(quality.output.find("transformed losslessly") == std::string::npos);
}

TEST_CASE("a JPEG with optimized Huffman tables (cjpeg -optimize, ImageMagick's default) comes back bit for bit after four --rot90") {
    test_support::TempDir dir;
    const std::string pnm = dir.file("in.pnm"), in = dir.file("in.jpg");
    write_pnm(pnm, 64, 48, false);
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -optimize -quality 85 -outfile " + quote(in) + " " + quote(pnm)).status == 0);
    std::string current = in;
    for (int turn = 1; turn <= 4; ++turn) {
        const std::string next = dir.file("turn" + std::to_string(turn) + ".jpg");
        const auto r = run(quote(GPUROTATE_EXE) + " " + quote(current) + " --rot90 -v -o " + quote(next));
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        CHECK(r.output.find("lossless JPEG transform") != std::string::npos);
        current = next;
    }
    CHECK(test_support::file_bytes(current) == test_support::file_bytes(in));
    // One turn keeps the tables optimized: no larger than jpegtran -optimize's output.
    REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " -rotate 90 -optimize -copy all -outfile " + quote(dir.file("theirs.jpg")) + " " + quote(in)).status == 0);
    CHECK(test_support::file_bytes(dir.file("turn1.jpg")) == test_support::file_bytes(dir.file("theirs.jpg")));
}
