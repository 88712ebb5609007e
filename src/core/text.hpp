#pragma once
// Small text helpers the command-line front ends share.

#include <cctype>
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

namespace gpurotate::detail {

/// The shortest decimal that reads back as `value` ("0.5", "7.25", "1e+308"): how the manifest records a
/// number, and how a message repeats one the user gave.
inline std::string number_text(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

/// A byte count as people read it: "512 B", "1.5 MiB".
inline std::string size_text(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return text;
}

/// "a, b,,c" -> {"a", "b", "c"}: spaces around items and empty items are dropped (a list typed as
/// "rot90, flip-h" means what "rot90,flip-h" does).
inline std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    for (char c : text + ",") {
        if (c != ',') {
            if (c != ' ' && c != '\t') item += c;
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

/// The text of a message for a terminal: a control character (ESC above all, which a file name can carry
/// into a terminal's escape sequences) written as \xNN; newlines and tabs stay where `keep_lines`.
inline std::string escape_controls(const std::string& text, bool keep_lines = true) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && !(keep_lines && (c == '\n' || c == '\t'))) || u == 0x7f) {
            constexpr char hex[] = "0123456789abcdef";
            out += {'\\', 'x', hex[u >> 4], hex[u & 15]};
        } else {
            out += c;
        }
    }
    return out;
}

/// ASCII lower case (file extensions).
inline std::string lowercase(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace gpurotate::detail
