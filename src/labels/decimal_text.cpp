#include "labels/decimal_text.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace gpurotate::labels {
namespace {

constexpr int max_digits = 36;  // 10^36 < 2^127: sums of two such numbers cannot overflow

// 10^0 to 10^38, made once: a label file of pose rows compares and subtracts hundreds of values a row.
const Wide* powers_of_ten() {
    static const auto table = [] {
        struct Table {
            Wide p[39];
        } t{};
        t.p[0] = 1;
        for (int i = 1; i < 39; ++i) t.p[i] = t.p[i - 1] * 10;
        return t;
    }();
    return table.p;
}

Wide power_of_ten(int n) { return powers_of_ten()[n]; }

// Both mantissas brought to the larger scale; none where that takes more digits than a Decimal holds.
bool common_scale(Wide& a, int a_scale, Wide& b, int b_scale, int& scale) {
    scale = std::max(a_scale, b_scale);
    if (a_scale == b_scale) return true;
    if (scale - std::min(a_scale, b_scale) > max_digits) return false;
    const auto widen = [&](Wide& m, int from) {
        const Wide limit = power_of_ten(max_digits - (scale - from));
        if (m >= limit || m <= -limit) return false;
        m *= power_of_ten(scale - from);
        return true;
    };
    return widen(a, a_scale) && widen(b, b_scale);
}

}  // namespace

Decimal Decimal::integer(std::int64_t value) { return Decimal(value, 0); }

std::optional<Decimal> Decimal::parse(std::string_view text) {
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
    Wide mantissa = 0;
    int digits = 0, scale = 0;
    bool any = false, point = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.' && !point) {
            point = true;
            continue;
        }
        if (c < '0' || c > '9') break;
        any = true;
        if (mantissa != 0 || c != '0') ++digits;
        if (digits > max_digits) return std::nullopt;
        mantissa = mantissa * 10 + (c - '0');
        if (point) ++scale;
    }
    if (!any) return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool negative_exponent = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative_exponent = text[i++] == '-';
        if (i == text.size()) return std::nullopt;
        int exponent = 0;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9' || exponent > 1000) return std::nullopt;
            exponent = exponent * 10 + (text[i] - '0');
        }
        scale += negative_exponent ? exponent : -exponent;
        if (scale < 0) {  // 4.5e+2: the digits move left of the point
            if (digits - scale > max_digits) return std::nullopt;
            mantissa *= power_of_ten(-scale);
            scale = 0;
        }
        if (scale > max_digits) return std::nullopt;  // 1e-40: more places than a Decimal holds
    }
    if (i != text.size()) return std::nullopt;
    return Decimal(negative ? -mantissa : mantissa, scale);
}

std::string Decimal::text() const {
    Wide m = mantissa_ < 0 ? -mantissa_ : mantissa_;
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
        m /= 10;
    } while (m != 0);
    if (static_cast<int>(digits.size()) <= scale_) digits.insert(0, static_cast<std::size_t>(scale_ - static_cast<int>(digits.size()) + 1), '0');
    if (scale_ > 0) digits.insert(digits.size() - static_cast<std::size_t>(scale_), ".");
    return (mantissa_ < 0 ? "-" : "") + digits;
}

Decimal operator-(const Decimal& a, const Decimal& b) {
    Wide x = a.mantissa_, y = b.mantissa_;
    int scale = 0;
    if (!common_scale(x, a.scale_, y, b.scale_, scale)) throw std::overflow_error("decimal label value out of range");
    return Decimal(x - y, scale);
}

Decimal operator+(const Decimal& a, const Decimal& b) {
    Wide x = a.mantissa_, y = b.mantissa_;
    int scale = 0;
    if (!common_scale(x, a.scale_, y, b.scale_, scale)) throw std::overflow_error("decimal label value out of range");
    return Decimal(x + y, scale);
}

bool operator<(const Decimal& a, const Decimal& b) {
    Wide x = a.mantissa_, y = b.mantissa_;
    int scale = 0;
    if (!common_scale(x, a.scale_, y, b.scale_, scale)) return a.to_double() < b.to_double();
    return x < y;
}

bool operator==(const Decimal& a, const Decimal& b) {
    Wide x = a.mantissa_, y = b.mantissa_;
    int scale = 0;
    if (!common_scale(x, a.scale_, y, b.scale_, scale)) return false;
    return x == y;
}

bool Decimal::is_integer() const { return mantissa_ % power_of_ten(scale_) == 0; }

double Decimal::to_double() const { return std::strtod((text() + "").c_str(), nullptr); }

}  // namespace gpurotate::labels
