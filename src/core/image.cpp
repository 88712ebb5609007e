#include <gpurotate/error.hpp>
#include <gpurotate/image.hpp>

#include "core/huge_pages.hpp"
#include "core/pinned_memory.hpp"

#include <limits>
#include <new>

namespace gpurotate {

std::string to_string(PixelFormat f) {
    const char* sample = f.sample == SampleType::u8 ? "u8" : f.sample == SampleType::u16 ? "u16" : "f32";
    return std::string(sample) + "c" + std::to_string(f.channels);
}

std::size_t checked_image_bytes(std::int64_t width, std::int64_t height, PixelFormat format) {
    if (width <= 0 || height <= 0) {
        throw Error(ErrorCode::usage, "image size " + std::to_string(width) + "x" + std::to_string(height) + " is not positive");
    }
    if (format.channels < 1 || format.channels > 4) {
        throw Error(ErrorCode::usage, "unsupported channel count " + std::to_string(format.channels) + " (1 to 4)");
    }
    const auto max = std::numeric_limits<std::size_t>::max();
    const auto w = static_cast<std::size_t>(width);
    const auto h = static_cast<std::size_t>(height);
    const std::size_t pixel = format.pixel_bytes();
    if (w > max / pixel || w * pixel > max / h) {
        throw Error(ErrorCode::usage, "image size " + std::to_string(width) + "x" + std::to_string(height) + " overflows memory size");
    }
    return w * pixel * h;
}

Image::Image(std::int64_t width, std::int64_t height, PixelFormat format, HostMemory memory) {
    const std::size_t bytes = checked_image_bytes(width, height, format);
    std::byte* pointer = nullptr;
    if (memory == HostMemory::pinned) {
        pointer = static_cast<std::byte*>(detail::allocate_pinned(bytes));
        if (pointer) {
            storage_ = std::shared_ptr<std::byte>(pointer, [](std::byte* p) { detail::free_pinned(p); });
            pinned_ = true;
        }
    }
    if (!pointer) {
        pointer = new (std::nothrow) std::byte[bytes];
        if (!pointer) {
            throw Error(ErrorCode::internal, "out of host memory allocating " + std::to_string(bytes) + " bytes for a " +
                                                 std::to_string(width) + "x" + std::to_string(height) + " image");
        }
        storage_ = std::shared_ptr<std::byte>(pointer, [](std::byte* p) { delete[] p; });
        // Untouched yet where new[] mapped it fresh (sizes over glibc's mmap threshold, which rises to 32 MiB once
        // blocks are freed; below it the heap's pages, where the advice is harmless): the decoder writes it first.
        if (bytes >= detail::huge_page_worthy_bytes) detail::ask_for_huge_pages(pointer, pointer + bytes);
    }
    view_ = ImageView{pointer, width, height, static_cast<std::size_t>(width) * format.pixel_bytes(), format};
}

}  // namespace gpurotate
