# The include order of the source folders (docs/internals.md, "Which folder may include which"), checked on
# every #include of every file under src/, cuda/ and include/gpurotate/. Run as a ctest test:
#
#   cmake -DGPUROTATE_SOURCE_DIR=<the source tree> -P cmake/check_include_layers.cmake
#
# An include is resolved as the compiler resolves it (the including file's folder first, then src/, cuda/ and
# include/), and the folder of the file it finds must be one the including file's folder may include. A
# quoted include that resolves to nothing is an error too: a misspelt path would otherwise pass unchecked.
# Exits with a message naming every include that points the wrong way.

cmake_minimum_required(VERSION 3.24)

if(NOT GPUROTATE_SOURCE_DIR)
  message(FATAL_ERROR "check_include_layers: pass -DGPUROTATE_SOURCE_DIR=<source tree>")
endif()
set(root "${GPUROTATE_SOURCE_DIR}")

# What each folder may include besides itself and the public API (include/gpurotate/, which includes only
# itself). Lowest first: a folder never names one that comes after it.
set(may_core "")
set(may_metadata core)
set(may_jpeg core metadata)
set(may_formats core metadata jpeg)
set(may_cpu core)
set(may_labels core)
set(may_frontend core cpu)
set(may_convert core metadata jpeg formats cpu frontend)
set(may_augment core metadata jpeg formats cpu frontend convert labels)
set(may_cli core metadata jpeg formats cpu frontend convert labels augment)
set(may_bench core metadata jpeg formats cpu frontend convert labels augment cli)
set(may_main core metadata jpeg formats cpu frontend convert labels augment cli)
# cuda/: the kernels (device code) below the tuning data below the launchers, dispatch and RAII types (and the
# units instantiate/ generates), below the bench's study code. The launchers implement the seams that
# frontend/ (cuda_backend.hpp) and jpeg/ (the scan coder, nvJPEG) declare; the kernels share the JPEG scan
# coding with the CPU (jpeg/jpeg_scan_coding.hpp, host and device code).
set(may_cuda_kernels core metadata jpeg)
set(may_cuda_tuning core cuda_kernels)
set(may_cuda core metadata jpeg cpu frontend cuda_kernels cuda_tuning)
set(may_cuda_bench core metadata jpeg cpu frontend bench cuda_kernels cuda_tuning cuda)
set(may_public "")

# The layer of the file at `path` (absolute), in `out`; empty for a file outside the checked folders.
function(layer_of path out)
  file(RELATIVE_PATH rel "${root}" "${path}")
  set(layer "")
  if(rel MATCHES "^include/gpurotate/")
    set(layer public)
  elseif(rel MATCHES "^src/([^/]+)/")
    set(layer "${CMAKE_MATCH_1}")
  elseif(rel MATCHES "^src/[^/]+$")
    set(layer main)
  elseif(rel MATCHES "^cuda/(kernels|tuning|bench)/")
    set(layer "cuda_${CMAKE_MATCH_1}")
  elseif(rel MATCHES "^cuda/")
    set(layer cuda)  # the launchers, dispatch, RAII types, and instantiate/'s templates
  endif()
  set(${out} "${layer}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files LIST_DIRECTORIES false
  "${root}/src/*.hpp" "${root}/src/*.cpp" "${root}/src/*.h"
  "${root}/cuda/*.cuh" "${root}/cuda/*.cu" "${root}/cuda/*.hpp" "${root}/cuda/*.cpp" "${root}/cuda/*.in"
  "${root}/include/gpurotate/*.hpp")
list(SORT files)

set(problems "")
set(checked 0)
foreach(file IN LISTS files)
  layer_of("${file}" from)
  if(NOT from)
    continue()
  endif()
  if(NOT DEFINED may_${from})
    string(APPEND problems "\n  ${file}: folder '${from}' has no place in the order (add it to cmake/check_include_layers.cmake and docs/internals.md)")
    continue()
  endif()
  set(allowed ${from} public ${may_${from}})
  get_filename_component(dir "${file}" DIRECTORY)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS lines)
    if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      set(name "${CMAKE_MATCH_1}")
      set(found "")
      foreach(base "${dir}" "${root}/src" "${root}/cuda" "${root}/include")
        if(EXISTS "${base}/${name}" AND NOT IS_DIRECTORY "${base}/${name}")
          set(found "${base}/${name}")
          break()
        endif()
      endforeach()
      if(NOT found)
        # Generated or third-party headers (spng.h, stb_image.h, ...) live outside the tree.
        if(name MATCHES "/")
          string(APPEND problems "\n  ${file}: #include \"${name}\" names no file under src/, cuda/ or include/")
        endif()
        continue()
      endif()
    elseif(line MATCHES "#[ \t]*include[ \t]*<(gpurotate/[^>]+)>")
      set(found "${root}/include/${CMAKE_MATCH_1}")
    else()
      continue()  # a system or library header
    endif()
    get_filename_component(found "${found}" ABSOLUTE)
    layer_of("${found}" to)
    math(EXPR checked "${checked} + 1")
    if(to AND NOT to IN_LIST allowed)
      file(RELATIVE_PATH rel_file "${root}" "${file}")
      file(RELATIVE_PATH rel_found "${root}" "${found}")
      string(APPEND problems "\n  ${rel_file} (${from}) includes ${rel_found} (${to}), which it may not")
    endif()
  endforeach()
endforeach()

if(checked LESS 500)
  message(FATAL_ERROR "check_include_layers: only ${checked} includes found under ${root}: is that the source tree?")
endif()
if(problems)
  message(FATAL_ERROR "includes that point the wrong way (the order: docs/internals.md, \"Which folder may include which\"):${problems}")
endif()
message(STATUS "check_include_layers: ${checked} includes, each within the order")
