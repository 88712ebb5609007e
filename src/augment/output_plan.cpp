#include "augment/output_plan.hpp"
#include "augment/draw_options.hpp"
#include "augment/random_draw.hpp"
#include "formats/format_registry.hpp"

#include "core/path_names.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>

#include <cctype>
#include <charconv>
#include <map>
#include <string>
#include <utility>

namespace gpurotate::augment {
namespace {

using detail::file_name_of;
using detail::lowercase;
using detail::number_text;
using detail::stem_of;

std::string directory_part(const std::string& relative) {
    const auto slash = relative.find_last_of('/');
    return slash == std::string::npos ? "" : relative.substr(0, slash + 1);
}

std::string extension_of(const std::string& name) {
    const auto dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? "" : lowercase(name.substr(dot + 1));
}

bool writable_extension(const std::string& ext) { return !ext.empty() && detail::writable_format_of_extension("." + ext); }

// What --name's fields stand for, for one output.
struct NameFields {
    std::string stem, op, ext, dir, parent, index, draw;
};

constexpr std::pair<const char*, std::string NameFields::*> name_fields[] = {
    {"{stem}", &NameFields::stem},   {"{op}", &NameFields::op},       {"{ext}", &NameFields::ext},    {"{dir}", &NameFields::dir},
    {"{parent}", &NameFields::parent}, {"{index}", &NameFields::index}, {"{draw}", &NameFields::draw},
};

std::string expand(const std::string& name_template, const NameFields& fields) {
    std::string out;
    for (std::size_t i = 0; i < name_template.size(); ++i) {
        bool replaced = false;
        for (const auto& [field, member] : name_fields) {
            const std::size_t length = std::char_traits<char>::length(field);
            if (name_template.compare(i, length, field) == 0) {
                out += fields.*member;
                i += length - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += name_template[i];
    }
    return out;
}

// A template with {dir} or {parent} places its output below OUTDIR itself; one without goes into the
// input's mirrored folder.
bool places_itself(const std::string& name_template) {
    return name_template.find("{dir}") != std::string::npos || name_template.find("{parent}") != std::string::npos;
}

// An empty {dir} (an input at the top of its folder) leaves an empty component: "{op}/{dir}/{stem}" is then
// "rot90/img", not "rot90//img".
std::string without_empty_components(const std::string& path) {
    std::string out;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string::npos) end = path.size();
        if (end > start) out += (out.empty() ? "" : "/") + path.substr(start, end - start);
        start = end + 1;
    }
    return out;
}

// The name of the folder that holds `path` (made absolute): "data/train/cat/1.jpg" -> "cat".
std::string parent_name(const std::string& path) {
    const std::string absolute = normal_absolute(path);
    const auto slash = absolute.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return "";
    return file_name_of(absolute.substr(0, slash));
}

}  // namespace

std::uint64_t shard_hash(const std::string& relative) { return draw_detail::path_hash(relative); }

void check_name_template(const std::string& name_template, std::size_t operation_count, unsigned random_draws) {
    const std::string bad = "--name '" + name_template + "': ";
    const std::string stripped = expand(name_template, NameFields{});
    if (stripped.find_first_of("{}") != std::string::npos) {
        throw Error(ErrorCode::usage, bad + "only {stem}, {op}, {ext}, {dir}, {parent}, {index} and (with --random) {draw} can be used");
    }
    if (random_draws == 0 && name_template.find("{draw}") != std::string::npos) {
        throw Error(ErrorCode::usage, bad + "{draw} is the number of a --random draw: it needs --random");
    }
    if (name_template.empty() || name_template.back() == '/') throw Error(ErrorCode::usage, bad + "does not name a file");
    if (name_template[0] == '/') throw Error(ErrorCode::usage, bad + "must be relative to the output folder");
    const std::string padded = "/" + name_template + "/";
    if (padded.find("/../") != std::string::npos || padded.find("/./") != std::string::npos || padded.find("//") != std::string::npos) {
        throw Error(ErrorCode::usage, bad + "'.', '..' and empty path components are not allowed (outputs stay inside the output folder)");
    }
    if (random_draws == 0 && operation_count > 1 && name_template.find("{op}") == std::string::npos) {
        throw Error(ErrorCode::usage, bad + "needs {op} when more than one operation is asked for");
    }
    if (random_draws > 1 && name_template.find("{draw}") == std::string::npos) {
        // With --with-replacement two draws of one input can be the same element, which {op} cannot tell apart.
        throw Error(ErrorCode::usage, bad + "needs {draw} with --random " + std::to_string(random_draws) + " (it tells an input's draws apart)");
    }
}

DrawParameters draw_parameters(const AugmentOptions& options) {
    const RandomModel model = random_model(options.operations, options.random);
    DrawParameters p;
    for (std::size_t i = 0; i < model.elements.size(); ++i) {
        p.ops += (i ? "," : "") + std::string(gpurotate::name(model.elements[i]));
        p.weights += (i ? "," : "") + number_text(model.weights[i]);
    }
    p.p_flip_h = number_text(model.p_flip_h);
    p.p_flip_v = number_text(model.p_flip_v);
    p.draws = options.random.draws;
    p.with_replacement = options.random.with_replacement;
    if (options.random.degrees > 0) {
        p.degrees = number_text(options.random.degrees) + " " + std::string(name(options.random.interpolation)) +
                    (options.random.keep_size ? " keep-size" : " expand");
    }
    return p;
}

std::vector<Job> plan_jobs(const std::vector<InputFile>& inputs, const AugmentOptions& options) {
    const RandomOptions& random = options.random;
    check_name_template(options.name_template, options.operations.size(), random.draws);
    if (random.draws > 0 && !random.seed) throw Error(ErrorCode::usage, "augment --random: no seed chosen");
    const RandomModel model = random_model(options.operations, options.random);
    check_draw_count(model, random.draws, random.with_replacement);
    const auto parameters = random.draws > 0 ? std::make_shared<const DrawParameters>(draw_parameters(options)) : nullptr;
    const bool same = options.format == "same";
    if (!same) detail::output_format_of_extension("." + lowercase(options.format), "--format " + options.format, ErrorCode::usage);
    std::string out_dir = options.output_dir;
    while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
    const bool placed = places_itself(options.name_template);

    std::vector<Job> jobs;
    std::map<std::string, std::string> owner;  // output path -> the input that writes it
    for (std::size_t index = 0; index < inputs.size(); ++index) {
        const InputFile& input = inputs[index];
        if (shard_hash(input.relative) % options.shard.count != options.shard.index) continue;
        const std::string name = file_name_of(input.relative);
        std::string ext = same ? extension_of(name) : options.format;
        if (same && !writable_extension(ext)) ext = "png";  // e.g. GIF or PSD in: no writer, so PNG out
        std::string dir = directory_part(input.relative);
        if (!dir.empty()) dir.pop_back();
        NameFields fields{stem_of(name), "", ext, dir, placed ? parent_name(input.path) : "", std::to_string(index), ""};
        Job job{input, {}};
        const auto plan = [&](Orientation op, std::optional<RandomDraw> draw) {
            fields.op = std::string(gpurotate::name(op));
            fields.draw = draw ? std::to_string(draw->index) : "";
            const std::string expanded = expand(options.name_template, fields);
            const std::string relative = placed ? without_empty_components(expanded) : directory_part(input.relative) + expanded;
            const std::string path = out_dir + "/" + relative;
            if (!writable_extension(extension_of(file_name_of(path)))) {
                throw Error(ErrorCode::usage, "--name '" + options.name_template + "' gives '" + path +
                                                  "', whose extension names no output format (use {ext})");
            }
            const auto [it, inserted] = owner.emplace(path, input.path);
            if (!inserted) {
                throw Error(ErrorCode::usage, "'" + it->second + "' and '" + input.path + "' would both be written to '" + path +
                                                  "' (--name's fields are the same for both: rename one, add {dir} or {index} to --name, or name the "
                                                  "files in an @list file, whose lines keep their folders below OUTDIR)");
            }
            job.outputs.push_back({op, path, relative, draw});
        };
        if (random.draws > 0) {
            const std::vector<Orientation> drawn = draw_elements(model, *random.seed, input.relative, random.draws, random.with_replacement);
            for (unsigned d = 0; d < drawn.size(); ++d) {
                plan(drawn[d], RandomDraw{*random.seed, d, parameters});
                if (random.degrees > 0) job.outputs.back().angle = draw_angle(random.degrees, *random.seed, input.relative, d);
            }
        } else {
            for (Orientation op : options.operations) plan(op, std::nullopt);
        }
        jobs.push_back(std::move(job));
    }
    return jobs;
}

}  // namespace gpurotate::augment
