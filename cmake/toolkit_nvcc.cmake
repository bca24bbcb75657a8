# Included by CMakeLists.txt after find_package(CUDAToolkit): the nvcc the grader runs.
#
# labrun_toolkit_nvcc(<out>) sets <out> to the CUDA Toolkit's own nvcc, <toolkit>/bin/nvcc, never to
# CMAKE_CUDA_COMPILER as named. A machine may name a wrapper (/usr/local/bin/nvcc, a script that
# execs the toolkit's nvcc) and CMake accepts it as the CUDA compiler; but the grader takes the
# toolkit from the folder above nvcc's bin/ (src/exercise/submission_build.cpp: what the sandbox binds
# read-only and which headers a submission may reach). For the wrapper that folder was /usr/local:
# the sandbox bound all of /usr/local, and the include check allowed /usr/local/include rather than
# CUDA's headers, so every correct submission was refused. Configuring stops where the toolkit CMake
# found has no nvcc in its bin folder, or no cuda_runtime.h in its include folder.
# With the CUDA language enabled, FindCUDAToolkit sets CUDAToolkit_NVCC_EXECUTABLE to
# <CMAKE_CUDA_COMPILER_TOOLKIT_ROOT>/bin/nvcc: the toolkit CMake's compiler detection found behind
# CMAKE_CUDA_COMPILER, wrapper or not.
function(labrun_toolkit_nvcc out)
  set(nvcc "${CUDAToolkit_NVCC_EXECUTABLE}")
  get_filename_component(bin "${nvcc}" DIRECTORY)
  get_filename_component(toolkit "${bin}" DIRECTORY)
  if(NOT EXISTS "${nvcc}" OR NOT EXISTS "${toolkit}/include/cuda_runtime.h")
    message(FATAL_ERROR
      "labrun: the grader compiles submissions with the CUDA Toolkit's own nvcc, <toolkit>/bin/nvcc beside "
      "<toolkit>/include/cuda_runtime.h, and the toolkit CMake found has no such pair (nvcc: '${nvcc}'; "
      "CMAKE_CUDA_COMPILER: '${CMAKE_CUDA_COMPILER}').\n"
      "Name the toolkit's nvcc itself: cmake --preset <preset> -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc")
  endif()
  set(${out} "${nvcc}" PARENT_SCOPE)
endfunction()
