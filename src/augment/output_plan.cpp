#include "augment/output_plan.hpp"
#include "formats/format_registry.hpp"

#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/io.hpp>

#include <cctype>
#include <map>

namespace gpurotate::augment {
namespace {

using detail::lowercase;

std::string file_name_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string directory_part(const std::string& relative) {
    const auto slash = relative.find_last_of('/');
    return slash == std::string::npos ? "" : relative.substr(0, slash + 1);
}

std::string stem_of(const std::string& name) {
    const auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string extension_of(const std::string& name) {
    const auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? "" : lowercase(name.substr(dot + 1));
}

bool writable_extension(const std::string& ext) {
    if (ext.empty()) return false;
    try {
        check_output_format("x." + ext);
        return true;
    } catch (const Error&) {
        return false;
    }
}

std::string expand(const std::string& name_template, const std::string& stem, const std::string& op, const std::string& ext) {
    std::string out;
    for (std::size_t i = 0; i < name_template.size(); ++i) {
        if (name_template.compare(i, 6, "{stem}") == 0) {
            out += stem;
            i += 5;
        } else if (name_template.compare(i, 4, "{op}") == 0) {
            out += op;
            i += 3;
        } else if (name_template.compare(i, 5, "{ext}") == 0) {
            out += ext;
            i += 4;
        } else {
            out += name_template[i];
        }
    }
    return out;
}

}  // namespace

std::uint64_t shard_hash(const std::string& relative) {
    std::uint64_t hash = 14695981039346656037ull;
    for (unsigned char c : relative) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

void check_name_template(const std::string& name_template, std::size_t operation_count) {
    const std::string bad = "--name '" + name_template + "': ";
    const std::string stripped = expand(name_template, "", "", "");
    if (stripped.find_first_of("{}") != std::string::npos) throw Error(ErrorCode::usage, bad + "only {stem}, {op} and {ext} can be used");
    if (name_template.empty() || name_template.back() == '/') throw Error(ErrorCode::usage, bad + "does not name a file");
    if (name_template[0] == '/') throw Error(ErrorCode::usage, bad + "must be relative to the output folder");
    const std::string padded = "/" + name_template + "/";
    if (padded.find("/../") != std::string::npos || padded.find("/./") != std::string::npos || padded.find("//") != std::string::npos) {
        throw Error(ErrorCode::usage, bad + "'.', '..' and empty path components are not allowed (outputs stay inside the output folder)");
    }
    if (operation_count > 1 && name_template.find("{op}") == std::string::npos) {
        throw Error(ErrorCode::usage, bad + "needs {op} when more than one operation is asked for");
    }
}

std::vector<Job> plan_jobs(const std::vector<InputFile>& inputs, const AugmentOptions& options) {
    check_name_template(options.name_template, options.operations.size());
    const bool same = options.format == "same";
    if (!same) detail::output_format_of_extension("." + lowercase(options.format), "--format " + options.format, ErrorCode::usage);
    std::string out_dir = options.output_dir;
    while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();

    std::vector<Job> jobs;
    std::map<std::string, std::string> owner;  // output path -> the input that writes it
    for (const InputFile& input : inputs) {
        if (shard_hash(input.relative) % options.shard.count != options.shard.index) continue;
        const std::string name = file_name_of(input.relative);
        std::string ext = same ? extension_of(name) : options.format;
        if (same && !writable_extension(ext)) ext = "png";  // e.g. GIF or PSD in: no writer, so PNG out
        Job job{input, {}};
        for (Orientation op : options.operations) {
            const std::string relative = directory_part(input.relative) + expand(options.name_template, stem_of(name), std::string(gpurotate::name(op)), ext);
            const std::string path = out_dir + "/" + relative;
            if (!writable_extension(extension_of(file_name_of(path)))) {
                throw Error(ErrorCode::usage, "--name '" + options.name_template + "' gives '" + path +
                                                  "', whose extension names no output format (use {ext})");
            }
            const auto [it, inserted] = owner.emplace(path, input.path);
            if (!inserted) {
                throw Error(ErrorCode::usage, "'" + it->second + "' and '" + input.path + "' would both be written to '" + path +
                                                  "' (--name's {stem}, {op} and {ext} are the same for both: rename one, or name the files in an @list file, whose "
                                                  "lines keep their folders below OUTDIR)");
            }
            job.outputs.push_back({op, path, relative});
        }
        jobs.push_back(std::move(job));
    }
    return jobs;
}

}  // namespace gpurotate::augment
