#pragma once
// The parts of a path that messages and output names are made of, by the same rules everywhere.

#include <string>

namespace gpurotate::detail {

/// "a/b/c.png" -> "c.png".
inline std::string file_name_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// "c.tar.png" -> "c.tar"; a name without a dot, or whose only dot leads it (".hidden"), is its own stem.
inline std::string stem_of(const std::string& name) {
    const auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

/// "out//" -> "out"; "/" stays "/".
inline std::string without_trailing_slashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

}  // namespace gpurotate::detail
