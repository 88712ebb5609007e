#include "labels/coco_values.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

namespace gpurotate::labels {
namespace {

constexpr std::int64_t largest_magnitude = 1'000'000'000;
constexpr int most_places = 24;

std::optional<Coordinate> within_limits(const Coordinate& c) {
    const Decimal limit = Decimal::integer(largest_magnitude);
    if (c.value.scale() > most_places || !(c.value < limit) || !(Decimal::integer(-largest_magnitude) < c.value)) return std::nullopt;
    return c;
}

}  // namespace

std::optional<Coordinate> read_coordinate(const nlohmann::ordered_json& number) {
    if (number.is_number_unsigned()) {
        const auto value = number.get<std::uint64_t>();
        if (value >= static_cast<std::uint64_t>(largest_magnitude)) return std::nullopt;
        return Coordinate{Decimal::integer(static_cast<std::int64_t>(value)), true};
    }
    if (number.is_number_integer()) return within_limits({Decimal::integer(number.get<std::int64_t>()), true});
    if (!number.is_number_float()) return std::nullopt;
    const double value = number.get<double>();
    if (!std::isfinite(value)) return std::nullopt;
    // The shortest text that reads back as this double: the digits the file most likely wrote.
    char text[64];
    const auto written = std::to_chars(text, text + sizeof text, value);
    if (written.ec != std::errc()) return std::nullopt;
    const std::optional<Decimal> digits = Decimal::parse(std::string_view(text, static_cast<std::size_t>(written.ptr - text)));
    if (!digits) return std::nullopt;
    return within_limits({*digits, false});
}

nlohmann::ordered_json write_coordinate(const Coordinate& c) {
    const std::string text = c.value.text();
    const char* end = text.data() + text.size();
    if (c.integer) {
        std::int64_t value = 0;
        const auto read = std::from_chars(text.data(), end, value);
        if (read.ec == std::errc() && read.ptr == end) return value;
    }
    double value = 0;
    std::from_chars(text.data(), end, value);  // a Decimal's text always reads as a double
    return value;
}

Coordinate add(const Coordinate& a, const Coordinate& b) { return {a.value + b.value, a.integer && b.integer}; }

std::pair<Coordinate, Coordinate> turn_coordinates(const Coordinate& x, const Coordinate& y, ImageSize size, Orientation element) {
    const auto [tx, ty] = turn_point(x.value, y.value, pixel_edge_extent(size), element);
    // E - x keeps the kind of x (E is an integer); a swap of the axes swaps the kinds with the values.
    if (axis_map(element).swap_axes) return {{tx, y.integer}, {ty, x.integer}};
    return {{tx, x.integer}, {ty, y.integer}};
}

std::optional<RunCounts> read_run_counts(const nlohmann::ordered_json& counts) {
    if (counts.is_string()) return decode_rle_string(counts.get_ref<const std::string&>());
    if (!counts.is_array()) return std::nullopt;
    RunCounts runs;
    runs.reserve(counts.size());
    for (const auto& c : counts) {
        if (!c.is_number_unsigned()) {
            if (!c.is_number_integer() || c.get<std::int64_t>() < 0) return std::nullopt;
        }
        runs.push_back(c.get<std::uint64_t>());
    }
    return runs;
}

}  // namespace gpurotate::labels
