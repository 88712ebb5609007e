#include "augment/manifest.hpp"

#include "augment/input_list.hpp"

#include "core/stage_account.hpp"
#include "core/text.hpp"

#include <gpurotate/error.hpp>
#include <gpurotate/orientation.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

namespace gpurotate::augment {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0.
std::size_t utf8_sequence(const std::string& s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    }
    // No overlong forms, no surrogates (ED A0..BF), nothing past U+10FFFF: the second byte's range after
    // E0, ED, F0 and F4 (Unicode's table 3-7). Python's strict decoder refuses the others.
    const unsigned char second = byte(i + 1);
    if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) || (c == 0xF0 && second < 0x90) || (c == 0xF4 && second > 0x8F)) return 0;
    return n;
}

void append_escaped(std::string& out, const std::string& s) {
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c >= 0x20 && c < 0x80) {
            out += static_cast<char>(c);
        } else if (const std::size_t n = c >= 0x80 ? utf8_sequence(s, i) : 0) {
            out.append(s, i, n);
            i += n - 1;
        } else {
            // A control character as itself; a byte outside UTF-8 as the surrogate that stands for it.
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", c < 0x80 ? c : 0xdc00 + c);
            out += escape;
        }
    }
    out += '"';
}

// A reader for exactly what to_json_line writes: flat objects of strings, integers and booleans.
class LineParser {
public:
    explicit LineParser(const std::string& line) : s_(line) {}

    bool parse(ManifestRecord& r) {
        if (!consume('{')) return false;
        while (true) {
            std::string key;
            if (!read_string(key) || !consume(':')) return false;
            if (key == "angle") {
                std::string text;
                if (!read_number_text(text)) return false;
                r.angle = std::strtod(text.c_str(), nullptr);
            } else if (key == "p_flip_h" || key == "p_flip_v") {
                std::string text;
                if (!read_number_text(text)) return false;
                (key == "p_flip_h" ? parameters(r).p_flip_h : parameters(r).p_flip_v) = text;
            } else if (key == "replacement") {
                if (!read_boolean(parameters(r).with_replacement)) return false;
            } else if (key == "width" || key == "height" || key == "bytes" || key == "element" || key == "seed" || key == "draw" || key == "draws" ||
                       key == "image_id") {
                std::uint64_t value = 0;
                if (!read_number(value)) return false;
                if (key == "width") r.width = static_cast<std::int64_t>(value);
                if (key == "height") r.height = static_cast<std::int64_t>(value);
                if (key == "bytes") r.bytes = value;
                if (key == "element") r.element = static_cast<int>(value);
                if (key == "seed") r.seed = value;
                if (key == "draw") r.draw = value;
                if (key == "draws") parameters(r).draws = value;
                if (key == "image_id") r.image_id = static_cast<std::int64_t>(value);
            } else {
                std::string value;
                if (!read_string(value)) return false;
                if (key == "input") r.input = value;
                if (key == "op") r.operation = value;
                if (key == "output") r.output = value;
                if (key == "file") r.file = value;
                if (key == "labels") r.labels = value;
                if (key == "mask") r.mask = value;
                if (key == "status") r.ok = value == "ok";
                if (key == "error") r.error = value;
                if (key == "ops") parameters(r).ops = value;
                if (key == "weights") parameters(r).weights = value;
                if (key == "degrees") parameters(r).degrees = value;
            }
            if (consume('}')) return pos_ == s_.size();
            if (!consume(',')) return false;
        }
    }

private:
    static DrawParameters& parameters(ManifestRecord& r) {
        if (!r.parameters) r.parameters.emplace();
        return *r.parameters;
    }
    bool read_number_text(std::string& text) {
        const std::size_t start = pos_;
        while (pos_ < s_.size() && std::strchr("0123456789.eE+-", s_[pos_]) != nullptr && s_[pos_] != 0) ++pos_;
        text = s_.substr(start, pos_ - start);
        return pos_ > start;
    }
    bool read_boolean(bool& value) {
        for (const bool candidate : {true, false}) {
            const std::string word = candidate ? "true" : "false";
            if (s_.compare(pos_, word.size(), word) == 0) {
                pos_ += word.size();
                value = candidate;
                return true;
            }
        }
        return false;
    }
    bool consume(char c) {
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    bool read_number(std::uint64_t& value) {
        const std::size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
            const auto digit = static_cast<std::uint64_t>(s_[pos_++] - '0');
            if (value > (UINT64_MAX - digit) / 10) return false;  // a seed is up to 2^64-1; nothing wraps
            value = value * 10 + digit;
        }
        return pos_ > start;
    }
    bool read_string(std::string& out) {
        if (!consume('"')) return false;
        while (pos_ < s_.size()) {
            const char c = s_[pos_++];
            if (c == '"') return true;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) return false;
            const char e = s_[pos_++];
            if (e == 'n') {
                out += '\n';
            } else if (e == 'u') {
                if (pos_ + 4 > s_.size()) return false;
                const int code = std::stoi(s_.substr(pos_, 4), nullptr, 16);
                // What append_escaped writes: a control character, or a byte outside UTF-8 as \uDCXX (as
                // \u00XX before: kept readable, so that --resume reads older manifests too).
                if (code >= 0xdc80 && code <= 0xdcff) {
                    out += static_cast<char>(code - 0xdc00);
                } else if (code <= 0xff) {
                    out += static_cast<char>(code);
                } else {
                    return false;
                }
                pos_ += 4;
            } else {
                out += e;
            }
        }
        return false;
    }

    const std::string& s_;
    std::size_t pos_ = 0;
};

}  // namespace

std::string to_json_line(const ManifestRecord& r) {
    std::string line = "{\"input\":";
    append_escaped(line, r.input);
    line += ",\"op\":";
    append_escaped(line, r.operation);
    if (const auto element = parse_orientation(r.operation)) line += ",\"element\":" + std::to_string(static_cast<int>(*element));
    if (r.seed) line += ",\"seed\":" + std::to_string(*r.seed);
    if (r.draw) line += ",\"draw\":" + std::to_string(*r.draw);
    if (const auto& p = r.parameters) {
        line += ",\"ops\":";
        append_escaped(line, p->ops);
        line += ",\"weights\":";
        append_escaped(line, p->weights);
        line += ",\"p_flip_h\":" + p->p_flip_h + ",\"p_flip_v\":" + p->p_flip_v + ",\"draws\":" + std::to_string(p->draws);
        line += std::string(",\"replacement\":") + (p->with_replacement ? "true" : "false");
        if (p->degrees != "0") {
            line += ",\"degrees\":";
            append_escaped(line, p->degrees);
        }
    }
    line += ",\"output\":";
    append_escaped(line, r.output);
    line += ",\"file\":";
    append_escaped(line, r.file);
    if (!r.labels.empty()) {
        line += ",\"labels\":";
        append_escaped(line, r.labels);
    }
    if (r.image_id) line += ",\"image_id\":" + std::to_string(*r.image_id);
    if (r.angle) line += ",\"angle\":" + detail::number_text(*r.angle);
    if (!r.mask.empty()) {
        line += ",\"mask\":";
        append_escaped(line, r.mask);
    }
    line += ",\"width\":" + std::to_string(r.width) + ",\"height\":" + std::to_string(r.height);
    line += std::string(",\"status\":\"") + (r.ok ? "ok" : "failed") + "\"";
    line += ",\"bytes\":" + std::to_string(r.bytes);
    if (!r.ok) {
        line += ",\"error\":";
        append_escaped(line, r.error);
    }
    return line + "}";
}

bool parse_json_line(const std::string& line, ManifestRecord& record) {
    record = ManifestRecord{};
    try {
        return LineParser(line).parse(record);
    } catch (const std::exception&) {  // a malformed \u escape
        return false;
    }
}

std::optional<std::uint64_t> CompletedOutputs::find(const std::string& output, const std::string& file) const {
    if (const auto it = by_file.find(file); it != by_file.end()) return it->second;
    if (const auto it = by_output.find(normal_absolute(output)); it != by_output.end()) return it->second;
    return std::nullopt;
}

CompletedOutputs completed_outputs(const std::string& manifest_path) {
    CompletedOutputs done;
    std::ifstream in(manifest_path);
    std::string line;
    while (std::getline(in, line)) {
        ManifestRecord r;
        if (!parse_json_line(line, r)) continue;
        // A record names its output as that run spelled it (relative to that run's working folder), and
        // since this version also below OUTDIR: that name holds whatever the spelling and working folder.
        auto& map = r.file.empty() ? done.by_output : done.by_file;
        const std::string key = r.file.empty() ? normal_absolute(r.output) : r.file;
        if (r.ok) {
            map[key] = r.bytes;
        } else {
            map.erase(key);
        }
    }
    return done;
}

std::optional<ManifestRecord> first_record(const std::string& manifest_path) {
    std::ifstream in(manifest_path);
    std::string line;
    while (std::getline(in, line)) {
        ManifestRecord r;
        if (parse_json_line(line, r)) return r;
    }
    return std::nullopt;
}

ManifestWriter::ManifestWriter(int fd, const std::string& path) : path_(path), fd_(fd) { cut_torn_line(); }

void ManifestWriter::cut_torn_line() {
    const std::string& path = path_;
    // A run killed mid-write may have left a torn last line: cut it off (its output is redone, having no
    // record), so that every line stays a JSON object for the readers of the file.
    off_t end = ::lseek(fd_, 0, SEEK_END);
    char last = '\n';
    if (end > 0 && ::pread(fd_, &last, 1, end - 1) == 1 && last != '\n') {
        char block[4096];
        while (end > 0) {
            const off_t from = end > static_cast<off_t>(sizeof block) ? end - static_cast<off_t>(sizeof block) : 0;
            const ssize_t n = ::pread(fd_, block, static_cast<std::size_t>(end - from), from);
            if (n <= 0) break;
            const void* newline = ::memrchr(block, '\n', static_cast<std::size_t>(n));
            if (newline) {
                end = from + (static_cast<const char*>(newline) - block) + 1;
                break;
            }
            end = from;
        }
        if (::ftruncate(fd_, end) != 0) throw Error(ErrorCode::output, "cannot write manifest '" + path + "': " + std::strerror(errno));
    }
}

ManifestWriter::~ManifestWriter() {
    if (fd_ >= 0) ::close(fd_);
}

void ManifestWriter::append(const ManifestRecord& record) {
    detail::StageScope account(detail::WorkStage::manifest);  // the wait for another worker's line included
    const std::string line = to_json_line(record) + "\n";
    std::lock_guard<std::mutex> lock(mutex_);
    append_raw(line);
}

void ManifestWriter::append_raw(const std::string& line) {
    const off_t before = ::lseek(fd_, 0, SEEK_END);
    std::size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            // A full disk: the part of the line written is cut off, so the manifest ends with a whole line.
            const std::string reason = n < 0 ? std::strerror(errno) : "nothing written";
            if (written > 0 && before >= 0) static_cast<void>(::ftruncate(fd_, before));
            throw Error(ErrorCode::output, "cannot write manifest '" + path_ + "': " + reason);
        }
        written += static_cast<std::size_t>(n);
    }
}

}  // namespace gpurotate::augment
