// The sizes and the report of `gpurotate bench --fused-sweep` (fused_sweep.hpp).

#include "bench/fused_sweep.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace gpurotate::bench {

std::vector<Extent> fused_sweep_sizes() {
    return {{512, 512},   {1000, 1000}, {1024, 1024}, {1920, 1080}, {1921, 1081}, {2048, 2048},  {3000, 4000},  {2999, 4001},
            {4096, 4096}, {4095, 4097}, {6000, 4000}, {6000, 4500}, {8192, 8192}, {8192, 8200}, {8191, 8193}, {12000, 9000},
            {16384, 16384}};
}

namespace {

struct Way {
    const char* name;
    double ms;
};

}  // namespace

std::string fastest_way(const FusedSweepRow& row) {
    const Way ways[] = {{"vectorized", row.vectorized_ms}, {"tiled", row.tiled_ms}, {"separate", row.separate_ms}};
    const Way* best = nullptr;
    for (const Way& w : ways) {
        if (w.ms > 0 && (best == nullptr || w.ms < best->ms)) best = &w;
    }
    return best == nullptr ? "" : best->name;
}

// The chosen way's time from the ways' own timings, so that the rule is judged by the same medians as the
// ways it did not choose; a second timing of the same kernel would add its run-to-run spread (12% at
// 512x512, where a launch takes 10 us). The separate timing of the choice where its way did not run.
double chosen_ms(const FusedSweepRow& row) {
    const double by_way = row.chosen == "vectorized" ? row.vectorized_ms : row.chosen == "tiled" ? row.tiled_ms : row.chosen == "separate" ? row.separate_ms : 0;
    return by_way > 0 ? by_way : row.choice_ms;
}

double choice_over_fastest(const FusedSweepRow& row) {
    double fastest = 0;
    for (const double ms : {row.vectorized_ms, row.tiled_ms, row.separate_ms}) {
        if (ms > 0 && (fastest == 0 || ms < fastest)) fastest = ms;
    }
    const double chosen = chosen_ms(row);
    return fastest > 0 && chosen > 0 ? chosen / fastest : 0;
}

namespace {

bool over(const FusedSweepRow& row, double tolerance) { return choice_over_fastest(row) > tolerance; }

std::string size_name(Extent e) { return std::to_string(e.width) + "x" + std::to_string(e.height); }

// A time, or "-" for a way that did not run.
std::string ms_text(double ms) {
    if (ms <= 0) return "-";
    std::ostringstream s;
    s << std::fixed << std::setprecision(3) << ms;
    return s.str();
}

}  // namespace

void print_fused_sweep_heading(std::ostream& out) {
    out << std::left << std::setw(7) << "type" << std::setw(13) << "size" << std::setw(11) << "chosen" << std::setw(11) << "fastest" << std::right
        << std::setw(10) << "choice ms" << std::setw(10) << "vector" << std::setw(10) << "tile32" << std::setw(10) << "auto-x7" << std::setw(10)
        << "choice/" << "\n"
        << std::setw(91) << "fastest" << "\n";
}

void print_fused_sweep_row(std::ostream& out, const FusedSweepRow& row, double tolerance) {
    out << std::left << std::setw(7) << row.type << std::setw(13) << size_name(row.size) << std::setw(11) << row.chosen << std::setw(11)
        << fastest_way(row) << std::right << std::setw(10) << ms_text(row.choice_ms) << std::setw(10) << ms_text(row.vectorized_ms) << std::setw(10)
        << ms_text(row.tiled_ms) << std::setw(10) << ms_text(row.separate_ms) << std::setw(10) << std::fixed << std::setprecision(3)
        << choice_over_fastest(row);
    if (!row.verified) out << "  WRONG OUTPUT";
    if (over(row, tolerance)) out << "  SLOW";
    out << "\n" << std::flush;
}

void print_fused_sweep_summary(std::ostream& out, const std::vector<FusedSweepRow>& rows, double tolerance) {
    int slow = 0, wrong = 0;
    const FusedSweepRow* worst = nullptr;
    for (const FusedSweepRow& r : rows) {
        slow += over(r, tolerance) ? 1 : 0;
        wrong += r.verified ? 0 : 1;
        if (worst == nullptr || choice_over_fastest(r) > choice_over_fastest(*worst)) worst = &r;
    }
    out << "\n" << rows.size() << " rows; " << slow << " with the choice more than " << std::fixed << std::setprecision(0)
        << (tolerance - 1) * 100 << "% slower than the fastest way (SLOW)";
    if (worst != nullptr) {
        out << "; the worst " << worst->type << " " << size_name(worst->size) << " at " << std::setprecision(3) << choice_over_fastest(*worst)
            << " (" << worst->chosen << " chosen, " << fastest_way(*worst) << " fastest)";
    }
    out << "; " << wrong << " with a wrong output\n";
}

void write_fused_sweep_json(std::ostream& out, const FusedSweepContext& context, const std::vector<FusedSweepRow>& rows) {
    out << "{\n  \"device\": \"" << context.device << "\", \"driver\": " << context.driver << ", \"runtime\": " << context.runtime
        << ", \"reps\": " << context.reps << ", \"tolerance\": " << context.tolerance << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const FusedSweepRow& r = rows[i];
        out << "    {\"type\": \"" << r.type << "\", \"width\": " << r.size.width << ", \"height\": " << r.size.height << ", \"chosen\": \""
            << r.chosen << "\", \"fastest\": \"" << fastest_way(r) << "\", \"choice_ms\": " << r.choice_ms << ", \"vectorized_ms\": "
            << r.vectorized_ms << ", \"tiled_ms\": " << r.tiled_ms << ", \"separate_ms\": " << r.separate_ms
            << ", \"choice_over_fastest\": " << choice_over_fastest(r) << ", \"over_tolerance\": " << (over(r, context.tolerance) ? "true" : "false")
            << ", \"verified\": " << (r.verified ? "true" : "false") << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

}  // namespace gpurotate::bench
