#pragma once
// Where a WebDataset shard's variants go: OUTDIR/NAME.tar for each input shard (a Job of one output, so that
// the refusals, --resume and --shard treat a shard as the folder mode treats a file), and inside it each
// sample's variant keys, from --name as the folder mode names a file's variants.

#include "augment/augment_options.hpp"
#include "augment/input_list.hpp"
#include "augment/output_plan.hpp"
#include "augment/shard_reader.hpp"

#include <string>
#include <vector>

namespace gpurotate::augment {

/// The shards of this --shard K/N (the same hash of the relative path as a file's), each a Job whose one output
/// is OUTDIR/relative. Throws Error (usage) where two shards would be written to one path, or --name cannot
/// give every sample keys of its own (it must hold {stem}, and no field but {ext} after its file name's first dot).
std::vector<Job> plan_shard_jobs(const std::vector<InputFile>& shards, const AugmentOptions& options);

/// One variant of a sample: the element (and drawn angle) every image member of the sample gets, and the key
/// its members are written under.
struct SampleVariant {
    PlannedOutput planned;  ///< its element, draw and angle, as the folder mode plans them for the first image
    std::string key;        ///< WebDataset key of the variant's members
};

/// Which of a sample's image members (in order) is its image, the one it is planned and named by: the first
/// whose suffix has no dot ("001.jpg", not "001.seg.png"), else the first. The others (a mask, a depth map) get
/// its element and keep their own format, as --masks masks do.
std::size_t primary_image(const std::vector<const ShardMember*>& images);

/// The variants of a sample of the shard `shard_path` whose image members are `images` (in order), planned as
/// the folder mode plans one file: the first image member whose suffix has no dot ("001.jpg"), its name the
/// path below the folder (so that --random draws what it draws for that file): primary_image, named key.EXT
/// where its suffix has dots. Throws Error (usage) as plan_jobs does.
std::vector<SampleVariant> plan_sample_variants(const std::string& shard_path, const std::vector<const ShardMember*>& images,
                                                const AugmentOptions& options);

/// The suffix of an image member's variant: `suffix` with its last extension that of --format's output
/// ("seg.png" -> "seg.jpg" with --format jpg; a format with no writer -> png, as the folder mode does).
std::string variant_image_suffix(const std::string& suffix, const std::string& format);

}  // namespace gpurotate::augment
