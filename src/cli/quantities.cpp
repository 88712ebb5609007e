#include "cli/quantities.hpp"

#include "core/text.hpp"

#include <gpurotate/error.hpp>

#include <cmath>
#include <stdexcept>

namespace gpurotate::cli {
namespace {

// A number with an optional K/M/G multiplier (and an ignored "iB"/"B" after it); nothing else. `given` is the
// whole value on the command line, for the message (`text` may be one side of a WxH).
std::int64_t scaled(const std::string& text, double base, const std::string& flag, const std::string& given, const std::string& expected) {
    const auto bad = [&] { return Error(ErrorCode::usage, flag + " " + given + ": expected " + expected); };
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        throw bad();
    }
    std::string unit = detail::lowercase(text.substr(used));
    if (unit.size() > 1 && (unit.substr(1) == "ib" || unit.substr(1) == "b")) unit = unit.substr(0, 1);
    const double scale = unit.empty() ? 1 : unit == "k" ? base : unit == "m" ? base * base : unit == "g" ? base * base * base : 0;
    const double result = value * scale;
    // 2^62 keeps every later product of two limits inside 64 bits.
    if (scale == 0 || !std::isfinite(result) || result < 1 || result > 4.6e18 || text[0] == '-' || text[0] == '+') throw bad();
    return static_cast<std::int64_t>(result);
}

}  // namespace

std::int64_t parse_pixel_count(const std::string& text, const std::string& flag) {
    const std::string expected = "a pixel count such as 100000000, 100M, 20000x20000, or none";
    if (detail::lowercase(text) == "none") return 0;
    const auto x = text.find('x');
    if (x != std::string::npos) {
        const std::int64_t w = scaled(text.substr(0, x), 1000, flag, text, expected), h = scaled(text.substr(x + 1), 1000, flag, text, expected);
        if (w > (std::int64_t{1} << 31) || h > (std::int64_t{1} << 31)) throw Error(ErrorCode::usage, flag + " " + text + ": expected " + expected);
        return w * h;
    }
    return scaled(text, 1000, flag, text, expected);
}

std::int64_t parse_byte_count(const std::string& text, const std::string& flag) {
    return scaled(text, 1024, flag, text, "a size in bytes such as 268435456, 256M or 4GiB");
}

int parse_scan_count(const std::string& text) {
    if (detail::lowercase(text) == "none") return 0;
    const std::int64_t count = scaled(text, 1000, "--max-scans", text, "a number of scans such as 100, or none");
    if (count > 1000000) throw Error(ErrorCode::usage, "--max-scans " + text + ": expected a number of scans up to 1000000, or none");
    return static_cast<int>(count);
}

}  // namespace gpurotate::cli
