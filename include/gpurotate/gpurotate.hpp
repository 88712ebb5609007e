#pragma once
/// \file gpurotate.hpp
/// Everything of the public API in one include.

#include <gpurotate/error.hpp>
#include <gpurotate/gpu_session.hpp>
#include <gpurotate/image.hpp>
#include <gpurotate/io.hpp>
#include <gpurotate/metadata.hpp>
#include <gpurotate/orientation.hpp>
#include <gpurotate/rotate.hpp>
#include <gpurotate/transform.hpp>
#include <gpurotate/version.hpp>
