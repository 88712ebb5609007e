// JPEG to JPEG against jpegtran (libjpeg-turbo-progs), which transforms in the compressed domain as we do:
// on JPEGs of every chroma subsampling, with sides that are and are not whole MCUs, every element must
// decode to the same pixels as jpegtran's (-perfect, or -trim for --jpeg-edge trim), and four rot90 must
// give the file back bit for bit, its markers kept. Files are made by cjpeg and decoded by djpeg, comments
// written and read by wrjpgcom and rdjpgcom, all outside gpurotate.

#include "core/parallel_for.hpp"
#include "exif_support.hpp"
#include "test_support.hpp"

#include <gpurotate/io.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

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
    // The re-encoded ones are said without -v, once, and counted.
    CHECK(plain.output.find("6 JPEG variants of JPEG inputs re-encoded") != std::string::npos);
    // With the same words as the single-image command: the planner's (convert/conversion_plan.hpp).
    CHECK(plain.output.find("JPEG variants re-encoded, not transformed losslessly: rot90 of 69x51 with 16x16 MCUs would move a partial edge block "
                            "(--jpeg-edge trim keeps it lossless by dropping it, keep by leaving it in place)") != std::string::npos);
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
    CAPTURE(quality.output);
    CHECK(quality.status == 0);
    CHECK(quality.output.find("0 JPEG variants transformed losslessly") != std::string::npos);
    CHECK(quality.output.find("7 JPEG variants of JPEG inputs re-encoded") != std::string::npos);
    CHECK(quality.output.find("not transformed losslessly: --quality was given") != std::string::npos);
    // --quiet says neither.
    const auto quiet = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(dir.file("quiet")) + " --quality 90 -q -j 1");
    CHECK(quiet.status == 0);
    CHECK(quiet.output.empty());
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

TEST_CASE("a re-encoded JPEG says so without -v, and --quiet silences the note") {
    test_support::TempDir dir;
    const std::string pnm = dir.file("in.pnm"), in = dir.file("in.jpg"), out = dir.file("out.jpg");
    write_pnm(pnm, 69, 51, false);
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -sample 2x2 -outfile " + quote(in) + " " + quote(pnm)).status == 0);
    const auto imperfect = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -o " + quote(out));
    CAPTURE(imperfect.output);
    CHECK(imperfect.status == 0);
    CHECK(imperfect.output.find("JPEG re-encoded, not transformed losslessly: rot90 of 69x51 with 16x16 MCUs would move a partial edge block") !=
          std::string::npos);
    const auto quality = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --transpose --quality 80 --overwrite -o " + quote(out));
    CHECK(quality.output.find("not transformed losslessly: --quality was given") != std::string::npos);
    const auto quiet = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --rot90 -q --overwrite -o " + quote(out));
    CHECK(quiet.status == 0);
    CHECK(quiet.output.empty());
    // Lossless: nothing said.
    const auto lossless = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --transpose --overwrite -o " + quote(out));
    CHECK(lossless.status == 0);
    CHECK(lossless.output.empty());
}

TEST_CASE("--auto-orient of a JPEG is lossless where its edges allow: exiftran -a's pixels, the tag written as 1") {
    if (std::string(GPUROTATE_EXIFTRAN).empty()) {
        MESSAGE("SKIPPED: exiftran is not installed (apt-get install exiftran)");
        return;
    }
    test_support::TempDir dir;
    // 4:2:0 at 64x48: whole MCUs both ways, so every orientation's element is perfect.
    const auto stored = test_support::random_image(64, 48, {gpurotate::SampleType::u8, 3}, 5);
    for (int tag = 2; tag <= 8; ++tag) {
        CAPTURE(tag);
        gpurotate::ImageMetadata meta;
        meta.exif = test_support::exif_with(tag, 64, 48);
        gpurotate::WriteOptions options;
        options.metadata = &meta;
        options.quality = 90;
        options.chroma = gpurotate::ChromaSubsampling::s420;
        const std::string in = dir.file("in" + std::to_string(tag) + ".jpg"), ours = dir.file("ours.jpg"), theirs = dir.file("theirs.jpg");
        gpurotate::write_image(in, stored.view(), options);
        const auto r = run(quote(GPUROTATE_EXE) + " " + quote(in) + " --auto-orient -v --overwrite -o " + quote(ours));
        CAPTURE(r.output);
        REQUIRE(r.status == 0);
        CHECK(r.output.find("lossless JPEG transform") != std::string::npos);
        CHECK(r.output.find("re-encoded") == std::string::npos);
        REQUIRE(run(std::string(GPUROTATE_EXIFTRAN) + " -a -o " + quote(theirs) + " " + quote(in)).status == 0);
        CHECK(decoded(ours) == decoded(theirs));
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(ours)) == 1);
        // augment --auto-orient: its identity variant is the same file's upright form, also lossless.
        const std::string in_dir = dir.file("in" + std::to_string(tag)), out_dir = dir.file("out" + std::to_string(tag));
        REQUIRE(run("mkdir -p " + quote(in_dir) + " && cp " + quote(in) + " " + quote(in_dir + "/photo.jpg")).status == 0);
        const auto augmented = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(out_dir) + " --ops identity,rot90 --auto-orient -j 1");
        CAPTURE(augmented.output);
        REQUIRE(augmented.status == 0);
        CHECK(augmented.output.find("2 JPEG variants transformed losslessly") != std::string::npos);
        CHECK(decoded(out_dir + "/photo_identity.jpg") == decoded(theirs));
        CHECK(gpurotate::exif_orientation(gpurotate::read_metadata(out_dir + "/photo_identity.jpg")) == 1);
    }
}

namespace {

// The EXIF block of a JPEG file: its first APP1 "Exif" segment's payload after the header, walked here from SOI.
std::vector<std::uint8_t> exif_of_jpeg(const std::string& path) {
    const std::string b = test_support::file_bytes(path);
    for (std::size_t at = 2; at + 4 <= b.size() && static_cast<unsigned char>(b[at]) == 0xff;) {
        const auto marker = static_cast<unsigned char>(b[at + 1]);
        const std::size_t length = static_cast<std::size_t>(static_cast<unsigned char>(b[at + 2]) << 8 | static_cast<unsigned char>(b[at + 3]));
        if (marker == 0xda || length < 2 || at + 2 + length > b.size()) break;
        if (marker == 0xe1 && length > 8 && b.compare(at + 4, 6, std::string("Exif\0\0", 6)) == 0) {
            return std::vector<std::uint8_t>(b.begin() + static_cast<std::ptrdiff_t>(at + 10), b.begin() + static_cast<std::ptrdiff_t>(at + 2 + length));
        }
        at += 2 + length;
    }
    return {};
}

// The pixels of the EXIF thumbnail in `exif`, decoded by djpeg (a PPM), through a file in `dir`.
std::string decoded_thumbnail(const test_support::TempDir& dir, const std::vector<std::uint8_t>& exif) {
    const auto thumbnail = test_support::exif_thumbnail(exif);
    REQUIRE(thumbnail);
    const std::string path = dir.file("thumbnail.jpg");
    test_support::write_bytes(path, *thumbnail);
    return decoded(path);
}

}  // namespace

TEST_CASE("the EXIF thumbnail turns with the image, as exiftran turns it: --auto-orient, --rot90, re-encoded, into a PNG and a WebP") {
    if (std::string(GPUROTATE_EXIFTRAN).empty()) {
        MESSAGE("SKIPPED: exiftran is not installed (apt-get install exiftran)");
        return;
    }
    test_support::TempDir dir;
    const auto stored = test_support::random_image(64, 48, {gpurotate::SampleType::u8, 3}, 7);
    // Thumbnails made by cjpeg at 4:2:0: one of whole MCUs, one that exiftran trims (its partial edge blocks dropped).
    for (const auto& sides : {std::pair{48, 32}, std::pair{44, 30}}) {
        const int width = sides.first, height = sides.second;
        CAPTURE(width);
        CAPTURE(height);
        const std::string pnm = dir.file("thumbnail.pnm"), made = dir.file("made.jpg");
        write_pnm(pnm, width, height, false);
        REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -quality 85 -sample 2x2 -outfile " + quote(made) + " " + quote(pnm)).status == 0);
        const std::string thumbnail = test_support::file_bytes(made);
        const std::string original = decoded(made);
        struct Run {
            int tag;
            const char* ours;      // gpurotate's options
            const char* exiftran;  // exiftran's, for the same element
            std::size_t trailing;  // bytes after the thumbnail in the block: where it goes when it grows
        };
        std::vector<Run> runs;
        for (int tag = 2; tag <= 8; ++tag) runs.push_back({tag, "--auto-orient", "-a", 0});
        runs.push_back({1, "--rot90", "-9", 0});
        runs.push_back({6, "--rot90", "-9", 0});  // the tag kept, the thumbnail turned with the pixels as they are stored
        runs.push_back({6, "--auto-orient", "-a", 301});
        for (const Run& r : runs) {
            const std::string ours_options = r.ours;
            CAPTURE(r.tag);
            CAPTURE(ours_options);
            CAPTURE(r.trailing);
            gpurotate::ImageMetadata meta;
            meta.exif = test_support::exif_with_thumbnail(r.tag, 64, 48, thumbnail, r.trailing);
            gpurotate::WriteOptions options;
            options.metadata = &meta;
            options.quality = 90;
            options.chroma = gpurotate::ChromaSubsampling::s420;
            options.overwrite = true;
            const std::string in = dir.file("in.jpg"), theirs = dir.file("theirs.jpg");
            gpurotate::write_image(in, stored.view(), options);
            REQUIRE(run("rm -f " + quote(theirs) + " && " + GPUROTATE_EXIFTRAN + " " + r.exiftran + " -o " + quote(theirs) + " " + quote(in)).status == 0);
            const std::string expected = decoded_thumbnail(dir, exif_of_jpeg(theirs));
            CHECK(expected != original);  // exiftran turned it: every element here moves pixels of this thumbnail
            // Lossless (the coefficients moved), re-encoded (--quality), into a PNG's eXIf chunk and a WebP's EXIF
            // chunk: one thumbnail.
            std::vector<std::string> hows = {".jpg", ".jpg --quality 80", ".png"};
            if (GPUROTATE_TEST_WITH_OPENCV) hows.emplace_back(".webp");
            for (const std::string& how : hows) {
                CAPTURE(how);
                const std::string extension = how.substr(0, how.find(' ')), ours = dir.file("ours" + extension);
                const std::string options_given = how.size() > extension.size() ? how.substr(extension.size()) : "";
                const auto result = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + r.ours + options_given + " --overwrite -o " + quote(ours));
                CAPTURE(result.output);
                REQUIRE(result.status == 0);
                CHECK(result.output.find("thumbnail") == std::string::npos);
                CHECK(decoded_thumbnail(dir, extension == ".jpg" ? exif_of_jpeg(ours) : gpurotate::read_metadata(ours).exif) == expected);
            }
        }
    }
}

namespace {

// The probe that found lossless JPEG corrupt where libjpeg is built for ABI 80: every chroma subsampling,
// sides that are whole MCUs, odd and under one MCU, standard and optimized tables, restart intervals.
struct ProbeInput {
    std::string name;
    int width, height, mcu_width, mcu_height;
    bool optimized;
};

std::vector<ProbeInput> write_probe_inputs(const std::string& folder) {
    REQUIRE(run("mkdir -p " + quote(folder)).status == 0);
    std::vector<ProbeInput> inputs;
    const Sampling probe_samplings[] = {{"1x1", 8, 8}, {"2x1", 16, 8}, {"2x2", 16, 16}, {"1x2", 8, 16}, {"4x1", 32, 8}, {"grey", 8, 8}};
    for (const Sampling& s : probe_samplings) {
        for (const auto& sides : {std::pair{17, 9}, std::pair{61, 45}, std::pair{200, 136}}) {
            for (const char* coding : {"", "-optimize", "-restart 2"}) {
                const bool grey = std::string(s.cjpeg) == "grey";
                const std::string pnm = folder + "/in.pnm";
                write_pnm(pnm, sides.first, sides.second, grey);
                std::string name = std::string(grey ? "grey" : s.cjpeg) + "-" + std::to_string(sides.first) + "x" + std::to_string(sides.second) +
                                   (coding[0] ? std::string(coding).substr(1, 3) : std::string("std"));
                const std::string sampling = grey ? " -grayscale" : std::string(" -sample ") + s.cjpeg;
                REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -quality 83 " + coding + sampling + " -outfile " + quote(folder + "/" + name + ".jpg") + " " +
                            quote(pnm))
                            .status == 0);
                REQUIRE(run("rm " + quote(pnm)).status == 0);
                inputs.push_back({name, sides.first, sides.second, s.mcu_width, s.mcu_height, std::string(coding) == "-optimize"});
            }
        }
    }
    return inputs;
}

const char* const op_names[] = {"rot90", "rot180", "rot270", "flip-h", "flip-v", "transpose", "transverse"};

}  // namespace

TEST_CASE("probe: augment --jpeg-edge trim writes jpegtran -trim's bytes for every subsampling, size, table and restart interval") {
    test_support::TempDir dir;
    const std::string in_dir = dir.file("in"), out_dir = dir.file("out");
    const std::vector<ProbeInput> inputs = write_probe_inputs(in_dir);
    const auto augmented = run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(out_dir) + " --jpeg-edge trim --device cpu");
    CAPTURE(augmented.output);
    REQUIRE(augmented.status == 0);
    int compared = 0, reencoded = 0;
    for (const ProbeInput& input : inputs) {
        for (std::size_t k = 0; k < 7; ++k) {
            CAPTURE(input.name);
            CAPTURE(op_names[k]);
            const std::string in = in_dir + "/" + input.name + ".jpg", ours = out_dir + "/" + input.name + "_" + op_names[k] + ".jpg";
            // Under one MCU across a mirrored side, trimming would leave nothing: re-encoded whole.
            if ((elements[k].moves_right_edge && input.width < input.mcu_width) || (elements[k].moves_bottom_edge && input.height < input.mcu_height)) {
                const bool swaps = k == 0 || k == 2 || k == 5 || k == 6;
                const std::string header = "P" + std::string(input.name.rfind("grey", 0) == 0 ? "5" : "6") + "\n" +
                                           std::to_string(swaps ? input.height : input.width) + " " + std::to_string(swaps ? input.width : input.height) + "\n";
                CHECK(decoded(ours).rfind(header, 0) == 0);
                ++reencoded;
                continue;
            }
            const std::string theirs = dir.file("theirs.jpg");
            REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " " + elements[k].jpegtran + " -trim -copy all" + (input.optimized ? " -optimize" : "") +
                        " -outfile " + quote(theirs) + " " + quote(in))
                        .status == 0);
            CHECK(test_support::file_bytes(ours) == test_support::file_bytes(theirs));
            ++compared;
        }
    }
    CHECK(compared + reencoded == 7 * static_cast<int>(inputs.size()));
    CHECK(augmented.output.find(std::to_string(compared) + " JPEG variants transformed losslessly") != std::string::npos);
    CHECK(augmented.output.find(std::to_string(reencoded) + " JPEG variants of JPEG inputs re-encoded") != std::string::npos);
}

TEST_CASE("probe: augment --device cuda writes the bytes --device cpu writes, its scans coded on the GPU") {
    if (run(quote(GPUROTATE_EXE) + " --version").output.find("\ngpu 0:") == std::string::npos) {
        MESSAGE("SKIPPED: no GPU listed by gpurotate --version");
        return;
    }
    test_support::TempDir dir;
    const std::string in_dir = dir.file("in");
    const std::vector<ProbeInput> inputs = write_probe_inputs(in_dir);
    for (const char* device : {"cpu", "cuda"}) {
        const auto augmented =
            run(quote(GPUROTATE_EXE) + " augment " + quote(in_dir) + " -o " + quote(dir.file(device)) + " --jpeg-edge trim --device " + device);
        CAPTURE(augmented.output);
        REQUIRE(augmented.status == 0);
        if (std::string(device) == "cuda") {
            CHECK(augmented.output.find("entropy-coded on the GPU") != std::string::npos);
            CHECK(augmented.output.find("differ") == std::string::npos);  // the known-answer check found the GPU's bytes libjpeg's
        }
    }
    for (const ProbeInput& input : inputs) {
        for (const char* op : op_names) {
            CAPTURE(input.name);
            CAPTURE(op);
            const std::string file = "/" + input.name + "_" + op + ".jpg";
            CHECK(test_support::file_bytes(dir.file("cuda") + file) == test_support::file_bytes(dir.file("cpu") + file));
        }
    }
}

TEST_CASE("a JPEG of more scans than --max-scans, or of more marker segments than a camera writes, is refused before any work") {
    test_support::TempDir dir;
    const std::string pnm = dir.file("in.pnm"), sixty_four = dir.file("in/64.jpg"), many = dir.file("in/many.jpg"), script = dir.file("scans.txt");
    REQUIRE(run("mkdir -p " + quote(dir.file("in"))).status == 0);
    write_pnm(pnm, 64, 48, true);
    // A valid grey progressive file of 64 scans (cjpeg's script takes at most 100): the DC, then each AC
    // coefficient on its own. Under the default limit it is an ordinary file.
    std::string scans = "0: 0-0, 0, 0;\n";
    for (int k = 1; k < 64; ++k) scans += "0: " + std::to_string(k) + "-" + std::to_string(k) + ", 0, 0;\n";
    test_support::write_bytes(script, scans);
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -grayscale -scans " + quote(script) + " -outfile " + quote(sixty_four) + " " + quote(pnm)).status == 0);
    CHECK(run(quote(GPUROTATE_EXE) + " " + quote(sixty_four) + " --rot90 -o " + quote(dir.file("64-rot90.jpg"))).status == 0);
    const auto limited = run(quote(GPUROTATE_EXE) + " " + quote(sixty_four) + " --rot90 --max-scans 50 -o " + quote(dir.file("64-limited.jpg")));
    CHECK(limited.status == 3);
    CHECK(limited.output.find("it has more than 50 scans") != std::string::npos);
    // Its scans twice over: 128, over the default of 100 (refused from the count, before libjpeg would see
    // that the second half repeats the first).
    std::string bytes = test_support::file_bytes(sixty_four);
    const std::size_t first_scan = bytes.find("\xff\xda"), end = bytes.rfind("\xff\xd9");
    REQUIRE(first_scan != std::string::npos);
    bytes.insert(end, bytes.substr(first_scan, end - first_scan));
    test_support::write_bytes(many, bytes);
    for (const char* options : {"--rot90", "--transpose", "--rot90 --quality 80"}) {  // lossless, and TurboJPEG's decode
        CAPTURE(options);
        const auto r = run(quote(GPUROTATE_EXE) + " " + quote(many) + " " + options + " -o " + quote(dir.file("out.jpg")));
        CAPTURE(r.output);
        CHECK(r.status == 3);
        CHECK(r.output.find("'" + many + "': it has more than 100 scans") != std::string::npos);
        CHECK(r.output.find("--max-scans") != std::string::npos);
        CHECK_FALSE(test_support::file_exists(dir.file("out.jpg")));
    }
    // Raised past it, libjpeg reads the file and finds its second half repeats the first: refused as damaged.
    const auto raised = run(quote(GPUROTATE_EXE) + " " + quote(many) + " --rot90 --max-scans 200 -o " + quote(dir.file("raised.jpg")));
    CHECK(raised.output.find("scans") == std::string::npos);
    CHECK(run(quote(GPUROTATE_EXE) + " " + quote(many) + " --rot90 --max-scans lots -o " + quote(dir.file("bad.jpg"))).status == 2);

    // 10001 comments after SOI: every path refuses it from one walk over the bytes.
    const std::string plain = dir.file("plain.jpg");
    REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -outfile " + quote(plain) + " " + quote(pnm)).status == 0);
    std::string commented_bytes = test_support::file_bytes(plain), comments;
    for (int i = 0; i < 10001; ++i) comments += std::string("\xff\xfe\x00\x03", 4) + "c";
    commented_bytes.insert(2, comments);
    test_support::write_bytes(dir.file("in/commented.jpg"), commented_bytes);
    const auto commented = run(quote(GPUROTATE_EXE) + " " + quote(dir.file("in/commented.jpg")) + " --rot90 -o " + quote(dir.file("c.jpg")));
    CAPTURE(commented.output);
    CHECK(commented.status == 3);
    CHECK(commented.output.find("it has more than 10000 marker segments") != std::string::npos);

    // augment: each fails alone, named, and the others are written.
    REQUIRE(run("cp " + quote(plain) + " " + quote(dir.file("in/plain.jpg"))).status == 0);
    const auto augmented = run(quote(GPUROTATE_EXE) + " augment " + quote(dir.file("in")) + " -o " + quote(dir.file("out")) + " --ops rot90 -j 1");
    CAPTURE(augmented.output);
    CHECK(augmented.status == 3);
    CHECK(augmented.output.find("4 inputs (2 failed), 2 outputs written") != std::string::npos);
    CHECK(augmented.output.find("'" + many + "': it has more than 100 scans") != std::string::npos);
    CHECK(test_support::file_exists(dir.file("out/plain_rot90.jpg")));
    CHECK(test_support::file_exists(dir.file("out/64_rot90.jpg")));
}

TEST_CASE("a photograph large enough to be coded in segments on the cores is jpegtran's, byte for byte, for every element and table kind") {
    // Over 4 megapixels (jpeg_lossless.cpp's segment_coded_pixels), odd sides: where the machine has two cores
    // or more, the scans are coded in segments and spliced; the bytes must be jpegtran's (-optimize where the
    // input's tables were made for it, -trim for the partial edges, as --jpeg-edge trim).
    struct Input {
        const char* sampling;  // cjpeg -sample, or "grey"
        bool optimized;
        int restart;  // cjpeg -restart, in MCU rows (0: none)
    };
    const Input inputs[] = {{"1x1", false, 0}, {"1x1", true, 0}, {"2x2", false, 0}, {"2x2", true, 0}, {"2x1", false, 0},
                            {"grey", false, 0}, {"grey", true, 0}, {"2x2", false, 1}};
    test_support::TempDir dir;
    const int width = 2053, height = 2047;
    for (const Input& input : inputs) {
        const bool grey = std::string(input.sampling) == "grey";
        const std::string pnm = dir.file("in.pnm"), in = dir.file("in.jpg");
        write_pnm(pnm, width, height, grey);
        const std::string options = std::string(grey ? " -grayscale" : std::string(" -sample ") + input.sampling) + (input.optimized ? " -optimize" : "") +
                                    (input.restart ? " -restart " + std::to_string(input.restart) : "");
        REQUIRE(run(std::string(GPUROTATE_CJPEG) + " -quality 90" + options + " -outfile " + quote(in) + " " + quote(pnm)).status == 0);
        for (const Element& e : elements) {
            CAPTURE(options);
            CAPTURE(e.ours);
            const std::string ours = dir.file("ours.jpg"), theirs = dir.file("theirs.jpg");
            const auto r = run(quote(GPUROTATE_EXE) + " " + quote(in) + " " + e.ours + " --jpeg-edge trim --overwrite -v -o " + quote(ours));
            CAPTURE(r.output);
            REQUIRE(r.status == 0);
            // The bytes below are the segment coder's, not libjpeg's, wherever there is a second core.
            if (gpurotate::detail::usable_cores() > 1) CHECK(r.output.find("entropy-coded in segments on the cores") != std::string::npos);
            REQUIRE(run(std::string(GPUROTATE_JPEGTRAN) + " " + e.jpegtran + " -trim -copy all" + (input.optimized ? " -optimize" : "") + " -outfile " +
                        quote(theirs) + " " + quote(in))
                        .status == 0);
            CHECK(test_support::file_bytes(ours) == test_support::file_bytes(theirs));
        }
    }
}
