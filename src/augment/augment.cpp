// `gpurotate augment`: list, plan, refuse what must be refused before any work, run the pipeline, report.

#include "augment/augment_options.hpp"
#include "augment/heap_reuse.hpp"
#include "augment/input_list.hpp"
#include "augment/interrupt.hpp"
#include "augment/manifest.hpp"
#include "augment/output_folder.hpp"
#include "augment/output_plan.hpp"
#include "augment/pipeline.hpp"
#include "augment/progress.hpp"
#include "augment/run_lock.hpp"
#include "augment/sample_labels.hpp"
#include "augment/shard_pipeline.hpp"
#include "augment/shard_plan.hpp"
#include "augment/stage_report.hpp"
#include "formats/file_bytes.hpp"
#include "formats/flush_file_system.hpp"
#include "convert/run_conversion.hpp"
#include "jpeg/nvjpeg_codec.hpp"
#include "core/parallel_for.hpp"

#include "core/path_names.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpurotate::augment {
namespace {

using detail::split_commas;
using detail::without_trailing_slashes;
using detail::size_text;

// --host-memory's default: half of the machine's memory, which leaves the rest to the page cache and the
// other processes (a container's own limit is not read).
std::size_t half_the_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return std::size_t{8} << 30;
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 2;
}

struct ExistingCheck {
    std::int64_t already_complete = 0;
};

// Drops outputs that --resume finds complete; refuses outputs that exist without --resume or --overwrite,
// any output that is one of the inputs, and any that is a symbolic link inside OUTDIR or lies below one
// (with every flag: augment never writes through a link in its folder).
ExistingCheck check_existing_outputs(std::vector<Job>& jobs, const AugmentOptions& o, const std::string& manifest_path, const OutputFolder& folder,
                                     const std::vector<std::string>& dataset_files) {
    std::set<std::pair<dev_t, ino_t>> inputs;
    for (const Job& job : jobs) {
        struct stat info {};
        if (::stat(job.input.path.c_str(), &info) == 0) inputs.insert({info.st_dev, info.st_ino});
    }
    // The manifest is written to (appended to with --resume) before any output: never through a link, never
    // onto an input or an output.
    struct stat manifest_info {};
    if (::lstat(manifest_path.c_str(), &manifest_info) == 0 && S_ISLNK(manifest_info.st_mode)) {
        throw Error(ErrorCode::output, "manifest '" + manifest_path + "' is a symbolic link, which augment never writes through, with any flag (remove it)");
    }
    if (::stat(manifest_path.c_str(), &manifest_info) == 0 && inputs.count({manifest_info.st_dev, manifest_info.st_ino})) {
        throw Error(ErrorCode::output, "manifest '" + manifest_path + "' is an input file: augment never replaces its inputs");
    }
    const auto canonical = [](const std::filesystem::path& path) {
        std::error_code ignored;  // a path that cannot be resolved compares as written
        const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ignored);
        return resolved.empty() ? path : resolved;
    };
    // Where the manifest's bytes go: through a link, even one to an output not written yet.
    std::filesystem::path manifest_target = manifest_path;
    std::error_code link_error;
    if (std::filesystem::is_symlink(manifest_target, link_error)) {
        const std::filesystem::path target = std::filesystem::read_symlink(manifest_target, link_error);
        if (!link_error) manifest_target = target.is_absolute() ? target : manifest_target.parent_path() / target;
    }
    manifest_target = canonical(manifest_target);
    for (const Job& job : jobs) {
        for (const PlannedOutput& out : job.outputs) {
            // The names first: resolving every output's path would cost a walk of its folders each.
            if (std::filesystem::path(out.path).filename() == manifest_target.filename() && canonical(out.path) == manifest_target) {
                throw Error(ErrorCode::usage, "manifest '" + manifest_path + "' is also the path of the output of '" + job.input.path + "'");
            }
        }
    }
    const CompletedOutputs completed = o.resume ? completed_outputs(manifest_path) : CompletedOutputs{};
    ExistingCheck result;
    std::vector<std::string> existing, links;
    // What travels with the variants (labels, masks) and with the dataset (data.yaml, the COCO file): never
    // through a link; replaced only as the variants are. A complete variant's were written before its record.
    const auto check_companion = [&](const std::string& relative) {
        const OutputFolder::Entry entry = folder.entry(relative);
        if (entry.kind == OutputFolder::Entry::link) links.push_back(folder.path() + "/" + relative);
        if (entry.kind != OutputFolder::Entry::none && entry.kind != OutputFolder::Entry::link && !o.resume && !o.overwrite) {
            existing.push_back(folder.path() + "/" + relative);
        }
    };
    for (const std::string& relative : dataset_files) check_companion(relative);
    for (Job& job : jobs) {
        std::vector<PlannedOutput> remaining;
        for (const PlannedOutput& out : job.outputs) {
            if (!out.label_relative.empty()) check_companion(out.label_relative);
            if (!out.mask_relative.empty()) check_companion(out.mask_relative);
            const OutputFolder::Entry entry = folder.entry(out.relative);
            if (entry.kind == OutputFolder::Entry::link) {
                links.push_back(out.path);
                continue;
            }
            if (entry.kind == OutputFolder::Entry::none) {
                remaining.push_back(out);
                continue;
            }
            if (inputs.count({static_cast<dev_t>(entry.device), static_cast<ino_t>(entry.inode)})) {
                throw Error(ErrorCode::output, "output '" + out.path + "' is an input file: augment never replaces its inputs");
            }
            // A variant is complete with its label and mask: one recorded by a run without --labels (or whose
            // label was removed since) is made again.
            const auto companion_there = [&](const std::string& relative) {
                return relative.empty() || folder.entry(relative).kind == OutputFolder::Entry::file;
            };
            const auto done = completed.find(out.path, out.relative);
            if (done && entry.kind == OutputFolder::Entry::file && *done == entry.size && companion_there(out.label_relative) &&
                companion_there(out.mask_relative)) {
                ++result.already_complete;
                continue;
            }
            if (!o.resume && !o.overwrite) existing.push_back(out.path);
            remaining.push_back(out);
        }
        job.outputs = std::move(remaining);
    }
    if (!links.empty()) {
        throw Error(ErrorCode::output, std::to_string(links.size()) + " output(s) are, or lie below, a symbolic link inside the output folder, e.g. '" +
                                           links.front() + "': augment never writes through one, with any flag (remove the links)");
    }
    if (!existing.empty()) {
        throw Error(ErrorCode::output, std::to_string(existing.size()) + " output(s) already exist, e.g. '" + existing.front() +
                                           "' (use --resume to finish an interrupted run, or --overwrite to replace them)");
    }
    struct stat info {};
    if (!o.resume && !o.overwrite && ::stat(manifest_path.c_str(), &info) == 0) {
        throw Error(ErrorCode::output, "manifest '" + manifest_path +
                                           "' already exists (use --resume to finish that run, or --overwrite to start over)");
    }
    jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const Job& j) { return j.outputs.empty(); }), jobs.end());
    return result;
}

std::vector<int> resolve_devices(const std::vector<int>& requested) {
    if (requested.empty()) return {0};
    if (requested.front() >= 0) {
        const auto gpus = cuda_devices();
        for (int d : requested) {
            if (d >= static_cast<int>(gpus.size())) {
                throw Error(ErrorCode::device, "--devices: GPU " + std::to_string(d) + " does not exist (" + std::to_string(gpus.size()) +
                                                   " visible)");
            }
        }
        return requested;
    }
    std::vector<int> all;  // "all"
    for (const auto& g : cuda_devices()) all.push_back(g.index);
    return all;
}

// The folder pipeline's totals and the shard pipeline's, as one run's.
PipelineTotals sum_of(PipelineTotals a, const PipelineTotals& b) {
    a.inputs_done += b.inputs_done;
    a.inputs_failed += b.inputs_failed;
    a.outputs_written += b.outputs_written;
    a.outputs_failed += b.outputs_failed;
    a.bytes_written += b.bytes_written;
    a.decode_seconds += b.decode_seconds;
    a.transform_seconds += b.transform_seconds;
    a.encode_seconds += b.encode_seconds;
    a.device_bytes = std::max(a.device_bytes, b.device_bytes);
    a.gpu_sessions = std::max(a.gpu_sessions, b.gpu_sessions);
    a.gpu_start_seconds += b.gpu_start_seconds;
    a.lossless_outputs += b.lossless_outputs;
    a.trimmed_outputs += b.trimmed_outputs;
    a.reencoded_jpeg_outputs += b.reencoded_jpeg_outputs;
    a.gpu_coded_scans += b.gpu_coded_scans;
    a.nvjpeg_inputs += b.nvjpeg_inputs;
    a.hardware_decoded += b.hardware_decoded;
    a.fell_back_to_cpu = a.fell_back_to_cpu || b.fell_back_to_cpu;
    a.stage_seconds += b.stage_seconds;
    a.pipeline_seconds += b.pipeline_seconds;
    a.worker_seconds_available += b.worker_seconds_available;
    return a;
}

// What --labels and --masks can do with WebDataset shards: a YOLO .txt member turned with its sample, in a run
// of shards alone (the folder mode's label layouts have no place for them). Throws Error (usage).
void check_shard_labels(const AugmentOptions& o, bool image_files) {
    if (!o.labels.masks_dir.empty()) {
        throw Error(ErrorCode::usage, "augment --masks with WebDataset shards: not supported yet (put each mask in its sample as a member, "
                                      "KEY.seg.png: it is turned with the sample's image, in its own format)");
    }
    if (o.labels.any() && o.labels.format != LabelOptions::Format::yolo) {
        throw Error(ErrorCode::usage, "augment --labels coco/voc with WebDataset shards: not supported yet (--labels yolo turns each sample's "
                                      ".txt member)");
    }
    if (o.labels.any() && image_files) {
        throw Error(ErrorCode::usage, "augment --labels with WebDataset shards and image files in one run: give them in two runs");
    }
}

void print_summary(const PipelineTotals& t, const ExistingCheck& existing, double wall, double flush, const PipelineSettings& s,
                   std::ostream& err) {
    if (s.labels && s.labels->background_images() > 0) {
        err << "gpurotate: " << s.labels->background_images()
            << " images had no label file: background images, written with empty labels\n";
    }
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    const double worker_time = t.decode_seconds + t.transform_seconds + t.encode_seconds;
    const auto share = [&](double x) { return worker_time > 0 ? 100.0 * x / worker_time : 0.0; };
    char line[512];
    std::snprintf(line, sizeof line,
                  "gpurotate: augment: %lld inputs (%lld failed), %lld outputs written (%lld failed, %lld already complete), %s in %.2f s "
                  "(%.2f s of it flushing them to disk)\n",
                  static_cast<long long>(t.inputs_done), static_cast<long long>(t.inputs_failed), static_cast<long long>(t.outputs_written),
                  static_cast<long long>(t.outputs_failed), static_cast<long long>(existing.already_complete),
                  size_text(static_cast<double>(t.bytes_written)).c_str(), wall, flush);
    err << line;
    char gpu_start[64];
    std::snprintf(gpu_start, sizeof gpu_start, " (CUDA start-up %.0f ms, beside the first decodes)", t.gpu_start_seconds * 1e3);
    std::string backend = t.gpu_sessions > 0 ? "cuda, " + std::to_string(t.gpu_sessions) + " streams on " + std::to_string(s.devices.size()) + " GPU(s)" + gpu_start
                                             : "cpu";
    std::snprintf(line, sizeof line, "gpurotate: %.1f images/s, %s/s written; backend %s; %u worker%s\n",
                  wall > 0 ? static_cast<double>(t.inputs_done) / wall : 0.0,
                  size_text(wall > 0 ? static_cast<double>(t.bytes_written) / wall : 0.0).c_str(), backend.c_str(), s.workers,
                  s.workers == 1 ? "" : "s");
    err << line;
    if (t.lossless_outputs > 0 || t.reencoded_jpeg_outputs > 0) {
        // JPEG variants of JPEG inputs both ways, so that a dataset whose variants were meant to be lossless
        // shows at a glance how many are not.
        const std::string trimmed = t.trimmed_outputs ? ", " + std::to_string(t.trimmed_outputs) + " of them trimmed by --jpeg-edge trim" : "";
        const std::string gpu_coded = t.gpu_coded_scans ? ", " + std::to_string(t.gpu_coded_scans) + " of their scans entropy-coded on the GPU" : "";
        std::snprintf(line, sizeof line,
                      "gpurotate: %lld JPEG variants transformed losslessly (DCT coefficients moved, no re-encode)%s%s; %lld JPEG variants of "
                      "JPEG inputs re-encoded\n",
                      static_cast<long long>(t.lossless_outputs), trimmed.c_str(), gpu_coded.c_str(), static_cast<long long>(t.reencoded_jpeg_outputs));
        err << line;
    }
    if (s.convert.nvjpeg) {
        char decoded[96] = "";
        if (s.convert.nvjpeg_decode == detail::NvjpegDecode::gpu) {
            std::snprintf(decoded, sizeof decoded, "; the GPU's hardware decoder decoded %lld of them", static_cast<long long>(t.hardware_decoded));
        }
        std::snprintf(line, sizeof line, "gpurotate: nvJPEG encoded the variants of %lld of the %lld inputs on the GPU (the others took the CPU codecs)%s\n",
                      static_cast<long long>(t.nvjpeg_inputs), static_cast<long long>(t.inputs_done), decoded);
        err << line;
    }
    std::snprintf(line, sizeof line,
                  "gpurotate: worker time: decode %.1f s (%.0f%%), transform %.1f s (%.0f%%), encode+write %.1f s (%.0f%%); "
                  "peak memory: host %s, device %s\n",
                  t.decode_seconds, share(t.decode_seconds), t.transform_seconds, share(t.transform_seconds), t.encode_seconds,
                  share(t.encode_seconds), size_text(static_cast<double>(usage.ru_maxrss) * 1024.0).c_str(),
                  size_text(static_cast<double>(t.device_bytes)).c_str());
    err << line;
}

// The seed of a --random run: --seed; on --resume, the manifest's (a different --seed would draw other
// outputs, so it is refused); else a fresh one from the system's entropy, printed so that the run can be
// repeated, and recorded with every output in the manifest.
std::uint64_t random_seed(const AugmentOptions& o, std::optional<std::uint64_t> recorded, const std::string& manifest_path) {
    if (recorded && o.random.seed && *o.random.seed != *recorded) {
        throw Error(ErrorCode::usage, "augment --resume --seed " + std::to_string(*o.random.seed) + ": manifest '" + manifest_path +
                                          "' records seed " + std::to_string(*recorded) +
                                          ", whose draws this run would finish (leave --seed out, or give that one)");
    }
    if (o.random.seed) return *o.random.seed;
    if (recorded) {
        if (!o.quiet) std::cerr << "gpurotate: augment --random: seed " << *recorded << ", from manifest '" << manifest_path << "'\n";
        return *recorded;
    }
    std::random_device entropy;
    const std::uint64_t seed = entropy();  // 32 bits: short enough to type again
    if (!o.quiet) std::cerr << "gpurotate: augment --random: seed " << seed << " (chosen at random; --seed " << seed << " repeats this run)\n";
    return seed;
}

// --resume finishes the run its manifest records (its first record says how it was made): one with other
// draws would add other outputs beside it, so every draw parameter is compared, as the seed is.
void check_same_draws(const AugmentOptions& o, const ManifestRecord& recorded, const std::string& manifest_path) {
    const std::string records = "augment --resume: manifest '" + manifest_path + "' records ";
    const std::string remedy = ": its draws would differ (give the recorded value to finish that run, or --overwrite to start over)";
    const bool random = o.random.draws > 0;
    if (recorded.seed.has_value() != random) {
        throw Error(ErrorCode::usage, records + (random ? "a run without --random, and this run has --random" : "a --random run, and this run has no --random") + remedy);
    }
    if (!random || !recorded.parameters) return;  // not random, or recorded before the parameters were
    const DrawParameters now = draw_parameters(o), & then = *recorded.parameters;
    const auto yes_no = [](bool b) { return std::string(b ? "on" : "off"); };
    const std::tuple<const char*, std::string, std::string> compared[] = {
        {"--ops", then.ops, now.ops},
        {"--weights", then.weights, now.weights},
        {"--p-flip-h", then.p_flip_h, now.p_flip_h},
        {"--p-flip-v", then.p_flip_v, now.p_flip_v},
        {"--random", std::to_string(then.draws), std::to_string(now.draws)},
        {"--with-replacement", yes_no(then.with_replacement), yes_no(now.with_replacement)},
        {"--degrees", then.degrees, now.degrees},
    };
    for (const auto& [option, was, is] : compared) {
        if (was != is) throw Error(ErrorCode::usage, records + option + " " + was + ", and this run has " + option + " " + is + remedy);
    }
}

}  // namespace

Shard parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    try {
        if (slash == std::string::npos) throw std::invalid_argument(text);
        std::size_t used_k = 0, used_n = 0;
        const long k = std::stol(text.substr(0, slash), &used_k);
        const long n = std::stol(text.substr(slash + 1), &used_n);
        if (used_k != slash || used_n != text.size() - slash - 1 || n < 1 || k < 0 || k >= n || n > 1000000) throw std::invalid_argument(text);
        return {static_cast<unsigned>(k), static_cast<unsigned>(n)};
    } catch (const std::exception&) {
        throw Error(ErrorCode::usage, "--shard " + text + ": expected K/N with 0 <= K < N, e.g. 0/4");
    }
}

std::uint64_t parse_seed(const std::string& text) {
    // std::stoull would take "-1" (as 2^64-1) and " 7": digits only.
    const bool digits = !text.empty() && text.size() <= 20 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    try {
        if (digits) return std::stoull(text);
    } catch (const std::exception&) {  // over 2^64-1
    }
    throw Error(ErrorCode::usage, "--seed " + text + ": expected a whole number from 0 to 18446744073709551615");
}

LabelOptions parse_label_option(const std::string& text) {
    LabelOptions labels;
    const auto eq = text.find('=');
    const std::string kind = text.substr(0, eq);
    const std::string file = eq == std::string::npos ? "" : text.substr(eq + 1);
    if (kind == "yolo") {
        labels.format = LabelOptions::Format::yolo;
    } else if (kind == "coco") {
        labels.format = LabelOptions::Format::coco;
        if (file.empty()) throw Error(ErrorCode::usage, "--labels coco needs its annotation file: --labels coco=instances.json");
    } else if (kind == "voc") {
        labels.format = LabelOptions::Format::voc;
    } else {
        throw Error(ErrorCode::usage, "--labels " + text + ": expected yolo, yolo=data.yaml, coco=FILE.json or voc");
    }
    if (kind == "voc" && eq != std::string::npos) throw Error(ErrorCode::usage, "--labels voc takes no file: each image's annotation is found beside it");
    if (eq != std::string::npos && file.empty()) throw Error(ErrorCode::usage, "--labels " + text + ": no file after '='");
    labels.file = file;
    return labels;
}

std::vector<int> parse_device_list(const std::string& text) {
    if (text == "all") return {-1};
    std::vector<int> devices;
    for (const std::string& item : split_commas(text)) {
        try {
            std::size_t used = 0;
            const int d = std::stoi(item, &used);
            if (used != item.size() || d < 0) throw std::invalid_argument(item);
            if (std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
        } catch (const std::exception&) {
            throw Error(ErrorCode::usage, "--devices " + text + ": expected GPU numbers like 0,1 or all");
        }
    }
    if (devices.empty()) throw Error(ErrorCode::usage, "--devices names no GPU");
    return devices;
}

int run_augment(const AugmentOptions& o) {
    const auto run_start = std::chrono::steady_clock::now();  // -v's listing is counted from here
    if (o.inputs.empty()) throw Error(ErrorCode::usage, "augment: no input given (files, folders or @list files)");
    if (o.output_dir.empty()) throw Error(ErrorCode::usage, "augment: no output folder given: use -o OUTDIR");
    if (o.resume && o.overwrite) throw Error(ErrorCode::usage, "augment: --resume and --overwrite exclude each other");
    const std::string out_dir = without_trailing_slashes(o.output_dir);
    AugmentOptions options = o;
    options.output_dir = out_dir;
    const std::string manifest_path = o.manifest_path.empty() ? out_dir + "/manifest.jsonl" : o.manifest_path;

    const std::optional<ManifestRecord> recorded = o.resume ? first_record(manifest_path) : std::nullopt;
    if (recorded) check_same_draws(options, *recorded, manifest_path);
    if (options.random.draws > 0) options.random.seed = random_seed(o, recorded ? recorded->seed : std::nullopt, manifest_path);

    if (o.labels.any() && o.convert.auto_orient) {
        throw Error(ErrorCode::usage, "augment --labels/--masks with --auto-orient: labels are written against the stored pixels, and "
                                      "--auto-orient would turn each image by its EXIF orientation besides --ops (make the images upright "
                                      "with their labels first, or leave --auto-orient out)");
    }
    if (!o.labels.masks_dir.empty()) {
        struct stat info {};
        if (::stat(o.labels.masks_dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
            throw Error(ErrorCode::usage, "--masks '" + o.labels.masks_dir + "': not a folder");
        }
    }
    if (o.labels.any() && (o.convert.jpeg_edge == detail::JpegEdge::trim || o.convert.jpeg_edge == detail::JpegEdge::keep)) {
        throw Error(ErrorCode::usage, std::string("augment --labels/--masks with --jpeg-edge ") + (o.convert.jpeg_edge == detail::JpegEdge::trim ? "trim" : "keep") +
                                          ": a JPEG's partial edge blocks would be " +
                                          (o.convert.jpeg_edge == detail::JpegEdge::trim ? "cut off" : "left unturned") +
                                          ", and its labels would no longer match its pixels (use reencode, the default, or error)");
    }
    // The CUDA driver's start (0.1-0.2 s on the H100 machine, where the listing took 0.003-0.04 s without it)
    // begins beside the listing and planning; --device cuda, --nvjpeg and --devices wait for it below, auto
    // not at all (GpuResources goes on with the rest of the start-up beside the first decodes).
    std::future<bool> cuda_starting;
    if ((o.device != Backend::cpu || o.convert.nvjpeg) && !o.dry_run) cuda_starting = std::async(std::launch::async, [] { return cuda_available(); });
    std::vector<InputFile> inputs = list_inputs(o.inputs, o.recursive, out_dir);
    if (!o.labels.masks_dir.empty()) {
        // A mask folder inside an input folder holds masks, not more images to turn (its path compared as
        // resolved, whatever its spelling: a trailing slash, a link).
        std::error_code ignored;
        const std::string masks = std::filesystem::canonical(o.labels.masks_dir, ignored).string() + "/";
        std::map<std::string, bool> inside;  // an input's folder, as listed -> whether it lies in the mask folder
        inputs.erase(std::remove_if(inputs.begin(), inputs.end(),
                                    [&](const InputFile& in) {
                                        const std::string folder = std::filesystem::path(in.path).parent_path().string();
                                        auto it = inside.find(folder);
                                        if (it == inside.end()) {
                                            std::error_code unresolved;
                                            const std::string resolved = std::filesystem::weakly_canonical(folder.empty() ? "." : folder, unresolved).string() + "/";
                                            it = inside.emplace(folder, resolved.compare(0, masks.size(), masks) == 0).first;
                                        }
                                        return it->second;
                                    }),
                     inputs.end());
    }
    if (inputs.empty()) throw Error(ErrorCode::input, "augment: no image files or WebDataset shards found in the inputs" + std::string(o.recursive ? "" : " (folders are read with --recursive to include subfolders)"));
    // WebDataset shards (.tar, .tar.gz, .tgz) apart from the image files: each is one job, written as one output shard.
    const auto first_shard = std::stable_partition(inputs.begin(), inputs.end(), [](const InputFile& in) { return !is_shard_path(in.path); });
    const std::vector<InputFile> shard_inputs(first_shard, inputs.end());
    inputs.erase(first_shard, inputs.end());
    if (!shard_inputs.empty()) check_shard_labels(o, !inputs.empty());
    std::vector<Job> jobs = plan_jobs(inputs, options);
    std::vector<Job> shard_jobs = plan_shard_jobs(shard_inputs, options);
    std::optional<labels::YoloSchema> shard_yolo;
    if (!shard_inputs.empty() && o.labels.any()) shard_yolo = o.labels.file.empty() ? labels::YoloSchema{} : labels::read_yolo_schema(o.labels.file);
    std::optional<SampleLabels> labels;
    if (o.labels.any() && shard_inputs.empty()) {
        labels.emplace(options);
        labels->attach(jobs);
    }
    // OUTDIR opened once; every write below it goes through it (output_folder.hpp). The lock comes before any
    // check, so that of two runs started together on one folder the second stops here, having done nothing.
    OutputFolder folder(out_dir, !o.dry_run);
    std::optional<RunLock> lock;
    if (!o.dry_run) lock.emplace(folder.descriptor(), out_dir, o.shard, normal_absolute(manifest_path));
    // The shards' outputs are refused, or found complete by --resume, as files are.
    jobs.insert(jobs.end(), std::make_move_iterator(shard_jobs.begin()), std::make_move_iterator(shard_jobs.end()));
    const ExistingCheck existing = check_existing_outputs(jobs, options, manifest_path, folder, labels ? labels->dataset_files() : std::vector<std::string>{});

    std::int64_t planned = 0;
    for (const Job& job : jobs) planned += static_cast<std::int64_t>(job.outputs.size());
    if (o.dry_run) {
        for (const Job& job : jobs) {
            for (const PlannedOutput& out : job.outputs) {
                std::cout << job.input.path << " -> " << out.path;
                if (!out.label_relative.empty()) std::cout << " + " << out_dir << "/" << out.label_relative;
                if (!out.mask_relative.empty()) std::cout << " + " << out_dir << "/" << out.mask_relative;
                std::cout << "\n";
            }
        }
        if (labels) {
            for (const std::string& file : labels->dataset_files()) std::cout << "-> " << out_dir << "/" << file << "\n";
        }
        std::cout << "gpurotate: dry run: " << planned << " outputs from " << jobs.size() << " inputs would be written"
                  << (existing.already_complete ? " (" + std::to_string(existing.already_complete) + " already complete)" : "")
                  << "; nothing was written\n";
        return 0;
    }

    convert::check_nvjpeg_request(o.convert, o.device, "augment ");
    PipelineSettings settings;
    // The pipeline looks for the GPU in its start-up, beside the first decodes: --device auto takes the CPU there,
    // saying nothing, where there is none, and a plain --device cuda run fails there before any output is written
    // (what the run made for its outputs then goes again, below). The driver is asked here, first, for --nvjpeg
    // and --devices (GPUs counted), and for --device cuda wherever that would not hold: labels' dataset files,
    // an --overwrite that starts the manifest afresh, a --resume that may find nothing left to run, WebDataset
    // shards (a shard's samples fail alone), and --shard K/N (another shard of the run may use its folders).
    const bool cuda_asks_now = o.labels.any() || o.overwrite || o.resume || !shard_inputs.empty() || o.shard.count > 1;
    const bool ask_now = o.convert.nvjpeg || !o.devices.empty() || (o.device == Backend::cuda && cuda_asks_now);
    settings.backend = o.device == Backend::cpu ? Backend::cpu : ask_now ? resolve_backend(o.convert.nvjpeg ? Backend::cuda : o.device) : Backend::cuda;
    settings.cpu_fallback = o.device == Backend::automatic;
    if (settings.backend == Backend::cuda) settings.devices = resolve_devices(o.devices);
    settings.workers = o.jobs ? o.jobs : detail::usable_cores();
    settings.workers = std::max(1u, std::min<unsigned>(settings.workers, static_cast<unsigned>(std::max<std::size_t>(1, jobs.size()))));
    settings.convert = o.convert;
    settings.gpu_memory = o.gpu_memory;
    settings.host_memory = o.host_memory ? o.host_memory : half_the_memory();
    settings.replace_outputs = o.overwrite || o.resume;

    settings.output_folder = &folder;
    settings.labels = labels ? &*labels : nullptr;
    settings.interpolation = o.random.interpolation;
    settings.keep_size = o.random.keep_size;

    // The mirrored input folders below OUTDIR, each made once before the workers start.
    std::set<std::string> output_dirs;
    std::vector<std::string> relatives;
    for (const Job& job : jobs) {
        for (const PlannedOutput& out : job.outputs) {
            const auto slash = out.relative.find_last_of('/');
            if (slash != std::string::npos) output_dirs.insert(out.relative.substr(0, slash));
            relatives.push_back(out.relative);
            for (const std::string* companion : {&out.label_relative, &out.mask_relative}) {
                if (companion->empty()) continue;
                if (const auto at = companion->find_last_of('/'); at != std::string::npos) output_dirs.insert(companion->substr(0, at));
                relatives.push_back(*companion);
            }
        }
    }
    std::vector<std::string> made_folders;
    for (const std::string& dir : output_dirs) {
        try {
            folder.make_folder(dir, &made_folders);
        } catch (const Error& e) {  // its outputs fail alone, as writes into a folder that cannot be written do
            std::cerr << "gpurotate: error: " << e.what() << " (its outputs fail)\n";  // errors stay under --quiet
        }
    }
    // A run killed hard leaves temporaries; a new run over the same outputs clears them as it replaces them
    // (the lock says no other run is writing here; a temporary whose writer still runs is left alone).
    if (o.resume || o.overwrite) folder.remove_stale_temporaries(relatives);
    // The manifest below OUTDIR goes through it too; one the user put elsewhere (--manifest) is opened by its
    // path, refusing a link at its name.
    const std::string in_folder = out_dir + "/";
    const bool manifest_in_folder = manifest_path.compare(0, in_folder.size(), in_folder) == 0;
    const ManifestStart manifest_start = o.resume ? ManifestStart::resume : o.overwrite ? ManifestStart::overwrite : ManifestStart::create;
    ManifestWriter manifest(manifest_in_folder ? folder.open_manifest(manifest_path.substr(in_folder.size()), manifest_start)
                                               : open_manifest(manifest_path, manifest_start),
                            manifest_path);

    if (labels) labels->write_dataset_files(folder, o.resume || o.overwrite);

    // The shards run after the files, by their own workers (shard_pipeline.hpp).
    const auto shards_start = std::stable_partition(jobs.begin(), jobs.end(), [](const Job& job) { return !is_shard_path(job.input.path); });
    shard_jobs.assign(std::make_move_iterator(shards_start), std::make_move_iterator(jobs.end()));
    jobs.erase(shards_start, jobs.end());

    InterruptGuard interrupts;
    const auto start = std::chrono::steady_clock::now();
    PipelineTotals totals;
    {
        Progress progress(static_cast<std::int64_t>(jobs.size() + shard_jobs.size()), o.quiet);
        detail::keep_large_blocks_for_reuse();
        try {
            if (!jobs.empty()) totals = run_pipeline(jobs, settings, manifest, progress);
            if (!shard_jobs.empty() && !stop_requested()) totals = sum_of(totals, run_shard_pipeline(shard_jobs, settings, options, shard_yolo, manifest, progress));
        } catch (const Error& e) {
            // --device cuda on a machine without a GPU: the pipeline's start-up found none before any output was
            // written, so what this run made for them goes, and OUTDIR is left as asking the driver first left it.
            if (e.code() == ErrorCode::device && !settings.cpu_fallback && !cuda_available()) {
                if (manifest_start == ManifestStart::create) {
                    try {
                        if (manifest_in_folder) {
                            folder.remove_file(manifest_path.substr(in_folder.size()));
                        } else {
                            ::unlink(manifest_path.c_str());
                        }
                    } catch (const Error&) {  // the run's own error is the one to report
                    }
                }
                folder.remove_empty_folders(made_folders);
            }
            throw;
        }
    }
    const auto pipeline_end = std::chrono::steady_clock::now();
    // The COCO file lists every variant the manifest records as written, this run's and an earlier one's.
    if (labels && labels->format() == LabelOptions::Format::coco) {
        std::set<std::string> complete;
        for (const auto& [file, size] : completed_outputs(manifest_path).by_file) complete.insert(file);
        labels->write_coco_file(folder, complete);
    }
    // Outputs were written without an fsync each: one flush of the file system makes them durable before
    // the run reports success. (A crash before it can leave a recorded output short; --resume compares
    // sizes and redoes it.) A flush that fails fails the run (exit 4): its outputs may not be on the disk.
    const auto flush_start = std::chrono::steady_clock::now();
    bool flush_failed = false;
    try {
        detail::flush_file_system_of(out_dir);
    } catch (const Error& e) {
        std::cerr << "gpurotate: error: " << e.what() << "\n";
        flush_failed = true;
    }
    const auto end = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(end - start).count();
    const double flush = std::chrono::duration<double>(end - flush_start).count();
    if (!o.quiet) print_summary(totals, existing, wall, flush, settings, std::cerr);
    if (o.verbose) {
        const auto since = [](std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
            return std::chrono::duration<double>(to - from).count();
        };
        print_stage_account(totals, RunWall{since(run_start, end), since(run_start, start), since(pipeline_end, flush_start), flush}, std::cerr);
    }
    bool label_errors = false;
    if (labels) {
        // What a COCO file holds for no image fails no sample; it is an input error of the run, recorded.
        for (const std::string& error : labels->unattached_errors()) {
            std::cerr << "gpurotate: error: " << error << "\n";
            ManifestRecord record;
            record.input = o.labels.file;
            record.error = error;
            manifest.append(record);
            label_errors = true;
        }
    }
    if (labels && !o.quiet) {
        if (const auto [count, first] = labels->orphan_labels(inputs); count > 0) {
            std::cerr << "gpurotate: note: " << count << " label file(s) have no image among the inputs, e.g. '" << first << "' (not written)\n";
        }
    }

    if (const int signal = stop_requested()) {
        std::cerr << "gpurotate: interrupted; run the same command with --resume to finish\n";
        return 128 + signal;
    }
    if (totals.inputs_failed > 0 || label_errors) return static_cast<int>(ErrorCode::input);
    if (totals.outputs_failed > 0 || flush_failed) return static_cast<int>(ErrorCode::output);
    return 0;
}

}  // namespace gpurotate::augment
