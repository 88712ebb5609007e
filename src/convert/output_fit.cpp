#include "convert/output_fit.hpp"

#include "core/text.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace gpurotate::convert {
namespace {

// Grey and alpha, or RGBA: the alpha channel is the last.
bool has_alpha(PixelFormat f) { return f.channels == 2 || f.channels == 4; }

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// A sample as a fraction of its full scale (floats are taken as they are: 0..1 is the displayable range).
double fraction(const std::byte* sample, SampleType type) {
    switch (type) {
        case SampleType::u8: return static_cast<double>(std::to_integer<std::uint8_t>(*sample)) / 255.0;
        case SampleType::u16: {
            std::uint16_t v;
            std::memcpy(&v, sample, 2);
            return static_cast<double>(v) / 65535.0;
        }
        case SampleType::f32: {
            float v;
            std::memcpy(&v, sample, 4);
            return static_cast<double>(v);
        }
    }
    return 0;
}

// 16-bit and float samples as 8-bit ones, as ImageMagick 6's 16-bit build writes -depth 8 (the build Debian and
// Ubuntu ship as convert): v * 255 / 65535 truncated, which is v / 257 truncated; its alpha is kept as opacity
// (65535 - alpha), which is what is truncated there. (ImageMagick 7 rounds, and differs by one level where the
// fraction is at least a half.)
Image to_depth_8(const Image& in) {
    const PixelFormat from = in.format();
    Image out(in.width(), in.height(), PixelFormat{SampleType::u8, from.channels});
    const std::size_t bytes = sample_bytes(from.sample);
    for (std::int64_t y = 0; y < in.height(); ++y) {
        const std::byte* src = in.view().row(y);
        auto* dst = reinterpret_cast<std::uint8_t*>(out.view().row(y));
        for (std::int64_t x = 0; x < in.width(); ++x) {
            for (int c = 0; c < from.channels; ++c, src += bytes, ++dst) {
                const bool alpha = has_alpha(from) && c == from.channels - 1;
                const double v = std::clamp(fraction(src, from.sample), 0.0, 1.0);
                const auto q16 = static_cast<unsigned>(std::lround(v * 65535.0));  // exact for 16-bit samples
                *dst = static_cast<std::uint8_t>(alpha ? 255u - (65535u - q16) / 257u : q16 / 257u);
            }
        }
    }
    return out;
}

// One composed sample as ImageMagick 6's 16-bit build makes it: the blend rounded to 16 bits, then (for 8-bit
// samples) cut to 8 bits as its -depth 8 does (to_depth_8).
void store_composed(std::byte* sample, SampleType type, double value) {
    value = std::clamp(value, 0.0, 1.0);
    const auto q16 = static_cast<std::uint32_t>(value * 65535.0 + 0.5);
    switch (type) {
        case SampleType::u8: *sample = static_cast<std::byte>(q16 / 257u); return;
        case SampleType::u16: {
            const auto v = static_cast<std::uint16_t>(q16);
            std::memcpy(sample, &v, 2);
            return;
        }
        case SampleType::f32: {
            const auto v = static_cast<float>(value);
            std::memcpy(sample, &v, 4);
            return;
        }
    }
}

// The alpha channel composed over `background` and dropped: grey and alpha stays grey over a grey background.
Image flattened(const Image& in, const std::array<std::uint8_t, 3>& background) {
    const PixelFormat from = in.format();
    const bool grey_background = background[0] == background[1] && background[1] == background[2];
    const int colours = from.channels == 2 && grey_background ? 1 : 3;
    Image out(in.width(), in.height(), PixelFormat{from.sample, colours});
    const std::size_t bytes = sample_bytes(from.sample);
    for (std::int64_t y = 0; y < in.height(); ++y) {
        const std::byte* src = in.view().row(y);
        std::byte* dst = out.view().row(y);
        for (std::int64_t x = 0; x < in.width(); ++x, src += from.pixel_bytes(), dst += bytes * colours) {
            const double alpha = std::clamp(fraction(src + bytes * (from.channels - 1), from.sample), 0.0, 1.0);
            for (int c = 0; c < colours; ++c) {
                const double colour = fraction(src + bytes * (from.channels == 2 ? 0 : c), from.sample);
                store_composed(dst + bytes * c, from.sample, alpha * colour + (1.0 - alpha) * (background[c] / 255.0));
            }
        }
    }
    return out;
}

}  // namespace

std::array<std::uint8_t, 3> parse_background(const std::string& text) {
    const std::string t = detail::lowercase(text);
    if (t == "white") return {255, 255, 255};
    if (t == "black") return {0, 0, 0};
    if (!t.empty() && t[0] == '#' && (t.size() == 4 || t.size() == 7)) {
        std::array<std::uint8_t, 3> rgb{};
        bool ok = true;
        for (int c = 0; c < 3; ++c) {
            const int hi = hex_digit(t[t.size() == 4 ? 1 + c : 1 + 2 * c]), lo = hex_digit(t[t.size() == 4 ? 1 + c : 2 + 2 * c]);
            ok &= hi >= 0 && lo >= 0;
            rgb[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(hi * 16 + lo);
        }
        if (ok) return rgb;
    }
    throw Error(ErrorCode::usage, "--background " + text + ": expected #rgb, #rrggbb, white or black");
}

Image fit_to_output(Image decoded, const ConversionOptions& options, const detail::ImageSink& sink) {
    PixelFormat format = decoded.format();
    if (options.depth == 8 && format.sample != SampleType::u8) {
        decoded = to_depth_8(decoded);
        format = decoded.format();
    }
    if (has_alpha(format) && (options.flatten || (!options.background.empty() && !sink.row().holds(format)))) {
        decoded = flattened(decoded, options.background.empty() ? std::array<std::uint8_t, 3>{255, 255, 255} : parse_background(options.background));
        format = decoded.format();
    }
    if (!sink.row().holds(format)) {
        // What would make them fit, said with the refusal.
        std::string hints;
        const auto holds = [&](PixelFormat f) { return sink.row().holds(f); };
        if (format.sample != SampleType::u8 && holds({SampleType::u8, format.channels})) hints += "--depth 8 writes 8-bit samples";
        const PixelFormat opaque{format.sample, format.channels == 2 ? 1 : 3};
        if (has_alpha(format) && (holds(opaque) || holds({SampleType::u8, opaque.channels}))) {
            hints += std::string(hints.empty() ? "" : "; ") + "--background COLOR composes the alpha over a colour";
        }
        try {
            sink.check_holds(format);
        } catch (const Error& e) {
            throw Error(e.code(), std::string(e.what()) + (hints.empty() ? "" : " (" + hints + ")"));
        }
    }
    return decoded;
}

}  // namespace gpurotate::convert
