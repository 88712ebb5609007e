#include "augment/run_lock.hpp"

#include "augment/output_plan.hpp"
#include "core/descriptor.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpurotate::augment {
namespace {

// The lock file's bytes, each standing for something a run holds (none of them is ever written):
constexpr off_t guard_byte = 0;             // held while a shard looks at the others and takes its bytes
constexpr off_t count_base = 0;             // + N (2 to 10^6): read-locked by each shard of a run of N shards
constexpr off_t index_base = off_t{1} << 21;  // + K: write-locked by shard K
constexpr off_t manifest_base = off_t{1} << 22;  // + a hash of the manifest's path: write-locked by its writer
constexpr off_t manifest_slots = off_t{1} << 30;
// A whole run write-locks every byte from 1 on: no shard and no other run can hold one beside it.

// False where another run holds a byte of the range; Error (output) where the file system takes no such lock.
bool lock(int fd, const std::string& shown, short type, off_t start, off_t length, bool wait = false) {
    struct flock range {};
    range.l_type = type;
    range.l_whence = SEEK_SET;
    range.l_start = start;
    range.l_len = length;
    while (::fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &range) != 0) {
        if (errno == EAGAIN || errno == EACCES) return false;
        if (errno != EINTR) throw Error(ErrorCode::output, "cannot lock output folder '" + shown + "' (its " + RunLock::file_name + "): " + std::strerror(errno));
    }
    return true;
}

// Whether another open file holds a lock that a write lock on [start, start + length) would meet.
bool held_by_another(int fd, off_t start, off_t length) {
    if (length <= 0) return false;
    struct flock range {};
    range.l_type = F_WRLCK;
    range.l_whence = SEEK_SET;
    range.l_start = start;
    range.l_len = length;
    return ::fcntl(fd, F_OFD_GETLK, &range) == 0 && range.l_type != F_UNLCK;
}

[[noreturn]] void in_use(const std::string& shown, const std::string& by, const std::string& remedy) {
    throw Error(ErrorCode::output, "output folder '" + shown + "' is in use by " + by + " (" + remedy + ")");
}

// Takes this run's bytes of the open lock file `fd`; throws where another run holds one it needs.
void take(int fd, const std::string& shown, const Shard& shard, const std::string& manifest) {
    const std::string wait = "wait for it, or stop it and run again with --resume";
    if (shard.count <= 1) {
        if (!lock(fd, shown, F_WRLCK, 1, 0)) {
            in_use(shown, "another gpurotate augment", "one run writes into a folder at a time, or the shards of one run (--shard K/N): " + wait);
        }
        return;
    }
    const std::string shard_text = std::to_string(shard.index) + "/" + std::to_string(shard.count);
    lock(fd, shown, F_WRLCK, guard_byte, 1, true);
    const off_t count = count_base + static_cast<off_t>(shard.count);
    // Another count's shards (or a whole run) would write outputs that this shard writes too.
    if (held_by_another(fd, 1, count - 1) || held_by_another(fd, count + 1, index_base - count - 1) || !lock(fd, shown, F_RDLCK, count, 1)) {
        in_use(shown, "another gpurotate augment that is not a shard of " + std::to_string(shard.count),
               "--shard " + shard_text + " runs beside the other shards of N = " + std::to_string(shard.count) + " only: " + wait);
    }
    if (!lock(fd, shown, F_WRLCK, index_base + static_cast<off_t>(shard.index), 1)) {
        in_use(shown, "another gpurotate augment of --shard " + shard_text, "each shard runs once at a time: " + wait);
    }
    if (!lock(fd, shown, F_WRLCK, manifest_base + static_cast<off_t>(shard_hash(manifest) % static_cast<std::uint64_t>(manifest_slots)), 1)) {
        in_use(shown, "another shard writing the manifest '" + manifest + "'", "give each shard its own --manifest");
    }
    lock(fd, shown, F_UNLCK, guard_byte, 1);
}

}  // namespace

RunLock::RunLock(int folder, const std::string& shown, const Shard& shard, const std::string& manifest) : folder_(folder), shown_(shown) {
    for (int attempt = 0;; ++attempt) {
        // No O_TRUNC and no write: a file linked here keeps its bytes. O_NONBLOCK: a FIFO does not hang the open.
        detail::Descriptor fd(::openat(folder, file_name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666));
        if (fd.get() < 0 && errno == ELOOP) {
            throw Error(ErrorCode::output, "'" + shown + "/" + file_name + "' is a symbolic link inside the output folder: augment never writes through one (remove it)");
        }
        if (fd.get() < 0) throw Error(ErrorCode::output, "cannot lock output folder '" + shown + "': " + std::strerror(errno));
        struct stat locked {}, named {};
        if (::fstat(fd.get(), &locked) != 0 || !S_ISREG(locked.st_mode)) {
            throw Error(ErrorCode::output, "cannot lock output folder '" + shown + "': '" + file_name + "' there is not a regular file (remove it)");
        }
        take(fd.get(), shown, shard, manifest);
        // Locked: but the run before may have removed the name between this open and the lock.
        if (::fstatat(folder, file_name, &named, AT_SYMLINK_NOFOLLOW) == 0 && locked.st_dev == named.st_dev && locked.st_ino == named.st_ino) {
            fd_ = fd.release();
            return;
        }
        if (attempt == 100) throw Error(ErrorCode::output, "cannot lock output folder '" + shown + "': its lock file keeps changing");
    }
}

RunLock::~RunLock() {
    // The file goes while every byte of it is held: a run that opened it meanwhile finds, once it has its
    // bytes, that the name no longer leads to the file it locked, and starts over. Where another shard still
    // runs, the file stays for it.
    try {
        if (lock(fd_, shown_, F_WRLCK, 0, 0)) ::unlinkat(folder_, file_name, 0);
    } catch (const Error&) {  // the file stays; the next run uses it
    }
    ::close(fd_);
}

}  // namespace gpurotate::augment
