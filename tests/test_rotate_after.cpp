// convert::rotate_after, the reading of `--rotate DEG` after the ops that the CLI's parser and the Python
// package's transform_encoded share: a whole number of quarter turns joins the element (k quarter turns are
// rot90 applied k times, the reference), another angle is an AnyAngle, and an angle that is not finite is
// refused as the CLI refuses `--rotate nan`.

#include "convert/rotation_step.hpp"

#include <gpurotate/error.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using gpurotate::Orientation;
namespace convert = gpurotate::convert;

TEST_CASE("rotate_after: quarter turns join the element, another angle is interpolated, nan and inf are usage errors") {
    for (int code = 0; code < 8; ++code) {
        const auto ops = static_cast<Orientation>(code);
        for (int quarters = -9; quarters <= 9; ++quarters) {
            Orientation expected = ops;
            for (int k = 0; k < ((quarters % 4) + 4) % 4; ++k) expected = gpurotate::then(expected, Orientation::rot90);
            Orientation element = ops;
            convert::ConversionOptions options;
            convert::rotate_after(element, options, 90.0 * quarters, gpurotate::Interpolation::bicubic, true, "angle");
            CHECK(element == expected);
            CHECK_FALSE(options.rotation.has_value());
        }
        Orientation element = ops;
        convert::ConversionOptions options;
        convert::rotate_after(element, options, -7.5, gpurotate::Interpolation::nearest, true, "angle");
        CHECK(element == ops);
        REQUIRE(options.rotation.has_value());
        CHECK(options.rotation->degrees == -7.5);
        CHECK(options.rotation->interpolation == gpurotate::Interpolation::nearest);
        CHECK(options.rotation->keep_size);
        CHECK(options.rotation->after == Orientation::identity);
    }
    for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
        Orientation element = Orientation::rot90;
        convert::ConversionOptions options;
        try {
            convert::rotate_after(element, options, bad, gpurotate::Interpolation::bilinear, false, "angle");
            FAIL("an angle that is not finite was taken");
        } catch (const gpurotate::Error& e) {
            CHECK(e.code() == gpurotate::ErrorCode::usage);
            CHECK(std::string(e.what()).find("expected a finite number of degrees") != std::string::npos);
        }
    }
}
