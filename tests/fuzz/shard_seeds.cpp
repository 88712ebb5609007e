// Seeds for fuzz_shard, generated: small WebDataset shards written by libarchive in the tar dialects the reader
// meets (pax as Python's tarfile and the product write, GNU tar's long names, plain ustar), good samples and
// every kind of member the reader must refuse.

#include "seed_files.hpp"

#include <gpurotate/io.hpp>

#include <archive.h>
#include <archive_entry.h>

#include <string>

namespace gpurotate::fuzz {
namespace {

struct Member {
    std::string name;
    Bytes bytes;
    unsigned type = AE_IFREG;
    std::string link;  // a symbolic link's target, or a hard link's member
};

Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }

Bytes tar(const std::vector<Member>& members, int format) {
    Bytes out(1 << 20);
    std::size_t used = 0;
    archive* a = archive_write_new();
    archive_write_set_format(a, format);
    archive_write_open_memory(a, out.data(), out.size(), &used);
    for (const Member& m : members) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, m.name.c_str());
        archive_entry_set_filetype(e, m.type);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_mtime(e, 1700000000, 0);
        if (m.type == AE_IFLNK) archive_entry_set_symlink(e, m.link.c_str());
        if (m.type == AE_IFREG && !m.link.empty()) archive_entry_set_hardlink(e, m.link.c_str());
        archive_entry_set_size(e, m.type == AE_IFREG && m.link.empty() ? static_cast<la_int64_t>(m.bytes.size()) : 0);
        archive_write_header(a, e);
        if (!m.bytes.empty()) archive_write_data(a, m.bytes.data(), m.bytes.size());
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    out.resize(used);
    return out;
}

}  // namespace

int write_shard_seeds(const std::string& dir) {
    Image pixels(5, 3, PixelFormat{SampleType::u8, 3});
    auto* p = reinterpret_cast<std::uint8_t*>(pixels.data());
    for (std::size_t i = 0; i < pixels.size_bytes(); ++i) p[i] = static_cast<std::uint8_t>(i * 29);
    const Bytes png = encode_image(pixels.view(), ".png");
    const Bytes mask = encode_image(Image(5, 3, PixelFormat{SampleType::u8, 1}).view(), ".png");
    const std::vector<Member> good = {
        {"cats/000.png", png},       {"cats/000.json", text("{\"label\": 3}")}, {"cats/000.seg.png", mask},
        {"cats/000.txt", text("0 0.5 0.5 0.2 0.4\n1 0.1 0.9 0.05 0.05\n")},   {"cats/001.png", png},
        {"cats/001.cls", text("7")},
    };
    const std::string long_dir(120, 'd');
    const std::pair<const char*, Bytes> shards[] = {
        {"shard-good-pax.tar", tar(good, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED)},
        {"shard-good-ustar.tar", tar(good, ARCHIVE_FORMAT_TAR_USTAR)},
        {"shard-long-names-gnu.tar", tar({{long_dir + "/000.png", png}, {long_dir + "/000.txt", text("0 0.5 0.5 1 1\n")}}, ARCHIVE_FORMAT_TAR_GNUTAR)},
        {"shard-links.tar", tar({{"000.png", png}, {"000.lnk", {}, AE_IFLNK, "000.png"}, {"001.png", png}, {"001.hard.png", {}, AE_IFREG, "001.png"}},
                                ARCHIVE_FORMAT_TAR_PAX_RESTRICTED)},
        {"shard-climbs-out.tar", tar({{"../000.png", png}, {"/abs/001.png", png}, {"a/../../002.png", png}, {"003.png", png}},
                                     ARCHIVE_FORMAT_TAR_PAX_RESTRICTED)},
        {"shard-duplicates.tar", tar({{"000.png", png}, {"000.png", png}, {"001.png", png}, {"002.json", text("{}")}, {"001.json", text("{}")}},
                                     ARCHIVE_FORMAT_TAR_PAX_RESTRICTED)},
        {"shard-odd-names.tar", tar({{"dir", {}, AE_IFDIR}, {"README", text("x")}, {".hidden", text("x")}, {"./004.png", png}, {"005.", png},
                                     {"006.empty.png", {}}, {"007.txt", text("not yolo")}},
                                    ARCHIVE_FORMAT_TAR_PAX_RESTRICTED)},
    };
    int files = 0;
    for (const auto& [name, bytes] : shards) {
        save_seed(dir, name, bytes);
        save_seed(dir, std::string("cut-") + name, Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() * 2 / 3)));
        files += 2;
    }
    return files;
}

}  // namespace gpurotate::fuzz
