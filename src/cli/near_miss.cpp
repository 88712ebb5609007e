#include "cli/near_miss.hpp"

#include "core/text.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace gpurotate::cli {
namespace {

// Optimal string alignment distance: a swap of two neighbours counts one, as a typist makes it.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

std::string without_dashes(const std::string& arg) { return arg.substr(std::min(arg.find_first_not_of('-'), arg.size())); }

/// ImageMagick's and jpegtran's -rotate N (`said` is what the user typed for it).
std::string rotate_hint(const std::string& said, const std::string& degrees) {
    if (degrees == "90" || degrees == "-270") return "'" + said + "' is --rot90 here (clockwise, as ImageMagick's)";
    if (degrees == "180" || degrees == "-180") return "'" + said + "' is --rot180 here";
    if (degrees == "270" || degrees == "-90") return "'" + said + "' is --rot270 here (counter-clockwise)";
    return "'" + said + "' is --rotate " + degrees + " here (two dashes; clockwise, as ImageMagick's)";
}

/// The hint for one argument (with the one after it, for options that take a value), if it is a known
/// spelling from another tool.
std::optional<std::string> other_tools_spelling(const std::string& arg, const std::string& next) {
    const std::string word = detail::lowercase(without_dashes(arg));
    const std::size_t equals = word.find('=');
    const std::string name = word.substr(0, equals);
    const std::string value = equals == std::string::npos ? next : word.substr(equals + 1);
    if (name == "rotate") return rotate_hint(arg.substr(0, arg.find('=')) + (value.empty() ? "" : " " + value), value);
    // The angle in the name: --rotate90, --rotate-270, --rotate_180.
    if (name.rfind("rotate", 0) == 0 && equals == std::string::npos) {
        std::string degrees = name.substr(6);
        if (!degrees.empty() && (degrees[0] == '-' || degrees[0] == '_')) degrees.erase(0, 1);
        if (!degrees.empty() && degrees.find_first_not_of("0123456789") == std::string::npos) return rotate_hint(arg, degrees);
    }
    if (name == "flip") {
        if (value == "horizontal") return std::string("jpegtran's '-flip horizontal' is --flip-h here");
        if (value == "vertical") return std::string("jpegtran's '-flip vertical' is --flip-v here");
        return "'" + arg + "' is --flip-v here (ImageMagick's -flip mirrors top to bottom; its -flop, left to right, is --flip-h)";
    }
    if (name == "flop") return "'" + arg + "' is --flip-h here (ImageMagick's -flop mirrors left to right; its -flip, top to bottom, is --flip-v)";
    // exiftran's quarter turns.
    if (arg == "-9") return std::string("exiftran's -9 is --rot90 here");
    if (arg == "-1") return std::string("exiftran's -1 is --rot180 here");
    if (arg == "-2") return std::string("exiftran's -2 is --rot270 here");
    if (arg == "-a") return std::string("exiftran's -a is --auto-orient here");
    return std::nullopt;
}

/// The nearest of `names` to `typed` (both without leading dashes), at most two edits away and fewer than a
/// third of the name's length as written (dashes included); "" where none is.
std::string nearest_name(const std::string& typed, const std::vector<std::string>& names) {
    std::string nearest;
    std::size_t best = 3;
    for (const std::string& name : names) {
        const std::size_t d = edit_distance(typed, without_dashes(name));
        if (d < best && d * 3 < name.size()) best = d, nearest = name;
    }
    return nearest;
}

}  // namespace

std::string near_subcommand(const std::string& word, const std::vector<std::string>& subcommands) {
    if (word.empty() || word[0] == '-' || std::find(subcommands.begin(), subcommands.end(), word) != subcommands.end()) return {};
    return nearest_name(detail::lowercase(word), subcommands);
}

std::string near_miss_hint(const std::vector<std::string>& args, const std::vector<std::string>& known) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() < 2 || arg[0] != '-' || arg == "--") continue;
        const std::string spelled = arg.substr(0, arg.find('='));
        if (std::find(known.begin(), known.end(), spelled) != known.end()) continue;
        if (auto hint = other_tools_spelling(arg, i + 1 < args.size() ? args[i + 1] : "")) return *hint;
        // ImageMagick's single dash before a long name: -auto-orient, -strip, -quality.
        if (arg[1] != '-' && arg.size() > 2) {
            const std::string doubled = "-" + spelled;
            if (std::find(known.begin(), known.end(), doubled) != known.end()) return "'" + arg + "': long options take two dashes here: " + doubled;
        }
        std::vector<std::string> long_names;
        std::copy_if(known.begin(), known.end(), std::back_inserter(long_names), [](const std::string& o) { return o.size() >= 3 && o[1] == '-'; });
        const std::string nearest = nearest_name(without_dashes(spelled), long_names);
        if (!nearest.empty()) return "unknown option '" + spelled + "': did you mean " + nearest + "?";
    }
    return {};
}

}  // namespace gpurotate::cli
