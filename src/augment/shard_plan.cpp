#include "augment/shard_plan.hpp"

#include "formats/format_registry.hpp"

#include "core/text.hpp"

#include <gpurotate/error.hpp>

#include <map>

namespace gpurotate::augment {

std::vector<Job> plan_shard_jobs(const std::vector<InputFile>& shards, const AugmentOptions& options) {
    if (shards.empty()) return {};
    if (options.name_template.find("{stem}") == std::string::npos) {
        throw Error(ErrorCode::usage, "--name '" + options.name_template + "': a WebDataset shard's variant keys need {stem} (the sample's key), "
                                      "or every sample would write the same members");
    }
    // WebDataset's key ends at the file name's first dot: a field after it ({stem}.{op}.{ext}) would be part of
    // every variant's suffix, and all of a sample's variants would have one key.
    const auto slash = options.name_template.find_last_of('/');
    const std::string file = options.name_template.substr(slash == std::string::npos ? 0 : slash + 1);
    if (const auto dot = file.find('.'); dot != std::string::npos) {
        std::string suffix = file.substr(dot);
        for (auto ext = suffix.find("{ext}"); ext != std::string::npos; ext = suffix.find("{ext}")) suffix.erase(ext, 5);
        if (suffix.find('{') != std::string::npos) {
            throw Error(ErrorCode::usage, "--name '" + options.name_template + "': a WebDataset key is the file name up to its first dot, so " +
                                              "the fields after it would not tell the variants apart (put them before it: {stem}_{op}.{ext})");
        }
    }
    std::string out_dir = options.output_dir;
    while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
    std::vector<Job> jobs;
    std::map<std::string, std::string> owner;  // output path -> the shard that writes it
    for (const InputFile& shard : shards) {
        if (shard_hash(shard.relative) % options.shard.count != options.shard.index) continue;
        const std::string path = out_dir + "/" + shard.relative;
        const auto [it, inserted] = owner.emplace(path, shard.path);
        if (!inserted) {
            throw Error(ErrorCode::usage, "'" + it->second + "' and '" + shard.path + "' would both be written to '" + path +
                                              "' (give their folder instead, whose layout is kept below OUTDIR, or rename one)");
        }
        jobs.push_back(Job{shard, {PlannedOutput{Orientation::identity, path, shard.relative}}});
    }
    return jobs;
}

std::size_t primary_image(const std::vector<const ShardMember*>& images) {
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (images[i]->suffix.find('.') == std::string::npos) return i;
    }
    return 0;
}

std::vector<SampleVariant> plan_sample_variants(const std::string& shard_path, const std::vector<const ShardMember*>& images,
                                                const AugmentOptions& options) {
    // The name the file would have in a folder: one dot before its extension, which --name's {stem} and {ext}
    // split as the folder mode does ("001.seg.png" would give the key "001" to every variant).
    const ShardMember& primary = *images[primary_image(images)];
    std::string name = primary.name;
    if (primary.suffix.find('.') != std::string::npos) {
        name = primary.name.substr(0, primary.name.size() - primary.suffix.size()) + primary.suffix.substr(primary.suffix.find_last_of('.') + 1);
    }
    AugmentOptions sample_options = options;
    sample_options.shard = Shard{};  // the shard was chosen whole; every sample in it is made
    sample_options.output_dir = "";
    const std::vector<Job> planned = plan_jobs({InputFile{shard_path + ":" + name, name}}, sample_options);
    std::vector<SampleVariant> variants;
    for (const PlannedOutput& out : planned.front().outputs) {
        const auto split = webdataset_name(out.relative);
        variants.push_back({out, split ? split->key : out.relative});
    }
    return variants;
}

std::string variant_image_suffix(const std::string& suffix, const std::string& format) {
    const auto dot = suffix.find_last_of('.');
    const std::string head = dot == std::string::npos ? "" : suffix.substr(0, dot + 1);
    const std::string ext = detail::lowercase(dot == std::string::npos ? suffix : suffix.substr(dot + 1));
    if (format != "same") return head + format;
    return detail::writable_format_of_extension("." + ext) ? suffix : head + "png";
}

}  // namespace gpurotate::augment
