#include "cli/manual.hpp"

#include "cli/help_text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/version.hpp>

#include <cctype>
#include <sstream>

namespace gpurotate::cli {
namespace {

// Text as roff reads it: backslashes as \e, hyphens as minus signs (so that options can be searched and
// copied), and no line starting with a dot or a quote.
std::string roff(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
    }
    std::string lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) lines += (line.empty() || (line[0] != '.' && line[0] != '\'') ? "" : "\\&") + line + "\n";
    return lines;
}

// One line of text, inline (no line break after it).
std::string roff_inline(const std::string& text) {
    std::string r = roff(text);
    if (!r.empty() && r.back() == '\n') r.pop_back();
    return r;
}

// The options a user types, with their value's name: "-o, --output OUTPUT".
std::string option_synopsis(const CLI::Option& option) {
    std::string names;
    const auto add = [&](const std::string& name) { names += (names.empty() ? "" : ", ") + ("\\fB" + roff_inline(name) + "\\fR"); };
    for (const std::string& n : option.get_snames()) add("-" + n);
    for (const std::string& n : option.get_lnames()) add("--" + n);
    if (option.get_items_expected_max() > 0) {  // flags expect none
        std::string value = option.get_option_text();
        if (value.empty()) {
            value = option.get_lnames().empty() ? "VALUE" : option.get_lnames().front();
            for (char& c : value) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        names += " \\fI" + roff_inline(value) + "\\fR";
    }
    return names;
}

void options_section(std::ostringstream& page, const CLI::App& command) {
    page << ".SH OPTIONS\n";
    for (const CLI::Option* option : command.get_options()) {
        if (option->get_positional() || option->get_group().empty()) continue;  // hidden ones have no group
        page << ".TP\n" << option_synopsis(*option) << "\n" << roff(option->get_description());
        if (!option->get_default_str().empty()) page << "Default: " << roff(option->get_default_str());
    }
}

std::string man_page(const CLI::App& command, const std::string& title, const std::string& summary, const std::string& synopsis) {
    std::ostringstream page;
    page << ".TH " << title << " 1 \"\" \"gpurotate " << version() << "\" \"User Commands\"\n"
         << ".SH NAME\n" << title << " \\- " << roff(summary) << ".SH SYNOPSIS\n.nf\n" << roff(synopsis) << ".fi\n"
         << ".SH DESCRIPTION\n" << roff(command.get_description());
    options_section(page, command);
    std::string footer = command.get_footer();
    const std::size_t exit_at = footer.find("Exit status:");
    page << ".SH EXAMPLES\n.nf\n" << roff(footer.substr(0, exit_at).substr(footer.find('\n') + 1)) << ".fi\n";
    if (exit_at != std::string::npos) {
        std::string status = footer.substr(exit_at + 13);
        status = status.substr(0, status.find(" (man "));  // help's pointer here, which the page itself is
        page << ".SH EXIT STATUS\n" << roff(status + "\n");
    }
    page << ".SH SEE ALSO\n" << (title == "gpurotate" ? "\\fBgpurotate\\-augment\\fR(1), " : "\\fBgpurotate\\fR(1), ")
         << "\\fBjpegtran\\fR(1), \\fBexiftran\\fR(1), \\fBconvert\\fR(1)\n";
    return page.str();
}

// Every option name of `command`, for completion.
std::string option_words(const CLI::App& command) {
    std::string words;
    for (const CLI::Option* option : command.get_options()) {
        if (option->get_positional() || option->get_group().empty()) continue;
        for (const std::string& n : option->get_snames()) words += (words.empty() ? "" : " ") + ("-" + n);
        for (const std::string& n : option->get_lnames()) words += (words.empty() ? "" : " ") + ("--" + n);
    }
    return words;
}

std::string bash_completion(const CLI::App& app, const CLI::App& augment) {
    std::ostringstream script;
    script << "# bash completion for gpurotate, written by gpurotate --generate bash from its option table.\n"
           << "_gpurotate() {\n"
           << "    local cur=${COMP_WORDS[COMP_CWORD]} words\n"
           << "    if [[ ${COMP_WORDS[1]} == augment ]]; then\n"
           << "        words='" << option_words(augment) << "'\n"
           << "    elif [[ ${COMP_CWORD} == 1 ]]; then\n"
           << "        words='augment bench " << option_words(app) << "'\n"
           << "    else\n"
           << "        words='" << option_words(app) << "'\n"
           << "    fi\n"
           << "    if [[ $cur == -* ]]; then\n"
           << "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
           << "    else\n"
           << "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           << "    fi\n"
           << "}\n"
           << "complete -o filenames -F _gpurotate gpurotate\n";
    return script.str();
}

std::string zsh_completion(const CLI::App& app, const CLI::App& augment) {
    std::ostringstream script;
    // `words` is zsh's own array of the command line's words (the completion system sets it): the options go
    // into an array of another name, so that ${words[2]} still reads the subcommand.
    script << "#compdef gpurotate\n# zsh completion for gpurotate, written by gpurotate --generate zsh from its option table.\n"
           << "local -a gpurotate_options\n"
           << "if [[ ${words[2]} == augment ]]; then\n"
           << "    gpurotate_options=(" << option_words(augment) << ")\n"
           << "elif (( CURRENT == 2 )); then\n"
           << "    gpurotate_options=(augment bench " << option_words(app) << ")\n"
           << "else\n"
           << "    gpurotate_options=(" << option_words(app) << ")\n"
           << "fi\n"
           << "_alternative \"options:option:(${gpurotate_options[*]})\" 'files:file:_files'\n";
    return script.str();
}

}  // namespace

std::string generated_file(const std::string& what, const CLI::App& app, const CLI::App& augment) {
    if (what == "man") {
        return man_page(app, "gpurotate", "rotate, flip and transpose images on the GPU or the CPU", usage_lines(false));
    }
    if (what == "man-augment") {
        return man_page(augment, "gpurotate-augment", "write rotated and flipped variants of many images", usage_lines(true));
    }
    if (what == "bash") return bash_completion(app, augment);
    if (what == "zsh") return zsh_completion(app, augment);
    throw Error(ErrorCode::usage, "--generate " + what + ": expected man, man-augment, bash or zsh");
}

}  // namespace gpurotate::cli
