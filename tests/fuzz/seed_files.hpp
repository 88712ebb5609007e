#pragma once
// What the seed writers (make_corpus.cpp, tiff_webp_seeds.cpp, shard_seeds.cpp) share: a file written into the
// seed folder, and the writers of each kind, each returning how many files it wrote.

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace gpurotate::fuzz {

using Bytes = std::vector<std::uint8_t>;

inline void save_seed(const std::string& dir, const std::string& name, const Bytes& bytes) {
    std::ofstream(dir + "/" + name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

/// TIFFs of every coding and layout libtiff reads here (compressions, depths, palette, tiles, pages, CMYK) and
/// WebPs (lossy, lossless, alpha, metadata, an animation), each also cut short and with a flipped byte.
int write_tiff_webp_seeds(const std::string& dir);

/// WebDataset shards (tars) with good samples (image, .json, .seg.png mask, YOLO .txt) and every bad member the
/// reader names: a link, '..', an absolute path, two members of one suffix, a key that comes again.
int write_shard_seeds(const std::string& dir);

}  // namespace gpurotate::fuzz
