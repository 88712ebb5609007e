#pragma once
// `augment --random`: which element each draw of an input gets. A draw is a pure function of (seed, the
// input's relative path, draw index): not of threads, --jobs, --shard or where the input falls in the
// listing, so a run repeats byte for byte and its shards agree with the whole run.
//
// Header-only: the draw is a few lines of arithmetic that the planner and the tests call directly.

#include <gpurotate/orientation.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace gpurotate::augment {

/// How one random element is drawn (docs/augment.md, "Random elements"): an element of `elements` chosen
/// with probability proportional to its weight; then flip-h with probability `p_flip_h`; then flip-v with
/// probability `p_flip_v`; the three composed into the one element written.
struct RandomModel {
    std::vector<Orientation> elements;  ///< --ops, in the order given
    std::vector<double> weights;        ///< one per element, >= 0, not all 0
    double p_flip_h = 0;                ///< --p-flip-h
    double p_flip_v = 0;                ///< --p-flip-v
};

namespace draw_detail {

// splitmix64's output function (Steele, Lea and Flood 2014): every input bit reaches every output bit.
constexpr std::uint64_t mix64(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// FNV-1a (64-bit) of a path, as --shard hashes it.
inline std::uint64_t path_hash(const std::string& relative) {
    std::uint64_t hash = 14695981039346656037ull;
    for (unsigned char c : relative) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

// The streams of one draw: the choice among --ops, and each flip's coin.
enum class DrawStream : std::uint64_t { element = 0, flip_h = 1, flip_v = 2, angle = 3 };

// 64 random bits for (seed, path, draw, stream), each key mixed in turn.
inline std::uint64_t random_bits(std::uint64_t seed, const std::string& relative, std::uint64_t draw, DrawStream stream) {
    std::uint64_t h = mix64(seed);
    h = mix64(h ^ path_hash(relative));
    h = mix64(h ^ draw);
    return mix64(h ^ static_cast<std::uint64_t>(stream));
}

// A double in [0, 1) from the top 53 bits: every value a multiple of 2^-53, each equally likely.
constexpr double unit_interval(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// What every weight is multiplied by before it is summed: 1 (exact: ordinary weights draw as they always
// did), or where the sum would overflow (rot90=1e308,rot180=1e308), the power of two that brings the largest
// weight to [1, 2) (exact too, but for weights some 2^1000 times smaller than it, which become 0).
inline double weight_scale(const std::vector<double>& weights) {
    double total = 0, largest = 0;
    for (double w : weights) {
        total += w;
        largest = std::max(largest, w);
    }
    return std::isfinite(total) ? 1.0 : std::ldexp(1.0, -std::ilogb(largest));
}

/// The sum of `weights`, each times `scale` (weight_scale's, or 1).
template <class Weights>
double weighted_total(const Weights& weights, double scale) {
    double total = 0;
    for (double w : weights) total += w * scale;
    return total;
}

/// The index `u` (in [0, weighted_total)) falls on, by the cumulative sum of the weights above 0 in order; the
/// last of them should rounding carry `u` to the total; weights.size() where none is above 0.
template <class Weights>
std::size_t pick_weighted(const Weights& weights, double scale, double u) {
    std::size_t picked = weights.size();
    double cumulative = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0) continue;
        picked = i;
        cumulative += weights[i] * scale;
        if (u < cumulative) break;
    }
    return picked;
}

}  // namespace draw_detail

/// The element of draw `draw` (0, 1, ... N-1) of the input at `relative` (its path below OUTDIR's
/// mirror, as --shard hashes it), under `seed`, each draw on its own (with replacement).
inline Orientation draw_element(const RandomModel& model, std::uint64_t seed, const std::string& relative, std::uint64_t draw) {
    using draw_detail::DrawStream;
    const double scale = draw_detail::weight_scale(model.weights);
    const double u = draw_detail::unit_interval(draw_detail::random_bits(seed, relative, draw, DrawStream::element)) *
                     draw_detail::weighted_total(model.weights, scale);
    const std::size_t picked = draw_detail::pick_weighted(model.weights, scale, u);
    Orientation element = picked < model.elements.size() ? model.elements[picked] : Orientation::identity;
    if (draw_detail::unit_interval(draw_detail::random_bits(seed, relative, draw, DrawStream::flip_h)) < model.p_flip_h) element = then(element, Orientation::flip_h);
    if (draw_detail::unit_interval(draw_detail::random_bits(seed, relative, draw, DrawStream::flip_v)) < model.p_flip_v) element = then(element, Orientation::flip_v);
    return element;
}

/// The probability of each element (indexed as the library numbers them, 0-7) in one draw: what the
/// draws must match, and what the documentation's examples are computed from.
inline std::array<double, 8> element_probabilities(const RandomModel& model) {
    const double scale = draw_detail::weight_scale(model.weights);
    const double total = draw_detail::weighted_total(model.weights, scale);
    std::array<double, 8> p{};
    for (std::size_t i = 0; i < model.elements.size(); ++i) {
        const double base = model.weights[i] * scale / total;
        for (int h = 0; h < 2; ++h) {
            for (int v = 0; v < 2; ++v) {
                Orientation e = model.elements[i];
                if (h) e = then(e, Orientation::flip_h);
                if (v) e = then(e, Orientation::flip_v);
                p[static_cast<std::size_t>(e)] +=
                    base * (h ? model.p_flip_h : 1 - model.p_flip_h) * (v ? model.p_flip_v : 1 - model.p_flip_v);
            }
        }
    }
    return p;
}

/// How many distinct elements one input's draws can give: those of non-zero probability.
inline unsigned distinct_elements(const RandomModel& model) {
    unsigned count = 0;
    for (double p : element_probabilities(model)) count += p > 0 ? 1 : 0;
    return count;
}

/// The elements of the first `count` draws of the input at `relative`, under `seed`. With replacement,
/// draw_element's, each on its own. Without it (count at most distinct_elements), distinct: draw 0 is
/// draw_element's, and each later draw d is an element not drawn before, chosen with probability
/// proportional to element_probabilities' among those left (successive sampling, as NumPy's
/// choice(8, N, replace=False, p=...)), by the 53 bits of (seed, path, d, element) against their cumulative
/// sum in element order (identity 0 to transverse 7).
inline std::vector<Orientation> draw_elements(const RandomModel& model, std::uint64_t seed, const std::string& relative, unsigned count,
                                              bool with_replacement) {
    std::vector<Orientation> drawn;
    std::array<double, 8> left = element_probabilities(model);
    for (unsigned d = 0; d < count; ++d) {
        Orientation element = Orientation::identity;
        if (d == 0 || with_replacement) {
            element = draw_element(model, seed, relative, d);
        } else {
            const double total = draw_detail::weighted_total(left, 1.0);
            if (total <= 0) break;  // every element drawn
            const double u = draw_detail::unit_interval(draw_detail::random_bits(seed, relative, d, draw_detail::DrawStream::element)) * total;
            element = static_cast<Orientation>(draw_detail::pick_weighted(left, 1.0, u));
        }
        left[static_cast<std::size_t>(element)] = 0;
        drawn.push_back(element);
    }
    return drawn;
}

/// `--degrees MAX`: the angle draw `draw` of the input at `relative` adds after its element, uniform in
/// [-MAX, MAX) (a stream of its own, so that the elements drawn are those of the same run without it).
inline double draw_angle(double max_degrees, std::uint64_t seed, const std::string& relative, std::uint64_t draw) {
    const double u = draw_detail::unit_interval(draw_detail::random_bits(seed, relative, draw, draw_detail::DrawStream::angle));
    return (2.0 * u - 1.0) * max_degrees;
}

}  // namespace gpurotate::augment
