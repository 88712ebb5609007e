#pragma once
// A JPEG's APP13 segment: "Photoshop 3.0\0" and image resources ("8BIM", a 2-byte id, a Pascal name padded to even,
// a 4-byte size, the data padded to even; all big-endian), where IPTC-IIM records travel as resource 0x0404.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpurotate::detail {

/// What an APP13 payload (`size` bytes at `payload` in `file`) holds: its IPTC records, where it is a Photoshop
/// segment with resource 0x0404, and whether it has any other resource (thumbnails, slices, ...).
struct PhotoshopResources {
    std::optional<std::vector<std::uint8_t>> iptc;
    bool others = false;
};
std::optional<PhotoshopResources> photoshop_resources(const std::vector<std::uint8_t>& file, std::size_t payload, std::size_t size);

/// `iptc` without the zero bytes after its last record: a TIFF that declares the records LONGs pads them to whole ones.
std::vector<std::uint8_t> iptc_without_padding(std::vector<std::uint8_t> iptc);

/// An APP13 payload (without marker and length) of the one resource 0x0404 holding `iptc`; nothing where it would not
/// fit one segment.
std::optional<std::vector<std::uint8_t>> photoshop_payload_for_iptc(const std::vector<std::uint8_t>& iptc);

}  // namespace gpurotate::detail
