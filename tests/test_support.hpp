#pragma once
// Helpers shared by the test files: random images, poisoned buffers, exact comparison, temporary
// directories and running the gpurotate executable.

#include <gpurotate/error.hpp>
#include <gpurotate/image.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <algorithm>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace test_support {

/// The pixel formats whose widths cover every pixel word: 1, 2, 3, 4, 6, 8, 12, 16 bytes.
inline const std::vector<gpurotate::PixelFormat>& formats_of_every_width() {
    using gpurotate::SampleType;
    static const std::vector<gpurotate::PixelFormat> formats = {
        {SampleType::u8, 1},  {SampleType::u8, 2},  {SampleType::u8, 3},  {SampleType::u8, 4},
        {SampleType::u16, 3}, {SampleType::u16, 4}, {SampleType::f32, 3}, {SampleType::f32, 4}};
    return formats;
}

/// The format of `bytes`-wide pixels from that list.
inline gpurotate::PixelFormat format_with_width(std::size_t bytes) {
    for (const auto& f : formats_of_every_width()) {
        if (f.pixel_bytes() == bytes) return f;
    }
    std::abort();
}

/// The sizes every backend is checked on: degenerate, odd, prime, not a multiple of any tile, > 1 MP.
struct Size {
    std::int64_t width, height;
};
inline const std::vector<Size>& awkward_sizes() {
    static const std::vector<Size> sizes = {{1, 1}, {1, 7}, {7, 1}, {31, 33}, {33, 31}, {257, 129}, {1000, 3}, {1031, 1009}};
    return sizes;
}

/// Fills bytes with random non-zero values: zeros would hide pixels that were never written.
inline void fill_random(gpurotate::ImageView v, std::uint32_t seed) {
    std::mt19937 rng(seed);
    for (std::int64_t y = 0; y < v.height; ++y) {
        auto* row = reinterpret_cast<std::uint8_t*>(v.row(y));
        for (std::size_t i = 0; i < v.row_bytes(); ++i) row[i] = static_cast<std::uint8_t>(1 + rng() % 255);
    }
}

/// What random f32 samples are: any bit pattern (NaN, infinities and negatives included: the transforms move
/// bytes), or finite values in [0, 1), which every float format holds.
enum class FloatRange { any_bits, unit };

inline gpurotate::Image random_image(std::int64_t w, std::int64_t h, gpurotate::PixelFormat f, std::uint32_t seed,
                                     FloatRange floats = FloatRange::any_bits) {
    gpurotate::Image image(w, h, f);
    fill_random(image.view(), seed);
    if (f.sample == gpurotate::SampleType::f32 && floats == FloatRange::unit) {
        for (std::int64_t y = 0; y < h; ++y) {
            auto* row = reinterpret_cast<float*>(image.view().row(y));
            for (std::int64_t i = 0; i < w * f.channels; ++i) row[i] = static_cast<float>((seed + static_cast<std::uint32_t>(y * w * f.channels + i) * 2654435761u) >> 8) / 16777216.0f;
        }
    }
    return image;
}

/// Index of the first differing byte of two views of equal size, or -1 when identical.
inline std::int64_t first_difference(gpurotate::ConstImageView a, gpurotate::ConstImageView b) {
    if (a.width != b.width || a.height != b.height || a.format != b.format) return 0;
    for (std::int64_t y = 0; y < a.height; ++y) {
        const auto* ra = reinterpret_cast<const std::uint8_t*>(a.row(y));
        const auto* rb = reinterpret_cast<const std::uint8_t*>(b.row(y));
        for (std::size_t i = 0; i < a.row_bytes(); ++i) {
            if (ra[i] != rb[i]) return y * static_cast<std::int64_t>(a.row_bytes()) + static_cast<std::int64_t>(i);
        }
    }
    return -1;
}

/// A directory under /tmp removed with its contents at scope exit.
class TempDir {
public:
    TempDir() {
        char name[] = "/tmp/gpurotate-test-XXXXXX";
        if (!mkdtemp(name)) std::abort();
        path_ = name;
    }
    ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

inline bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

inline std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// What a command printed (stdout and stderr together) and its exit status.
struct CommandResult {
    int status;
    std::string output;
};

/// `s` as one shell word: in single quotes, any single quote inside written as '\''.
inline std::string quote(const std::string& s) {
    std::string quoted = "'";
    for (char c : s) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

/// `command` with GPUROTATE_TEST_CLI_WRAPPER (a command line) put before it when it starts the gpurotate
/// executable. bench/sanitize_tests.sh sets it to put each CLI process under compute-sanitizer on its own:
/// a CLI process started by a test process that is itself under the tool waits for the tool until killed.
inline std::string with_cli_wrapper(const std::string& command) {
    const char* wrapper = std::getenv("GPUROTATE_TEST_CLI_WRAPPER");
    const std::string exe = quote(GPUROTATE_EXE);
    if (!wrapper || !*wrapper || command.rfind(exe, 0) != 0) return command;
    return std::string(wrapper) + " " + command;
}

inline CommandResult run(const std::string& command) {
    CommandResult result{-1, {}};
    FILE* pipe = popen((with_cli_wrapper(command) + " 2>&1").c_str(), "r");
    if (!pipe) return result;
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
    const int raw = pclose(pipe);
    result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + (WIFSIGNALED(raw) ? WTERMSIG(raw) : 0);
    return result;
}

/// The error code `call` throws (and its message), or `internal` when it throws nothing.
inline gpurotate::ErrorCode code_of(const std::function<void()>& call, std::string* message = nullptr) {
    try {
        call();
    } catch (const gpurotate::Error& e) {
        if (message) *message = e.what();
        return e.code();
    }
    return gpurotate::ErrorCode::internal;
}

/// CRC-32 as PNG chunks use it, written out here so the tests do not share the library's.
inline std::uint32_t png_crc(const std::string& bytes, std::size_t begin, std::size_t size) {
    std::uint32_t c = 0xffffffffu;
    for (std::size_t i = begin; i < begin + size; ++i) {
        c ^= static_cast<std::uint8_t>(bytes[i]);
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

/// Writes `v` big-endian into `bytes` at `pos` (PNG and JPEG header fields).
inline void put_be(std::string& bytes, std::size_t pos, std::uint32_t v, int size) {
    for (int i = 0; i < size; ++i) bytes[pos + i] = static_cast<char>(v >> (8 * (size - 1 - i)));
}

/// A GIF of `frames` images of `width` x `height` in a 4-colour palette (red, green, blue, white), pixel
/// (x, y) of frame f being colour (x + 2 y + f) % 4; with `transparent_white`, colour 3 is transparent. Written
/// here, as no codec of the project writes GIF: LZW codes of 3 bits, a clear code before every two pixels so
/// that the code table never grows past them.
inline std::string gif_bytes(int width, int height, int frames, bool transparent_white) {
    std::string g = "GIF89a";
    const auto u16 = [&](int v) { g += static_cast<char>(v & 255), g += static_cast<char>(v >> 8); };
    u16(width), u16(height);
    g += static_cast<char>(0x81), g += '\0', g += '\0';  // a global colour table of 4 entries
    g += std::string("\xff\x00\x00\x00\xff\x00\x00\x00\xff\xff\xff\xff", 12);
    for (int f = 0; f < frames; ++f) {
        if (transparent_white) g += std::string("\x21\xf9\x04\x01\x00\x00\x03\x00", 8);  // graphic control: index 3 transparent
        g += static_cast<char>(0x2c), u16(0), u16(0), u16(width), u16(height), g += '\0';
        g += static_cast<char>(2);  // LZW minimum code size: clear = 4, end = 5
        std::string data;
        unsigned bits = 0, count = 0;
        const auto code = [&](unsigned c) {
            bits |= c << count, count += 3;
            while (count >= 8) data += static_cast<char>(bits & 255), bits >>= 8, count -= 8;
        };
        for (int i = 0; i < width * height; ++i) {
            if (i % 2 == 0) code(4);
            code(static_cast<unsigned>((i % width + 2 * (i / width) + f) % 4));
        }
        code(5);
        if (count > 0) data += static_cast<char>(bits & 255);
        for (std::size_t at = 0; at < data.size(); at += 255) {
            const std::size_t n = std::min<std::size_t>(255, data.size() - at);
            g += static_cast<char>(n), g += data.substr(at, n);
        }
        g += '\0';
    }
    return g + ";";
}

}  // namespace test_support
