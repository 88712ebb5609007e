#include "cli/driver_gpus.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpurotate::cli {

DriverGpus driver_gpus() {
    namespace fs = std::filesystem;
    DriverGpus found;
    std::ifstream version("/proc/driver/nvidia/version");
    std::string line;
    // "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...": the first
    // word after "Kernel Module" that is a dotted number.
    while (std::getline(version, line) && found.driver_version.empty()) {
        const auto at = line.find("Kernel Module");
        if (at == std::string::npos) continue;
        std::istringstream words(line.substr(at));
        for (std::string word; words >> word;) {
            if (std::isdigit(static_cast<unsigned char>(word.front())) && word.find('.') != std::string::npos) {
                found.driver_version = word;
                break;
            }
        }
    }
    std::error_code error;
    std::vector<fs::path> buses;  // one folder per GPU, named by its PCI address
    for (const auto& entry : fs::directory_iterator("/proc/driver/nvidia/gpus", error)) buses.push_back(entry.path());
    std::sort(buses.begin(), buses.end());
    for (const fs::path& bus : buses) {
        std::ifstream information(bus / "information");
        while (std::getline(information, line)) {
            if (line.rfind("Model:", 0) == 0) {
                const auto start = line.find_first_not_of(" \t", 6);
                found.models.push_back(start == std::string::npos ? std::string() : line.substr(start));
            }
        }
    }
    return found;
}

}  // namespace gpurotate::cli
