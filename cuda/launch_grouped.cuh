#pragma once
// The grouped launch: the images sorted into tile body families (vectorized transposes and vectorized
// mirrors, each with columns aligned or shifted; padded tiles), each family's table to the GPU (in the
// launch's parameters where it fits them, otherwise one stream-ordered allocation from the library's own
// memory pool, freed after the kernels or kept for the thread's next call), one launch per family present over
// all its images' tiles; or, for a GroupedPlan, the tables built and copied once (build_grouped_plan) and the
// launches alone at each run (launch_grouped_tables). A call that repeats its thread's last call runs from that
// call's tables (grouped_call_cache.cuh). The templates are instantiated one pixel width a translation unit
// (cuda/instantiate/grouped.cu.in).

#include "check.cuh"
#include "blocks_per_sm_cap.cuh"
#include "device_query.cuh"
#include "grouped_call_cache.cuh"
#include "grouped_tables.cuh"
#include "kernels/grouped.cuh"
#include "launch.cuh"
#include "launch_stacked.cuh"
#include "launch_vectorized.cuh"
#include "table_staging.cuh"

#include "frontend/cuda_backend.hpp"
#include "core/pixel_word.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gpurotate::detail {

/// The vectorized family of an image of `width` S-byte pixels under `map`.
template <int S>
GroupedFamily vectorized_family(AxisMap map, std::int64_t width) {
    const bool shifted = loads_shifted_columns(map.mirror_x, width, S);
    if (map.swap_axes) return shifted ? family_shifted_transposes : family_transposes;
    return shifted ? family_shifted_mirrors : family_mirrors;
}

/// Whether a family's images swap the axes (its columns aligned or shifted).
constexpr bool transposes_family(GroupedFamily family) { return family == family_transposes || family == family_shifted_transposes; }

/// Tiles of one image a block of the grouped kernel runs one after another (tuning::grouped_tiles_per_item).
constexpr int grouped_tiles_per_item(int pixel_bytes, GroupedFamily family) {
    return tuning::grouped_tiles_per_item(pixel_bytes, transposes_family(family));
}

struct FamilyTable {
    std::vector<GroupedImage> images;
    std::vector<GroupedWork> work;  ///< one per item (the product's schedule)
    std::vector<long long> first;   ///< one per image (the search's schedule)
    long long total = 0;
    int tiles_per_item = 1;
    bool search = false;

    void add(const GroupedTransform& g, AxisMap map, Extent tile) {
        const int tiles_x = static_cast<int>((g.dst.width + tile.width - 1) / tile.width);
        const int tiles_y = static_cast<int>((g.dst.height + tile.height - 1) / tile.height);
        const long long tiles = static_cast<long long>(tiles_x) * tiles_y * g.planes;
        if (tiles >= (1LL << 31)) throw Error(ErrorCode::usage, "a grouped image of " + std::to_string(tiles) + " tiles (fewer than 2^31)");
        if (search) {
            first.push_back(total);
        } else {
            const auto image = static_cast<std::uint32_t>(images.size());
            for (long long t = 0; t < tiles; t += tiles_per_item) work.push_back({image, static_cast<std::uint32_t>(t)});
        }
        images.push_back({TransformArgs{g.src.data, g.src.pitch, g.dst.data, g.dst.pitch, g.src.extent(), static_cast<int>(g.dst.width),
                                        static_cast<int>(g.dst.height), map, tiles_y, g.src_plane_stride, g.dst_plane_stride, g.scratch_padding},
                          (map.mirror_x ? 1 : 0) + (map.mirror_y ? 2 : 0), tiles_x, tiles_x * tiles_y, static_cast<int>(tiles)});
        total += (tiles + tiles_per_item - 1) / tiles_per_item;
    }

    /// Empty, with work items of `tiles` tiles, found by `searching` each image's first item or by their descriptors.
    void clear(int tiles, bool searching) {
        images.clear();
        work.clear();
        first.clear();
        total = 0;
        tiles_per_item = tiles;
        search = searching;
    }
};

/// The host side of one grouped call: its images sorted into families, and where each family's three arrays
/// go in one block of bytes (images, first items, work descriptors; the empty one of the last two takes none).
/// A family's table may instead travel in its launch's parameters (carried_inline), taking no bytes there.
struct GroupedFamilies {
    FamilyTable table[grouped_families];
    bool tiles_aligned = true;
    bool carried_inline[grouped_families]{};
    std::size_t offsets[grouped_families][3]{};
    std::size_t bytes = 0;

    /// `may_carry_inline`: a single call's (a plan's tables stay in device memory, whatever their size).
    template <int S>
    void sort(const GroupedTransform* images, std::size_t count, GroupedSchedule schedule, bool may_carry_inline) {
        for (int f = 0; f < grouped_families; ++f) {
            const auto family = static_cast<GroupedFamily>(f);
            const int tiles = schedule.tiles_per_item > 0 ? schedule.tiles_per_item : grouped_tiles_per_item(S, family);
            table[f].clear(tiles, schedule.search || (schedule.search_where_faster && tuning::grouped_plan_searches(S, transposes_family(family))));
        }
        tiles_aligned = true;
        for (std::size_t i = 0; i < count; ++i) {
            const GroupedTransform& g = images[i];
            const AxisMap map = axis_map(g.orientation);
            // Every plane of a stack is where the first is, plane strides further on: they must keep its alignment.
            const bool planes_on_vectors = g.planes == 1 || (g.src_plane_stride % vector_bytes == 0 && g.dst_plane_stride % vector_bytes == 0);
            if (!vectorized_applies(g.src, g.dst, map) || !planes_on_vectors) {
                table[family_tiles].add(g, map, GroupedTiles<AlignedWord<S>>::tile_shape);
                tiles_aligned = tiles_aligned && allows_aligned_word(g.src.data, g.src.pitch, S) && allows_aligned_word(g.dst.data, g.dst.pitch, S) &&
                                (g.planes == 1 || (g.src_plane_stride % natural_alignment(S) == 0 && g.dst_plane_stride % natural_alignment(S) == 0));
            } else {
                table[vectorized_family<S>(map, g.src.width)].add(g, map, map.swap_axes ? GroupedTransposes<S>::tile_shape : GroupedMirrors<S>::tile_shape);
            }
        }
        bytes = 0;
        for (int f = 0; f < grouped_families; ++f) {
            const FamilyTable& t = table[f];
            // Only the search's arrays fit: descriptors are one per work item.
            carried_inline[f] = may_carry_inline && t.search && t.images.size() <= static_cast<std::size_t>(grouped_inline_images);
            if (carried_inline[f]) continue;
            offsets[f][0] = bytes;
            bytes += table[f].images.size() * sizeof(GroupedImage);
            offsets[f][1] = bytes;
            bytes += table[f].first.size() * sizeof(long long);
            offsets[f][2] = bytes;  // 8-byte aligned, as the two arrays before are
            bytes += table[f].work.size() * sizeof(GroupedWork);
        }
    }

    /// Every family's arrays into `host` (`bytes` of them).
    void pack(std::byte* host) const {
        for (int f = 0; f < grouped_families; ++f) {
            if (!carried_inline[f] && !table[f].images.empty()) {
                std::memcpy(host + offsets[f][0], table[f].images.data(), table[f].images.size() * sizeof(GroupedImage));
                // One of the two is empty (its data() may be null, which memcpy must not get).
                if (!table[f].first.empty()) std::memcpy(host + offsets[f][1], table[f].first.data(), table[f].first.size() * sizeof(long long));
                if (!table[f].work.empty()) std::memcpy(host + offsets[f][2], table[f].work.data(), table[f].work.size() * sizeof(GroupedWork));
            }
        }
    }

    /// The tables as the kernels read them, from `device`, where pack's bytes were copied (null where they are
    /// none: every family carried inline). A family carried inline gets its counts and null pointers.
    GroupedTables on_device(const void* device) const {
        GroupedTables tables;
        const std::byte* base = static_cast<const std::byte*>(device);
        for (int f = 0; f < grouped_families; ++f) {
            const FamilyTable& t = table[f];
            const bool staged = !carried_inline[f];
            tables.family[f] = GroupedTable{staged ? reinterpret_cast<const GroupedImage*>(base + offsets[f][0]) : nullptr,
                                            staged && !t.search ? reinterpret_cast<const GroupedWork*>(base + offsets[f][2]) : nullptr,
                                            staged ? reinterpret_cast<const long long*>(base + offsets[f][1]) : nullptr,
                                            static_cast<int>(t.images.size()), t.tiles_per_item, t.total};
        }
        tables.tiles_aligned = tiles_aligned;
        return tables;
    }

    /// Family `f`'s arrays as its launch's parameter carries them. One buffer a thread, refilled for each launch:
    /// a launch copies its parameters when it is enqueued.
    const GroupedInlineTable& inline_table(int f) const {
        // 32 KB: kept off this function's stack (the launch API still copies it once, taking its arguments by value).
        thread_local GroupedInlineTable carried{};
        const FamilyTable& t = table[f];
        std::copy(t.images.begin(), t.images.end(), carried.images);
        std::copy(t.first.begin(), t.first.end(), carried.first_item);
        return carried;
    }
};

/// Family `f`'s launch, its table from `tables` or, where `call` carries it inline, in the parameters; `overlap`:
/// it may start while the family launched before it drains (they hold different images).
template <class FamilyBodies>
void launch_family(int f, const GroupedTables& tables, const GroupedFamilies* call, cudaStream_t stream, bool overlap) {
    const GroupedTable& table = tables.family[f];
    const unsigned blocks = static_cast<unsigned>(std::min<long long>(table.total_items, 1LL << 30));
    if (call != nullptr && call->carried_inline[f]) {
        launch_overlapping(transform_grouped_inline_kernel<FamilyBodies>, dim3(blocks), dim3(vectorized_threads), 0, stream, overlap, table,
                           call->inline_table(f));
    } else {
        launch_overlapping(transform_grouped_kernel<FamilyBodies>, dim3(blocks), dim3(vectorized_threads), 0, stream, overlap, table);
    }
}

/// One launch per family present, each overlapping the one before (they hold different images). `call`: the
/// single call's families, for those it carries inline; null for a plan.
template <int S>
void launch_families(const GroupedTables& tables, const GroupedFamilies* call, cudaStream_t stream) {
    const GroupedTable* family = tables.family;
    OverlappingLaunches chain;  // the first launch waits for whatever the stream did before (the table's copy)
    const auto launch = [&](auto bodies, GroupedFamily f) {
        if (family[f].total_items > 0) launch_family<decltype(bodies)>(f, tables, call, stream, chain.next());
    };
    launch(GroupedTransposes<S>{}, family_transposes);
    launch(GroupedMirrors<S>{}, family_mirrors);
    if constexpr (S % vector_bytes != 0) {  // 16-byte pixels are whole vectors at every width
        launch(GroupedTransposes<S, ColumnShift::shifted>{}, family_shifted_transposes);
        launch(GroupedMirrors<S, ColumnShift::shifted>{}, family_shifted_mirrors);
    }
    // Not visit_pixel_word: its switch would instantiate every width here.
    if (tables.tiles_aligned) {
        launch(GroupedTiles<AlignedWord<S>>{}, family_tiles);
    } else {
        launch(GroupedTiles<UnalignedWord<S>>{}, family_tiles);
    }
}

/// A plan's launches.
template <int S>
void launch_grouped_tables(const GroupedTables& tables, cudaStream_t stream) {
    launch_families<S>(tables, nullptr, stream);
}

/// Whether the driver accepts the parameters grouped_inline_images was sized for: a program built with CUDA
/// 12.1 or later may run on an older driver (R525 is CUDA 12.0), which refuses a launch of more than 4 KiB of
/// parameters; there every table is staged. Asked once a process.
inline bool driver_takes_large_parameters() {
    static const bool takes = [] {
        if (kernel_parameter_bytes <= 4096) return true;
        int version = 0;
        if (cudaDriverGetVersion(&version) != cudaSuccess) {
            static_cast<void>(cudaGetLastError());
            return false;
        }
        return version >= 12010;
    }();
    return takes;
}

/// `schedule`: {} but in the bench's study rows. A call whose images match this thread's last call of the same
/// width on the same GPU runs from that call's tables (GroupedCallCache); only the product's schedule is kept, and
/// nothing during a stream capture.
template <int S>
void launch_grouped(const GroupedTransform* images, std::size_t count, cudaStream_t stream, GroupedSchedule schedule) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    GPUROTATE_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
    const bool reusable = schedule.reuse_last_call && schedule.tiles_per_item == 0 && schedule.search && schedule.inline_tables &&
                          capture == cudaStreamCaptureStatusNone;
    int device = 0;
    GPUROTATE_CUDA_CHECK(cudaGetDevice(&device));
    // Kept from call to call by each thread, cleared but not freed: built anew, the tables' vectors grew
    // and were freed on every call, and the host's share of a call rose by 42 ns an image at 1024 images
    // and 63 at 4096 (bench/RESULTS.md, 2026-11-23).
    thread_local std::map<int, GroupedCallCache<GroupedFamilies>> caches;  // an event belongs to one GPU
    thread_local GroupedFamilies uncached;
    GroupedCallCache<GroupedFamilies>& cache = caches.try_emplace(device, device).first->second;
    if (reusable) {
        if (const GroupedFamilies* kept = cache.find(images, count)) {
            const typename GroupedCallCache<GroupedFamilies>::Use use(cache, stream, true);
            launch_families<S>(kept->on_device(cache.table()), kept, stream);
            ++grouped_calls_from_kept_tables;
            return;
        }
    }
    GroupedFamilies& families = reusable ? cache.start() : uncached;
    families.sort<S>(images, count, schedule, schedule.inline_tables && driver_takes_large_parameters());
    void* device_table = nullptr;
    if (families.bytes > 0) {
        // One allocation for the staged families' arrays, filled from one page-locked buffer.
        TableStaging& staging = TableStaging::for_this_thread();
        std::byte* const host_table = staging.reserve(families.bytes);
        families.pack(host_table);
        GPUROTATE_CUDA_CHECK(cudaMallocFromPoolAsync(&device_table, families.bytes, table_pool(), stream));
        if (reusable) cache.hold_table(device_table);
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(device_table, host_table, families.bytes, cudaMemcpyHostToDevice, stream));
        staging.copied_on(stream);
    }
    if (reusable) {
        {
            const typename GroupedCallCache<GroupedFamilies>::Use use(cache, stream, false);
            launch_families<S>(families.on_device(device_table), &families, stream);
        }
        cache.keep(images, count);
        return;
    }
    launch_families<S>(families.on_device(device_table), &families, stream);
    if (device_table) GPUROTATE_CUDA_CHECK(cudaFreeAsync(device_table, stream));
}

/// A plan's tables: built as launch_grouped builds them, copied once into `plan.memory` on the current GPU.
/// Returns when they are there.
template <int S>
void build_grouped_plan(const GroupedTransform* images, std::size_t count, GroupedPlanTables& plan, cudaStream_t stream, GroupedSchedule schedule) {
    GroupedFamilies families;
    families.sort<S>(images, count, schedule, false);
    std::vector<std::byte> host(families.bytes);
    families.pack(host.data());
    plan.memory = DeviceBuffer(families.bytes);
    GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(plan.memory.get(), host.data(), families.bytes, cudaMemcpyHostToDevice, stream));
    // A run may come on any stream: the table must be on the GPU before the plan is returned (this also waits for
    // the work enqueued on `stream` before).
    GPUROTATE_CUDA_CHECK(cudaStreamSynchronize(stream));
    plan.tables = families.on_device(plan.memory.get());
    plan.pixel_bytes = S;
}

/// A batch of one size with an element per image (transform_device_batch_elements): the images sorted
/// into the vectorized families, each family's images in launches of the batch kernel that carry their
/// list in the parameters (blockIdx.z indexing it), with the single launches' blocks-per-SM caps. Where the
/// vectorized kernels do not apply, the grouped launch (one entry per image) does the work.
template <int S>
void launch_batch_elements(ConstImageView src, ImageView dst, const Orientation* elements, int count, std::size_t src_image_stride,
                           std::size_t dst_image_stride, cudaStream_t stream) {
    thread_local std::vector<std::uint32_t> lists[grouped_families];
    for (auto& list : lists) list.clear();
    // Alignment decides for the whole batch (one size, every element); each element's family and mirror
    // bits are looked up, not worked out per image.
    if (src_image_stride % vector_bytes != 0 || dst_image_stride % vector_bytes != 0 || !vectorized_applies(src, dst, AxisMap{})) {
        std::vector<GroupedTransform> images(static_cast<std::size_t>(count));
        for (int k = 0; k < count; ++k) {
            images[static_cast<std::size_t>(k)] = {ConstImageView{src.data + static_cast<std::size_t>(k) * src_image_stride, src.width, src.height,
                                                                  src.pitch, src.format},
                                                   ImageView{dst.data + static_cast<std::size_t>(k) * dst_image_stride, dst.width, dst.height,
                                                             dst.pitch, dst.format},
                                                   elements[k]};
        }
        launch_grouped<S>(images.data(), images.size(), stream, {});
        return;
    }
    GroupedFamily family_of[8];
    std::uint32_t mirrors_of[8];
    for (const Orientation o : all_orientations) {
        const AxisMap map = axis_map(o);
        family_of[static_cast<int>(o)] = vectorized_family<S>(map, src.width);
        mirrors_of[static_cast<int>(o)] = (map.mirror_x ? 1u : 0u) + (map.mirror_y ? 2u : 0u);
    }
    for (int i = 0; i < count; ++i) {
        const int code = static_cast<int>(elements[i]);
        lists[family_of[code]].push_back(static_cast<std::uint32_t>(i) * 4u + mirrors_of[code]);
    }
    OverlappingLaunches chain;  // disjoint images; see transform_batch_elements_kernel
    // Planes back to back run as stacks (stacked_planes.cuh), where no lane idles at a small plane's edges.
    const bool stack_transposes = stacks_transposes<S>(src, dst, src_image_stride, dst_image_stride, count);
    const bool stack_mirrors = mirror_rows_apply(src, dst, src_image_stride, dst_image_stride, count);
    const auto launch = [&](auto family_bodies, int f, bool swap, int blocks_per_sm) {
        using Family = decltype(family_bodies);
        constexpr auto kernel = transform_batch_elements_kernel<Family>;
        const bool stacked = f == family_transposes ? stack_transposes : f == family_mirrors && stack_mirrors;
        const std::size_t shared = blocks_per_sm > 0 && !lists[f].empty() && !stacked ? shared_bytes_for_blocks_per_sm<kernel>(blocks_per_sm) : 0;
        for (std::size_t first = 0; first < lists[f].size(); first += batch_entries_per_launch) {
            const std::size_t n = std::min<std::size_t>(batch_entries_per_launch, lists[f].size() - first);
            BatchEntries entries{};
            std::copy_n(lists[f].begin() + static_cast<std::ptrdiff_t>(first), n, entries.image_and_mirrors);
            const Launch l{src, dst, AxisMap{swap, false, false}, BatchLayout{static_cast<int>(n), src_image_stride, dst_image_stride}, stream};
            if (stacked && swap) {
                launch_stacked_transposes<S, true>(make_args(l, 1), static_cast<int>(n), stream, chain.next(), entries);
            } else if (stacked) {
                launch_listed_mirror_rows<S>(src, dst, static_cast<int>(n), entries, stream, chain.next());
            } else {
                const TransformArgs args = make_args(l, static_cast<int>(Family::tile_shape.height));
                launch_overlapping(kernel, grid_for(args, static_cast<int>(Family::tile_shape.width), l), dim3(vectorized_threads), shared, stream,
                                   chain.next(), args, entries);
            }
        }
    };
    // One launch a family, not one an element: at 768 planes of 224x224 u8, eight launches took 0.092 ms
    // where two took 0.051 (bench/RESULTS.md, 2026-11-24).
    const tuning::DeviceClass device = current_device_class();
    const int transposes_per_sm = tuning::transpose_blocks_per_sm(S, device), mirrors_per_sm = tuning::mirror_blocks_per_sm(S, device);
    launch(GroupedTransposes<S>{}, family_transposes, true, transposes_per_sm);
    launch(GroupedMirrors<S>{}, family_mirrors, false, mirrors_per_sm);
    if constexpr (S % vector_bytes != 0) {
        launch(GroupedTransposes<S, ColumnShift::shifted>{}, family_shifted_transposes, true, transposes_per_sm);
        launch(GroupedMirrors<S, ColumnShift::shifted>{}, family_shifted_mirrors, false, mirrors_per_sm);
    }
}

}  // namespace gpurotate::detail
