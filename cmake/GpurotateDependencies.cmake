# Finds what gpurotate builds with, all from Debian packages or the CUDA Toolkit, and records a one-line
# summary of each for the configure report. Nothing is downloaded.

find_package(Threads REQUIRED)

# stb_image / stb_image_write (libstb-dev): headers only; stb_impl.cpp compiles the implementation.
find_path(GPUROTATE_STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb)
if(NOT GPUROTATE_STB_INCLUDE_DIR OR NOT EXISTS ${GPUROTATE_STB_INCLUDE_DIR}/stb_image_write.h)
  message(FATAL_ERROR "stb_image.h and stb_image_write.h not found: install libstb-dev (apt-get install libstb-dev)")
endif()
add_library(gpurotate_stb INTERFACE)
target_include_directories(gpurotate_stb SYSTEM INTERFACE ${GPUROTATE_STB_INCLUDE_DIR})

# zlib (zlib1g-dev): the ICC profiles in PNG iCCP chunks (libspng does the pixels).
find_package(ZLIB REQUIRED)

# libspng (libspng-dev): PNG decoding and encoding.
find_path(GPUROTATE_SPNG_INCLUDE_DIR spng.h)
find_library(GPUROTATE_SPNG_LIBRARY NAMES spng)
if(NOT GPUROTATE_SPNG_INCLUDE_DIR OR NOT GPUROTATE_SPNG_LIBRARY)
  message(FATAL_ERROR "libspng not found: install libspng-dev (apt-get install libspng-dev)")
endif()
add_library(gpurotate_spng INTERFACE)
target_include_directories(gpurotate_spng SYSTEM INTERFACE ${GPUROTATE_SPNG_INCLUDE_DIR})
target_link_libraries(gpurotate_spng INTERFACE ${GPUROTATE_SPNG_LIBRARY})
file(STRINGS ${GPUROTATE_SPNG_INCLUDE_DIR}/spng.h gpurotate_spng_version_lines REGEX "#define SPNG_VERSION_(MAJOR|MINOR|PATCH)")
string(REGEX REPLACE "[^0-9;]" "" gpurotate_spng_version "${gpurotate_spng_version_lines}")
string(REPLACE ";" "." GPUROTATE_SPNG_VERSION "${gpurotate_spng_version}")

# libjpeg-turbo (libturbojpeg0-dev and libjpeg62-turbo-dev on Debian, libjpeg-turbo8-dev on Ubuntu): TurboJPEG for fast JPEG decoding and encoding,
# libjpeg's transcoding API for the lossless transforms; optional (stb or OpenCV decode JPEG otherwise).
set(GPUROTATE_WITH_TURBOJPEG AUTO CACHE STRING "Use libjpeg-turbo (TurboJPEG and libjpeg) for JPEG: AUTO, ON or OFF")
set(GPUROTATE_HAVE_TURBOJPEG OFF)
set(GPUROTATE_TURBOJPEG_SUMMARY "off")
if(NOT GPUROTATE_WITH_TURBOJPEG STREQUAL "OFF")
  find_path(GPUROTATE_TURBOJPEG_INCLUDE_DIR turbojpeg.h)
  find_library(GPUROTATE_TURBOJPEG_LIBRARY NAMES turbojpeg)
  find_path(GPUROTATE_LIBJPEG_INCLUDE_DIR jpeglib.h)
  # Debian keeps jconfig.h under the multiarch folder, which the compiler searches only below /usr.
  find_path(GPUROTATE_LIBJPEG_CONFIG_DIR jconfig.h PATH_SUFFIXES ${CMAKE_LIBRARY_ARCHITECTURE})
  find_library(GPUROTATE_LIBJPEG_LIBRARY NAMES jpeg)
  if(GPUROTATE_TURBOJPEG_INCLUDE_DIR AND GPUROTATE_TURBOJPEG_LIBRARY AND GPUROTATE_LIBJPEG_INCLUDE_DIR AND GPUROTATE_LIBJPEG_CONFIG_DIR
     AND GPUROTATE_LIBJPEG_LIBRARY)
    set(GPUROTATE_HAVE_TURBOJPEG ON)
    # The libjpeg ABI (62: Debian's libjpeg62-turbo; 80: Ubuntu's libjpeg-turbo8) decides how an encoder is
    # set up for a transform (jpeg_lossless.cpp): said at configure, as --version says it.
    file(STRINGS ${GPUROTATE_LIBJPEG_CONFIG_DIR}/jconfig.h gpurotate_jpeg_abi REGEX "#define[ \t]+JPEG_LIB_VERSION[ \t]")
    file(STRINGS ${GPUROTATE_LIBJPEG_CONFIG_DIR}/jconfig.h gpurotate_jpeg_turbo REGEX "#define[ \t]+LIBJPEG_TURBO_VERSION[ \t]")
    string(REGEX REPLACE ".*JPEG_LIB_VERSION[ \t]+([0-9]+).*" "\\1" gpurotate_jpeg_abi "${gpurotate_jpeg_abi}")
    string(REGEX REPLACE ".*LIBJPEG_TURBO_VERSION[ \t]+([0-9.]+).*" "\\1" gpurotate_jpeg_turbo "${gpurotate_jpeg_turbo}")
    set(GPUROTATE_TURBOJPEG_SUMMARY "libjpeg-turbo ${gpurotate_jpeg_turbo} (libjpeg ABI ${gpurotate_jpeg_abi}): ${GPUROTATE_TURBOJPEG_LIBRARY}, ${GPUROTATE_LIBJPEG_LIBRARY}")
    # libjpeg's internal header (Debian installs it; upstream's install does not): with it the GPU codes
    # lossless variants' scans in libjpeg's place, without it libjpeg codes them.
    find_path(GPUROTATE_JPEGINT_INCLUDE_DIR jpegint.h HINTS ${GPUROTATE_LIBJPEG_INCLUDE_DIR})
    if(NOT GPUROTATE_JPEGINT_INCLUDE_DIR)
      string(APPEND GPUROTATE_TURBOJPEG_SUMMARY " (no jpegint.h: lossless JPEG scans coded by libjpeg only)")
    endif()
  elseif(GPUROTATE_WITH_TURBOJPEG STREQUAL "ON")
    message(FATAL_ERROR "libjpeg-turbo not found: install libturbojpeg0-dev and libjpeg62-turbo-dev (Ubuntu: libjpeg-turbo8-dev)")
  else()
    set(GPUROTATE_TURBOJPEG_SUMMARY "not found (install libturbojpeg0-dev and libjpeg62-turbo-dev (Ubuntu: libjpeg-turbo8-dev) for fast and lossless JPEG)")
  endif()
endif()

# The label formats of `augment --labels` (src/labels/): nlohmann-json3-dev (COCO), libtinyxml2-dev (Pascal
# VOC) and libyaml-cpp-dev (YOLO's data.yaml). Found by their headers and libraries, so that a prefix of
# unpacked packages (CMAKE_PREFIX_PATH) serves as well as the system.
find_path(GPUROTATE_NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp)
find_path(GPUROTATE_TINYXML2_INCLUDE_DIR tinyxml2.h)
find_library(GPUROTATE_TINYXML2_LIBRARY tinyxml2)
find_path(GPUROTATE_YAML_CPP_INCLUDE_DIR yaml-cpp/yaml.h)
find_library(GPUROTATE_YAML_CPP_LIBRARY yaml-cpp)
foreach(found GPUROTATE_NLOHMANN_JSON_INCLUDE_DIR GPUROTATE_TINYXML2_INCLUDE_DIR GPUROTATE_TINYXML2_LIBRARY GPUROTATE_YAML_CPP_INCLUDE_DIR
        GPUROTATE_YAML_CPP_LIBRARY)
  if(NOT ${found})
    message(FATAL_ERROR "${found} not found: install nlohmann-json3-dev, libtinyxml2-dev and libyaml-cpp-dev "
                        "(apt-get install nlohmann-json3-dev libtinyxml2-dev libyaml-cpp-dev)")
  endif()
endforeach()
add_library(gpurotate_label_formats INTERFACE)
target_include_directories(gpurotate_label_formats SYSTEM INTERFACE ${GPUROTATE_NLOHMANN_JSON_INCLUDE_DIR} ${GPUROTATE_TINYXML2_INCLUDE_DIR}
                           ${GPUROTATE_YAML_CPP_INCLUDE_DIR})
target_link_libraries(gpurotate_label_formats INTERFACE ${GPUROTATE_TINYXML2_LIBRARY} ${GPUROTATE_YAML_CPP_LIBRARY})

# WebDataset shards in `augment` (src/augment/shard_*): libarchive-dev reads and writes their tar members.
# Found by its header and library, as the label formats are, so that a prefix of unpacked packages serves.
find_path(GPUROTATE_LIBARCHIVE_INCLUDE_DIR archive.h)
# libarchive.so.13 by its soname too: Debian's libarchive-dev unpacked on Ubuntu 24.04 (bench/ubuntu_gpu_check.sh)
# has a development link to Debian's version of the file, which Ubuntu's libarchive13t64 names otherwise.
find_library(GPUROTATE_LIBARCHIVE_LIBRARY NAMES archive libarchive.so.13)
if(NOT GPUROTATE_LIBARCHIVE_INCLUDE_DIR OR NOT GPUROTATE_LIBARCHIVE_LIBRARY)
  message(FATAL_ERROR "libarchive not found: install libarchive-dev (apt-get install libarchive-dev)")
endif()
add_library(gpurotate_libarchive INTERFACE)
target_include_directories(gpurotate_libarchive SYSTEM INTERFACE ${GPUROTATE_LIBARCHIVE_INCLUDE_DIR})
target_link_libraries(gpurotate_libarchive INTERFACE ${GPUROTATE_LIBARCHIVE_LIBRARY})

# CLI11 (libcli11-dev): its CMake package where installed, else the bare headers.
find_package(CLI11 CONFIG QUIET)
add_library(gpurotate_cli11 INTERFACE)
if(TARGET CLI11::CLI11)
  target_link_libraries(gpurotate_cli11 INTERFACE CLI11::CLI11)
  set(GPUROTATE_CLI11_SUMMARY "${CLI11_VERSION} (CMake package)")
else()
  find_path(GPUROTATE_CLI11_INCLUDE_DIR CLI/CLI.hpp)
  if(NOT GPUROTATE_CLI11_INCLUDE_DIR)
    message(FATAL_ERROR "CLI11 not found: install libcli11-dev (apt-get install libcli11-dev)")
  endif()
  target_include_directories(gpurotate_cli11 SYSTEM INTERFACE ${GPUROTATE_CLI11_INCLUDE_DIR})
  set(GPUROTATE_CLI11_SUMMARY "headers in ${GPUROTATE_CLI11_INCLUDE_DIR}")
endif()

# libtiff (libtiff-dev) for TIFF, libwebp and libwebpmux (libwebp-dev) for WebP and its metadata chunks: linked
# in, so that a TIFF or WebP loads no plugin.
find_package(TIFF)
find_path(GPUROTATE_WEBP_INCLUDE_DIR webp/mux.h)
find_library(GPUROTATE_WEBPMUX_LIBRARY webpmux)
find_library(GPUROTATE_WEBP_LIBRARY webp)
if(NOT TIFF_FOUND OR NOT GPUROTATE_WEBP_INCLUDE_DIR OR NOT GPUROTATE_WEBPMUX_LIBRARY OR NOT GPUROTATE_WEBP_LIBRARY)
  message(FATAL_ERROR "libtiff or libwebp not found: install libtiff-dev and libwebp-dev (apt-get install libtiff-dev libwebp-dev)")
endif()
# FindTIFF names the version TIFF_VERSION_STRING up to CMake 3.x and TIFF_VERSION after; libtiff's own package
# file (CONFIG mode) may name neither: then no version, and no space before the parenthesis.
set(gpurotate_tiff_version "${TIFF_VERSION}")
if(NOT gpurotate_tiff_version)
  set(gpurotate_tiff_version "${TIFF_VERSION_STRING}")
endif()
string(STRIP "libtiff ${gpurotate_tiff_version}" gpurotate_tiff_summary)
set(GPUROTATE_TIFF_WEBP_SUMMARY "${gpurotate_tiff_summary}, ${GPUROTATE_WEBP_LIBRARY} and ${GPUROTATE_WEBPMUX_LIBRARY}")

# The codec plugin: OpenCV (libopencv-dev) for OpenEXR and the rarer formats it reads; optional. OpenCV is
# also an independent reference in tests.
set(GPUROTATE_HAVE_OPENCV OFF)
set(GPUROTATE_OPENCV_SUMMARY "off")
if(NOT GPUROTATE_WITH_OPENCV STREQUAL "OFF")
  if(GPUROTATE_WITH_OPENCV STREQUAL "ON")
    find_package(OpenCV REQUIRED COMPONENTS core imgproc imgcodecs)
  else()
    find_package(OpenCV QUIET COMPONENTS core imgproc imgcodecs)
  endif()
  if(OpenCV_FOUND)
    set(GPUROTATE_HAVE_OPENCV ON)
    set(GPUROTATE_OPENCV_SUMMARY "${OpenCV_VERSION} (EXR; test reference)")
  else()
    set(GPUROTATE_OPENCV_SUMMARY "not found (install libopencv-dev for EXR)")
  endif()
endif()

# CUDA Toolkit: optional; without it the build is CPU-only and says so in --version.
set(GPUROTATE_HAVE_CUDA OFF)
set(GPUROTATE_CUDA_SUMMARY "off (CPU-only build)")
if(NOT GPUROTATE_WITH_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Whether this machine has a GPU: it decides what AUTO builds below.
    execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                    RESULT_VARIABLE gpurotate_smi_result OUTPUT_VARIABLE gpurotate_smi_caps ERROR_QUIET TIMEOUT 20)
    if(gpurotate_smi_result EQUAL 0 AND gpurotate_smi_caps MATCHES "[0-9]")
      set(GPUROTATE_GPU_VISIBLE ON)
    else()
      set(GPUROTATE_GPU_VISIBLE OFF)
    endif()
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # The GPUs of this machine where it has any (each architecture costs a compile of every kernel);
      # without one, Ampere's machine code and PTX, which Ada, Hopper and later GPUs compile at load
      # time. Others: -DCMAKE_CUDA_ARCHITECTURES="75;80;90" (README, "What one run costs").
      if(GPUROTATE_GPU_VISIBLE)
        set(CMAKE_CUDA_ARCHITECTURES native)
      else()
        set(CMAKE_CUDA_ARCHITECTURES 80)
      endif()
    endif()
    # The bench's tuning-study layouts of the vectorized transpose (cuda/bench/vectorized_variants.cuh):
    # half of all the CUDA compile time, for rows that only a GPU runs. AUTO: where a GPU is visible.
    set(GPUROTATE_BENCH_STUDY_LAYOUTS AUTO CACHE STRING "Compile the bench's tuning-study layouts: AUTO (with a GPU visible), ON or OFF")
    set_property(CACHE GPUROTATE_BENCH_STUDY_LAYOUTS PROPERTY STRINGS AUTO ON OFF)
    if(GPUROTATE_BENCH_STUDY_LAYOUTS STREQUAL "AUTO")
      set(GPUROTATE_HAVE_STUDY_LAYOUTS ${GPUROTATE_GPU_VISIBLE})
    else()
      set(GPUROTATE_HAVE_STUDY_LAYOUTS ${GPUROTATE_BENCH_STUDY_LAYOUTS})
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(GPUROTATE_HAVE_CUDA ON)
    set(GPUROTATE_CUDA_SUMMARY "CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
    if(GPUROTATE_HAVE_STUDY_LAYOUTS)
      string(APPEND GPUROTATE_CUDA_SUMMARY "; bench study layouts on")
    else()
      string(APPEND GPUROTATE_CUDA_SUMMARY "; bench study layouts off (-DGPUROTATE_BENCH_STUDY_LAYOUTS=ON)")
    endif()
    # NVTX v3 (header-only, in the toolkit): ranges around the pipeline's stages for Nsight.
    find_path(GPUROTATE_NVTX_INCLUDE_DIR nvtx3/nvToolsExt.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    if(GPUROTATE_NVTX_INCLUDE_DIR)
      set(GPUROTATE_HAVE_NVTX ON)
    else()
      set(GPUROTATE_HAVE_NVTX OFF)
    endif()
    # nvJPEG: JPEG decoded and encoded on the GPU (optional; some toolkit installs leave it out).
    find_path(GPUROTATE_NVJPEG_INCLUDE_DIR nvjpeg.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    find_library(GPUROTATE_NVJPEG_LIBRARY nvjpeg HINTS ${CUDAToolkit_LIBRARY_DIR})
    if(GPUROTATE_NVJPEG_INCLUDE_DIR AND GPUROTATE_NVJPEG_LIBRARY)
      set(GPUROTATE_HAVE_NVJPEG ON)
      string(APPEND GPUROTATE_CUDA_SUMMARY "; nvJPEG found (JPEG on the GPU)")
    else()
      set(GPUROTATE_HAVE_NVJPEG OFF)
      string(APPEND GPUROTATE_CUDA_SUMMARY "; nvJPEG not found (JPEG on the CPU)")
    endif()
    # NPP is a peer in `gpurotate bench` only; some toolkit installs leave it out.
    find_path(GPUROTATE_NPP_INCLUDE_DIR nppi_geometry_transforms.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    if(TARGET CUDA::nppig AND TARGET CUDA::nppidei AND GPUROTATE_NPP_INCLUDE_DIR)
      set(GPUROTATE_HAVE_NPP ON)
      string(APPEND GPUROTATE_CUDA_SUMMARY "; NPP found (bench peer)")
    else()
      set(GPUROTATE_HAVE_NPP OFF)
      string(APPEND GPUROTATE_CUDA_SUMMARY "; NPP not found (bench runs without it)")
    endif()
  elseif(GPUROTATE_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GPUROTATE_WITH_CUDA=ON but no CUDA compiler was found (set CMAKE_CUDA_COMPILER)")
  else()
    set(GPUROTATE_CUDA_SUMMARY "nvcc not found: CPU-only build")
  endif()
endif()

# doctest (doctest-dev) and ImageMagick, for the tests only.
set(GPUROTATE_DOCTEST_SUMMARY "tests off")
set(GPUROTATE_IMAGEMAGICK_SUMMARY "tests off")
if(GPUROTATE_BUILD_TESTS)
  find_package(doctest CONFIG REQUIRED)
  set(GPUROTATE_DOCTEST_SUMMARY "${doctest_VERSION}")
  # Debian's ImageMagick 6 lives in /usr/bin; prefer it over other programs named convert on PATH.
  find_program(GPUROTATE_CONVERT convert PATHS /usr/bin NO_DEFAULT_PATH)
  find_program(GPUROTATE_CONVERT convert)
  find_program(GPUROTATE_COMPARE compare PATHS /usr/bin NO_DEFAULT_PATH)
  find_program(GPUROTATE_COMPARE compare)
  if(GPUROTATE_CONVERT AND GPUROTATE_COMPARE)
    set(GPUROTATE_IMAGEMAGICK_SUMMARY "${GPUROTATE_CONVERT} (pixel comparison test on)")
  else()
    set(GPUROTATE_IMAGEMAGICK_SUMMARY "not found (install imagemagick for the comparison test)")
  endif()
endif()
