#pragma once
// Standard error with control characters escaped: the messages name files, and a file named with an ESC
// sequence would otherwise write the terminal's escape sequences (detail::escape_controls).

#include "core/text.hpp"

#include <iostream>
#include <streambuf>
#include <string>

namespace gpurotate::cli {

class EscapingBuffer final : public std::streambuf {
public:
    explicit EscapingBuffer(std::streambuf* sink) : sink_(sink) {}

protected:
    int overflow(int c) override {
        if (c == traits_type::eof()) return traits_type::not_eof(c);
        const std::string text = detail::escape_controls(std::string(1, static_cast<char>(c)));
        return sink_->sputn(text.data(), static_cast<std::streamsize>(text.size())) == static_cast<std::streamsize>(text.size()) ? c
                                                                                                                               : traits_type::eof();
    }
    int sync() override { return sink_->pubsync(); }

private:
    std::streambuf* sink_;
};

/// Puts std::cerr through an EscapingBuffer for as long as the object lives.
class EscapedStderr {
public:
    EscapedStderr() : original_(std::cerr.rdbuf()), buffer_(original_) { std::cerr.rdbuf(&buffer_); }
    ~EscapedStderr() { std::cerr.rdbuf(original_); }
    EscapedStderr(const EscapedStderr&) = delete;
    EscapedStderr& operator=(const EscapedStderr&) = delete;

private:
    std::streambuf* original_;
    EscapingBuffer buffer_;
};

}  // namespace gpurotate::cli
