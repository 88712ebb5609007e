#include "formats/pnm_codec.hpp"

#include "core/decode_limits.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

namespace gpurotate::detail {
namespace {

struct PnmHeader {
    std::int64_t width = 0, height = 0;
    int channels = 0;
    std::uint32_t maxval = 0;
    std::size_t pixels_at = 0;  ///< where the raster begins
};

class HeaderReader {
public:
    HeaderReader(const std::vector<std::uint8_t>& bytes, const std::string& path) : bytes_(bytes), path_(path) {}

    [[noreturn]] void fail(const std::string& why) const { throw Error(ErrorCode::input, "cannot decode '" + path_ + "': corrupt PNM: " + why); }

    // P5 and P6: whitespace and '#' comments to end of line between the numbers.
    void skip_space_and_comments() {
        while (at_ < bytes_.size() && (std::isspace(bytes_[at_]) || bytes_[at_] == '#')) {
            if (bytes_[at_] == '#') {
                while (at_ < bytes_.size() && bytes_[at_] != '\n' && bytes_[at_] != '\r') ++at_;
            } else {
                ++at_;
            }
        }
    }

    std::int64_t number(const char* what) {
        skip_space_and_comments();
        std::int64_t value = 0;
        const std::size_t first = at_;
        for (; at_ < bytes_.size() && std::isdigit(bytes_[at_]); ++at_) {
            value = value * 10 + (bytes_[at_] - '0');
            if (value > (std::int64_t{1} << 31)) fail(std::string(what) + " is larger than 2147483648");
        }
        if (at_ == first) fail(std::string("no ") + what + " in the header");
        return value;
    }

    // The single whitespace byte that ends a P5/P6 header.
    std::size_t raster_start() {
        if (at_ >= bytes_.size() || !std::isspace(bytes_[at_])) fail("no whitespace after the header");
        return at_ + 1;
    }

    // A P7 header line: "NAME value", up to the newline; false at ENDHDR.
    bool pam_line(std::string& name, std::string& value) {
        for (;;) {
            if (at_ >= bytes_.size()) fail("no ENDHDR line");
            const std::size_t end = std::find(bytes_.begin() + static_cast<std::ptrdiff_t>(at_), bytes_.end(), '\n') - bytes_.begin();
            std::string line(bytes_.begin() + static_cast<std::ptrdiff_t>(at_), bytes_.begin() + static_cast<std::ptrdiff_t>(end));
            at_ = end + 1;
            while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
            std::size_t start = 0;
            while (start < line.size() && std::isspace(static_cast<unsigned char>(line[start]))) ++start;
            line.erase(0, start);
            if (line.empty() || line[0] == '#') continue;
            const std::size_t space = line.find_first_of(" \t");
            name = line.substr(0, space);
            value = space == std::string::npos ? "" : line.substr(line.find_first_not_of(" \t", space));
            if (name == "ENDHDR") {
                if (end >= bytes_.size()) fail("no newline after ENDHDR");
                return false;
            }
            return true;
        }
    }

    std::size_t position() const { return at_; }
    void seek(std::size_t at) { at_ = at; }

    // A plain (ASCII) raster's next sample: a decimal number, or with `one_digit` (P1) a single 0 or 1, which
    // may stand packed without whitespace. Nothing at the end of the file.
    std::optional<std::uint32_t> sample(bool one_digit) {
        skip_space_and_comments();
        if (at_ >= bytes_.size()) return std::nullopt;
        if (!std::isdigit(bytes_[at_])) fail("a sample is not a number");
        if (one_digit) return static_cast<std::uint32_t>(bytes_[at_++] - '0');
        std::uint32_t value = 0;
        for (; at_ < bytes_.size() && std::isdigit(bytes_[at_]); ++at_) {
            value = value * 10 + static_cast<std::uint32_t>(bytes_[at_] - '0');
            if (value > 65535) fail("a sample is over 65535");
        }
        return value;
    }

private:
    const std::vector<std::uint8_t>& bytes_;
    const std::string& path_;
    std::size_t at_ = 0;
};

std::int64_t pam_number(HeaderReader& reader, const std::string& name, const std::string& value) {
    std::int64_t n = 0;
    if (value.empty() || value.size() > 10 || value.find_first_not_of("0123456789") != std::string::npos) {
        reader.fail(name + " '" + printable(value, 20) + "' is not a number");
    }
    for (const char c : value) n = n * 10 + (c - '0');
    if (n > (std::int64_t{1} << 31)) reader.fail(name + " " + value + " is larger than 2147483648");  // the pixel limit's sides fit 32 bits
    return n;
}

PnmHeader read_header(const std::vector<std::uint8_t>& bytes, const std::string& path) {
    HeaderReader reader(bytes, path);
    PnmHeader h;
    if (bytes[1] == '7') {
        reader.seek(2);
        std::string name, value, tuple_type;
        std::int64_t maxval = 0;
        while (reader.pam_line(name, value)) {
            if (name == "TUPLTYPE") tuple_type += (tuple_type.empty() ? "" : " ") + value;
            if (name == "WIDTH") h.width = pam_number(reader, name, value);
            if (name == "HEIGHT") h.height = pam_number(reader, name, value);
            if (name == "DEPTH") h.channels = static_cast<int>(std::min<std::int64_t>(pam_number(reader, name, value), 1 << 20));
            if (name == "MAXVAL") maxval = pam_number(reader, name, value);
        }
        if (h.channels < 1) reader.fail("DEPTH is missing or 0");
        // The tuple types whose channels are grey or RGB with alpha last; CMYK and the like would be read as
        // RGBA in silence.
        static const char* const known[] = {"", "GRAYSCALE", "GRAYSCALE_ALPHA", "RGB", "RGB_ALPHA", "BLACKANDWHITE", "BLACKANDWHITE_ALPHA"};
        if (std::find(std::begin(known), std::end(known), tuple_type) == std::end(known)) {
            throw Error(ErrorCode::input, "cannot decode '" + path + "': a PAM of TUPLTYPE " + printable(tuple_type, 40) +
                                              " (GRAYSCALE, RGB and their _ALPHA forms are read)");
        }
        if (h.channels > 4) {
            throw Error(ErrorCode::input, "cannot decode '" + path + "': a PAM of " + std::to_string(h.channels) + " channels (at most 4 are read)");
        }
        if (maxval < 1 || maxval > 65535) reader.fail("MAXVAL " + std::to_string(maxval) + " is outside 1..65535");
        h.maxval = static_cast<std::uint32_t>(maxval);
        h.pixels_at = reader.position();
        return h;
    }
    reader.seek(2);
    const char kind = static_cast<char>(bytes[1]);
    h.channels = kind == '3' || kind == '6' ? 3 : 1;
    h.width = reader.number("width");
    h.height = reader.number("height");
    const bool bitmap = kind == '1' || kind == '4';  // no maxval: 1 is black, 0 white
    const std::int64_t maxval = bitmap ? 1 : reader.number("maxval");
    if (maxval < 1 || maxval > 65535) reader.fail("maxval " + std::to_string(maxval) + " is outside 1..65535");
    h.maxval = static_cast<std::uint32_t>(maxval);
    // A binary raster starts after one whitespace byte; a plain one's samples are found as they are read.
    h.pixels_at = kind >= '4' ? reader.raster_start() : reader.position();
    return h;
}

bool starts_as_netpbm(const std::vector<std::uint8_t>& bytes) {
    return bytes.size() >= 3 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '7' && std::isspace(bytes[2]);
}

}  // namespace

std::optional<Extent> pnm_declared_extent(const std::vector<std::uint8_t>& bytes) {
    if (!starts_as_netpbm(bytes)) return std::nullopt;
    try {
        const PnmHeader h = read_header(bytes, {});
        return Extent{h.width, h.height};
    } catch (const Error&) {
        return std::nullopt;  // a damaged header: decode_pnm names the damage
    }
}

std::optional<Image> decode_pnm(const std::vector<std::uint8_t>& bytes, const std::string& path, const ReadOptions& options) {
    if (!starts_as_netpbm(bytes)) return std::nullopt;
    const char kind = static_cast<char>(bytes[1]);
    const PnmHeader h = read_header(bytes, path);
    check_declared_size(path, h.width, h.height, options);
    const bool wide = h.maxval > 255;  // two bytes a sample, most significant first
    const std::size_t samples = static_cast<std::size_t>(h.width) * static_cast<std::size_t>(h.height) * static_cast<std::size_t>(h.channels);
    const auto truncated = [&] { return Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNM: file is truncated inside the pixel data"); };
    const std::uint32_t full = wide ? 65535 : 255;
    const auto sample_over_maxval = [&](std::uint32_t v) {
        return Error(ErrorCode::input, "cannot decode '" + path + "': corrupt PNM: a sample of " + std::to_string(v) + " is over its maxval " +
                                           std::to_string(h.maxval));
    };
    const auto scaled = [&](std::uint32_t v) { return h.maxval == full ? v : (v * full + h.maxval / 2) / h.maxval; };
    if (kind == '4') {  // rows of bits, most significant first, each row whole bytes; 1 is black
        const std::size_t row_bytes = (static_cast<std::size_t>(h.width) + 7) / 8;
        if ((bytes.size() - h.pixels_at) / row_bytes < static_cast<std::size_t>(h.height)) throw truncated();
        Image image(h.width, h.height, PixelFormat{SampleType::u8, 1}, options.memory);
        for (std::int64_t y = 0; y < h.height; ++y) {
            const std::uint8_t* row = bytes.data() + h.pixels_at + static_cast<std::size_t>(y) * row_bytes;
            auto* out = reinterpret_cast<std::uint8_t*>(image.view().row(y));
            for (std::int64_t x = 0; x < h.width; ++x) out[x] = (row[x / 8] >> (7 - x % 8) & 1) ? 0 : 255;
        }
        return image;
    }
    if (kind <= '3') {  // plain: decimal samples (P1: 0 or 1 each, 1 black)
        HeaderReader reader(bytes, path);
        reader.seek(h.pixels_at);
        Image image(h.width, h.height, PixelFormat{wide ? SampleType::u16 : SampleType::u8, h.channels}, options.memory);
        for (std::size_t i = 0; i < samples; ++i) {
            const auto v = reader.sample(kind == '1');
            if (!v) throw truncated();
            if (*v > h.maxval) throw sample_over_maxval(*v);
            const std::uint32_t value = kind == '1' ? (*v ? 0u : 255u) : scaled(*v);
            if (wide) {
                reinterpret_cast<std::uint16_t*>(image.data())[i] = static_cast<std::uint16_t>(value);
            } else {
                reinterpret_cast<std::uint8_t*>(image.data())[i] = static_cast<std::uint8_t>(value);
            }
        }
        return image;
    }
    const std::size_t raster = samples * (wide ? 2 : 1);
    if (bytes.size() - h.pixels_at < raster) throw truncated();
    Image image(h.width, h.height, PixelFormat{wide ? SampleType::u16 : SampleType::u8, h.channels}, options.memory);
    const std::uint8_t* in = bytes.data() + h.pixels_at;
    // The image is packed (no row padding), as the file is.
    if (wide) {
        auto* out = reinterpret_cast<std::uint16_t*>(image.data());
        for (std::size_t i = 0; i < samples; ++i) {
            const std::uint32_t v = std::uint32_t{in[2 * i]} << 8 | in[2 * i + 1];
            if (v > h.maxval) throw sample_over_maxval(v);
            out[i] = static_cast<std::uint16_t>(scaled(v));
        }
    } else {
        auto* out = reinterpret_cast<std::uint8_t*>(image.data());
        if (h.maxval == full) {
            std::memcpy(out, in, samples);
        } else {
            for (std::size_t i = 0; i < samples; ++i) {
                if (in[i] > h.maxval) throw sample_over_maxval(in[i]);
                out[i] = static_cast<std::uint8_t>(scaled(in[i]));
            }
        }
    }
    return image;
}

}  // namespace gpurotate::detail
