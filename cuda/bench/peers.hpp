#pragma once
// The peers measured in the same run: NPP's transpose, mirror and rotation (where the toolkit has NPP) and
// cuBLAS geam for float. Each says whether it offers a (pixel format, element) case and launches it.

#include <gpurotate/image.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/rotate.hpp>

#include <cuda_runtime.h>

#include <memory>
#include <string>

namespace gpurotate::bench {

/// One benchmark case: device views of source and destination, the element, the stream.
struct Case {
    ConstImageView src;  ///< image 0 of the batch
    ImageView dst;       ///< image 0 of the batch
    Orientation orientation;
    cudaStream_t stream;
    int batch = 1;                  ///< images, each one image (pitch x height) after the previous
    ImageView dst_all{};            ///< the whole destination batch as one tall image
    int nreps = 1;                  ///< kernel-internal repetitions (the paper's second timing)
    bool batched() const { return batch > 1; }
};

/// Library handles and what this build links.
class Peers {
public:
    Peers();
    ~Peers();
    Peers(const Peers&) = delete;
    Peers& operator=(const Peers&) = delete;

    static bool npp_compiled_in();
    bool npp_transpose_applies(const Case& c) const;
    void npp_transpose(const Case& c) const;
    bool npp_mirror_applies(const Case& c) const;
    void npp_mirror(const Case& c) const;
    /// nppiRotate exists for 8u, 16u and 32f with 1, 3 and 4 channels.
    bool npp_rotate_applies(PixelFormat format) const;
    /// nppiRotate of `src` into `dst` by `degrees` clockwise about the source's centre, onto the centre of `dst` (the
    /// canvas gpurotate::rotate maps onto); NPP writes only the pixels it covers. Returns NPP's status (0: success).
    int npp_rotate(ConstImageView src, ImageView dst, double degrees, Interpolation interpolation, cudaStream_t stream) const;

    bool cublas_geam_applies(const Case& c) const;
    void cublas_geam(const Case& c) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace gpurotate::bench
