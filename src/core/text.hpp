#pragma once
// Small text helpers the command-line front ends share.

#include <cctype>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped.
inline std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    for (char c : text + ",") {
        if (c != ',') {
            item += c;
        } else if (!item.empty()) {
            items.push_back(item);
            item.clear();
        }
    }
    return items;
}

/// A file's text as a message may print it: printable ASCII only ('?' for the rest), at most `most` bytes.
inline std::string printable(const std::string& text, std::size_t most = 60) {
    std::string out;
    for (const char c : text.substr(0, most)) out += c >= 0x20 && c < 0x7f ? c : '?';
    return text.size() > most ? out + "..." : out;
}

/// ASCII lower case (file extensions).
inline std::string lowercase(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace gpurotate::detail
