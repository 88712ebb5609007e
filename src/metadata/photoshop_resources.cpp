#include "metadata/photoshop_resources.hpp"

#include "metadata/byte_order.hpp"

#include <algorithm>
#include <cstring>

namespace gpurotate::detail {
namespace {

constexpr char signature[] = "Photoshop 3.0";  // and its NUL: 14 bytes
constexpr std::size_t signature_size = sizeof signature;
constexpr std::uint16_t iptc_resource = 0x0404;

}  // namespace

std::optional<PhotoshopResources> photoshop_resources(const std::vector<std::uint8_t>& file, std::size_t payload, std::size_t size) {
    if (payload > file.size() || file.size() - payload < size || size < signature_size ||
        std::memcmp(file.data() + payload, signature, signature_size) != 0) {
        return std::nullopt;
    }
    PhotoshopResources out;
    const std::size_t end = payload + size;
    std::size_t at = payload + signature_size;
    while (at + 12 <= end && std::memcmp(file.data() + at, "8BIM", 4) == 0) {
        const auto id = *read_unsigned(file, at + 4, 2, true);
        const std::size_t name = 1 + file[at + 6];               // the length byte and the name,
        const std::size_t size_at = at + 6 + name + name % 2;    // padded to even
        const auto data_size = read_unsigned(file, size_at, 4, true);
        if (!data_size || size_at + 4 > end || end - (size_at + 4) < *data_size) break;  // cut short: what was read stands
        const std::size_t data = size_at + 4;
        if (id == iptc_resource && !out.iptc) {
            out.iptc.emplace(file.begin() + static_cast<std::ptrdiff_t>(data), file.begin() + static_cast<std::ptrdiff_t>(data + *data_size));
        } else {
            out.others = true;
        }
        at = data + *data_size + *data_size % 2;
    }
    // Bytes that are no resource (but zeros some writers pad the segment with) are kept by nobody, so said.
    if (at < end && !std::all_of(file.begin() + static_cast<std::ptrdiff_t>(at), file.begin() + static_cast<std::ptrdiff_t>(end), [](std::uint8_t b) { return b == 0; })) {
        out.others = true;
    }
    return out;
}

std::vector<std::uint8_t> iptc_without_padding(std::vector<std::uint8_t> iptc) {
    // Records: 0x1C, the record and dataset numbers, a 2-byte big-endian length, the data (a length with its top bit
    // set is an extended one, which ends the walk: the bytes are kept as they are).
    std::size_t end = 0;
    while (end + 5 <= iptc.size() && iptc[end] == 0x1c && (iptc[end + 3] & 0x80) == 0) {
        const std::size_t next = end + 5 + (std::size_t{iptc[end + 3]} << 8 | iptc[end + 4]);
        if (next > iptc.size()) break;
        end = next;
    }
    const bool padding = end > 0 && std::all_of(iptc.begin() + static_cast<std::ptrdiff_t>(end), iptc.end(), [](std::uint8_t b) { return b == 0; });
    if (padding) iptc.resize(end);
    return iptc;
}

std::optional<std::vector<std::uint8_t>> photoshop_payload_for_iptc(const std::vector<std::uint8_t>& iptc) {
    const std::size_t padded = iptc.size() + iptc.size() % 2;
    if (signature_size + 4 + 2 + 2 + 4 + padded > 65535 - 2) return std::nullopt;
    std::vector<std::uint8_t> out(signature, signature + signature_size);
    const auto size = static_cast<std::uint32_t>(iptc.size());
    const std::uint8_t header[] = {'8', 'B', 'I', 'M', 0x04, 0x04, 0, 0,  // the id, an empty name padded to even
                                   static_cast<std::uint8_t>(size >> 24), static_cast<std::uint8_t>(size >> 16), static_cast<std::uint8_t>(size >> 8),
                                   static_cast<std::uint8_t>(size)};
    out.insert(out.end(), header, header + sizeof header);
    out.insert(out.end(), iptc.begin(), iptc.end());
    if (iptc.size() % 2) out.push_back(0);
    return out;
}

}  // namespace gpurotate::detail
