#pragma once
// The single-image command's observer of its conversion (convert/conversion_observer.hpp): warnings and
// notes once per file, -v's account of the trip, and a failure thrown as the command's error.

#include "cli/options.hpp"
#include "convert/conversion_observer.hpp"
#include "convert/gpu_resources.hpp"
#include "convert/run_conversion.hpp"

#include <iosfwd>
#include <string>

namespace gpurotate::cli {

class SingleImageReport final : public convert::ConversionObserver {
public:
    /// Reports a conversion under `options` on `backend` to `log`.
    SingleImageReport(const Options& options, Backend backend, std::ostream& log) : options_(options), backend_(backend), log_(log) {}
    /// The trip reported: `source` converted to `output`, with `gpu` where the GPU takes part. Called before the
    /// conversion runs (the GPU's start-up may report before).
    void follow(const detail::ImageSource& source, const convert::ConversionOutput& output, convert::GpuResources* gpu) {
        source_ = &source;
        output_ = &output;
        gpu_ = gpu;
    }

    void notice(const std::string& path, convert::Notice kind, const std::string& text) override;
    /// What a PNG output and the output's format leave out is said with -v only.
    bool wants(convert::Notice kind) const override {
        return options_.verbose || (kind != convert::Notice::png_output && kind != convert::Notice::unwritten);
    }
    void stage(convert::Stage stage, double seconds) override { seconds_[static_cast<int>(stage)] += seconds; }
    void written(std::size_t, const convert::OutputReport&) override {}
    void output_failed(std::size_t, const convert::OutputReport&, const Error& error) override { throw error; }
    void input_failed(const Error& error, convert::Step step) override;
    void finished(const convert::TripReport& trip) override;

private:
    double ms(convert::Stage stage) const { return seconds_[static_cast<int>(stage)] * 1e3; }
    std::string startup_text() const;
    std::string device_name() const;
    void say_reencoded();
    void verbose_lossless(const convert::TripReport& trip);
    void verbose_gpu_jpeg(const convert::TripReport& trip);
    void verbose_pixels(const convert::TripReport& trip);

    const Options& options_;
    Backend backend_;
    std::ostream& log_;
    const detail::ImageSource* source_ = nullptr;
    const convert::ConversionOutput* output_ = nullptr;
    convert::GpuResources* gpu_ = nullptr;
    double seconds_[5] = {};
    std::string why_reencoded_, png_notes_, unwritten_;  // said once the file is written
};

}  // namespace gpurotate::cli
