// The built-in JPEGs are made here by libjpeg itself (tables optimized for the image are something only
// libjpeg's encoder writes), from pixels with edges and gradients, so that their blocks hold coefficients
// of every size class and their scans use most codes of the tables.

#include "jpeg/jpeg_scan_coder_check.hpp"

#include "jpeg/jpeg_lossless.hpp"
#include "metadata/jpeg_segments.hpp"
#include "jpeg/turbojpeg_codec.hpp"

#include <gpurotate/error.hpp>

#include <array>
#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE and size_t without including their headers
#include <cstdlib>
#include <optional>

#include <jpeglib.h>

namespace gpurotate::detail {
namespace {

struct BuiltInJpeg {
    int width, height, components, h, v;  // luma sampled h x v times chroma
    bool optimize;
};

// Sides that are not whole MCUs, so that trimmed variants and dummy blocks are checked too.
constexpr std::array<BuiltInJpeg, 3> built_in{{{45, 29, 3, 2, 2, true}, {37, 21, 3, 2, 1, false}, {27, 19, 1, 1, 1, true}}};

// jpeg_std_error's default exits the process; a failure here (memory) is an Error, never an exit. libjpeg
// reports it through error_exit, which jumps back to compress's setjmp (whose frame holds only trivially
// destructible objects, as longjmp requires).
struct JumpingErrors {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
};

[[noreturn]] void jump_on_error(j_common_ptr info) { std::longjmp(reinterpret_cast<JumpingErrors*>(info->err)->jump, 1); }

bool compress(jpeg_compress_struct& info, JumpingErrors& errors, const BuiltInJpeg& spec, const std::vector<JSAMPLE>& pixels, unsigned char** buffer,
              unsigned long* size) {
    if (setjmp(errors.jump)) return false;
    jpeg_mem_dest(&info, buffer, size);
    info.image_width = static_cast<JDIMENSION>(spec.width);
    info.image_height = static_cast<JDIMENSION>(spec.height);
    info.input_components = spec.components;
    info.in_color_space = spec.components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, 88, TRUE);
    info.optimize_coding = spec.optimize ? TRUE : FALSE;
    if (spec.components == 3) info.comp_info[0].h_samp_factor = spec.h, info.comp_info[0].v_samp_factor = spec.v;
    jpeg_start_compress(&info, TRUE);
    for (int y = 0; y < spec.height; ++y) {
        JSAMPROW rows[1] = {const_cast<JSAMPLE*>(pixels.data()) + static_cast<std::size_t>(y) * static_cast<std::size_t>(spec.width * spec.components)};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    return true;
}

std::vector<std::uint8_t> make_jpeg(const BuiltInJpeg& spec) {
    std::vector<JSAMPLE> pixels(static_cast<std::size_t>(spec.width * spec.height * spec.components));
    for (int y = 0; y < spec.height; ++y) {
        for (int x = 0; x < spec.width; ++x) {
            for (int c = 0; c < spec.components; ++c) {
                const unsigned noise = (static_cast<unsigned>(x) * 2654435761u ^ static_cast<unsigned>(y + 7 * c) * 40503u) >> 27;
                pixels[static_cast<std::size_t>((y * spec.width + x) * spec.components + c)] =
                    static_cast<JSAMPLE>((x * (3 + c) + y * (5 - c) + ((x / 6 + y / 4) % 2) * 90 + static_cast<int>(noise) * 3) % 256);
            }
        }
    }
    jpeg_compress_struct info{};
    JumpingErrors errors{};
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jump_on_error;
    jpeg_create_compress(&info);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    const bool made = compress(info, errors, spec, pixels, &buffer, &size);
    jpeg_destroy_compress(&info);
    std::vector<std::uint8_t> jpeg;
    if (made) jpeg.assign(buffer, buffer + size);
    std::free(buffer);
    if (!made) throw Error(ErrorCode::internal, "libjpeg could not make the scan coder's built-in check JPEG");
    return jpeg;
}

// The sides a JPEG's frame header (SOFn) declares.
std::optional<Extent> frame_extent(const std::vector<std::uint8_t>& jpeg) {
    for (const JpegSegment& s : jpeg_segments(jpeg)) {
        const bool frame = s.marker >= 0xc0 && s.marker <= 0xcf && s.marker != 0xc4 && s.marker != 0xc8 && s.marker != 0xcc;
        if (frame && s.size >= 5) {
            const std::uint8_t* b = jpeg.data() + s.payload;
            return Extent{std::int64_t{b[3]} << 8 | b[4], std::int64_t{b[1]} << 8 | b[2]};
        }
    }
    return std::nullopt;
}

// One variant of a built-in JPEG and libjpeg's file for it: made once, whatever the number of coders checked.
struct KnownAnswer {
    const std::vector<std::uint8_t>* jpeg;
    std::string path;
    Orientation element;
    std::optional<std::vector<std::uint8_t>> libjpegs;
};

// The built-in JPEGs' variants, each with libjpeg's file; an empty `problem` unless libjpeg's own file does
// not declare the variant's sides (where the encoder's setup does not fit the libjpeg it runs with, as
// jpeg_width on ABI 70 and 80, libjpeg and a coder would agree on a wrong file).
std::vector<KnownAnswer> known_answers(std::vector<std::vector<std::uint8_t>>& jpegs, std::string& problem) {
    constexpr Orientation elements[] = {Orientation::identity, Orientation::rot90,  Orientation::rot180,    Orientation::rot270,
                                        Orientation::flip_h,   Orientation::flip_v, Orientation::transpose, Orientation::transverse};
    std::vector<KnownAnswer> answers;
    jpegs.clear();
    jpegs.reserve(built_in.size());  // the answers point into it
    for (const BuiltInJpeg& spec : built_in) {
        jpegs.push_back(make_jpeg(spec));
        const std::string path = "the built-in " + std::to_string(spec.width) + "x" + std::to_string(spec.height) + " JPEG";
        for (Orientation element : elements) {
            std::vector<LosslessJpegReport> reports;
            auto libjpegs = transform_jpeg_lossless_variants(jpegs.back(), path, {{element, nullptr}}, JpegEdge::trim, false, ReadOptions{}, reports, nullptr);
            if (libjpegs.size() != 1) throw Error(ErrorCode::internal, "libjpeg did not transform " + path);
            if (libjpegs[0] && !(frame_extent(*libjpegs[0]) == Extent{reports[0].out_width, reports[0].out_height}) && problem.empty()) {
                problem = std::string(name(element)) + " of " + path + ": libjpeg's frame header does not give the output's sides";
            }
            answers.push_back({&jpegs.back(), path, element, std::move(libjpegs[0])});
        }
    }
    return answers;
}

// The first answer `coder` codes otherwise, or "". One variant a call: the coder's buffers stay as small as
// one scan's, so that a coder on a small device-memory budget is checked too (a batch over its budget would
// only be given back to libjpeg).
std::string difference_from(const std::vector<KnownAnswer>& answers, JpegScanCoder& coder) {
    for (const KnownAnswer& answer : answers) {
        std::vector<LosslessJpegReport> reports;
        const auto coders = transform_jpeg_lossless_variants(*answer.jpeg, answer.path, {{answer.element, nullptr}}, JpegEdge::trim, false, ReadOptions{},
                                                             reports, &coder);
        if (coders.size() != 1 || coders[0] != answer.libjpegs) return std::string(name(answer.element)) + " of " + answer.path;
    }
    return {};
}

}  // namespace

std::string scan_coder_difference(JpegScanCoder& coder) {
    std::vector<std::vector<std::uint8_t>> jpegs;
    std::string problem;
    const std::vector<KnownAnswer> answers = known_answers(jpegs, problem);
    const std::string difference = difference_from(answers, coder);
    return difference.empty() ? problem : difference;
}

std::vector<std::unique_ptr<JpegScanCoder>> trusted_scan_coders(std::vector<std::unique_ptr<JpegScanCoder>> coders, std::string& why) {
    // libjpeg's answers once, every coder against them.
    std::vector<std::vector<std::uint8_t>> jpegs;
    std::string problem;
    std::vector<KnownAnswer> answers;
    try {
        answers = known_answers(jpegs, problem);
    } catch (const std::exception& e) {
        why = std::string("the known-answer check failed: ") + e.what();
        return {};
    }
    for (const auto& coder : coders) {
        if (!coder) continue;
        std::string difference;
        try {
            difference = difference_from(answers, *coder);
        } catch (const std::exception& e) {
            why = std::string("the known-answer check failed: ") + e.what();
            return {};
        }
        coder->release_memory();
        if (difference.empty()) difference = problem;
        if (!difference.empty()) {
            why = "its bytes differ from " + libjpeg_description() + "'s for " + difference;
            return {};
        }
    }
    return coders;
}

}  // namespace gpurotate::detail
