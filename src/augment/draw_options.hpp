#pragma once
// `augment --random`'s model from its parsed options (draw_options.cpp, with the parsers of --ops, --weights,
// --p-flip-h/-v and --degrees declared in augment_options.hpp): for the planner and for the Python package's
// gpurotate.draw, so that both draw from the same model and refuse the same counts with the same message.

#include "augment/augment_options.hpp"
#include "augment/random_draw.hpp"

#include <gpurotate/orientation.hpp>

#include <vector>

namespace gpurotate::augment {

/// The model --random draws from: `operations` (--ops), random.weights (all 1 where empty) and the flips.
RandomModel random_model(const std::vector<Orientation>& operations, const RandomOptions& random);

/// Throws Error (usage) where `draws` distinct draws (without replacement) are more than `model` can give.
void check_draw_count(const RandomModel& model, unsigned draws, bool with_replacement);

}  // namespace gpurotate::augment
