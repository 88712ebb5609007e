#pragma once
// Label coordinates as the decimals they are written as. A D4 element maps a coordinate x to x or to
// E - x (E the image's extent: 1 for YOLO's normalised values, W for pixel edges, W+1 for VOC's 1-based
// pixels), and that subtraction is done on the decimal digits, not in binary floating point: 1 - 0.1234
// is written 0.8766, and four rot90s give back the text they started from.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpurotate::labels {

// 128 bits hold 36 digits; GCC and Clang have them (__extension__: not ISO C++, said once here).
__extension__ typedef __int128 Wide;

/// A decimal number: mantissa / 10^scale. Up to 36 significant digits, which any label value has.
class Decimal {
public:
    Decimal() = default;
    /// An integer, with no digits after the point.
    static Decimal integer(std::int64_t value);

    /// Parses a plain or exponent decimal ("12", "-0.50", "1e-3", "4.5E+2"), as C's strtod reads them but
    /// without hex, infinities and NaN; none for anything else, or for more digits than a Decimal holds.
    /// The number of digits written after the point is kept ("0.50" stays two places).
    static std::optional<Decimal> parse(std::string_view text);

    /// The value with `scale()` digits after the point and no exponent ("0.001" for "1e-3"; "-0" never:
    /// a zero is written without a sign).
    std::string text() const;

    /// a - b, exactly, with the larger of the two scales.
    friend Decimal operator-(const Decimal& a, const Decimal& b);
    friend Decimal operator+(const Decimal& a, const Decimal& b);
    friend bool operator<(const Decimal& a, const Decimal& b);
    friend bool operator==(const Decimal& a, const Decimal& b);  ///< by value: 0.5 == 0.50
    friend bool operator!=(const Decimal& a, const Decimal& b) { return !(a == b); }
    friend bool operator<=(const Decimal& a, const Decimal& b) { return !(b < a); }

    int scale() const { return scale_; }
    bool is_integer() const;
    /// The nearest double (for checks that allow rounding, and for values computed in binary).
    double to_double() const;

private:
    Decimal(Wide mantissa, int scale) : mantissa_(mantissa), scale_(scale) {}
    Wide mantissa_ = 0;
    int scale_ = 0;
};

}  // namespace gpurotate::labels
