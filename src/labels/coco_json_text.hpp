#pragma once
// The text of a turned COCO file. One line per image and per annotation: a file of thousands of entries
// stays a file one can read, diff and grep (one entry is one line), without the tens of lines per
// polygon an indented dump gives, nor a single line of megabytes.

#include <nlohmann/json.hpp>

#include <string>

namespace gpurotate::labels {

/// `document` (an object) as JSON text: each top-level member on a line of its own, a non-empty array's
/// elements one a line, each written compact; a line end at the end.
std::string coco_json_text(const nlohmann::ordered_json& document);

}  // namespace gpurotate::labels
