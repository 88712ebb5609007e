#include "cli/file_jobs.hpp"

#include "cli/run.hpp"

#include "core/path_names.hpp"
#include "core/text.hpp"
#include "formats/format_registry.hpp"

#include <gpurotate/error.hpp>

#include <map>
#include <ostream>

#include <sys/stat.h>

namespace gpurotate::cli {
namespace {

bool is_folder(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

/// What a user who typed a folder or a pattern wanted, said before the codecs' "cannot read".
void check_input_is_a_file(const std::string& input) {
    if (input == "-") return;
    if (is_folder(input)) {
        throw Error(ErrorCode::input, "'" + input + "' is a folder: gpurotate converts files (gpurotate --rot90 -o OUTDIR/ '" + input +
                                          "'/*.jpg), and gpurotate augment '" + input + "' -o OUTDIR makes variants of a whole folder");
    }
    struct stat info {};
    if (input.find_first_of("*?[") != std::string::npos && ::stat(input.c_str(), &info) != 0) {
        throw Error(ErrorCode::input, "'" + input + "' matched no file (a shell passes a pattern on unchanged where nothing matches it)");
    }
}

/// "png:-" -> {"png", "-"}: ImageMagick's format prefix, taken where it names a format this build writes (a
/// file really named "png:x" is then written as x; "./png:x" keeps its name).
std::pair<std::string, std::string> format_prefix(const std::string& output) {
    const std::size_t colon = output.find(':');
    if (colon == std::string::npos || colon == 0 || colon > 8 || output.find('/') < colon) return {"", output};
    const std::string ext = detail::lowercase(output.substr(0, colon));
    if (!detail::writable_format_of_extension("." + ext)) return {"", output};
    return {ext, output.substr(colon + 1)};
}

std::string with_extension(const std::string& name, const std::string& ext) { return ext.empty() ? name : detail::stem_of(name) + "." + ext; }

}  // namespace

std::vector<FileJob> plan_file_jobs(const Options& options) {
    std::vector<FileJob> jobs;
    if (options.in_place) {
        for (const std::string& input : options.inputs) {
            if (input == "-") throw Error(ErrorCode::usage, "-i replaces files in place: standard input (-) has no file to replace");
            jobs.push_back({input, input, ""});
        }
        return jobs;
    }
    const auto [prefix, output] = format_prefix(options.output);
    const std::string format = prefix.empty() ? detail::lowercase(options.format) : prefix;
    if (output.empty()) throw Error(ErrorCode::usage, "-o " + options.output + ": no file named after the format");
    const bool into_folder = output != "-" && (output.back() == '/' || is_folder(output));
    if (!into_folder) {
        if (options.inputs.size() > 1) {
            throw Error(ErrorCode::usage, std::to_string(options.inputs.size()) + " inputs need a folder to write into: -o FOLDER/ (or -i to replace each input)");
        }
        return {{options.inputs.front(), output, format}};
    }
    const std::string folder = detail::without_trailing_slashes(output);
    if (!is_folder(folder)) throw Error(ErrorCode::output, "'" + output + "': " + ([&] { struct stat info {}; return ::stat(folder.c_str(), &info) == 0; }() ? "'" + folder + "' is a file, not a folder" : "no such folder (make it first: mkdir -p '" + folder + "')"));
    std::map<std::string, std::string> taken;  // output name -> the input that takes it
    for (const std::string& input : options.inputs) {
        if (input == "-") throw Error(ErrorCode::usage, "standard input (-) has no name to write into '" + output + "': give -o FILE");
        const std::string name = with_extension(detail::file_name_of(input), format);
        const auto [at, fresh] = taken.emplace(name, input);
        if (!fresh) throw Error(ErrorCode::usage, "'" + at->second + "' and '" + input + "' would both be written to '" + folder + "/" + name + "'");
        jobs.push_back({input, (folder == "/" ? "" : folder) + "/" + name, format});
    }
    return jobs;
}

int run_file_jobs(const Options& options, std::ostream& log) {
    const std::vector<FileJob> jobs = plan_file_jobs(options);
    int status = 0;
    std::size_t failed = 0;
    for (const FileJob& job : jobs) {
        Options one = options;
        one.input = job.input;
        one.output = job.output;
        one.output_format = job.format;
        one.overwrite = options.overwrite || options.in_place;
        if (jobs.size() == 1) {
            check_input_is_a_file(job.input);
            run_single_image(one, log);
            return 0;
        }
        try {
            check_input_is_a_file(job.input);
            run_single_image(one, log);
        } catch (const Error& e) {
            log << "gpurotate: error: " << e.what() << "\n";
            if (status == 0) status = static_cast<int>(e.code());
            ++failed;
        } catch (const std::exception& e) {  // out of memory for one file: the next may fit
            log << "gpurotate: internal error: '" << job.input << "': " << e.what() << "\n";
            if (status == 0) status = static_cast<int>(ErrorCode::internal);
            ++failed;
        }
    }
    if (failed > 0) log << "gpurotate: " << failed << " of " << jobs.size() << " files failed" << (failed < jobs.size() ? "; the others were written" : "") << "\n";
    return status;
}

}  // namespace gpurotate::cli
