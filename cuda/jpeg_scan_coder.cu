// The GPU's JPEG scan coder: a JPEG's coefficients go up once, every variant's scan is coded in three
// launches for all of them (four where the variants get tables of their own), and the coded bytes come back
// (cuda/kernels/jpeg_scan.cuh).

#include "check.cuh"
#include "kernels/jpeg_scan.cuh"

#include "jpeg/jpeg_scan_coder.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace gpurotate::detail {

namespace {

// A file's coefficients the coder takes at most (a 4:4:4 photograph of 89 megapixels, a 4:2:0 one of 178):
// four coders a GPU each keep page-locked and device buffers of the largest file they coded, and libjpeg
// codes a larger one.
constexpr std::size_t largest_store = std::size_t{1} << 30;
// Past this, a file's buffers are given back once it is coded, not kept for the next.
constexpr std::size_t kept_store = std::size_t{256} << 20;

std::int64_t thread_blocks_of(const ScanLayout& layout) { return (layout.slots() + scan_threads - 1) / scan_threads; }

class GpuJpegScanCoder final : public JpegScanCoder {
public:
    GpuJpegScanCoder(int device, std::size_t budget) : device_(device), budget_(budget), select_(device) {}

    std::size_t device_bytes() const override {
        return store_.size() + offsets_.size() + shares_.size() + totals_.size() + tables_.size() + counts_.size() + words_.size();
    }

    void release_memory() override {
        release();
        totals_ = DeviceBuffer();
        tables_ = DeviceBuffer();
        counts_ = DeviceBuffer();
        small_.release();
    }

    std::vector<std::optional<CodedScan>> code(const SourceCoefficients& source, const std::vector<ScanLayout>& layouts,
                                               const ScanCoding& coding) override {
        GPUROTATE_CUDA_CHECK(cudaSetDevice(device_));  // the calling thread may have used another GPU last
        // Also where the coding throws. A file refused for the budget may have grown the store before its
        // other buffers were found too large; kept, that store counted against every later file's budget, and
        // a coder that met a large file first refused the small ones after it (augment's workers meet them in
        // any order).
        struct ReleaseLarge {
            GpuJpegScanCoder& coder;
            bool coded = false;
            ~ReleaseLarge() {
                if (coder.store_.size() > kept_store || (!coded && coder.budget_ != 0)) coder.release();
            }
        } release_large{*this};
        const auto* store = reinterpret_cast<const std::int16_t*>(upload(source));
        std::vector<std::optional<CodedScan>> scans;
        for (std::size_t first = 0; first < layouts.size(); first += max_batch_variants) {
            const std::size_t count = std::min<std::size_t>(max_batch_variants, layouts.size() - first);
            code_batch(store, layouts.data() + first, static_cast<int>(count), coding, scans);
        }
        release_large.coded = true;
        return scans;
    }

private:
    // The components' blocks one after another; returns the device store.
    std::byte* upload(const SourceCoefficients& source) {
        std::size_t store_bytes = 0;
        for (const SourceComponent& c : source.components) store_bytes += static_cast<std::size_t>(c.columns * c.row_count) * 128;
        if (store_bytes > largest_store) {
            throw Error(ErrorCode::device, "a JPEG's coefficients take " + std::to_string(store_bytes >> 20) + " MiB, over the GPU coder's " +
                                               std::to_string(largest_store >> 20) + " MiB");
        }
        check_budget(store_bytes, 0, 0, 0, 0, 0);
        std::byte* staged = staging_.reserve(store_bytes);
        std::byte* at = staged;
        for (const SourceComponent& c : source.components) {
            const std::size_t row_bytes = static_cast<std::size_t>(c.columns) * 128;
            for (std::int64_t y = 0; y < c.row_count; ++y, at += row_bytes) std::memcpy(at, c.rows[y], row_bytes);
        }
        std::byte* device = grow(store_, store_bytes);
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(device, staged, store_bytes, cudaMemcpyHostToDevice, stream_.get()));
        return device;
    }

    // What the host reads back between launches: the variants' bits, which were refused.
    struct Totals {
        std::uint64_t bits[max_batch_variants];
        int refused[max_batch_variants];
    };
    using SymbolCounts = unsigned long long[table_slots * 256];  // a variant's, for its own tables

    void code_batch(const std::int16_t* store, const ScanLayout* layouts, int count, const ScanCoding& coding,
                    std::vector<std::optional<CodedScan>>& scans) {
        ScanBatch batch;
        batch.count = count;
        std::int64_t slots = 0, thread_blocks = 0, widest = 0;
        for (int v = 0; v < count; ++v) {
            batch.layout[v] = layouts[v];
            batch.first_slot[v] = slots;
            batch.first_thread_block[v] = thread_blocks;
            slots += layouts[v].slots();
            thread_blocks += thread_blocks_of(layouts[v]);
            widest = std::max(widest, thread_blocks_of(layouts[v]));
        }
        if (widest == 0) {  // no blocks: libjpeg has nothing to code either
            for (int v = 0; v < count; ++v) scans.emplace_back(std::nullopt);
            return;
        }
        const std::size_t offset_bytes = static_cast<std::size_t>(slots) * sizeof(std::uint32_t);
        const std::size_t share_bytes = static_cast<std::size_t>(thread_blocks) * sizeof(std::uint64_t);
        const std::size_t table_bytes = static_cast<std::size_t>(count) * sizeof(ScanTables);
        const std::size_t count_bytes = coding.own_tables ? static_cast<std::size_t>(count) * sizeof(SymbolCounts) : 0;
        check_budget(store_.size(), offset_bytes, share_bytes, table_bytes, count_bytes, 0);
        auto* offsets = reinterpret_cast<std::uint32_t*>(grow(offsets_, offset_bytes));
        auto* shares = reinterpret_cast<std::uint64_t*>(grow(shares_, share_bytes));
        auto* totals = reinterpret_cast<Totals*>(grow(totals_, sizeof(Totals)));
        auto* tables = reinterpret_cast<ScanTables*>(grow(tables_, table_bytes));
        std::byte* host = small_.reserve(sizeof(Totals) + table_bytes + count_bytes);
        auto* read_back = reinterpret_cast<Totals*>(host);
        auto* staged_tables = reinterpret_cast<ScanTables*>(host + sizeof(Totals));
        auto* counted = reinterpret_cast<SymbolCounts*>(host + sizeof(Totals) + table_bytes);
        GPUROTATE_CUDA_CHECK(cudaMemsetAsync(totals, 0, sizeof(Totals), stream_.get()));
        const dim3 grid(static_cast<unsigned>(widest), static_cast<unsigned>(count));

        // The tables: the caller's, or each variant's own from its symbol counts.
        std::vector<CodedScan> coded(static_cast<std::size_t>(count));
        for (int v = 0; v < count; ++v) staged_tables[v] = coding.tables;
        if (coding.own_tables) {
            auto* counts = reinterpret_cast<SymbolCounts*>(grow(counts_, count_bytes));
            GPUROTATE_CUDA_CHECK(cudaMemsetAsync(counts, 0, count_bytes, stream_.get()));
            count_scan_symbols<<<grid, scan_threads, 0, stream_.get()>>>(batch, tables, store, &counts[0][0], totals->refused);
            GPUROTATE_CUDA_CHECK(cudaGetLastError());
            GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(counted, counts, count_bytes, cudaMemcpyDeviceToHost, stream_.get()));
            GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(read_back, totals, sizeof(Totals), cudaMemcpyDeviceToHost, stream_.get()));
            stream_.synchronize();
            for (int v = 0; v < count; ++v) {
                std::uint64_t wide[table_slots * 256];
                std::copy(counted[v], counted[v] + table_slots * 256, wide);
                if (!make_own_tables(layouts[v], wide, staged_tables[v], coded[static_cast<std::size_t>(v)])) read_back->refused[v] = 1;
            }
            GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(totals, read_back, sizeof(Totals), cudaMemcpyHostToDevice, stream_.get()));
        }
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(tables, staged_tables, table_bytes, cudaMemcpyHostToDevice, stream_.get()));

        count_scan_bits<<<grid, scan_threads, 0, stream_.get()>>>(batch, tables, store, offsets, shares, totals->refused);
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        place_thread_blocks<<<count, 1024, 0, stream_.get()>>>(batch, shares, totals->bits);
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(read_back, totals, sizeof(Totals), cudaMemcpyDeviceToHost, stream_.get()));
        stream_.synchronize();

        std::uint64_t words = 0;
        for (int v = 0; v < count; ++v) {
            batch.first_word[v] = words;
            words += (read_back->bits[v] + 31) / 32;
        }
        const std::size_t stream_bytes = static_cast<std::size_t>(words) * 4;
        check_budget(store_.size(), offset_bytes, share_bytes, table_bytes, count_bytes, stream_bytes);
        auto* stream_words = reinterpret_cast<std::uint32_t*>(grow(words_, stream_bytes));
        GPUROTATE_CUDA_CHECK(cudaMemsetAsync(stream_words, 0, stream_bytes, stream_.get()));
        write_scan_bits<<<grid, scan_threads, 0, stream_.get()>>>(batch, tables, store, offsets, shares, stream_words);
        GPUROTATE_CUDA_CHECK(cudaGetLastError());
        std::byte* downloaded = download_.reserve(stream_bytes);
        GPUROTATE_CUDA_CHECK(cudaMemcpyAsync(downloaded, stream_words, stream_bytes, cudaMemcpyDeviceToHost, stream_.get()));
        stream_.synchronize();

        for (int v = 0; v < count; ++v) {
            if (read_back->refused[v]) {
                scans.emplace_back(std::nullopt);
                continue;
            }
            CodedScan& scan = coded[static_cast<std::size_t>(v)];
            scan.bytes = scan_bytes_of(reinterpret_cast<const std::uint8_t*>(downloaded + batch.first_word[v] * 4), read_back->bits[v]);
            scans.emplace_back(std::move(scan));
        }
    }

    // Gives back the buffers that grow with the file (waiting for the stream, which may still use them).
    void release() noexcept {
        GPUROTATE_CUDA_CHECK_NOEXCEPT(cudaStreamSynchronize(stream_.get()));
        store_ = DeviceBuffer();
        offsets_ = DeviceBuffer();
        shares_ = DeviceBuffer();
        words_ = DeviceBuffer();
        staging_.release();
        download_.release();
    }

    // Refuses a file whose coding needs more than the budget (what the buffers will hold, each the larger of
    // what it holds now and what it needs): libjpeg codes its scans instead.
    void check_budget(std::size_t store, std::size_t offsets, std::size_t shares, std::size_t tables, std::size_t counts,
                      std::size_t words) const {
        const std::size_t bytes = std::max(store, store_.size()) + std::max(offsets, offsets_.size()) + std::max(shares, shares_.size()) +
                                  std::max(tables, tables_.size()) + std::max(counts, counts_.size()) + std::max(words, words_.size()) +
                                  std::max(sizeof(Totals), totals_.size());
        if (budget_ && bytes > budget_) {
            throw Error(ErrorCode::device, "a JPEG's scans need " + std::to_string(bytes) + " bytes of device memory, over the coder's budget of " +
                                               std::to_string(budget_));
        }
    }

    int device_;
    std::size_t budget_;  // 0: whatever the GPU has
    SelectDevice select_;  // before the stream: the stream belongs to the selected GPU
    Stream stream_;
    DeviceBuffer store_, offsets_, shares_, totals_, tables_, counts_, words_;
    PinnedBuffer staging_, small_, download_;
};

}  // namespace

std::unique_ptr<JpegScanCoder> open_gpu_jpeg_scan_coder(int device, std::size_t budget) {
    return std::make_unique<GpuJpegScanCoder>(device, budget);
}

}  // namespace gpurotate::detail
