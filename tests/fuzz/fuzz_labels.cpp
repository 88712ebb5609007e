// Label files from untrusted datasets: a YOLO label file (plain and pose rows), a Pascal VOC annotation and a
// COCO file, each turned by an element the input's first byte picks. Every refusal is an Error; nothing else
// may escape, crash or leak. (The round trips of well-formed files are the unit tests'.)

#include <gpurotate/error.hpp>

#include "labels/coco_labels.hpp"
#include "labels/voc_annotation.hpp"
#include "labels/yolo_labels.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

using gpurotate::Orientation;
namespace labels = gpurotate::labels;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const Orientation element = gpurotate::all_orientations[data[0] % 8];
    const bool pose = (data[0] & 8) != 0;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);

    labels::YoloSchema schema;
    if (pose) schema = {2, 3, {1, 0}};
    try {
        labels::turn_yolo_labels(text, element, schema, "fuzz.txt");
    } catch (const gpurotate::Error&) {
    }
    try {
        labels::check_voc_annotation(text, "fuzz.xml");
        labels::turn_voc_annotation(text, element, {61, 37}, "out.png", "/out/out.png", "fuzz.xml");
    } catch (const gpurotate::Error&) {
    }
    // COCO reads a file: the input written to one.
    char path[] = "/tmp/fuzz-coco-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd < 0) return 0;
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (written) {
        try {
            const labels::CocoLabels coco = labels::CocoLabels::load(path);
            if (const labels::CocoLabels::Image* image = coco.find("a.png"); image && image->error.empty() && image->size.width <= 4096 &&
                                                                             image->size.height <= 4096) {
                coco.turned_json({{image->id, element, "a_out.png", 1}});
            }
        } catch (const gpurotate::Error&) {
        }
    }
    ::unlink(path);
    return 0;
}
