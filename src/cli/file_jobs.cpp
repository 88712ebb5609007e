#include "cli/file_jobs.hpp"

#include "cli/run.hpp"

#include "augment/heap_reuse.hpp"

#include "convert/gpu_resources.hpp"

#include "core/parallel_for.hpp"
#include "core/path_names.hpp"
#include "core/text.hpp"
#include "core/worker_threads.hpp"
#include "formats/file_bytes.hpp"
#include "formats/flush_file_system.hpp"
#include "formats/format_registry.hpp"
#include "formats/temporaries_in_flight.hpp"

#include <gpurotate/error.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpurotate::cli {
namespace {

bool is_folder(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

/// What a user who typed a folder or a pattern wanted, said before the codecs' "cannot read".
void check_input_is_a_file(const std::string& input) {
    if (input == "-") return;
    if (is_folder(input)) {
        throw Error(ErrorCode::input, "'" + input + "' is a folder: gpurotate converts files (gpurotate --rot90 -o OUTDIR/ '" + input +
                                          "'/*.jpg), and gpurotate augment '" + input + "' -o OUTDIR makes variants of a whole folder");
    }
    struct stat info {};
    if (input.find_first_of("*?[") != std::string::npos && ::stat(input.c_str(), &info) != 0) {
        throw Error(ErrorCode::input, "'" + input + "' matched no file (a shell passes a pattern on unchanged where nothing matches it)");
    }
}

/// "png:-" -> {"png", "-"}: ImageMagick's format prefix, taken where it names a format this build writes (a
/// file really named "png:x" is then written as x; "./png:x" keeps its name).
std::pair<std::string, std::string> format_prefix(const std::string& output) {
    const std::size_t colon = output.find(':');
    if (colon == std::string::npos || colon == 0 || colon > 8 || output.find('/') < colon) return {"", output};
    const std::string ext = detail::lowercase(output.substr(0, colon));
    if (!detail::writable_format_of_extension("." + ext)) return {"", output};
    return {ext, output.substr(colon + 1)};
}

std::string with_extension(const std::string& name, const std::string& ext) { return ext.empty() ? name : detail::stem_of(name) + "." + ext; }

// -i replaces files: each input must be one (through a link), and no file may be named twice (a second
// rotation of the first's result), whatever the names.
void check_in_place_inputs(const std::vector<std::string>& inputs) {
    std::map<std::pair<dev_t, ino_t>, std::string> seen;
    for (const std::string& input : inputs) {
        if (input == "-") throw Error(ErrorCode::usage, "-i replaces files in place: standard input (-) has no file to replace");
        struct stat info {};
        if (::stat(input.c_str(), &info) != 0 || S_ISDIR(info.st_mode)) continue;  // said when its job reads it
        if (!S_ISREG(info.st_mode)) throw Error(ErrorCode::usage, "-i replaces files in place: '" + input + "' is not a regular file");
        const auto [at, fresh] = seen.emplace(std::make_pair(info.st_dev, info.st_ino), input);
        if (!fresh) {
            throw Error(ErrorCode::usage, "-i: '" + at->second + "' and '" + input + "' are the same file, which would be turned twice: name it once");
        }
    }
}

// The folder a file's temporary is made in: that of its output.
std::string folder_of(const std::string& output) {
    const auto slash = output.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : output.substr(0, slash);
}

// The prefixes of the temporaries each folder's outputs make there.
void remove_stale_temporaries(const std::vector<FileJob>& jobs) {
    std::map<std::string, std::set<std::string>> prefixes_by_folder;
    for (const FileJob& job : jobs) {
        if (job.output == "-" || detail::is_stream_output(job.output)) continue;
        prefixes_by_folder[folder_of(job.output)].insert(detail::temporary_name_prefix(detail::file_name_of(job.output)));
    }
    for (const auto& [folder, prefixes] : prefixes_by_folder) {
        const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) continue;
        detail::remove_stale_temporaries_in(fd, prefixes);
        ::close(fd);
    }
}

// SIGINT and SIGTERM while files are written: every temporary in flight is removed, then the signal ends the
// process as it would have (a shell reports 130 or 143), so that a loop calling gpurotate stops too. The
// handler runs on whichever thread the signal found; it only reads a fixed table and unlinks.
extern "C" void on_signal_in_file_job(int signal) {
    // errno as the interrupted code left it: the signal raised again is blocked until this returns, and the
    // unlinks set it (ThreadSanitizer: "signal handler spoils errno").
    const int interrupted_errno = errno;
    detail::remove_temporaries_in_flight();
    ::signal(signal, SIG_DFL);
    ::raise(signal);
    errno = interrupted_errno;
}

class TemporaryCleanupOnSignal {
public:
    TemporaryCleanupOnSignal() {
        detail::track_temporaries_for_signals(true);
        struct sigaction action {};
        action.sa_handler = on_signal_in_file_job;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &previous_int_);
        ::sigaction(SIGTERM, &action, &previous_term_);
    }
    ~TemporaryCleanupOnSignal() {
        ::sigaction(SIGINT, &previous_int_, nullptr);
        ::sigaction(SIGTERM, &previous_term_, nullptr);
        detail::track_temporaries_for_signals(false);
    }
    TemporaryCleanupOnSignal(const TemporaryCleanupOnSignal&) = delete;
    TemporaryCleanupOnSignal& operator=(const TemporaryCleanupOnSignal&) = delete;

private:
    struct sigaction previous_int_ {}, previous_term_ {};
};

}  // namespace

std::vector<FileJob> plan_file_jobs(const Options& options) {
    std::vector<FileJob> jobs;
    if (options.in_place) {
        check_in_place_inputs(options.inputs);
        for (const std::string& input : options.inputs) jobs.push_back({input, input, ""});
        return jobs;
    }
    const auto [prefix, output] = format_prefix(options.output);
    const std::string named = detail::lowercase(options.format);
    if (!prefix.empty() && !named.empty() && prefix != named) {
        throw Error(ErrorCode::usage, "--format " + options.format + " and -o " + options.output + " name two formats: give one");
    }
    const std::string format = prefix.empty() ? named : prefix;
    // Once, before any file: a bad --format would otherwise fail every file alike.
    if (!format.empty()) detail::output_format_of_extension("." + format, "--format " + options.format, ErrorCode::usage);
    if (output.empty()) throw Error(ErrorCode::usage, "-o " + options.output + ": no file named after the format");
    const bool into_folder = output != "-" && (output.back() == '/' || is_folder(output));
    if (!into_folder) {
        if (options.inputs.size() > 1) {
            throw Error(ErrorCode::usage, std::to_string(options.inputs.size()) + " inputs need a folder to write into: -o FOLDER/ (or -i to replace each input)");
        }
        return {{options.inputs.front(), output, format}};
    }
    const std::string folder = detail::without_trailing_slashes(output);
    struct stat info {};
    if (::stat(folder.c_str(), &info) == 0 && !S_ISDIR(info.st_mode)) {
        throw Error(ErrorCode::output, "'" + output + "': '" + folder + "' is a file, not a folder");
    }
    std::map<std::string, std::string> taken;  // output name -> the input that takes it
    for (const std::string& input : options.inputs) {
        if (input == "-") throw Error(ErrorCode::usage, "standard input (-) has no name to write into '" + output + "': give -o FILE");
        const std::string name = with_extension(detail::file_name_of(input), format);
        const auto [at, fresh] = taken.emplace(name, input);
        if (!fresh) throw Error(ErrorCode::usage, "'" + at->second + "' and '" + input + "' would both be written to '" + folder + "/" + name + "'");
        jobs.push_back({input, (folder == "/" ? "" : folder) + "/" + name, format});
    }
    // The folder is made (as mkdir -p) once the command line is known to be good.
    if (!is_folder(folder)) detail::make_folders(folder);
    return jobs;
}

namespace {

// Each file's messages (errors, notes, -v's account), printed whole and in the inputs' order, whichever
// worker finished first: the same text as one file at a time, never two files' lines interleaved.
class MessagesInInputOrder {
public:
    MessagesInInputOrder(std::ostream& log, std::size_t files) : log_(log), ready_(files) {}

    void file_done(std::size_t index, std::string messages) {
        const std::lock_guard<std::mutex> lock(mutex_);
        ready_[index] = std::move(messages);
        for (; next_ < ready_.size() && ready_[next_]; ++next_) {
            log_ << *ready_[next_];
            ready_[next_].reset();
        }
        log_.flush();
    }

    /// A message of no one file (the GPU's), printed now, between two files' messages.
    void say_now(const std::string& text) {
        const std::lock_guard<std::mutex> lock(mutex_);
        log_ << text;
        log_.flush();
    }

private:
    std::ostream& log_;
    std::mutex mutex_;
    std::vector<std::optional<std::string>> ready_;
    std::size_t next_ = 0;
};

// What the GPU's shared resources say of themselves (fewer nvJPEG coders than workers): each kind once a
// command, not once a file.
class GpuNoticesOnce final : public convert::ConversionObserver {
public:
    explicit GpuNoticesOnce(MessagesInInputOrder& messages) : messages_(messages) {}
    void notice(const std::string&, convert::Notice kind, const std::string& text) override {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (!said_.insert(kind).second) return;
        }
        messages_.say_now("gpurotate: warning: " + text + "\n");
    }
    void written(std::size_t, const convert::OutputReport&) override {}
    void output_failed(std::size_t, const convert::OutputReport&, const Error&) override {}
    void input_failed(const Error&, convert::Step) override {}

private:
    MessagesInInputOrder& messages_;
    std::mutex mutex_;
    std::set<convert::Notice> said_;
};

// Several new files into one folder are flushed together once all are written (flush_file_system.hpp), as
// augment's outputs are: a crash before that flush loses new files only. -i keeps an fsync per file before
// its rename: the rename replaces the user's original, and a crash between the rename and a later flush
// could leave an empty file where their photo was. A single file keeps it too: one fsync costs what the one
// flush would.
bool flushed_once_at_the_end(const Options& options, std::size_t files) { return !options.in_place && files > 1; }

Options options_for(const Options& options, const FileJob& job, std::size_t files) {
    Options one = options;
    one.input = job.input;
    one.output = job.output;
    one.output_format = job.format;
    one.overwrite = options.overwrite || options.in_place;
    one.flush_each_file = !flushed_once_at_the_end(options, files);
    return one;
}

// Whether the shared GPU started (false where its start-up failed: ready() throws that failure again).
bool started(convert::GpuResources& gpu) {
    try {
        return gpu.ready();
    } catch (...) {  // the start-up's failure, whatever it was
        return false;
    }
}

// One of several files: its failure is its own, said on `log`; returns its exit status (0: written).
int run_one_of_many(const Options& one, std::ostream& log, convert::GpuResources* shared_gpu) {
    try {
        check_input_is_a_file(one.input);
        run_single_image(one, log, shared_gpu);
        return 0;
    } catch (const Error& e) {
        log << "gpurotate: error: " << e.what() << "\n";
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {  // out of memory for one file: the next may fit
        log << "gpurotate: internal error: '" << one.input << "': " << e.what() << "\n";
        return static_cast<int>(ErrorCode::internal);
    } catch (...) {  // nothing may leave a worker (std::terminate)
        log << "gpurotate: internal error: '" << one.input << "': unknown exception\n";
        return static_cast<int>(ErrorCode::internal);
    }
}

// The workers: --jobs, else the cores, never more than the files. On the GPU each file's transform takes the
// device memory it needs, its bands' within --gpu-memory where given: with that bound, one file at a time, so
// that the command as a whole keeps to it as one file does.
unsigned worker_count(const Options& options, std::size_t files) {
    if (converts_on_gpu(options) && options.gpu_memory != 0) return 1;
    const unsigned wanted = options.jobs ? options.jobs : detail::usable_cores();
    return static_cast<unsigned>(std::min<std::size_t>(wanted, files));
}

}  // namespace

int run_file_jobs(const Options& options, std::ostream& log) {
    const std::vector<FileJob> jobs = plan_file_jobs(options);
    if (options.rotation_options_unused) {
        log << "gpurotate: warning: --interpolate and --keep-size shape a --rotate by an angle that is not a multiple of 90; "
               "this command has none, so they do nothing\n";
    }
    const TemporaryCleanupOnSignal cleanup;
    remove_stale_temporaries(jobs);
    if (jobs.size() == 1) {  // its Error is the run's, with its own exit status
        check_input_is_a_file(jobs.front().input);
        run_single_image(options_for(options, jobs.front(), 1), log);
        return 0;
    }
    const unsigned workers = worker_count(options, jobs.size());
    // Every file allocates the same few large buffers: kept for the next file, as augment keeps them, rather
    // than mapped fresh for each (a page fault per 4 KiB touched).
    detail::keep_large_blocks_for_reuse();
    std::vector<int> statuses(jobs.size(), 0);
    MessagesInInputOrder messages(log, jobs.size());
    GpuNoticesOnce gpu_notices(messages);
    // On the GPU the files share one start of it, made now on a thread of its own while the workers read and
    // decode their first files (each file alone started it again), and with --nvjpeg its coders.
    std::optional<convert::GpuResources> gpu;
    if (converts_on_gpu(options)) {
        // nvJPEG's coders where some output may be a JPEG, as one file opens them only for a JPEG output: -i keeps
        // each file's format, which its content says.
        const bool jpeg_outputs = options.in_place || std::any_of(jobs.begin(), jobs.end(), [](const FileJob& job) {
            return job.format.empty() ? detail::is_jpeg_path(job.output) : detail::is_jpeg_path("x." + job.format);
        });
        gpu.emplace(convert::many_files_gpu_policy(options.convert, options.convert.nvjpeg && jpeg_outputs, workers, options.gpu_memory), gpu_notices);
    }
    std::atomic<std::size_t> next{0};
    // A GPU that does not start fails every file alike, before any is written: said once, for the run, below.
    std::atomic<bool> gpu_did_not_start{false};
    detail::run_on_workers(workers, [&] {
        for (std::size_t index = next.fetch_add(1); index < jobs.size(); index = next.fetch_add(1)) {
            if (gpu_did_not_start) {
                statuses[index] = static_cast<int>(ErrorCode::device);
                messages.file_done(index, {});
                continue;
            }
            Options one = options_for(options, jobs[index], jobs.size());
            if (workers > 1) one.cpu_threads = 1;  // the workers fill the cores
            std::ostringstream said;
            statuses[index] = run_one_of_many(one, said, gpu ? &*gpu : nullptr);
            if (statuses[index] == static_cast<int>(ErrorCode::device) && gpu && !started(*gpu)) {
                gpu_did_not_start = true;
                said.str({});
            }
            messages.file_done(index, said.str());
        }
    });
    if (gpu_did_not_start) {
        try {
            gpu->ready();
        } catch (const std::exception& e) {
            log << "gpurotate: error: " << e.what() << " (no file was converted)\n";
        }
        return static_cast<int>(ErrorCode::device);
    }
    gpu.reset();  // its last nvJPEG coders made or said missing before the run's summary, not after
    // The first failure in the inputs' order decides the exit status, whichever finished first.
    const auto first_failed = std::find_if(statuses.begin(), statuses.end(), [](int status) { return status != 0; });
    const auto failed = static_cast<std::size_t>(std::count_if(statuses.begin(), statuses.end(), [](int status) { return status != 0; }));
    if (failed > 0) log << "gpurotate: " << failed << " of " << jobs.size() << " files failed" << (failed < jobs.size() ? "; the others were written" : "") << "\n";
    int flush_status = 0;
    if (flushed_once_at_the_end(options, jobs.size()) && failed < jobs.size()) {
        try {
            detail::flush_file_system_of(folder_of(jobs.front().output));
        } catch (const Error& e) {
            log << "gpurotate: error: " << e.what() << "\n";
            flush_status = static_cast<int>(e.code());
        }
    }
    return first_failed == statuses.end() ? flush_status : *first_failed;
}

}  // namespace gpurotate::cli
