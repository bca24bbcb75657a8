# Included by CMakeLists.txt before project(): what a new user's machine gets wrong about CUDA is
# said here, once, with what to do, instead of deep inside CMake's compiler detection.
#
# 1. nvcc not on PATH. NVIDIA's packages install it in /usr/local/cuda/bin (or
#    /usr/local/cuda-<version>/bin) without adding that folder to PATH. Unless CMAKE_CUDA_COMPILER
#    or CUDACXX names a compiler, nvcc is taken from PATH, else from those folders (saying so), else
#    configuring stops with what to install and how to point CMake at it.
# 2. CMAKE_CUDA_ARCHITECTURES=native (the student and dev presets) on a machine without a usable
#    GPU: nvcc's own device query (CUDA 11.6 and newer) is asked first, and configuring stops with
#    one message that says what to do, rather than CMake's "no GPU was detected", three times.

function(labrun_find_nvcc out)
  if(DEFINED CMAKE_CUDA_COMPILER AND NOT CMAKE_CUDA_COMPILER STREQUAL "")
    set(${out} "${CMAKE_CUDA_COMPILER}" PARENT_SCOPE)
    return()
  endif()
  if(DEFINED ENV{CUDACXX} AND NOT "$ENV{CUDACXX}" STREQUAL "")
    set(${out} "$ENV{CUDACXX}" PARENT_SCOPE)
    return()
  endif()
  find_program(labrun_nvcc_on_path nvcc NO_CACHE)
  if(labrun_nvcc_on_path)
    set(${out} "${labrun_nvcc_on_path}" PARENT_SCOPE)
    return()
  endif()
  # Where NVIDIA's packages put it: the /usr/local/cuda link first, else the newest versioned folder.
  set(found "")
  if(EXISTS /usr/local/cuda/bin/nvcc)
    set(found /usr/local/cuda/bin/nvcc)
  else()
    file(GLOB versioned /usr/local/cuda-*/bin/nvcc)
    if(versioned)
      list(SORT versioned COMPARE NATURAL ORDER DESCENDING)
      list(GET versioned 0 found)
    endif()
  endif()
  if(found STREQUAL "")
    message(FATAL_ERROR
      "labrun: nvcc (the CUDA compiler) was not found: it is not on PATH, and not in /usr/local/cuda/bin or "
      "/usr/local/cuda-<version>/bin.\n"
      "Install the CUDA Toolkit 12.x or 13.x from NVIDIA (https://developer.nvidia.com/cuda-downloads), then "
      "either put its bin folder on PATH:\n"
      "    export PATH=/usr/local/cuda/bin:$PATH\n"
      "or name the compiler when configuring:\n"
      "    cmake --preset <preset> -DCMAKE_CUDA_COMPILER=/path/to/nvcc")
  endif()
  get_filename_component(folder "${found}" DIRECTORY)
  message(STATUS "labrun: nvcc is not on PATH; using ${found} "
                 "(to use it yourself, add its folder to PATH: export PATH=${folder}:$PATH)")
  set(CMAKE_CUDA_COMPILER "${found}" CACHE FILEPATH "The CUDA compiler (found by labrun, not on PATH)")
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

function(labrun_require_native_gpu nvcc)
  get_filename_component(folder "${nvcc}" DIRECTORY)
  set(query "${folder}/__nvcc_device_query")
  if(NOT EXISTS "${query}")
    return()  # nvcc older than 11.6: CMake's own detection speaks
  endif()
  execute_process(COMMAND "${query}" RESULT_VARIABLE status OUTPUT_VARIABLE architectures
                  ERROR_VARIABLE problem TIMEOUT 60)
  string(STRIP "${architectures}" architectures)
  if(status EQUAL 0 AND NOT architectures STREQUAL "")
    message(STATUS "labrun: building for this machine's GPU architectures: ${architectures}")
    return()
  endif()
  string(STRIP "${architectures} ${problem}" problem)
  message(FATAL_ERROR
    "labrun: this preset builds for the GPU in this machine (CMAKE_CUDA_ARCHITECTURES=native), but no usable "
    "NVIDIA GPU was found (nvcc's device query said: ${problem}).\n"
    "  - To run the labs you need an NVIDIA GPU with its driver installed: `nvidia-smi` should list it.\n"
    "  - To build and run the tests without a GPU: cmake --workflow --preset ci\n"
    "  - To build for a card that is not in this machine, name its compute capability, e.g. 8.6:\n"
    "        cmake --preset <preset> -DCMAKE_CUDA_ARCHITECTURES=86")
endfunction()

labrun_find_nvcc(labrun_nvcc)
if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
  labrun_require_native_gpu("${labrun_nvcc}")
endif()
