#include "cli/help_text.hpp"

#include <memory>
#include <string>

namespace gpurotate::cli {
namespace {

constexpr const char* gpurotate_usage =
    "Usage: gpurotate INPUT [OPERATION...] -o OUTPUT [OPTIONS]\n"
    "       gpurotate FILE... [OPERATION...] (-o FOLDER/ | -i) [OPTIONS]\n"
    "       gpurotate augment INPUT... -o OUTDIR [OPTIONS]     (gpurotate augment --help)\n"
    "       gpurotate bench [OPTIONS]                          (gpurotate bench --help)\n"
    "Operations, applied in the order given as one pass: --rot90 --rot180 --rot270 --flip-h --flip-v --transpose --transverse\n";

constexpr const char* gpurotate_examples =
    "Examples:\n"
    "  gpurotate photo.jpg --rot90 -o turned.jpg       clockwise; a JPEG stays lossless, as jpegtran -rotate 90\n"
    "  gpurotate --rot90 -i *.jpg                      each file replaced (exiftran -9 -i, mogrify -rotate 90)\n"
    "  gpurotate a.png b.png --flip-h -o out/          both written into out/ under their own names\n"
    "  gpurotate photo.jpg --auto-orient -o up.jpg     upright by its EXIF orientation (exiftran -a)\n"
    "  gpurotate scan.tif --rot270 --flip-v -o o.tif   two operations, one pass\n"
    "  cat in.png | gpurotate - --rot180 -o png:- | ... standard input to standard output\n"
    "  gpurotate augment data/ -r -o aug/               every variant of every image under data/\n"
    "Exit status: 0 done, 1 internal, 2 usage, 3 input, 4 output, 5 GPU (man gpurotate)";

constexpr const char* augment_usage =
    "Usage: gpurotate augment INPUT... -o OUTDIR [--ops OPERATION,...|all] [OPTIONS]\n"
    "INPUT: image files, WebDataset shards (.tar, .tar.gz, .tgz: OUTDIR/NAME of their samples' variants, compressed alike),\n"
    "folders (with -r, their subfolders too) and @list files (one path per line)\n"
    "Operations: identity rot90 rot180 rot270 flip-h flip-v transpose transverse, or all (the 7 besides identity)\n";

constexpr const char* augment_examples =
    "Examples:\n"
    "  gpurotate augment data/ -r -o aug/                        the 7 variants of every image, folders mirrored\n"
    "  gpurotate augment data/ -r -o aug/ --ops rot90,flip-h     two variants each\n"
    "  gpurotate augment @train.txt -o aug/ --format png         from a list, every output a PNG\n"
    "  gpurotate augment data/ -r -o aug/ --resume               go on after an interruption\n"
    "  gpurotate augment data/ -r -o aug/ -n                     print what would be written\n"
    "  gpurotate augment data/ -r -o aug/ --random --seed 7      one random element per image, the same again with seed 7\n"
    "Exit status: 0 done, 3 some inputs failed, 4 some outputs failed or the final flush did, 130/143 interrupted;\n"
    "before any work 2 usage, 3 input, 4 output, 5 GPU (man gpurotate-augment)";

class UsageFormatter final : public CLI::Formatter {
public:
    std::string make_usage(const CLI::App* app, std::string name) const override {
        if (app->get_name() == "augment") return augment_usage;
        if (app->get_parent() == nullptr) return gpurotate_usage;
        return CLI::Formatter::make_usage(app, std::move(name));
    }
};

}  // namespace

std::string usage_lines(bool augment) {
    std::string lines = augment ? augment_usage : gpurotate_usage;
    lines.erase(0, std::string("Usage: ").size());
    std::string out;
    for (std::size_t start = 0; start < lines.size();) {
        const std::size_t end = lines.find('\n', start);
        std::string line = lines.substr(start, end - start);
        if (line.rfind("       ", 0) == 0) line.erase(0, 7);  // the usage lines' indent under "Usage: "
        out += line + "\n";
        start = end == std::string::npos ? lines.size() : end + 1;
    }
    return out;
}

void describe_usage(CLI::App& app, CLI::App& augment) {
    const auto formatter = std::make_shared<UsageFormatter>();
    app.formatter(formatter);
    augment.formatter(formatter);
    app.footer(gpurotate_examples);
    augment.footer(augment_examples);
}

}  // namespace gpurotate::cli
