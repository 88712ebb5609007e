#pragma once
// The words of a YOLO label row, split where Ultralytics' reader splits them (spaces and tabs, a CR
// before the line end, and the other blanks): for the D4 turn, which writes each word back where it was,
// and for the angle's, which writes the row anew.

#include <cstddef>
#include <string_view>
#include <vector>

namespace gpurotate::labels {

inline bool is_yolo_separator(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// A word of a row: where it lies in the line, and its text.
struct YoloWord {
    std::size_t begin = 0, end = 0;
    std::string_view text;
};

inline std::vector<YoloWord> yolo_words(std::string_view line) {
    std::vector<YoloWord> words;
    std::size_t i = 0;
    while (i < line.size()) {
        if (is_yolo_separator(line[i])) {
            ++i;
            continue;
        }
        const std::size_t begin = i;
        while (i < line.size() && !is_yolo_separator(line[i])) ++i;
        words.push_back({begin, i, line.substr(begin, i - begin)});
    }
    return words;
}

}  // namespace gpurotate::labels
