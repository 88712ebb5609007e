#include "labels/coco_json_text.hpp"

namespace gpurotate::labels {

std::string coco_json_text(const nlohmann::ordered_json& document) {
    std::string text = "{";
    const char* member_separator = "\n";
    for (auto member = document.begin(); member != document.end(); ++member) {
        text += member_separator;
        member_separator = ",\n";
        text += "  " + nlohmann::ordered_json(member.key()).dump() + ": ";
        const nlohmann::ordered_json& value = member.value();
        if (!value.is_array() || value.empty()) {
            text += value.dump();
            continue;
        }
        text += "[";
        const char* element_separator = "\n";
        for (const auto& element : value) {
            text += element_separator;
            element_separator = ",\n";
            text += "    " + element.dump();
        }
        text += "\n  ]";
    }
    text += "\n}\n";
    return text;
}

}  // namespace gpurotate::labels
