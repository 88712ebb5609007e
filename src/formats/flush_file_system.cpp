#include "formats/flush_file_system.hpp"

#include <gpurotate/error.hpp>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace gpurotate::detail {

void flush_file_system_of(const std::string& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        throw Error(ErrorCode::output, "cannot flush the outputs in '" + folder + "' to disk: cannot open the folder: " + std::strerror(errno));
    }
    const int flushed = ::syncfs(fd);
    const int reason = errno;
    ::close(fd);
    if (flushed != 0) {
        throw Error(ErrorCode::output, "cannot flush the outputs in '" + folder + "' to disk: " + std::strerror(reason) +
                                           "; they may not all be on the disk (write them again)");
    }
}

}  // namespace gpurotate::detail
