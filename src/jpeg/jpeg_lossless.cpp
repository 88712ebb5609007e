// The lossless transform through libjpeg's transcoding API: jpeg_read_coefficients decodes the
// entropy-coded data once, our block transform (dct_blocks.hpp) moves the coefficients, and
// jpeg_write_coefficients entropy-codes each variant. TurboJPEG's tjTransform does the same through
// jpegtran's transupp, whose block-column walk over the source took a third of a 12 MP rot90; the tiled
// walk here and one scratch array per output shape (not one per variant) are why this path is libjpeg's.

#include "jpeg/jpeg_lossless.hpp"

#include "jpeg/dct_blocks.hpp"
#include "core/decode_limits.hpp"
#include "core/parallel_for.hpp"
#include "core/stage_account.hpp"
#include "jpeg/jpeg_scan_coder.hpp"
#include "jpeg/libjpeg_huge_pages.hpp"
#include "jpeg/jpeg_work_limits.hpp"
#include "jpeg/jpeg_signature.hpp"
#include "metadata/metadata.hpp"
#include "jpeg/turbojpeg_codec.hpp"
#include "metadata/xmp_geometry.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE and size_t without including their headers
#include <cstring>
#include <limits>
#include <optional>

#include <jpeglib.h>
#include <jerror.h>   // after jpeglib.h, which they need

#ifndef GPUROTATE_HAVE_JPEGINT
#define GPUROTATE_HAVE_JPEGINT 0
#endif
#if GPUROTATE_HAVE_JPEGINT
#include <jpegint.h>  // the entropy encoder and coefficient controller a scan coded elsewhere replaces
#endif

static_assert(sizeof(JCOEF) == sizeof(std::int16_t) && DCTSIZE2 == 64, "libjpeg's blocks are 8x8 16-bit coefficients");

namespace gpurotate::detail {
namespace {

// The smallest image (4 MP) whose scans the CPU coder codes in segments, where no GPU coder is given: a
// --rot90 on two cores took as long as libjpeg's at 1, 2 and 4 MP (7, 14, 20, 33 ms) and 8% less at 12 MP
// 4:4:4 (2-core VM, bench/RESULTS.md 2026-12-06).
constexpr std::uint64_t segment_coded_pixels = std::uint64_t{1} << 22;

// libjpeg reports a fatal error by calling error_exit, which must not return: it jumps back to the
// setjmp of the call that started the work (every libjpeg call below sits in a function whose only
// objects are trivially destructible, as longjmp requires). The warnings that mean missing or wrong
// blocks (a file cut short, whose missing blocks libjpeg fills with grey; a bad code) are fatal too: a
// damaged file is refused, not transformed half-empty, where jpegtran only warns. Bytes skipped before a
// marker and unusual JFIF or Adobe fields leave every block intact and stay quiet here, although the decode
// path (TJFLAG_STOPONWARNING, which cannot tell warnings apart) refuses them: such a file is transformed
// losslessly where its edges allow and refused where it would be re-encoded.
struct JpegErrors {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jump_on_error(j_common_ptr info) {
    auto* errors = reinterpret_cast<JpegErrors*>(info->err);
    info->err->format_message(info, errors->message);
    std::longjmp(errors->jump, 1);
}

// Level -1 is a warning; levels 0 and up are trace messages, which stay quiet.
void jump_on_damage(j_common_ptr info, int level) {
    if (level >= 0) return;
    switch (info->err->msg_code) {
        case JWRN_JPEG_EOF: case JWRN_HIT_MARKER: case JWRN_HUFF_BAD_CODE: case JWRN_ARITH_BAD_CODE:
        case JWRN_MUST_RESYNC: case JWRN_BOGUS_PROGRESSION: case JWRN_NOT_SEQUENTIAL:
            jump_on_error(info);
        default: return;
    }
}

void install(JpegErrors& errors) {
    jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jump_on_error;
    errors.manager.emit_message = jump_on_damage;
    errors.message[0] = '\0';
}

// A libjpeg object with its error manager, destroyed once created.
template <class Info, void (*Destroy)(Info*)>
struct LibjpegObject {
    Info info{};
    JpegErrors errors{};
    bool created = false;
    LibjpegObject() { install(errors); }
    LibjpegObject(const LibjpegObject&) = delete;
    LibjpegObject& operator=(const LibjpegObject&) = delete;
    ~LibjpegObject() {
        if (created) Destroy(&info);
    }
};
using Reader = LibjpegObject<jpeg_decompress_struct, jpeg_destroy_decompress>;
using Writer = LibjpegObject<jpeg_compress_struct, jpeg_destroy_compress>;

// The output grows in a std::vector (libjpeg's jpeg_mem_dest would realloc a malloc buffer of its own).
struct VectorDestination {
    jpeg_destination_mgr manager;
    std::vector<std::uint8_t>* bytes;
};

void start_destination(j_compress_ptr info) {
    auto* destination = reinterpret_cast<VectorDestination*>(info->dest);
    destination->manager.next_output_byte = destination->bytes->data();
    destination->manager.free_in_buffer = destination->bytes->size();
}

boolean grow_destination(j_compress_ptr info) {
    auto* destination = reinterpret_cast<VectorDestination*>(info->dest);
    std::vector<std::uint8_t>& bytes = *destination->bytes;
    const std::size_t used = bytes.size();
    bool grown = true;
    try {
        bytes.resize(used * 2);
    } catch (...) {
        grown = false;
    }
    if (!grown) ERREXIT(info, JERR_OUT_OF_MEMORY);  // outside the catch: a jump must not leave one
    destination->manager.next_output_byte = bytes.data() + used;
    destination->manager.free_in_buffer = bytes.size() - used;
    return TRUE;
}

void finish_destination(j_compress_ptr info) {
    auto* destination = reinterpret_cast<VectorDestination*>(info->dest);
    destination->bytes->resize(destination->bytes->size() - destination->manager.free_in_buffer);
}

// A component's block arrays: the source's, or a scratch output of one shape, reused by each variant of
// that shape. Virtual arrays must be requested before jpeg_read_coefficients realizes them all at once.
struct ComponentArrays {
    jvirt_barray_ptr arrays[MAX_COMPONENTS] = {};
    std::vector<JBLOCKROW> rows[MAX_COMPONENTS];
};

// How one variant is written: its element, the source region it reads (whole MCUs along the mirrored
// sides where trimmed) and the output's size.
struct Plan {
    std::size_t variant = 0;
    AxisMap map{};
    JDIMENSION region_width = 0, region_height = 0;
    /// The part of each source side that is mirrored (whole MCUs): the region's side, except where
    /// JpegEdge::keep leaves a partial edge in place.
    JDIMENSION mirrored_width = 0, mirrored_height = 0;
};

JDIMENSION round_up(JDIMENSION value, int multiple) {
    const auto m = static_cast<JDIMENSION>(multiple);
    return (value + m - 1) / m * m;
}

// A component's block array: a whole number of its MCU's blocks each way, as jpeg_write_coefficients reads
// them; transposed where `swap` (a scratch output whose axes are the source's swapped).
struct BlockShape {
    JDIMENSION columns, rows;
};
BlockShape array_shape(const jpeg_component_info& component, bool swap) {
    const JDIMENSION columns = round_up(component.width_in_blocks, component.h_samp_factor);
    const JDIMENSION rows = round_up(component.height_in_blocks, component.v_samp_factor);
    return swap ? BlockShape{rows, columns} : BlockShape{columns, rows};
}

int mcu_width_of(const jpeg_decompress_struct& info) { return info.num_components == 1 ? DCTSIZE : info.max_h_samp_factor * DCTSIZE; }
int mcu_height_of(const jpeg_decompress_struct& info) { return info.num_components == 1 ? DCTSIZE : info.max_v_samp_factor * DCTSIZE; }

bool read_header(Reader& reader, ZeroedArrayAdvice& advice, const std::vector<std::uint8_t>& jpeg, bool keep_markers) {
    if (setjmp(reader.errors.jump)) return false;
    reader.info.err = &reader.errors.manager;
    jpeg_create_decompress(&reader.info);
    reader.created = true;
    ask_for_huge_pages_when_realized(reader.info, advice);
    jpeg_mem_src(&reader.info, jpeg.data(), static_cast<unsigned long>(jpeg.size()));
    if (keep_markers) {
        jpeg_save_markers(&reader.info, JPEG_COM, 0xffff);
        for (int n = 0; n < 16; ++n) jpeg_save_markers(&reader.info, JPEG_APP0 + n, 0xffff);
    }
    if (jpeg_read_header(&reader.info, TRUE) != JPEG_HEADER_OK) ERREXIT(&reader.info, JERR_NO_IMAGE);
    return true;
}

// Requests an output of the source's block layout, transposed where `swap`.
bool request_scratch(Reader& reader, bool swap, ComponentArrays& scratch) {
    if (setjmp(reader.errors.jump)) return false;
    for (int c = 0; c < reader.info.num_components; ++c) {
        const jpeg_component_info& component = reader.info.comp_info[c];
        const BlockShape shape = array_shape(component, swap);
        scratch.arrays[c] = reader.info.mem->request_virt_barray(reinterpret_cast<j_common_ptr>(&reader.info), JPOOL_IMAGE, FALSE, shape.columns,
                                                                 shape.rows,
                                                                 static_cast<JDIMENSION>(std::max(component.h_samp_factor, component.v_samp_factor)));
    }
    return true;
}

bool read_coefficients(Reader& reader, ComponentArrays& source) {
    if (setjmp(reader.errors.jump)) return false;
    jvirt_barray_ptr* arrays = jpeg_read_coefficients(&reader.info);
    for (int c = 0; c < reader.info.num_components; ++c) source.arrays[c] = arrays[c];
    return true;
}

// The rows of each array, one access at a time (in order, so that writable rows count as defined). Every
// array lives in memory (libjpeg-turbo's memory manager has no backing store), so the rows stay put.
bool map_rows(Reader& reader, ComponentArrays& arrays, bool swap, bool writable) {
    if (setjmp(reader.errors.jump)) return false;
    for (int c = 0; c < reader.info.num_components; ++c) {
        const JDIMENSION rows = array_shape(reader.info.comp_info[c], swap).rows;
        arrays.rows[c].resize(rows);
        for (JDIMENSION row = 0; row < rows; ++row) {
            arrays.rows[c][row] = reader.info.mem->access_virt_barray(reinterpret_cast<j_common_ptr>(&reader.info), arrays.arrays[c], row, 1,
                                                                      writable ? TRUE : FALSE)[0];
        }
    }
    return true;
}

// A scratch array is written first by our transform: asked for huge pages before (libjpeg_huge_pages.hpp).
void ask_for_huge_pages_for_rows(const std::vector<JBLOCKROW>& rows, JDIMENSION blocks_per_row) {
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (rows[i] != rows[i - 1] + blocks_per_row) return;  // not one allocation
    }
    if (!rows.empty()) ask_for_huge_pages(rows.front(), rows.back() + blocks_per_row);
}

bool is_app_marker(const jpeg_saved_marker_ptr marker, int app, const char* signature, unsigned length) {
    return marker->marker == JPEG_APP0 + app && marker->data_length >= length && std::memcmp(marker->data, signature, length) == 0;
}

// Whether `source` was written with Huffman tables other than the standard ones that `defaults` (an encoder
// after jpeg_set_defaults) holds: tables optimized for the image, as ImageMagick, Pillow and `cjpeg
// -optimize` write them.
bool has_own_huffman_tables(const jpeg_decompress_struct& source, const jpeg_compress_struct& defaults) {
    const auto same = [](const JHUFF_TBL* a, const JHUFF_TBL* b) {
        if (!a || !b) return a == b;
        int symbols = 0;
        for (int i = 1; i <= 16; ++i) symbols += a->bits[i];
        return std::equal(a->bits + 1, a->bits + 17, b->bits + 1) && std::equal(a->huffval, a->huffval + std::min(symbols, 256), b->huffval);
    };
    for (int i = 0; i < NUM_HUFF_TBLS; ++i) {
        if (source.dc_huff_tbl_ptrs[i] && !same(source.dc_huff_tbl_ptrs[i], defaults.dc_huff_tbl_ptrs[i])) return true;
        if (source.ac_huff_tbl_ptrs[i] && !same(source.ac_huff_tbl_ptrs[i], defaults.ac_huff_tbl_ptrs[i])) return true;
    }
    return false;
}

#if GPUROTATE_HAVE_JPEGINT
// A scan coded elsewhere (the GPU) written in libjpeg's place: after jpeg_write_coefficients, the
// coefficient controller and the entropy encoder are swapped for ones that code nothing, and the entropy
// encoder's last call writes the coded bytes, 0xFF stuffed with a 0x00 as the encoder would. libjpeg still
// writes every marker, the tables and the scan header. `entropy` comes first: libjpeg sees only it.
struct PrecodedScan {
    jpeg_entropy_encoder entropy;
    jpeg_c_coef_controller coefficients;
    const CodedScan* scan;
};

void start_entropy_pass(j_compress_ptr, boolean) {}
boolean encode_no_mcu(j_compress_ptr, JBLOCKROW*) { return TRUE; }
void start_coefficient_pass(j_compress_ptr, J_BUF_MODE) {}
boolean compress_no_data(j_compress_ptr, JSAMPIMAGE) { return TRUE; }

void put_bytes(j_compress_ptr info, const std::uint8_t* bytes, std::size_t size) {
    jpeg_destination_mgr& destination = *info->dest;
    while (size > 0) {
        if (destination.free_in_buffer == 0 && !destination.empty_output_buffer(info)) ERREXIT(info, JERR_CANT_SUSPEND);
        const std::size_t part = std::min(size, destination.free_in_buffer);
        std::memcpy(destination.next_output_byte, bytes, part);
        destination.next_output_byte += part;
        destination.free_in_buffer -= part;
        bytes += part;
        size -= part;
    }
}

void finish_precoded_pass(j_compress_ptr info) {
    const std::vector<std::uint8_t>& scan = reinterpret_cast<PrecodedScan*>(info->entropy)->scan->bytes;
    static const std::uint8_t stuffed_zero = 0;
    const std::uint8_t* at = scan.data();
    const std::uint8_t* const end = at + scan.size();
    while (at < end) {
        const auto* marker = static_cast<const std::uint8_t*>(std::memchr(at, 0xff, static_cast<std::size_t>(end - at)));
        const std::uint8_t* const stop = marker ? marker + 1 : end;
        put_bytes(info, at, static_cast<std::size_t>(stop - at));
        if (marker) put_bytes(info, &stuffed_zero, 1);
        at = stop;
    }
}

void write_precoded_scan(jpeg_compress_struct& info, PrecodedScan& precoded, const CodedScan& scan) {
    precoded.entropy.start_pass = start_entropy_pass;
    precoded.entropy.encode_mcu = encode_no_mcu;
    precoded.entropy.finish_pass = finish_precoded_pass;
    precoded.coefficients.start_pass = start_coefficient_pass;
    precoded.coefficients.compress_data = compress_no_data;
    precoded.scan = &scan;
    info.entropy = &precoded.entropy;
    info.coef = &precoded.coefficients;
}

#else
// Without libjpeg's internal header its encoder cannot be told to write coded bytes: it codes every scan.
struct PrecodedScan {};
void write_precoded_scan(jpeg_compress_struct&, PrecodedScan&, const CodedScan&) {}
#endif

// The tables a scan was coded with, in place of the encoder's standard ones (where the scan uses them).
void use_tables(jpeg_compress_struct& info, const CodedScan& scan) {
    for (int n = 0; n < NUM_HUFF_TBLS; ++n) {
        for (const bool dc : {true, false}) {
            const HuffmanSpec& spec = dc ? scan.dc[n] : scan.ac[n];
            if (spec.bits[0] == 0 && std::all_of(spec.bits + 1, spec.bits + 17, [](std::uint8_t b) { return b == 0; })) continue;
            JHUFF_TBL*& table = dc ? info.dc_huff_tbl_ptrs[n] : info.ac_huff_tbl_ptrs[n];
            if (!table) table = jpeg_alloc_huff_table(reinterpret_cast<j_common_ptr>(&info));
            std::copy(spec.bits, spec.bits + 17, table->bits);
            std::copy(spec.symbols, spec.symbols + 256, table->huffval);
            table->sent_table = FALSE;
        }
    }
}

// Whether libjpeg, set up by jpeg_write_coefficients, lays the scan out as `layout` says.
bool layout_is_libjpegs(const jpeg_compress_struct& info, const ScanLayout& layout) {
    if (info.num_components != layout.components || info.num_scans > 1 || info.progressive_mode || info.arith_code || info.optimize_coding ||
        info.restart_interval != 0 || info.restart_in_rows != 0) {
        return false;
    }
    for (int c = 0; c < info.num_components; ++c) {
        const jpeg_component_info& component = info.comp_info[c];
        const ScanComponent& planned = layout.component[c];
        if (component.width_in_blocks != planned.width_in_blocks || component.height_in_blocks != planned.height_in_blocks) return false;
        if (layout.components > 1 && (component.h_samp_factor != planned.h || component.v_samp_factor != planned.v)) return false;
        if (component.dc_tbl_no != planned.dc_table || component.ac_tbl_no != planned.ac_table) return false;
    }
    return true;
}

// Writes `plan`'s output from `arrays` (the source's for the identity, the scratch otherwise): the source's
// coding (quantization tables, sampling, progressive or arithmetic coding) transposed where the axes swap,
// then its markers, as jpegtran -copy all writes them.
// With `coded`, the scan is those bytes (`layout_differs` set, and nothing written, where libjpeg would lay
// the scan out otherwise than `layout`: never seen, but then libjpeg codes it).
bool write_variant(Reader& reader, Writer& writer, VectorDestination& destination, const Plan& plan, jvirt_barray_ptr* arrays, bool strip,
                   const ScanLayout* layout, const CodedScan* coded, bool& layout_differs) {
    PrecodedScan precoded{};
    if (setjmp(writer.errors.jump)) return false;
    writer.info.err = &writer.errors.manager;
    jpeg_create_compress(&writer.info);
    writer.created = true;
    destination.manager.init_destination = start_destination;
    destination.manager.empty_output_buffer = grow_destination;
    destination.manager.term_destination = finish_destination;
    writer.info.dest = &destination.manager;

    jpeg_copy_critical_parameters(&reader.info, &writer.info);
    writer.info.image_width = plan.map.swap_axes ? plan.region_height : plan.region_width;
    writer.info.image_height = plan.map.swap_axes ? plan.region_width : plan.region_height;
#if JPEG_LIB_VERSION >= 70
    // libjpeg 7 and later (libjpeg-turbo built for ABI 70 or 80, as Ubuntu's libjpeg-turbo8) size the frame
    // and every component's blocks from jpeg_width and jpeg_height, which jpeg_copy_critical_parameters set
    // to the source's sides and a transcoding encoder never computes again (jcmaster.c): left so, a rot90's
    // frame header says the source's sides and its scan is coded on the source's block grid.
    writer.info.jpeg_width = writer.info.image_width;
    writer.info.jpeg_height = writer.info.image_height;
#endif
    if (plan.map.swap_axes) {
        for (int c = 0; c < writer.info.num_components; ++c) std::swap(writer.info.comp_info[c].h_samp_factor, writer.info.comp_info[c].v_samp_factor);
        for (JQUANT_TBL* table : writer.info.quant_tbl_ptrs) {
            if (!table) continue;
            for (int row = 0; row < DCTSIZE; ++row) {
                for (int column = row + 1; column < DCTSIZE; ++column) std::swap(table->quantval[row * DCTSIZE + column], table->quantval[column * DCTSIZE + row]);
            }
        }
        std::swap(writer.info.X_density, writer.info.Y_density);  // non-square pixels turn with the image
    }
    if (reader.info.progressive_mode) jpeg_simple_progression(&writer.info);
    writer.info.arith_code = reader.info.arith_code;
    // A file whose Huffman tables were optimized gets optimized ones again (so four rot90 give its bytes
    // back, and the output is as small); jpegtran writes the standard ones unless told -optimize.
    if (coded && coded->own_tables) {
        use_tables(writer.info, *coded);  // made for this scan as optimize_coding makes them
    } else if (!reader.info.arith_code && has_own_huffman_tables(reader.info, writer.info)) {
        writer.info.optimize_coding = TRUE;
    }
    jpeg_write_coefficients(&writer.info, arrays);
    if (!strip) {
        for (jpeg_saved_marker_ptr marker = reader.info.marker_list; marker; marker = marker->next) {
            // The encoder writes its own JFIF and Adobe markers where it writes any.
            if (writer.info.write_JFIF_header && is_app_marker(marker, 0, "JFIF", 5)) continue;
            if (writer.info.write_Adobe_marker && is_app_marker(marker, 14, "Adobe", 5)) continue;
            jpeg_write_marker(&writer.info, marker->marker, marker->data, marker->data_length);
        }
    }
    if (coded) {
        if (!layout_is_libjpegs(writer.info, *layout)) {
            layout_differs = true;
            std::longjmp(writer.errors.jump, 1);
        }
        write_precoded_scan(writer.info, precoded, *coded);
    }
    jpeg_finish_compress(&writer.info);
    return true;
}

// A libjpeg table as a HuffmanSpec.
HuffmanSpec spec_of(const JHUFF_TBL& table) {
    HuffmanSpec spec;
    std::copy(table.bits, table.bits + 17, spec.bits);
    std::copy(table.huffval, table.huffval + 256, spec.symbols);
    return spec;
}

// An encoder set up as jpeg_write_coefficients would set it up for `info`'s coefficients.
bool copy_coding(jpeg_decompress_struct& info, Writer& writer) {
    if (setjmp(writer.errors.jump)) return false;
    writer.info.err = &writer.errors.manager;
    jpeg_create_compress(&writer.info);
    writer.created = true;
    jpeg_copy_critical_parameters(&info, &writer.info);
    return true;
}

// Whether the variants' scans may be coded by a JpegScanCoder: one baseline Huffman-coded scan (a
// progressive or arithmetic-coded output stays libjpeg's), and how: with the standard tables, or with
// tables made for each (where the input's were, as write_variant's libjpeg would make them).
bool scans_codable_elsewhere(Reader& reader, ScanCoding& coding, int (&table_numbers)[MAX_COMPONENTS][2]) {
    if (!GPUROTATE_HAVE_JPEGINT) return false;
    jpeg_decompress_struct& info = reader.info;
    if (info.progressive_mode || info.arith_code || info.data_precision != 8 || info.num_components < 1 ||
        info.num_components > MAX_COMPS_IN_SCAN) {
        return false;
    }
    int blocks_in_mcu = 0;
    for (int c = 0; c < info.num_components; ++c) blocks_in_mcu += info.comp_info[c].h_samp_factor * info.comp_info[c].v_samp_factor;
    if (info.num_components > 1 && blocks_in_mcu > C_MAX_BLOCKS_IN_MCU) return false;
    Writer defaults;
    if (!copy_coding(info, defaults)) return false;  // (it writes no restart markers: an input's are decoded away)
    coding.own_tables = has_own_huffman_tables(info, defaults.info);
    for (int c = 0; c < info.num_components; ++c) {
        const jpeg_component_info& component = defaults.info.comp_info[c];
        table_numbers[c][0] = component.dc_tbl_no;
        table_numbers[c][1] = component.ac_tbl_no;
        if (coding.own_tables) continue;
        const JHUFF_TBL* dc = defaults.info.dc_huff_tbl_ptrs[component.dc_tbl_no];
        const JHUFF_TBL* ac = defaults.info.ac_huff_tbl_ptrs[component.ac_tbl_no];
        if (!dc || !ac || !huffman_codes_of(spec_of(*dc), true, coding.tables.dc[component.dc_tbl_no]) ||
            !huffman_codes_of(spec_of(*ac), false, coding.tables.ac[component.ac_tbl_no])) {
            return false;
        }
    }
    return true;
}

// The scan libjpeg writes for `plan` (jcmaster.c's per_scan_setup on the output's sides and sampling), each
// block read from the coefficient store of `source`'s components, one after another.
ScanLayout scan_layout(const jpeg_decompress_struct& info, const Plan& plan, const SourceCoefficients& source,
                       const int (&table_numbers)[MAX_COMPONENTS][2]) {
    const bool swap = plan.map.swap_axes;
    const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
    const std::int64_t out_width = swap ? plan.region_height : plan.region_width, out_height = swap ? plan.region_width : plan.region_height;
    const int max_h = swap ? info.max_v_samp_factor : info.max_h_samp_factor, max_v = swap ? info.max_h_samp_factor : info.max_v_samp_factor;
    ScanLayout layout;
    layout.map = plan.map;
    layout.negated = negated_coefficients(plan.map);
    layout.components = info.num_components;
    std::int64_t first_block = 0;
    std::int32_t first_in_mcu = 0;
    for (int c = 0; c < info.num_components; ++c) {
        const jpeg_component_info& component = info.comp_info[c];
        ScanComponent& out = layout.component[c];
        out.first_block = first_block;
        out.stride = source.components[static_cast<std::size_t>(c)].columns;
        first_block += source.components[static_cast<std::size_t>(c)].columns * source.components[static_cast<std::size_t>(c)].row_count;
        out.region_width = ceil_div(std::int64_t{plan.region_width} * component.h_samp_factor, info.max_h_samp_factor * DCTSIZE);
        out.region_height = ceil_div(std::int64_t{plan.region_height} * component.v_samp_factor, info.max_v_samp_factor * DCTSIZE);
        const int h = swap ? component.v_samp_factor : component.h_samp_factor, v = swap ? component.h_samp_factor : component.v_samp_factor;
        out.width_in_blocks = ceil_div(out_width * h, max_h * DCTSIZE);
        out.height_in_blocks = ceil_div(out_height * v, max_v * DCTSIZE);
        out.h = info.num_components == 1 ? 1 : h;  // a scan of one component has MCUs of one block
        out.v = info.num_components == 1 ? 1 : v;
        out.first_in_mcu = first_in_mcu;
        first_in_mcu += out.h * out.v;
        out.dc_table = table_numbers[c][0];
        out.ac_table = table_numbers[c][1];
    }
    layout.blocks_in_mcu = first_in_mcu;
    if (info.num_components == 1) {
        layout.mcus_per_row = layout.component[0].width_in_blocks;
        layout.mcu_rows = layout.component[0].height_in_blocks;
    } else {
        layout.mcus_per_row = ceil_div(out_width, max_h * DCTSIZE);
        layout.mcu_rows = ceil_div(out_height, max_v * DCTSIZE);
    }
    return layout;
}

}  // namespace

std::string libjpeg_description() {
#ifdef LIBJPEG_TURBO_VERSION
#define GPUROTATE_STRING(x) #x
#define GPUROTATE_EXPAND(x) GPUROTATE_STRING(x)
    return "libjpeg-turbo " GPUROTATE_EXPAND(LIBJPEG_TURBO_VERSION) " (libjpeg ABI " + std::to_string(JPEG_LIB_VERSION) + ")";
#undef GPUROTATE_EXPAND
#undef GPUROTATE_STRING
#else
    return "libjpeg (ABI " + std::to_string(JPEG_LIB_VERSION) + ")";
#endif
}

bool jpeg_transform_is_perfect(Orientation element, std::int64_t width, std::int64_t height, int mcu_width, int mcu_height) {
    const bool whole_columns = width % mcu_width == 0, whole_rows = height % mcu_height == 0;
    switch (element) {
        case Orientation::identity:
        case Orientation::transpose: return true;
        case Orientation::flip_h:
        case Orientation::rot270: return whole_columns;
        case Orientation::flip_v:
        case Orientation::rot90: return whole_rows;
        case Orientation::rot180:
        case Orientation::transverse: return whole_columns && whole_rows;
    }
    return false;
}

std::vector<std::optional<std::vector<std::uint8_t>>> transform_jpeg_lossless_variants(const std::vector<std::uint8_t>& jpeg, const std::string& path,
                                                                                       const std::vector<LosslessJpegVariant>& variants, JpegEdge edge,
                                                                                       bool strip, const ReadOptions& options,
                                                                                       std::vector<LosslessJpegReport>& reports, JpegScanCoder* coder,
                                                                                       unsigned cpu_threads) {
    std::vector<std::optional<std::vector<std::uint8_t>>> results;
    reports.assign(variants.size(), LosslessJpegReport{});
    if (!is_jpeg(jpeg)) return results;
    if (jpeg.size() > std::numeric_limits<unsigned long>::max()) throw Error(ErrorCode::input, "cannot read '" + path + "': file too large");
    // Until the coefficients are in memory (the scopes sit outside the functions that setjmp: a longjmp
    // skips no destructor of theirs).
    std::optional<StageScope> decoding(std::in_place, WorkStage::entropy_decode);
    check_jpeg_work(jpeg, path, options.max_jpeg_scans);
    ZeroedArrayAdvice advice;  // before the reader, which uses it until destroyed
    Reader reader;
    const auto damaged = [&] { return Error(ErrorCode::input, "cannot transform '" + path + "': corrupt JPEG: " + reader.errors.message); };
    if (!read_header(reader, advice, jpeg, !strip)) throw damaged();
    const jpeg_decompress_struct& info = reader.info;
    check_declared_size(path, info.image_width, info.image_height, options);
    const int mcu_width = mcu_width_of(info), mcu_height = mcu_height_of(info);

    // The variants this call writes: the perfect ones, and with trim the others too (the mirrored sides cut
    // to whole MCUs, as jpegtran -trim; an image under one MCU across has nothing to keep and is re-encoded).
    std::vector<Plan> plans;
    bool needs_scratch[2] = {false, false};  // [swap]
    for (std::size_t i = 0; i < variants.size(); ++i) {
        LosslessJpegReport& report = reports[i];
        report = LosslessJpegReport{info.image_width, info.image_height, info.image_width, info.image_height, mcu_width, mcu_height};
        report.perfect = jpeg_transform_is_perfect(variants[i].element, info.image_width, info.image_height, mcu_width, mcu_height);
        const bool keep = !report.perfect && edge == JpegEdge::keep;
        if (!report.perfect && edge != JpegEdge::trim && !keep) continue;
        Plan plan{i, axis_map(variants[i].element), info.image_width, info.image_height, info.image_width, info.image_height};
        if (plan.map.mirror_x) plan.mirrored_width -= plan.mirrored_width % static_cast<JDIMENSION>(mcu_width);
        if (plan.map.mirror_y) plan.mirrored_height -= plan.mirrored_height % static_cast<JDIMENSION>(mcu_height);
        if (!keep) {
            plan.region_width = plan.mirrored_width;
            plan.region_height = plan.mirrored_height;
            if (plan.region_width == 0 || plan.region_height == 0) continue;
        }
        report.trimmed = !report.perfect && !keep;
        report.edge_kept = keep;
        report.out_width = plan.map.swap_axes ? plan.region_height : plan.region_width;
        report.out_height = plan.map.swap_axes ? plan.region_width : plan.region_height;
        if (variants[i].element != Orientation::identity) needs_scratch[plan.map.swap_axes] = true;
        plans.push_back(plan);
    }
    results.resize(variants.size());
    if (plans.empty()) return results;

    ComponentArrays source, scratch[2];
    for (const bool swap : {false, true}) {
        if (needs_scratch[swap] && !request_scratch(reader, swap, scratch[swap])) throw damaged();
    }
    if (!read_coefficients(reader, source) || !map_rows(reader, source, false, false)) throw damaged();
    // Decided once the coefficients are read, as write_variant decides: reading adds the standard tables a
    // file left out (motion-JPEG frames), which may make its tables its own.
    ScanCoding coding;
    int table_numbers[MAX_COMPONENTS][2] = {};
    // Without a GPU coder, a large image's scans are coded in segments on the cores (segment_coded_pixels).
    std::unique_ptr<JpegScanCoder> cpu_coder;
    if (!coder && cpu_threads != 1 && (cpu_threads > 1 || usable_cores() > 1) &&
        std::uint64_t{info.image_width} * info.image_height >= segment_coded_pixels) {
        cpu_coder = open_cpu_jpeg_scan_coder(cpu_threads);
        coder = cpu_coder.get();
    }
    const bool coded_elsewhere = coder && scans_codable_elsewhere(reader, coding, table_numbers);
    decoding.reset();

    // Every variant's scan coded at once by `coder`, where it takes this file; what it cannot code (or all,
    // where it fails) libjpeg codes below. A variant whose edge stays in place (JpegEdge::keep) is libjpeg's
    // to code: the coders' layouts mirror whole sides. layout_of[p]: plan p's layout, or none.
    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    std::vector<ScanLayout> layouts;
    std::vector<std::size_t> layout_of(plans.size(), none);
    std::vector<std::optional<CodedScan>> coded;
    if (coded_elsewhere) {
        StageScope account(cpu_coder ? WorkStage::scan_coding_cpu : WorkStage::scan_coding_gpu);
        SourceCoefficients coefficients;
        for (int c = 0; c < info.num_components; ++c) {
            const BlockShape shape = array_shape(info.comp_info[c], false);
            coefficients.components.push_back({reinterpret_cast<const std::int16_t* const*>(source.rows[c].data()), shape.columns, shape.rows});
        }
        for (std::size_t p = 0; p < plans.size(); ++p) {
            if (reports[plans[p].variant].edge_kept) continue;
            layout_of[p] = layouts.size();
            layouts.push_back(scan_layout(info, plans[p], coefficients, table_numbers));
        }
        try {
            if (!layouts.empty()) coded = coder->code(coefficients, layouts, coding);
        } catch (const std::exception&) {  // the coder's failure (said by it), or memory: libjpeg codes them all
            coded.clear();
        }
        if (coded.size() != layouts.size()) coded.assign(layouts.size(), std::nullopt);
        for (std::size_t p = 0; p < plans.size(); ++p) {
            if (cpu_coder && layout_of[p] != none && coded[layout_of[p]]) reports[plans[p].variant].coded_in_segments = true;
        }
    }
    const auto coded_scan = [&](std::size_t p) -> const CodedScan* {
        return layout_of[p] != none && coded[layout_of[p]] ? &*coded[layout_of[p]] : nullptr;
    };
    // A scratch array's rows, mapped when a variant first needs it (not at all where the coder took every scan).
    bool mapped[2] = {false, false};
    const auto scratch_of = [&](bool swap) -> ComponentArrays& {
        if (!mapped[swap]) {
            if (!map_rows(reader, scratch[swap], swap, true)) throw damaged();
            for (int c = 0; c < info.num_components; ++c) ask_for_huge_pages_for_rows(scratch[swap].rows[c], array_shape(info.comp_info[c], swap).columns);
            mapped[swap] = true;
        }
        return scratch[swap];
    };

    // One variant's file: its blocks moved into a scratch array and coded by libjpeg, or its coded scan.
    const auto write = [&](const Plan& plan, const ScanLayout* layout, const CodedScan* scan) -> std::optional<std::vector<std::uint8_t>> {
        ComponentArrays* arrays = &source;
        if (from_axis_map(plan.map) != Orientation::identity && !scan) {
            StageScope account(WorkStage::coefficient_transform);
            arrays = &scratch_of(plan.map.swap_axes);
            for (int c = 0; c < info.num_components; ++c) {
                const jpeg_component_info& component = info.comp_info[c];
                // The region's blocks in this component: exact along a trimmed side, which is whole MCUs.
                const auto blocks = [&](JDIMENSION pixels, int factor, int max_factor) {
                    return (static_cast<std::int64_t>(pixels) * factor + max_factor * DCTSIZE - 1) / (max_factor * DCTSIZE);
                };
                transform_dct_blocks(plan.map, reinterpret_cast<DctBlockRows>(source.rows[c].data()),
                                     blocks(plan.region_width, component.h_samp_factor, info.max_h_samp_factor),
                                     blocks(plan.region_height, component.v_samp_factor, info.max_v_samp_factor),
                                     reinterpret_cast<DctBlockRows>(arrays->rows[c].data()),
                                     blocks(plan.mirrored_width, component.h_samp_factor, info.max_h_samp_factor),
                                     blocks(plan.mirrored_height, component.v_samp_factor, info.max_v_samp_factor));
            }
        }
        // A precoded scan is spliced in: what is left to libjpeg then is the headers and markers.
        StageScope account(scan ? WorkStage::encode : WorkStage::scan_coding_cpu);
        std::vector<std::uint8_t> out(jpeg.size() + 4096);
        VectorDestination destination{{}, &out};  // declared first: it outlives the writer that points at it
        Writer writer;
        bool layout_differs = false;
        if (!write_variant(reader, writer, destination, plan, arrays->arrays, strip, layout, scan, layout_differs)) {
            if (layout_differs) return std::nullopt;
            throw Error(ErrorCode::input, "cannot transform '" + path + "': " + writer.errors.message);
        }
        return out;
    };

    for (std::size_t p = 0; p < plans.size(); ++p) {
        const Plan& plan = plans[p];
        const LosslessJpegVariant& variant = variants[plan.variant];
        std::optional<std::vector<std::uint8_t>> written;
        if (coded_scan(p)) written = write(plan, &layouts[layout_of[p]], coded_scan(p));
        if (!written) written = write(plan, nullptr, nullptr);
        std::vector<std::uint8_t>& out = *written;
        // The EXIF and the XMP as they belong on this variant (orientation, pixel dimensions: a trimmed variant's
        // own; the EXIF's thumbnail turned, which may change its size).
        if (!strip && variant.metadata) {
            StageScope account(WorkStage::encode);
            const bool swap = plan.map.swap_axes;
            const std::int64_t width = swap ? plan.region_height : plan.region_width, height = swap ? plan.region_width : plan.region_height;
            if (!variant.metadata->exif.empty()) {
                std::vector<std::uint8_t> exif = variant.metadata->exif;
                set_exif_dimensions(exif, width, height);
                replace_jpeg_exif(out, exif);
            }
            if (!variant.metadata->xmp.empty()) {
                std::string xmp = variant.metadata->xmp;
                set_xmp_dimensions(xmp, width, height);
                replace_jpeg_xmp(out, xmp);
            }
        }
        results[plan.variant] = std::move(out);
    }
    return results;
}

}  // namespace gpurotate::detail
