// `augment --random`'s model from its options' text: --ops, --weights, --p-flip-h/-v and --degrees, parsed here
// for the CLI and for the Python package's gpurotate.draw (one parser, the same messages).

#include "augment/draw_options.hpp"

#include "core/text.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpurotate::augment {

using detail::split_commas;

std::vector<Orientation> parse_operation_list(const std::string& text) {
    std::vector<Orientation> ops;
    for (const std::string& item : split_commas(text)) {
        if (item == "all") {
            for (Orientation o : all_orientations) {
                if (o != Orientation::identity && std::find(ops.begin(), ops.end(), o) == ops.end()) ops.push_back(o);
            }
            continue;
        }
        const auto o = parse_orientation(item);
        if (!o) {
            throw Error(ErrorCode::usage, "--ops " + item + ": unknown operation (identity rot90 rot180 rot270 flip-h flip-v transpose transverse, or all)");
        }
        if (std::find(ops.begin(), ops.end(), *o) == ops.end()) ops.push_back(*o);
    }
    if (ops.empty()) throw Error(ErrorCode::usage, "--ops names no operation");
    return ops;
}

std::vector<double> parse_weights(const std::string& text, const std::vector<Orientation>& operations) {
    const std::string bad = "--weights " + text + ": ";
    const auto number = [&](const std::string& item, const std::string& value) {
        try {
            std::size_t used = 0;
            const double w = std::stod(value, &used);
            if (used == value.size() && std::isfinite(w) && w >= 0) return w;
        } catch (const std::exception&) {
        }
        throw Error(ErrorCode::usage, bad + "'" + item + "' is not a weight (a number >= 0)");
    };
    const std::vector<std::string> items = split_commas(text);
    std::string op_names;
    for (Orientation o : operations) op_names += (op_names.empty() ? "" : ",") + std::string(name(o));
    std::vector<double> weights(operations.size(), 1.0);
    const bool named = std::any_of(items.begin(), items.end(), [](const std::string& item) { return item.find('=') != std::string::npos; });
    if (!named) {  // a bare list: one weight per element of --ops, in order
        if (items.size() != operations.size()) {
            throw Error(ErrorCode::usage, bad + "a list without names needs one weight for each of --ops " + op_names + " (" +
                                              std::to_string(operations.size()) + "), or write name=weight");
        }
        for (std::size_t i = 0; i < items.size(); ++i) weights[i] = number(items[i], items[i]);
    } else {
        std::vector<bool> seen(operations.size(), false);
        for (const std::string& item : items) {
            const auto eq = item.find('=');
            if (eq == std::string::npos) throw Error(ErrorCode::usage, bad + "'" + item + "' has no name: write every item as name=weight");
            const auto o = parse_orientation(item.substr(0, eq));
            const auto at = o ? std::find(operations.begin(), operations.end(), *o) : operations.end();
            if (at == operations.end()) {
                throw Error(ErrorCode::usage, bad + "'" + item.substr(0, eq) + "' is not one of --ops " + op_names);
            }
            const auto i = static_cast<std::size_t>(at - operations.begin());
            if (seen[i]) throw Error(ErrorCode::usage, bad + "'" + item.substr(0, eq) + "' is weighted twice");
            seen[i] = true;
            weights[i] = number(item, item.substr(eq + 1));
        }
    }
    if (std::none_of(weights.begin(), weights.end(), [](double w) { return w > 0; })) throw Error(ErrorCode::usage, bad + "every weight is 0");
    return weights;
}

double parse_probability(const std::string& text, const std::string& option) {
    try {
        std::size_t used = 0;
        const double p = std::stod(text, &used);
        if (used == text.size() && p >= 0 && p <= 1) return p;  // NaN compares false: refused
    } catch (const std::exception&) {
    }
    throw Error(ErrorCode::usage, option + " " + text + ": expected a probability from 0 to 1");
}

double parse_max_degrees(const std::string& text) {
    try {
        std::size_t used = 0;
        const double degrees = std::stod(text, &used);
        if (used == text.size() && degrees >= 0 && degrees <= 180) return degrees;
    } catch (const std::exception&) {
    }
    throw Error(ErrorCode::usage, "--degrees " + text + ": expected a number of degrees from 0 to 180");
}

RandomModel random_model(const std::vector<Orientation>& operations, const RandomOptions& random) {
    RandomModel model{operations, random.weights, random.p_flip_h, random.p_flip_v};
    if (model.weights.empty()) model.weights.assign(operations.size(), 1.0);
    return model;
}

void check_draw_count(const RandomModel& model, unsigned draws, bool with_replacement) {
    if (draws > 0 && !with_replacement && draws > distinct_elements(model)) {
        throw Error(ErrorCode::usage, "--random " + std::to_string(draws) + ": an input's draws are distinct elements, and --ops, --weights and "
                                          "--p-flip-h/-v give " + std::to_string(distinct_elements(model)) +
                                          " (add --with-replacement to draw each on its own, or lower N)");
    }
}

}  // namespace gpurotate::augment
