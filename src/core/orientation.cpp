#include <gpurotate/orientation.hpp>

namespace gpurotate {

std::string_view name(Orientation o) {
    switch (o) {
        case Orientation::identity: return "identity";
        case Orientation::rot90: return "rot90";
        case Orientation::rot180: return "rot180";
        case Orientation::rot270: return "rot270";
        case Orientation::flip_h: return "flip-h";
        case Orientation::flip_v: return "flip-v";
        case Orientation::transpose: return "transpose";
        case Orientation::transverse: return "transverse";
    }
    return "?";
}

std::optional<Orientation> parse_orientation(std::string_view text) {
    for (Orientation o : all_orientations) {
        if (name(o) == text) return o;
    }
    return std::nullopt;
}

}  // namespace gpurotate
