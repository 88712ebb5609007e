#pragma once
// The kinds of thing a conversion tells its user: the planner's warnings, the run's fallbacks and notes. One
// set, so that augment says each kind once per run from one table instead of a flag per message, and the
// single-image command says each per file (conversion_observer.hpp).

namespace gpurotate::convert {

enum class Notice {
    // Warnings the planner gives before the work (conversion_plan.hpp's PlanWarning::Kind).
    animation,                 ///< only the first frame is written
    orientation_kept,          ///< the EXIF orientation stays in an output whose pixels were turned
    orientation_not_holdable,  ///< the output format cannot hold the input's EXIF orientation
    option_unused,             ///< an option that does nothing for this output (--quality for a PNG)
    trailing_bytes,            ///< bytes after the image's end (a trailer), which no output carries
    thumbnail_left_out,        ///< the EXIF thumbnail could not be turned with the image, and is not written
    // What the run finds, about one file.
    decoder_losses,            ///< warning: what the decoder leaves behind ("not kept: pages 2-3")
    reencoded,                 ///< note: a JPEG from a JPEG got new pixels; the text is why
    edge_kept,                 ///< note: --jpeg-edge keep left partial edge blocks unturned
    edge_trimmed,              ///< note: --jpeg-edge trim dropped partial edge blocks
    png_output,                ///< note: what a PNG output leaves out (interlacing, unsafe chunks)
    unwritten,                 ///< note: metadata the output's format cannot carry
    left_as_is,                ///< -i with nothing to do: the file was not touched
    // About the run's GPU; the text is the whole sentence (no file is named before it).
    gpu_unusable,              ///< the GPU did not start; the CPU does the work (--device auto)
    gpu_failed_image,          ///< the GPU failed on one image; the CPU redid it (--device auto)
    nvjpeg_unusable,           ///< nvJPEG did not open; JPEGs take the CPU codecs
    fewer_coders,              ///< fewer nvJPEG coders than planned
    scan_coders_unusable,      ///< no JPEG scan coder on the GPU; libjpeg codes the lossless variants
    scan_coding_failed,        ///< a GPU scan coder failed; libjpeg coded that file's scans
    rotation_on_cpu,           ///< a dataset's rotations by an angle are made on the CPU (--devices, --gpu-memory)
};

/// Whether `kind` is a warning (said with --quiet) rather than a note.
constexpr bool is_warning(Notice kind) {
    return kind <= Notice::decoder_losses || kind == Notice::gpu_unusable || kind == Notice::gpu_failed_image || kind == Notice::nvjpeg_unusable ||
           kind == Notice::fewer_coders || kind == Notice::scan_coders_unusable || kind == Notice::scan_coding_failed ||
           kind == Notice::rotation_on_cpu;
}

/// Whether `kind` is one of the planner's warnings, whose text follows the quoted file name after a space
/// ("'a.gif' is an animation ..."); the others about one file follow it after a colon.
constexpr bool is_plan_warning(Notice kind) { return kind <= Notice::thumbnail_left_out; }

/// Whether `kind` is about the run's GPU, said in a sentence of its own.
constexpr bool is_about_gpu(Notice kind) { return kind >= Notice::gpu_unusable; }

}  // namespace gpurotate::convert
