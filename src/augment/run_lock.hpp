#pragma once
// Who may write into OUTDIR at once: one run, or the shards of one run (`--shard K/N`, one N), each shard
// once and each manifest written by one of them. Open file description locks (fcntl F_OFD_SETLK) on byte
// ranges of one file, OUTDIR/.gpurotate-augment.lock, which the kernel drops when the process ends, however
// it ends (and which NFS serves across machines, as a Slurm array needs). Nothing is ever written into the
// file: a hard link planted at its name keeps its target's bytes.

#include "augment/augment_options.hpp"

#include <string>

namespace gpurotate::augment {

class RunLock {
public:
    /// Locks the open folder `folder` (named `shown` in messages) for a run of `shard` (count 1: the whole
    /// run) writing the manifest `manifest` (as normal_absolute gives it). Throws Error (output) naming what
    /// holds it, having written nothing.
    RunLock(int folder, const std::string& shown, const Shard& shard, const std::string& manifest);
    /// Removes the lock file where no other run holds any part of it.
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

    static constexpr const char* file_name = ".gpurotate-augment.lock";

private:
    int folder_;
    std::string shown_;
    int fd_ = -1;
};

}  // namespace gpurotate::augment
