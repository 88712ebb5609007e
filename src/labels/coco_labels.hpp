#pragma once
// A COCO annotation file (one JSON for a folder of images): boxes, polygons, RLE masks (compressed and
// not) and keypoints, turned with their images. The output is one JSON with an image entry per variant.

#include "labels/label_geometry.hpp"

#include <gpurotate/orientation.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpurotate::labels {

class CocoLabels {
public:
    /// Reads and checks `path`. Throws Error (input) naming the file for JSON that does not parse or lacks
    /// its "images" array; a bad annotation fails its image alone (Image::error).
    static CocoLabels load(const std::string& path);
    ~CocoLabels();
    CocoLabels(CocoLabels&&) noexcept;
    CocoLabels& operator=(CocoLabels&&) noexcept;

    struct Image {
        std::int64_t id = 0;
        ImageSize size;          ///< its "width" and "height"
        std::string file_name;
        std::string error;       ///< the first bad annotation of this image, "'FILE' annotation id N: why"; empty: all good
        std::size_t annotations = 0;
    };

    /// The image entry of an input, by its path relative to the folder given: "file_name" equal to it, or
    /// else to its file name where only one entry has that name. nullptr: not in the file.
    const Image* find(const std::string& relative) const;

    /// Problems that belong to no image of the file ("'FILE' annotation id N: image_id 7 is not in images").
    const std::vector<std::string>& unattached_errors() const;

    /// One output image: the source's id, the element, the output's file name (relative to the output
    /// JSON's folder) and its new id.
    struct Variant {
        std::int64_t source_image_id = 0;
        Orientation element = Orientation::identity;
        std::string file_name;
        std::int64_t new_id = 0;
        double degrees = 0;      ///< the angle drawn after the element (augment --degrees); 0: none
        bool keep_size = false;  ///< that angle's canvas: the source's (--keep-size), else expanded
    };

    /// The output JSON: every top-level member but "images" and "annotations" as in the input; one image
    /// entry per variant (the source's, with id, file_name, width and height replaced); each annotation of
    /// its source turned (bbox, segmentation polygons or RLE, keypoints; left_* and right_* keypoints of the
    /// category traded under reflections), with a new id (1, 2, … in order) and image_id, "area" kept.
    /// A variant with an angle has its annotations rotated after the element (coco_annotation_rotate.hpp):
    /// those keeping less than `min_visibility` of their area, or nothing, are left out.
    std::string turned_json(const std::vector<Variant>& variants, double min_visibility = 0) const;

private:
    CocoLabels();
    struct Data;
    std::unique_ptr<Data> data_;
};

}  // namespace gpurotate::labels
