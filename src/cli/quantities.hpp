#pragma once
// The command line's sizes: pixel counts (--max-pixels), byte counts (--gpu-memory) and scan counts (--max-scans).

#include <cstdint>
#include <string>

namespace gpurotate::cli {

/// "100000000", "100M", "1.5G" (K, M, G: powers of 1000), "20000x20000", or "none" (returned as 0, no
/// limit). Throws Error (usage) naming `flag`.
std::int64_t parse_pixel_count(const std::string& text, const std::string& flag);

/// "268435456", "256M", "256MiB", "1.5G" (K, M, G with or without "iB": powers of 1024, as memory is
/// sold). Throws Error (usage) naming `flag` for anything else or zero.
std::int64_t parse_byte_count(const std::string& text, const std::string& flag);

/// --max-scans: a positive count of JPEG scans up to 1000000, or "none" (returned as 0, no limit). Throws
/// Error (usage).
int parse_scan_count(const std::string& text);

}  // namespace gpurotate::cli
