// gpurotate._gpurotate: the D4 group and its transforms over arrays that nanobind imports without a copy
// (DLPack or the buffer protocol). The layout rules (which axes are height and width, which are planes or
// samples) and every check of an array live here, so that the package and direct users of this module get
// the same errors; the package (gpurotate/_api.py) adds layout inference, output allocation, the caller's CUDA
// stream, and what to do with strides this module does not take (a channels-last view, or copy=True).
// Any dtype moves: its items are words of their width (1 to 16 bytes), never read as numbers.

#include <gpurotate/error.hpp>
#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/rotate.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>

#include "augment/augment_options.hpp"
#include "augment/draw_options.hpp"
#include "augment/output_plan.hpp"
#include "augment/random_draw.hpp"
#include "convert/conversion_options.hpp"
#include "convert/encoded_conversion.hpp"
#include "convert/output_fit.hpp"
#include "convert/rotation_step.hpp"
#include "core/parallel_for.hpp"
#include "formats/format_registry.hpp"
#include "cpu/transform_cpu.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cxxabi.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace nb = nanobind;

namespace gpurotate::python {
namespace {

// The GIL released for the work and taken back after, as nb::gil_scoped_release does, except on a thread that
// comes back while the interpreter is finalizing (a daemon thread still in a call at exit): before Python 3.14,
// PyEval_RestoreThread ends such a thread with pthread_exit, whose unwinding through a destructor (noexcept)
// aborted the process at exit. That unwinding is caught here and the thread waits for the process to end, as
// Python 3.14 makes it do.
class GilReleased {
public:
    GilReleased() : state_(PyEval_SaveThread()) {}
    GilReleased(const GilReleased&) = delete;
    GilReleased& operator=(const GilReleased&) = delete;
    ~GilReleased() {
        try {
            PyEval_RestoreThread(state_);
        } catch (abi::__forced_unwind&) {
            for (;;) pause();  // never leaves the handler: ending it without rethrowing would abort
        }
    }

private:
    PyThreadState* state_;
};

// Sources may be read-only (a NumPy array with writeable=False); destinations may not.
using SourceArray = nb::ndarray<nb::ro>;
using DestinationArray = nb::ndarray<>;

// Launches of transform_device_batch take at most this many images; larger batches go in several.
constexpr std::int64_t max_batch_launch = 65535;

enum class Layout { hw, hwc, chw, nchw, nhwc };

Layout parse_layout(const std::string& text) {
    if (text == "hw") return Layout::hw;
    if (text == "hwc") return Layout::hwc;
    if (text == "chw") return Layout::chw;
    if (text == "nchw") return Layout::nchw;
    if (text == "nhwc") return Layout::nhwc;
    throw nb::value_error(("unknown layout '" + text + "': hw, hwc, chw, nchw or nhwc").c_str());
}

int layout_ndim(Layout l) {
    switch (l) {
        case Layout::hw: return 2;
        case Layout::hwc:
        case Layout::chw: return 3;
        case Layout::nchw:
        case Layout::nhwc: return 4;
    }
    return 0;
}

// Which axes are height and width.
int height_axis(Layout l) {
    switch (l) {
        case Layout::hw:
        case Layout::hwc: return 0;
        case Layout::chw:
        case Layout::nhwc: return 1;
        case Layout::nchw: return 2;
    }
    return 0;
}

const char* layout_name(Layout l) {
    switch (l) {
        case Layout::hw: return "hw";
        case Layout::hwc: return "hwc";
        case Layout::chw: return "chw";
        case Layout::nchw: return "nchw";
        case Layout::nhwc: return "nhwc";
    }
    return "?";
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// How an array of one layout maps onto the library's images: `images` images of height x width pixels of
// `channels` interleaved samples, `images_per_sample` of them to a sample of the batch (the planes of CHW).
struct Geometry {
    std::int64_t images = 1;
    std::int64_t images_per_sample = 1;
    std::int64_t samples = 1;
    std::int64_t height = 0;
    std::int64_t width = 0;
    int channels = 1;
};

Geometry geometry_of(const std::vector<std::int64_t>& shape, Layout layout) {
    if (static_cast<int>(shape.size()) != layout_ndim(layout)) {
        throw nb::value_error(("layout '" + std::string(layout_name(layout)) + "' needs a " + std::to_string(layout_ndim(layout)) +
                               "-D array, not shape " + shape_text(shape))
                                  .c_str());
    }
    for (std::int64_t extent : shape) {
        if (extent < 0) throw nb::value_error(("negative extent in shape " + shape_text(shape)).c_str());
    }
    Geometry g;
    const int h = height_axis(layout);
    g.height = shape[static_cast<std::size_t>(h)];
    g.width = shape[static_cast<std::size_t>(h) + 1];
    switch (layout) {
        case Layout::hw: break;
        case Layout::hwc: g.channels = static_cast<int>(std::min<std::int64_t>(shape[2], 1 << 20)); break;
        case Layout::chw: g.images = g.images_per_sample = shape[0]; break;
        case Layout::nchw:
            g.samples = shape[0];
            g.images_per_sample = shape[1];
            g.images = shape[0] * shape[1];
            break;
        case Layout::nhwc:
            g.samples = g.images = shape[0];
            g.channels = static_cast<int>(std::min<std::int64_t>(shape[3], 1 << 20));
            break;
    }
    if ((layout == Layout::hwc || layout == Layout::nhwc) && (g.channels < 1 || g.channels > 4)) {
        throw nb::value_error(("layout '" + std::string(layout_name(layout)) + "' interleaves 1 to 4 channels, shape " +
                               shape_text(shape) + " has " + std::to_string(shape.back()) +
                               (layout == Layout::hwc ? " (planar images are layout='chw')" : " (planar batches are layout='nchw')"))
                                  .c_str());
    }
    return g;
}

// Elements arrive as their codes (a list of Python ints converts far faster than one of enum members: a
// batch's per-sample list is on every training step's path).
std::vector<Orientation> elements_of(const std::vector<std::int64_t>& codes) {
    std::vector<Orientation> elements(codes.size());
    for (std::size_t i = 0; i < codes.size(); ++i) {
        if (codes[i] < 0 || codes[i] > 7) {
            throw nb::value_error(("element code " + std::to_string(codes[i]) + " is not one of 0-7 (identity, rot90, rot180, rot270, "
                                   "flip-h, flip-v, transpose, transverse)")
                                      .c_str());
        }
        elements[i] = static_cast<Orientation>(codes[i]);
    }
    return elements;
}

// The one output element of each sample: one element for all, or one per sample.
std::vector<Orientation> per_sample(const std::vector<Orientation>& elements, const Geometry& g) {
    if (elements.size() == 1) return std::vector<Orientation>(static_cast<std::size_t>(g.samples), elements.front());
    if (static_cast<std::int64_t>(elements.size()) != g.samples) {
        throw nb::value_error(("elements= has " + std::to_string(elements.size()) + " entries for a batch of " +
                               std::to_string(g.samples) + " samples")
                                  .c_str());
    }
    return elements;
}

// Whether the output's height and width are swapped; refuses per-sample elements that would give
// samples of a non-square batch different shapes (one array cannot hold them).
bool output_swaps_axes(const std::vector<Orientation>& elements, const Geometry& g) {
    if (elements.empty()) return false;  // an empty batch with its empty list of elements
    const bool swaps = swaps_axes(elements.front());
    if (g.height == g.width) return swaps;
    for (Orientation o : elements) {
        if (swaps_axes(o) != swaps) {
            throw nb::value_error(("elements mix ones that swap height and width (rot90, rot270, transpose, transverse) with ones that "
                                   "keep them, on non-square " +
                                   std::to_string(g.height) + "x" + std::to_string(g.width) +
                                   " samples: the results would not fit one array. Use square samples, elements of one "
                                   "kind, or one call per sample")
                                      .c_str());
        }
    }
    return swaps;
}

std::vector<std::int64_t> output_shape(const std::vector<std::int64_t>& shape, Layout layout, const std::vector<Orientation>& elements) {
    const Geometry g = geometry_of(shape, layout);
    std::vector<std::int64_t> out = shape;
    per_sample(elements, g);  // checks the count
    if (output_swaps_axes(elements, g)) {
        const auto h = static_cast<std::size_t>(height_axis(layout));
        std::swap(out[h], out[h + 1]);
    }
    return out;
}

template <class Array>
std::vector<std::int64_t> shape_of(const Array& a) {
    std::vector<std::int64_t> shape(a.ndim());
    for (std::size_t i = 0; i < a.ndim(); ++i) shape[i] = a.shape(i);
    return shape;
}

// The widest pixel the kernels move (pixel_word_widths).
constexpr std::size_t max_pixel_bytes = 16;

// "int64", "bool", "float32 x4" (vector lanes), "of DLPack type code 17, 4 bits" (a code without a name here).
std::string dtype_name(nb::dlpack::dtype t) {
    const std::string lanes = t.lanes == 1 ? "" : " x" + std::to_string(t.lanes);
    const std::string bits = std::to_string(t.bits);
    switch (static_cast<nb::dlpack::dtype_code>(t.code)) {
        case nb::dlpack::dtype_code::Int: return "int" + bits + lanes;
        case nb::dlpack::dtype_code::UInt: return "uint" + bits + lanes;
        case nb::dlpack::dtype_code::Float: return "float" + bits + lanes;
        case nb::dlpack::dtype_code::Bfloat: return "bfloat" + bits + lanes;
        case nb::dlpack::dtype_code::Complex: return "complex" + bits + lanes;
        case nb::dlpack::dtype_code::Bool: return "bool" + lanes;  // NumPy 2 and torch say bool
        default: return "of DLPack type code " + std::to_string(t.code) + ", " + bits + " bits" + lanes;
    }
}

// DLPack's kDLOpaqueHandle, which nanobind's dtype_code does not name: pointers, not pixels.
constexpr std::uint8_t dlpack_opaque_handle = 3;

// The bytes of one item of `t`: 1, 2, 4, 8 or 16, whatever the item means (bool, int8..int64, float16,
// bfloat16, float32, float64, complex64, complex128 alike). Opaque handles, vector lanes and sub-byte items
// are refused.
std::size_t item_bytes_of(nb::dlpack::dtype t, const char* role) {
    const bool whole_bytes = t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64 || t.bits == 128;
    if (t.lanes == 1 && whole_bytes && t.code != dlpack_opaque_handle) return t.bits / 8;
    throw nb::type_error((std::string(role) + " has dtype " + dtype_name(t) +
                          ": gpurotate takes items of 1, 2, 4, 8 or 16 bytes (bool, int8 to int64, uint8 to uint64, float16, "
                          "bfloat16, float32, float64, complex64, complex128)")
                             .c_str());
}

// The library's pixel format with the bytes of `channels` interleaved items of `item_bytes` each: the sample
// type of the item's width (u8, u16, f32) where there is one, else 4-byte samples (an int64 is two f32
// samples to the kernels, which move words of the pixel's width and never read a sample as a number).
PixelFormat pixel_format_of(std::size_t item_bytes, int channels, Layout layout, const std::vector<std::int64_t>& shape) {
    const std::size_t pixel = item_bytes * static_cast<std::size_t>(channels);
    if (item_bytes == 1) return {SampleType::u8, channels};
    if (item_bytes == 2) return {SampleType::u16, channels};
    if (pixel <= max_pixel_bytes) return {SampleType::f32, static_cast<int>(pixel / 4)};
    throw nb::value_error(("layout '" + std::string(layout_name(layout)) + "' interleaves " + std::to_string(channels) + " channels of " +
                           std::to_string(item_bytes) + "-byte items in shape " + shape_text(shape) + ": " + std::to_string(pixel) +
                           "-byte pixels, and gpurotate moves pixels of at most 16 bytes (the planar layouts 'chw' and 'nchw' take "
                           "any channel count: x.permute / numpy.moveaxis to planes)")
                              .c_str());
}

enum class Place { cpu, cuda };

template <class Array>
Place place_of(const Array& a, const char* role) {
    switch (a.device_type()) {
        case nb::device::cpu::value:
        case nb::device::cuda_host::value: return Place::cpu;
        case nb::device::cuda::value:
        case nb::device::cuda_managed::value: return Place::cuda;
        default:
            throw nb::type_error((std::string(role) + " lives on DLPack device type " + std::to_string(a.device_type()) +
                                  ": gpurotate takes CPU and CUDA arrays")
                                     .c_str());
    }
}

// Where the images of an array lie, in bytes: rows `pitch` apart, the planes of a sample (CHW's C)
// `plane_stride` apart, samples (a batch's N) `sample_stride` apart.
struct Spacing {
    std::size_t pitch = 0;
    std::size_t plane_stride = 0;
    std::size_t sample_stride = 0;

    /// Byte offset of image `i` (sample i / planes, plane i % planes).
    std::size_t offset(std::int64_t i, std::int64_t planes) const {
        return static_cast<std::size_t>(i / planes) * sample_stride + static_cast<std::size_t>(i % planes) * plane_stride;
    }
    /// The stride of the images as one even run (what one batch launch takes), or 0 where samples are not in
    /// step with their planes (a step over the samples of a multi-plane batch).
    std::size_t run_stride(const Geometry& g) const {
        if (g.images_per_sample == 1) return sample_stride;
        if (g.samples == 1 || sample_stride == plane_stride * static_cast<std::size_t>(g.images_per_sample)) return plane_stride;
        return 0;
    }
};

// The one rule for strides: an array is taken as it is wherever its memory is images with a row pitch, the
// library's views: the pixels of a row adjacent (the width axis's stride is the interleaved channel count,
// the channels' 1), rows at least a row apart, a sample's planes at least an image apart, and samples at
// least their planes apart, all in order (positive strides). A C-contiguous array is one; so is a crop of one
// (x[:, :, 2:9, 3:7]), a step over or a subset of samples and planes (x[::2], x[:, 1:3]) and a channels-last
// tensor as layout='nhwc' after x.permute(0, 2, 3, 1). Anything else (transposed, reversed, a column step,
// broadcast) is refused, never guessed at: the package copies it first only where asked to (copy=True).
// Axes of extent 1 may have any stride (NumPy and PyTorch give them arbitrary ones), and so may any axis of
// an empty array (DLPack gives its strides as 0).
template <class Array>
std::optional<Spacing> spacing_of(const Array& a, Layout layout, const Geometry& g, std::size_t item_bytes) {
    const std::int64_t channels = g.channels;
    const std::int64_t row = g.width * channels;  // items
    const auto bytes = [&](std::int64_t items) { return static_cast<std::size_t>(items) * item_bytes; };
    if (a.size() == 0) return Spacing{bytes(row), bytes(row * g.height), bytes(row * g.height * g.images_per_sample)};
    const auto h = static_cast<std::size_t>(height_axis(layout));
    if (channels > 1 && a.stride(h + 2) != 1) return std::nullopt;
    if (g.width > 1 && a.stride(h + 1) != channels) return std::nullopt;
    const std::int64_t pitch = g.height > 1 ? a.stride(h) : row;
    if (pitch < row) return std::nullopt;
    // The axes before height: [planes] for chw, [samples, planes] for nchw, [samples] for nhwc.
    const bool has_planes = layout == Layout::chw || layout == Layout::nchw;
    const bool has_samples = layout == Layout::nchw || layout == Layout::nhwc;
    const std::size_t plane_axis = layout == Layout::nchw ? 1 : 0;
    const std::int64_t plane_stride = has_planes && g.images_per_sample > 1 ? a.stride(plane_axis) : pitch * g.height;
    if (plane_stride < pitch * g.height) return std::nullopt;
    const std::int64_t sample_stride = has_samples && g.samples > 1 ? a.stride(0) : plane_stride * g.images_per_sample;
    if (sample_stride < plane_stride * g.images_per_sample) return std::nullopt;
    return Spacing{bytes(pitch), bytes(plane_stride), bytes(sample_stride)};
}

template <class Array>
Spacing require_spacing(const Array& a, const char* role, Layout layout, const Geometry& g, std::size_t item_bytes) {
    if (const std::optional<Spacing> spacing = spacing_of(a, layout, g, item_bytes)) return *spacing;
    std::vector<std::int64_t> strides(a.ndim());
    for (std::size_t i = 0; i < a.ndim(); ++i) strides[i] = a.stride(i);
    // gpurotate.apply takes a planar layout's channels-last memory itself (as the interleaved layout of a
    // permuted view), so the hint is the copy.
    const std::string hint = "pass copy=True (one contiguous copy first) or a contiguous array (numpy.ascontiguousarray(x), x.contiguous())";
    throw nb::value_error((std::string(role) + " is not C-contiguous, nor images with a row pitch (shape " + shape_text(shape_of(a)) +
                           ", element strides " + shape_text(strides) + ", layout '" + layout_name(layout) +
                           "'): a row's pixels must be adjacent and rows, planes and samples evenly spaced in order, "
                           "without overlap; " +
                           hint)
                              .c_str());
}

// The bytes from an array's first item to the end of its last (strides checked non-negative by require_spacing).
template <class Array>
std::size_t span_bytes(const Array& a, std::size_t item_bytes) {
    if (a.size() == 0) return 0;
    std::size_t span = item_bytes;
    for (std::size_t i = 0; i < a.ndim(); ++i) span += static_cast<std::size_t>(a.shape(i) - 1) * static_cast<std::size_t>(a.stride(i)) * item_bytes;
    return span;
}

// The library refuses overlapping images; a batch could still overlap across images, so compare the bytes
// from each array's first item to its last.
void refuse_overlap(const SourceArray& src, const DestinationArray& dst, std::size_t item_bytes, const char* hint) {
    const auto begin_in = reinterpret_cast<std::uintptr_t>(src.data());
    const auto begin_out = reinterpret_cast<std::uintptr_t>(dst.data());
    const std::size_t span_in = span_bytes(src, item_bytes);
    const std::size_t span_out = span_bytes(dst, item_bytes);
    if (span_in && span_out && begin_in < begin_out + span_out && begin_out < begin_in + span_in) {
        throw nb::value_error((std::string("out shares memory with the input: gpurotate writes its result to other memory ") + hint).c_str());
    }
}

struct Checked {
    Geometry geometry;
    PixelFormat format;
    Place place;
    Spacing src;
    Spacing dst;
    std::vector<Orientation> elements;  // one per sample
};

// Every check of a (source, destination) pair, before any pixel moves.
Checked check_pair(const SourceArray& src, const DestinationArray& dst, Layout layout, const std::vector<Orientation>& elements) {
    Checked c;
    const std::vector<std::int64_t> in_shape = shape_of(src);
    c.geometry = geometry_of(in_shape, layout);
    const std::size_t item_bytes = item_bytes_of(src.dtype(), "the input");
    c.format = pixel_format_of(item_bytes, c.geometry.channels, layout, in_shape);
    c.place = place_of(src, "the input");
    c.src = require_spacing(src, "the input", layout, c.geometry, item_bytes);
    c.elements = per_sample(elements, c.geometry);
    const std::vector<std::int64_t> expected = output_shape(in_shape, layout, elements);

    if (src.dtype() != dst.dtype()) {
        item_bytes_of(dst.dtype(), "out");  // names a dtype gpurotate does not take at all
        throw nb::type_error(("out has dtype " + dtype_name(dst.dtype()) + ", the input " + dtype_name(src.dtype()) +
                              ": another dtype (gpurotate converts no samples)")
                                 .c_str());
    }
    if (place_of(dst, "out") != c.place || dst.device_id() != src.device_id()) {
        throw nb::value_error(("out is on " + std::string(place_of(dst, "out") == Place::cpu ? "the CPU" : "a CUDA device") + " (device " +
                               std::to_string(dst.device_id()) + "), the input on " +
                               (c.place == Place::cpu ? "the CPU" : "a CUDA device") + " (device " + std::to_string(src.device_id()) +
                               "): they must be on the same device")
                                  .c_str());
    }
    if (shape_of(dst) != expected) {
        throw nb::value_error(("out has shape " + shape_text(shape_of(dst)) + ", the result has shape " + shape_text(expected)).c_str());
    }
    c.dst = require_spacing(dst, "out", layout, geometry_of(expected, layout), item_bytes);
    refuse_overlap(src, dst, item_bytes, "(apply_inplace does involutions in place on the GPU)");
    return c;
}

// Image i of the arrays as library views.
struct Views {
    const std::byte* src;
    std::byte* dst;
    Spacing src_spacing;
    Spacing dst_spacing;
    std::int64_t planes;  // images to a sample
    std::int64_t width;
    std::int64_t height;
    std::int64_t out_width;
    std::int64_t out_height;
    PixelFormat format;

    /// The bytes of one image's pixels (what a thread's share of a batch is measured in).
    std::size_t image_bytes() const { return static_cast<std::size_t>(width * height) * format.pixel_bytes(); }
    ConstImageView source(std::int64_t i) const {
        return {src + src_spacing.offset(i, planes), width, height, src_spacing.pitch, format};
    }
    ImageView destination(std::int64_t i) const {
        return {dst + dst_spacing.offset(i, planes), out_width, out_height, dst_spacing.pitch, format};
    }
};

Views views_of(const SourceArray& src, const DestinationArray& dst, const Checked& c, bool swapped) {
    const Geometry& g = c.geometry;
    return {static_cast<const std::byte*>(src.data()),
            static_cast<std::byte*>(dst.data()),
            c.src,
            c.dst,
            g.images_per_sample,
            g.width,
            g.height,
            swapped ? g.height : g.width,
            swapped ? g.width : g.height,
            c.format};
}

// Small images (a batch's planes) are below the CPU backend's threshold for threads of their own, so a
// batch spreads its images over the cores, one thread each; a few large images use every core each.
void run_on_cpu(const Views& v, std::int64_t images, const std::function<Orientation(std::int64_t)>& element_of) {
    const std::int64_t cores = detail::usable_cores();
    if (images < cores) {
        for (std::int64_t i = 0; i < images; ++i) transform(v.source(i), v.destination(i), element_of(i), Backend::cpu);
        return;
    }
    // As many bytes a thread as the backend gives a transpose: waking a thread costs 20-30 us.
    const std::int64_t min_images =
        std::max<std::int64_t>(1, detail::min_bytes_per_thread_transposes / static_cast<std::int64_t>(std::max<std::size_t>(1, v.image_bytes())));
    detail::parallel_for(images, min_images, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            transform_multi(v.source(i), {TransformTarget{element_of(i), v.destination(i)}}, Backend::cpu, 1);
        }
    });
}

// The GPU's launches: the images as one even run (one launch per 65535 images), or, where samples are not in
// step with their planes (a step over the samples of a multi-plane batch), one run of samples per plane.
void run_on_gpu(const Views& v, const Geometry& g, const std::vector<Orientation>& elements, bool uniform, CUstream_st* stream) {
    const std::size_t src_run = v.src_spacing.run_stride(g);
    const std::size_t dst_run = v.dst_spacing.run_stride(g);
    if (src_run && dst_run) {
        // A random element per sample: one element per plane (CHW's C planes share their sample's), the
        // batch launch indexing each kernel family's planes.
        std::vector<Orientation> per_plane;
        if (!uniform) {
            // Sample by sample (a division per plane cost 3.8 us of a 768-plane call's 28).
            per_plane.reserve(static_cast<std::size_t>(g.images));
            for (const Orientation element : elements) per_plane.insert(per_plane.end(), static_cast<std::size_t>(g.images_per_sample), element);
        }
        for (std::int64_t first = 0; first < g.images; first += max_batch_launch) {
            const auto count = static_cast<int>(std::min(max_batch_launch, g.images - first));
            if (uniform) {
                transform_device_batch(v.source(first), v.destination(first), elements.front(), count, src_run, dst_run, stream);
            } else {
                transform_device_batch_elements(v.source(first), v.destination(first), per_plane.data() + first, count, src_run, dst_run, stream);
            }
        }
        return;
    }
    for (std::int64_t plane = 0; plane < g.images_per_sample; ++plane) {
        for (std::int64_t first = 0; first < g.samples; first += max_batch_launch) {
            const auto count = static_cast<int>(std::min(max_batch_launch, g.samples - first));
            const std::int64_t image = first * g.images_per_sample + plane;
            if (uniform) {
                transform_device_batch(v.source(image), v.destination(image), elements.front(), count, v.src_spacing.sample_stride,
                                       v.dst_spacing.sample_stride, stream);
            } else {
                transform_device_batch_elements(v.source(image), v.destination(image), elements.data() + first, count,
                                                v.src_spacing.sample_stride, v.dst_spacing.sample_stride, stream);
            }
        }
    }
}

CUstream_st* as_stream(std::uintptr_t handle) { return reinterpret_cast<CUstream_st*>(handle); }

void transform_arrays(const SourceArray& src, DestinationArray& dst, const std::vector<std::int64_t>& codes, const std::string& layout_text,
                      std::uintptr_t stream) {
    const Layout layout = parse_layout(layout_text);
    const std::vector<Orientation> elements = elements_of(codes);
    const Checked c = check_pair(src, dst, layout, elements);
    const Geometry& g = c.geometry;
    if (g.images == 0 || g.width == 0 || g.height == 0) return;  // nothing to move; the shapes are checked
    const bool uniform = std::all_of(c.elements.begin(), c.elements.end(), [&](Orientation o) { return o == c.elements.front(); });
    const Views v = views_of(src, dst, c, output_swaps_axes(c.elements, g));
    const auto element_of = [&](std::int64_t image) { return c.elements[static_cast<std::size_t>(image / g.images_per_sample)]; };

    GilReleased release;
    if (c.place == Place::cpu) {
        run_on_cpu(v, g.images, element_of);
    } else {
        run_on_gpu(v, g, c.elements, uniform, as_stream(stream));
    }
}

void transform_in_place(DestinationArray& array, Orientation element, const std::string& layout_text, std::uintptr_t stream) {
    const Layout layout = parse_layout(layout_text);
    const std::vector<std::int64_t> shape = shape_of(array);
    const Geometry g = geometry_of(shape, layout);
    const std::size_t item_bytes = item_bytes_of(array.dtype(), "the array");
    const PixelFormat format = pixel_format_of(item_bytes, g.channels, layout, shape);
    if (place_of(array, "the array") != Place::cuda) {
        throw nb::type_error("apply_inplace runs on the GPU only and this array is in host memory: "
                             "use apply(x, op) (or apply(x, op, out=y)) on the CPU");
    }
    const Spacing spacing = require_spacing(array, "the array", layout, g, item_bytes);
    if (g.images == 0 || g.width == 0 || g.height == 0) return;
    auto* data = static_cast<std::byte*>(array.data());
    GilReleased release;
    for (std::int64_t i = 0; i < g.images; ++i) {
        transform_in_place_device({data + spacing.offset(i, g.images_per_sample), g.width, g.height, spacing.pitch, format}, element,
                                  as_stream(stream));
    }
}

// Whether transform takes `array` as it is in `layout` (its dtype, channels and strides): ValueError or
// TypeError with transform's message where not. For the package's choice, on its path for non-contiguous
// arrays, between taking an array as it is, as channels-last, or (with copy=True) copied.
void check_array(const SourceArray& array, const std::string& layout_text) {
    const Layout layout = parse_layout(layout_text);
    const std::vector<std::int64_t> shape = shape_of(array);
    const Geometry g = geometry_of(shape, layout);
    const std::size_t item_bytes = item_bytes_of(array.dtype(), "the array");
    pixel_format_of(item_bytes, g.channels, layout, shape);
    require_spacing(array, "the array", layout, g, item_bytes);
}

// ---- Rotation by any angle (gpurotate/rotate.hpp): the layouts, strides and devices of transform, the
// library's three sample types only (interpolation reads samples as numbers), one call per image or plane.

// The sample type of a dtype rotate takes: uint8, uint16 or float32; TypeError naming them for any other.
SampleType rotate_sample_of(nb::dlpack::dtype t, const char* role) {
    if (t.lanes == 1) {
        if (t.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt) && t.bits == 8) return SampleType::u8;
        if (t.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::UInt) && t.bits == 16) return SampleType::u16;
        if (t.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float) && t.bits == 32) return SampleType::f32;
    }
    throw nb::type_error((std::string(role) + " has dtype " + dtype_name(t) +
                          ": rotation by any angle takes uint8, uint16 and float32 (it interpolates samples as numbers; "
                          "convert first, e.g. x.astype(numpy.float32) or x.float())")
                             .c_str());
}

Interpolation interpolation_of(const std::string& text) {
    if (const auto interpolation = gpurotate::parse_interpolation(text)) return *interpolation;
    throw nb::value_error(("unknown interpolation '" + text + "': nearest, bilinear or bicubic").c_str());
}

// One angle for all, or one per sample of a batch layout: the angle of each sample.
std::vector<double> angles_per_sample(const std::vector<double>& degrees, const Geometry& g, Layout layout) {
    if (degrees.size() == 1) return std::vector<double>(static_cast<std::size_t>(g.samples), degrees.front());
    const bool batch = layout == Layout::nchw || layout == Layout::nhwc;
    if (!batch) {
        throw nb::value_error(("layout '" + std::string(layout_name(layout)) + "' is one image: one angle, not " +
                               std::to_string(degrees.size()))
                                  .c_str());
    }
    if (static_cast<std::int64_t>(degrees.size()) != g.samples) {
        throw nb::value_error(("angles has " + std::to_string(degrees.size()) + " entries for a batch of " + std::to_string(g.samples) +
                               " samples")
                                  .c_str());
    }
    return degrees;
}

std::string degrees_text(double degrees) {
    std::string text = std::to_string(degrees);
    while (text.size() > 1 && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

// The shape of the rotated array: each sample's rotated_extent (the library's formula; the input's size
// with keep_size), which must be one size for the whole batch.
std::vector<std::int64_t> rotated_shape(const std::vector<std::int64_t>& shape, Layout layout, const std::vector<double>& degrees,
                                        bool keep_size) {
    const Geometry g = geometry_of(shape, layout);
    angles_per_sample(degrees, g, layout);  // checks the count
    RotateOptions options;
    options.keep_size = keep_size;
    // Every angle is checked (finite); an empty batch with its empty list of angles keeps its shape.
    std::optional<Extent> size;
    double first = 0;
    for (const double angle : degrees) {
        options.degrees = angle;
        const Extent e = rotated_extent({g.width, g.height}, options);
        if (!size) {
            size = e, first = angle;
        } else if (!(e == *size)) {
            throw nb::value_error(("the batch's angles give different sizes (" + degrees_text(first) + " degrees: " +
                                   std::to_string(size->width) + "x" + std::to_string(size->height) + ", " + degrees_text(angle) +
                                   " degrees: " + std::to_string(e.width) + "x" + std::to_string(e.height) +
                                   ", width x height), which one array cannot hold: expand=False keeps the input's size, or "
                                   "rotate the samples one call each")
                                      .c_str());
        }
    }
    std::vector<std::int64_t> out = shape;
    if (size) {
        const auto h = static_cast<std::size_t>(height_axis(layout));
        out[h] = size->height;
        out[h + 1] = size->width;
    }
    return out;
}

// The background of each channel: one value for all, or one per channel (the interleaved channels of hwc and
// nhwc, the planes of chw and nchw).
std::vector<double> fill_per_channel(const std::vector<double>& fill, std::int64_t channels) {
    if (fill.size() == 1) return std::vector<double>(static_cast<std::size_t>(std::max<std::int64_t>(channels, 1)), fill.front());
    if (static_cast<std::int64_t>(fill.size()) != channels) {
        throw nb::value_error(("fill has " + std::to_string(fill.size()) + " values for " + std::to_string(channels) +
                               " channels: one value for all, or one per channel")
                                  .c_str());
    }
    return fill;
}

void rotate_arrays(const SourceArray& src, DestinationArray& dst, const std::vector<double>& degrees, const std::string& layout_text,
                   const std::string& interpolation, bool keep_size, const std::vector<double>& fill, std::uintptr_t stream) {
    const Layout layout = parse_layout(layout_text);
    RotateOptions options;
    options.interpolation = interpolation_of(interpolation);
    options.keep_size = keep_size;
    const std::vector<std::int64_t> in_shape = shape_of(src);
    const Geometry g = geometry_of(in_shape, layout);
    const SampleType sample = rotate_sample_of(src.dtype(), "the input");
    const std::size_t item_bytes = sample_bytes(sample);
    const PixelFormat format{sample, g.channels};
    const Place place = place_of(src, "the input");
    const Spacing src_spacing = require_spacing(src, "the input", layout, g, item_bytes);
    const std::vector<double> angles = angles_per_sample(degrees, g, layout);
    const bool planar = layout == Layout::chw || layout == Layout::nchw;
    const std::vector<double> background = fill_per_channel(fill, planar ? g.images_per_sample : g.channels);
    if (!planar && background.size() > 4) throw nb::value_error("fill has more than 4 values");  // 1-4 interleaved channels
    const std::vector<std::int64_t> expected = rotated_shape(in_shape, layout, degrees, keep_size);

    if (src.dtype() != dst.dtype()) {
        rotate_sample_of(dst.dtype(), "out");
        throw nb::type_error(("out has dtype " + dtype_name(dst.dtype()) + ", the input " + dtype_name(src.dtype()) +
                              ": another dtype (gpurotate converts no samples)")
                                 .c_str());
    }
    if (place_of(dst, "out") != place || dst.device_id() != src.device_id()) {
        throw nb::value_error(("out is on " + std::string(place_of(dst, "out") == Place::cpu ? "the CPU" : "a CUDA device") + " (device " +
                               std::to_string(dst.device_id()) + "), the input on " + (place == Place::cpu ? "the CPU" : "a CUDA device") +
                               " (device " + std::to_string(src.device_id()) + "): they must be on the same device")
                                  .c_str());
    }
    if (shape_of(dst) != expected) {
        throw nb::value_error(("out has shape " + shape_text(shape_of(dst)) + ", the result has shape " + shape_text(expected)).c_str());
    }
    const Geometry out_g = geometry_of(expected, layout);
    const Spacing dst_spacing = require_spacing(dst, "out", layout, out_g, item_bytes);
    refuse_overlap(src, dst, item_bytes, "(rotation is never in place)");
    // An image with no pixels leaves its result as it is: the package fills it (every pixel uncovered).
    if (g.images == 0 || g.width == 0 || g.height == 0 || out_g.width == 0 || out_g.height == 0) return;

    const auto* in = static_cast<const std::byte*>(src.data());
    auto* out = static_cast<std::byte*>(dst.data());
    GilReleased release;
    // On the GPU every image and plane of the call in one grouped launch (its own angle and fill each).
    std::vector<GroupedRotation> group;
    for (std::int64_t i = 0; i < g.images; ++i) {
        const std::int64_t plane = i % g.images_per_sample;
        options.degrees = angles[static_cast<std::size_t>(i / g.images_per_sample)];
        if (planar) {
            options.background = {background[static_cast<std::size_t>(plane)], 0, 0, 0};
        } else {
            std::copy(background.begin(), background.end(), options.background.begin());
        }
        const ConstImageView from{in + src_spacing.offset(i, g.images_per_sample), g.width, g.height, src_spacing.pitch, format};
        const ImageView to{out + dst_spacing.offset(i, g.images_per_sample), out_g.width, out_g.height, dst_spacing.pitch, format};
        if (place == Place::cpu) {
            rotate(from, to, options, Backend::cpu);
        } else {
            group.push_back({from, to, options});
        }
    }
    if (!group.empty()) rotate_device_grouped(group, as_stream(stream));
}

// gpurotate::Error as Python exceptions: the class says the category, `code` carries ErrorCode's value
// (the CLI's exit status), the message is the library's.
// `augment --random`'s draw (src/augment/random_draw.hpp, the planner's own functions): the model from the text
// of --ops and --weights and from the flips' probabilities, parsed and checked by augment's parsers (the same
// messages, UsageError); the package (gpurotate/_draw.py) writes its arguments as that text.
struct DrawModel {
    augment::RandomModel model;
    double degrees = 0;
};

// The shortest decimal that reads back as `value`, for augment's parsers of text.
std::string shortest_text(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

DrawModel draw_model(const std::string& ops, const std::string& weights, double p_flip_h, double p_flip_v, double degrees) {
    augment::RandomOptions random;
    const std::vector<Orientation> operations = augment::parse_operation_list(ops);
    if (!weights.empty()) random.weights = augment::parse_weights(weights, operations);
    random.p_flip_h = augment::parse_probability(shortest_text(p_flip_h), "--p-flip-h");
    random.p_flip_v = augment::parse_probability(shortest_text(p_flip_v), "--p-flip-v");
    return {augment::random_model(operations, random), augment::parse_max_degrees(shortest_text(degrees))};
}

// The largest N of `augment --random N`.
constexpr std::uint64_t max_random_draws = 1000;

// The elements of draws 0 to count-1 of the input at `key`, as augment --random count writes them, each with
// its --degrees angle (0 where degrees is 0).
void check_random_count(std::uint64_t count) {
    if (count < 1 || count > max_random_draws) {
        throw Error(ErrorCode::usage, "count " + std::to_string(count) + ": augment --random's N is 1 to " + std::to_string(max_random_draws));
    }
}

std::vector<std::pair<Orientation, double>> draw_list(std::uint64_t seed, const std::string& key, std::uint64_t count, const std::string& ops,
                                                      const std::string& weights, double p_flip_h, double p_flip_v, bool with_replacement,
                                                      double degrees) {
    const DrawModel m = draw_model(ops, weights, p_flip_h, p_flip_v, degrees);
    check_random_count(count);
    augment::check_draw_count(m.model, static_cast<unsigned>(count), with_replacement);
    const std::vector<Orientation> drawn = augment::draw_elements(m.model, seed, key, static_cast<unsigned>(count), with_replacement);
    std::vector<std::pair<Orientation, double>> result;
    for (std::uint64_t d = 0; d < drawn.size(); ++d) result.emplace_back(drawn[d], m.degrees > 0 ? augment::draw_angle(m.degrees, seed, key, d) : 0.0);
    return result;
}

// Draw `draw` alone: with replacement, draw_element's; without, the last of draw_elements' first draw+1, which
// are the first draw+1 of any longer run (a draw depends on those before it, never on the count).
std::pair<Orientation, double> draw_one(std::uint64_t seed, const std::string& key, std::uint64_t draw, const std::string& ops, const std::string& weights,
                                        double p_flip_h, double p_flip_v, bool with_replacement, double degrees) {
    const DrawModel m = draw_model(ops, weights, p_flip_h, p_flip_v, degrees);
    const double angle = m.degrees > 0 ? augment::draw_angle(m.degrees, seed, key, draw) : 0.0;
    if (with_replacement) return {augment::draw_element(m.model, seed, key, draw), angle};
    const unsigned distinct = augment::distinct_elements(m.model);
    if (draw >= distinct) {
        throw Error(ErrorCode::usage, "draw " + std::to_string(draw) + ": an input's draws are distinct elements, and ops, weights and p_flip_h/_v give " +
                                          std::to_string(distinct) + " (draws 0 to " + std::to_string(distinct - 1) +
                                          "; pass with_replacement=True to draw each on its own)");
    }
    return {augment::draw_elements(m.model, seed, key, static_cast<unsigned>(draw) + 1, false).back(), angle};
}

// augment's outputs for one input, by the planner's own plan_jobs (src/augment/output_plan.cpp): each output's
// element, its path below OUTDIR (--name's fields filled, the format's extension), its draw (-1 without
// --random) and its --degrees angle (0 without), so that gpurotate.ray names and draws a row as augment names and draws the file. random: --random's
// N, 0 for every element of `ops`; format: --format, empty for "same"; name_template: --name, empty for
// augment's default. One input a call: a sample's refusal is its own, and --name's {index} means nothing here.
std::vector<std::tuple<Orientation, std::string, int, double>> augment_outputs(const std::string& path, const std::string& relative,
                                                                              const std::string& ops, const std::string& weights, double p_flip_h,
                                                                              double p_flip_v, bool with_replacement, std::uint64_t random,
                                                                              std::uint64_t seed, const std::string& format,
                                                                              const std::string& name_template, double degrees) {
    augment::AugmentOptions options;
    options.operations = augment::parse_operation_list(ops);
    if (random > 0) {
        check_random_count(random);
        const DrawModel m = draw_model(ops, weights, p_flip_h, p_flip_v, degrees);
        options.random.degrees = m.degrees;
        options.random.draws = static_cast<unsigned>(random);
        options.random.seed = seed;
        options.random.weights = weights.empty() ? std::vector<double>{} : augment::parse_weights(weights, options.operations);
        options.random.p_flip_h = m.model.p_flip_h;
        options.random.p_flip_v = m.model.p_flip_v;
        options.random.with_replacement = with_replacement;
    }
    if (!format.empty()) options.format = format;
    if (!name_template.empty()) {
        options.name_template = name_template;
    } else if (random > 1) {
        options.name_template = "{stem}_{draw}_{op}.{ext}";  // augment's default with --random N over 1 (cli/options.cpp)
    }
    if (random == 0 && degrees != 0) {  // augment's own refusal (cli/options.cpp)
        throw Error(ErrorCode::usage, "--degrees " + shortest_text(degrees) + " draws an angle for each --random draw: it needs --random");
    }
    options.output_dir = ".";
    std::vector<std::tuple<Orientation, std::string, int, double>> out;
    const std::vector<augment::Job> jobs = augment::plan_jobs({{path, relative}}, options);
    for (const augment::PlannedOutput& o : jobs.at(0).outputs) {
        out.emplace_back(o.operation, o.relative, o.draw ? static_cast<int>(o.draw->index) : -1, o.angle);
    }
    return out;
}

// Encoded bytes in and out (convert/encoded_conversion.hpp: the CLI's planner and run, the output kept in
// memory). The options as the CLI's flags set them; the GIL released while the images are converted.
convert::ConversionOptions encoded_options(const std::string& jpeg_edge, int quality, bool strip, const std::string& background) {
    convert::ConversionOptions options;
    static const std::pair<const char*, detail::JpegEdge> edges[] = {
        {"reencode", detail::JpegEdge::reencode}, {"trim", detail::JpegEdge::trim}, {"keep", detail::JpegEdge::keep}, {"error", detail::JpegEdge::error}};
    const auto edge = std::find_if(std::begin(edges), std::end(edges), [&](const auto& e) { return jpeg_edge == e.first; });
    if (edge == std::end(edges)) throw Error(ErrorCode::usage, "jpeg_edge '" + jpeg_edge + "': reencode, trim, keep or error");
    options.jpeg_edge = edge->second;
    options.jpeg_edge_given = true;
    if (quality != 0) {
        if (quality < 1 || quality > 100) throw Error(ErrorCode::usage, "quality " + std::to_string(quality) + ": 1 to 100");
        options.quality = quality;
        options.quality_given = true;
    }
    options.strip = strip;
    if (!background.empty()) convert::parse_background(background);  // refused now, as the CLI refuses --background
    options.background = background;
    return options;
}

std::vector<std::uint8_t> bytes_of(const nb::bytes& data) {
    const auto* begin = static_cast<const std::uint8_t*>(data.data());
    return std::vector<std::uint8_t>(begin, begin + data.size());
}

// A GPU's resources for encoded conversions, opened once and kept (gpurotate.Session): CUDA's start-up, a stream
// with its buffers, and a JPEG scan coder, as one augment worker holds them. One conversion at a time.
class EncodedSession {
public:
    EncodedSession(int device, std::size_t gpu_memory)
        : device_(device),
          resources_(convert::dataset_gpu_policy(convert::ConversionOptions{}, {device}, 1, gpu_memory, true, false), observer_) {
        GilReleased released;
        resources_.ready();  // throws the start-up's Error (device): no GPU, no such GPU, no CUDA in this build
    }
    int device() const { return device_; }
    convert::GpuResources& resources() { return resources_; }
    std::mutex& mutex() { return mutex_; }

private:
    // The start-up's notices: a session that starts says nothing, one that fails throws.
    class Quiet final : public convert::ConversionObserver {
    public:
        void notice(const std::string&, convert::Notice, const std::string&) override {}
        void written(std::size_t, const convert::OutputReport&) override {}
        void output_failed(std::size_t, const convert::OutputReport&, const Error& error) override { throw error; }
        void input_failed(const Error& error, convert::Step) override { throw error; }
    };
    int device_;
    Quiet observer_;
    convert::GpuResources resources_;
    std::mutex mutex_;
};

// Each image of `inputs` converted in turn (the first failure raised): its bytes and its warnings; on the
// session's GPU where one is given.
// The angle after the element as the CLI's `--OPS... --rotate DEG [--interpolate I] [--keep-size] [--background C]`.
std::vector<std::pair<nb::bytes, std::vector<std::string>>> transform_encoded_list(const std::vector<nb::bytes>& inputs, int element_code,
                                                                                   const std::string& format, const std::string& jpeg_edge,
                                                                                   int quality, bool strip, EncodedSession* session, double degrees,
                                                                                   const std::string& interpolation, bool keep_size,
                                                                                   const std::string& background) {
    if (element_code < 0 || element_code > 7) throw nb::value_error(("element code " + std::to_string(element_code) + " is not one of 0-7").c_str());
    auto element = static_cast<Orientation>(element_code);
    convert::ConversionOptions options = encoded_options(jpeg_edge, quality, strip, background);
    const auto how = gpurotate::parse_interpolation(interpolation);
    if (!how) throw Error(ErrorCode::usage, "interpolation '" + interpolation + "': nearest, bilinear or bicubic");
    convert::rotate_after(element, options, degrees, *how, keep_size, "angle");
    if (options.rotation && options.jpeg_edge == detail::JpegEdge::error) {
        throw Error(ErrorCode::usage, "angle " + shortest_text(degrees) +
                                          " gives a JPEG new pixels, which jpeg_edge=\"error\" refuses (leave it out, or turn by a multiple of 90)");
    }
    std::vector<std::vector<std::uint8_t>> copies;
    copies.reserve(inputs.size());
    for (const nb::bytes& data : inputs) copies.push_back(bytes_of(data));
    std::vector<convert::EncodedResult> results;
    {
        GilReleased released;
        std::unique_lock<std::mutex> lock;
        if (session) lock = std::unique_lock<std::mutex>(session->mutex());
        for (std::size_t i = 0; i < copies.size(); ++i) {
            const std::string name = copies.size() == 1 ? "bytes" : "bytes[" + std::to_string(i) + "]";
            results.push_back(session ? convert::convert_encoded(std::move(copies[i]), name, element, format, options, Backend::cuda, &session->resources())
                                      : convert::convert_encoded(std::move(copies[i]), name, element, format, options));
        }
    }
    std::vector<std::pair<nb::bytes, std::vector<std::string>>> out;
    for (convert::EncodedResult& r : results) out.emplace_back(nb::bytes(r.bytes.data(), r.bytes.size()), std::move(r.warnings));
    return out;
}

struct ErrorClasses {
    PyObject* error = nullptr;
    PyObject* usage = nullptr;
    PyObject* device = nullptr;
};

ErrorClasses& error_classes() {
    static ErrorClasses classes;  // owned by the module for the life of the process
    return classes;
}

void register_errors(nb::module_& m) {
    ErrorClasses& c = error_classes();
    c.error = PyErr_NewExceptionWithDoc("gpurotate.Error", "A gpurotate library error; `code` is its category (the CLI's exit status).",
                                        PyExc_RuntimeError, nullptr);
    nb::object usage_bases = nb::make_tuple(nb::handle(c.error), nb::handle(PyExc_ValueError));
    c.usage = PyErr_NewExceptionWithDoc("gpurotate.UsageError", "An invalid argument, as the library judged it (code 2).",
                                        usage_bases.ptr(), nullptr);
    c.device = PyErr_NewExceptionWithDoc("gpurotate.DeviceError",
                                         "CUDA unavailable (or this build without it), or a CUDA call failed (code 5).", c.error, nullptr);
    if (!c.error || !c.usage || !c.device) throw nb::python_error();
    m.attr("Error") = nb::handle(c.error);
    m.attr("UsageError") = nb::handle(c.usage);
    m.attr("DeviceError") = nb::handle(c.device);
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const Error& e) {
            const ErrorClasses& classes = error_classes();
            PyObject* type = e.code() == ErrorCode::usage ? classes.usage : e.code() == ErrorCode::device ? classes.device : classes.error;
            nb::object exception = nb::handle(type)(e.what());
            exception.attr("code") = static_cast<int>(e.code());
            PyErr_SetObject(type, exception.ptr());
        }
    });
}

}  // namespace
}  // namespace gpurotate::python

NB_MODULE(_gpurotate, m) {
    using namespace gpurotate;
    using namespace gpurotate::python;
    m.doc() = "gpurotate's C++ library: the D4 group and its transforms on CPU and CUDA arrays (use the gpurotate package).";
    m.attr("__version__") = version();
    register_errors(m);

    nb::enum_<Orientation>(m, "Orientation", nb::is_arithmetic(),
                           "The 8 elements of D4, as the C++ enum gpurotate::Orientation (same values, same order).\n\n"
                           "rot90 is CLOCKWISE (ImageMagick's -rotate 90), the opposite of numpy.rot90(k=1) and torch.rot90.")
        .value("identity", Orientation::identity, "no change")
        .value("rot90", Orientation::rot90, "90 degrees clockwise (numpy.rot90(x, k=-1))")
        .value("rot180", Orientation::rot180, "180 degrees")
        .value("rot270", Orientation::rot270, "90 degrees counter-clockwise (numpy.rot90(x, k=1))")
        .value("flip_h", Orientation::flip_h, "mirror left-right: the width axis reversed")
        .value("flip_v", Orientation::flip_v, "mirror top-bottom: the height axis reversed")
        .value("transpose", Orientation::transpose, "mirror across the main diagonal: out[y, x] = in[x, y]")
        .value("transverse", Orientation::transverse, "mirror across the anti-diagonal");

    m.def("then", &then, nb::arg("first"), nb::arg("second"), "The single element equal to applying `first`, then `second`.");
    m.def("inverse", &inverse, nb::arg("element"), "The element that undoes `element`.");
    m.def("swaps_axes", &swaps_axes, nb::arg("element"), "Whether `element` exchanges height and width.");
    m.def(
        "name", [](Orientation o) { return std::string(name(o)); }, nb::arg("element"),
        "The CLI name of `element`: identity, rot90, rot180, rot270, flip-h, flip-v, transpose, transverse.");
    m.def(
        "parse",
        [](const std::string& text) {
            if (const auto o = parse_orientation(text)) return *o;
            throw nb::value_error(("unknown operation '" + text +
                                   "': identity, rot90, rot180, rot270, flip-h, flip-v, transpose or transverse")
                                      .c_str());
        },
        nb::arg("name"), "The element with this CLI name (flip-h, ...); ValueError for any other text.");
    m.def("built_with_cuda", &cuda_compiled_in, "Whether this build has the CUDA backend.");
    m.def("cuda_available", &cuda_available, "Whether this build has the CUDA backend and a usable GPU is present.");

    m.def(
        "output_shape",
        [](const std::vector<std::int64_t>& shape, const std::string& layout, const std::vector<std::int64_t>& codes) {
            return output_shape(shape, parse_layout(layout), elements_of(codes));
        },
        nb::arg("shape"), nb::arg("layout"), nb::arg("elements"),
        "The shape of the result for an input of `shape` in `layout` (hw, hwc, chw, nchw, nhwc): one element code\n"
        "(0-7, Orientation's values) for all, or one per sample of a batch layout. Raises ValueError where the shape does not fit the layout\n"
        "or per-sample elements would give non-square samples different shapes.");
    m.def("transform", &transform_arrays, nb::arg("src").noconvert(), nb::arg("dst").noconvert(), nb::arg("elements"),
          nb::arg("layout"), nb::arg("stream") = 0,
          "Writes `elements` (codes 0-7) applied to `src` into `dst` (arrays of one dtype of 1, 2, 4, 8 or 16-byte items,\n"
          "moved as they are, on one device; `dst` of output_shape's shape, not overlapping `src`; both images with a\n"
          "row pitch: C-contiguous, a crop of one, or see check_array). One element for all,\n"
          "or one per sample of a batch. CPU arrays: the CPU backend, returning when done. CUDA arrays: one\n"
          "launch per 65535 images (the grouped launch for per-sample elements) on `stream` (a cudaStream_t as\n"
          "an int) on the current device, returning without synchronising.");
    m.def("check_array", &check_array, nb::arg("array").noconvert(), nb::arg("layout"),
          "Raises the ValueError or TypeError that `transform` would for `array` (its dtype, channel count and\n"
          "strides) in `layout`; returns None where `transform` takes it as it is, without a copy.");
    m.def(
        "rotated_shape",
        [](const std::vector<std::int64_t>& shape, const std::string& layout, const std::vector<double>& degrees, bool keep_size) {
            return rotated_shape(shape, parse_layout(layout), degrees, keep_size);
        },
        nb::arg("shape"), nb::arg("layout"), nb::arg("degrees"), nb::arg("keep_size"),
        "The shape of `rotate`'s result for an input of `shape` in `layout`: one angle (degrees clockwise) for all,\n"
        "or one per sample of a batch layout. The input's size with keep_size, else the library's rotated_extent:\n"
        "W' = ceil(W|cos| + H|sin| - 1e-6), H' = ceil(W|sin| + H|cos| - 1e-6). Raises ValueError where per-sample\n"
        "angles give different sizes, gpurotate.UsageError for an angle that is not finite.");
    m.def("rotate", &rotate_arrays, nb::arg("src").noconvert(), nb::arg("dst").noconvert(), nb::arg("degrees"), nb::arg("layout"),
          nb::arg("interpolation"), nb::arg("keep_size"), nb::arg("fill"), nb::arg("stream") = 0,
          "Writes `src` rotated by `degrees` (clockwise; one angle for all, or one per sample of a batch layout) into\n"
          "`dst` (of rotated_shape's shape, the same dtype: uint8, uint16 or float32, on the same device, not\n"
          "overlapping; strides as transform takes them): OpenCV 4.6's warpAffine about ((W-1)/2, (H-1)/2), bit for bit\n"
          "on the CPU and the GPU alike. interpolation: nearest, bilinear or bicubic. fill: the uncovered pixels, one\n"
          "value for all channels or one per channel (interleaved channels, or the planes of chw and nchw). One call\n"
          "per image or plane: CPU arrays on the CPU backend, returning when done; CUDA arrays on `stream` (a\n"
          "cudaStream_t as an int) on the current device, returning without synchronising. An input without pixels\n"
          "leaves `dst` as it is.");
    m.def("transform_in_place", &transform_in_place, nb::arg("array").noconvert(), nb::arg("element"), nb::arg("layout"),
          nb::arg("stream") = 0,
          "Applies an involution (not rot90 or rot270) to a CUDA array in place, one launch per image or plane\n"
          "on `stream`; square images only for transpose and transverse.");
    m.def("draws", &draw_list, nb::arg("seed"), nb::arg("key"), nb::arg("count"), nb::arg("ops"), nb::arg("weights"), nb::arg("p_flip_h"),
          nb::arg("p_flip_v"), nb::arg("with_replacement"), nb::arg("degrees"),
          "augment --random COUNT's draws of the input at `key` (its path relative to the folder given) under `seed`:\n"
          "(element, angle) for draws 0 to COUNT-1, angle 0 where degrees is 0. ops and weights: augment's --ops and\n"
          "--weights text (weights empty: all 1); the rest as augment's options. Raises gpurotate.UsageError with\n"
          "augment's message for what augment refuses.");
    m.def("draw", &draw_one, nb::arg("seed"), nb::arg("key"), nb::arg("draw"), nb::arg("ops"), nb::arg("weights"), nb::arg("p_flip_h"),
          nb::arg("p_flip_v"), nb::arg("with_replacement"), nb::arg("degrees"),
          "Draw `draw` alone of `draws`: (element, angle), the same as draws(..., COUNT)[draw] for any COUNT above draw.");
    m.def("augment_outputs", &augment_outputs, nb::arg("path"), nb::arg("relative"), nb::arg("ops"), nb::arg("weights"), nb::arg("p_flip_h"),
          nb::arg("p_flip_v"), nb::arg("with_replacement"), nb::arg("random"), nb::arg("seed"), nb::arg("format"), nb::arg("name_template"),
          nb::arg("degrees") = 0.0,
          "augment's outputs for the input at `path` (`relative` below the folder given): (element, path below OUTDIR, draw,\n"
          "angle) for each, draw -1 without --random, angle 0 without --degrees. ops, weights: augment's --ops and --weights\n"
          "text; random: --random's N, 0 for every element of ops; format: --format, empty for same; name_template: --name,\n"
          "empty for augment's default; degrees: --degrees MAX (0: none).\n"
          "Raises gpurotate.UsageError with augment's message for what augment refuses.");
    m.def("augment_reads", [](const std::string& path) { return detail::is_read_path(path); }, nb::arg("path"),
          "Whether augment reads a file named `path` (its extension, any case, names a format this program reads).");
    nb::class_<EncodedSession>(m, "EncodedSession",
                               "A GPU's resources for transform_encoded, opened once: CUDA's start-up, a stream and its buffers,\n"
                               "a JPEG scan coder. Raises gpurotate.DeviceError where the GPU does not start.")
        .def(nb::init<int, std::size_t>(), nb::arg("device"), nb::arg("gpu_memory"))
        .def_prop_ro("device", &EncodedSession::device);
    m.def("transform_encoded", &transform_encoded_list, nb::arg("inputs"), nb::arg("element"), nb::arg("format"), nb::arg("jpeg_edge"),
          nb::arg("quality"), nb::arg("strip"), nb::arg("session").none() = nb::none(), nb::arg("degrees") = 0.0,
          nb::arg("interpolation") = "bilinear", nb::arg("keep_size") = false, nb::arg("background") = "",
          "Each encoded image of `inputs` (bytes) turned by `element` (a code 0-7) as `gpurotate IN --OP -o OUT` writes it:\n"
          "(the output's bytes, its warnings). format: an extension (png, jpg, ...), empty for the input's own; jpeg_edge:\n"
          "reencode, trim, keep or error; quality: 1-100, 0 for none (a JPEG then stays lossless); strip: --strip.\n"
          "The GIL is released while they are converted, one after another; the first failure raises gpurotate.Error\n"
          "with the CLI's message, its `code` the CLI's exit status. session: an EncodedSession to convert on its GPU,\n"
          "or None for the CPU. degrees, interpolation, keep_size, background: --rotate DEG after the element,\n"
          "--interpolate, --keep-size, --background (empty: none).");
}
