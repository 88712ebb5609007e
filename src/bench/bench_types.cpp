#include "bench/bench.hpp"

namespace gpurotate::bench {

std::vector<std::pair<std::string, PixelFormat>> bench_types() {
    using S = SampleType;
    return {{"u8c1", {S::u8, 1}},   {"u8c2", {S::u8, 2}},   {"u8c3", {S::u8, 3}},   {"u8c4", {S::u8, 4}},
            {"u16c1", {S::u16, 1}}, {"u16c3", {S::u16, 3}}, {"u16c4", {S::u16, 4}}, {"f32c1", {S::f32, 1}},
            {"f32c3", {S::f32, 3}}, {"f32c4", {S::f32, 4}}};
}

std::vector<std::pair<std::string, Interpolation>> bench_interpolations() {
    std::vector<std::pair<std::string, Interpolation>> named;
    for (Interpolation i : all_interpolations) named.emplace_back(std::string(name(i)), i);
    return named;
}

}  // namespace gpurotate::bench
