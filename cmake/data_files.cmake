# labrun's data files (schemas, the plot renderer, the headers the grader compiles against) and its
# helper programs, laid out the same way in the build tree and in an installed prefix, so that labrun
# finds them relative to itself (src/core/install_layout.hpp, docs/installing.md):
#
#   build tree: <build>/share/labrun/<destination>/<file>     (copied there by the target labrun_data)
#   installed:  <prefix>/share/labrun/<destination>/<file>
#               <prefix>/libexec/labrun/<helper program>
include(GNUInstallDirs)

set(LABRUN_DATA_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/labrun")
set(LABRUN_HELPER_INSTALL_DIR "${CMAKE_INSTALL_LIBEXECDIR}/labrun")
set(LABRUN_STAGED_DATA_DIR "${PROJECT_BINARY_DIR}/share/labrun")

# Everything a labrun in the build tree needs staged depends on this target.
add_custom_target(labrun_data)

# labrun_data_files(NAME <name> DESTINATION <folder under share/labrun> FILES <file>... [PROGRAMS])
# Stages the files into the build tree's share/labrun (again whenever one changes) and installs
# them into the prefix's; PROGRAMS installs them executable.
function(labrun_data_files)
  cmake_parse_arguments(arg "PROGRAMS" "NAME;DESTINATION" "FILES" ${ARGN})
  set(staged_files "")
  foreach(file IN LISTS arg_FILES)
    get_filename_component(file_name "${file}" NAME)
    set(staged "${LABRUN_STAGED_DATA_DIR}/${arg_DESTINATION}/${file_name}")
    add_custom_command(OUTPUT "${staged}"
                       COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${file}" "${staged}"
                       DEPENDS "${file}" VERBATIM)
    list(APPEND staged_files "${staged}")
  endforeach()
  add_custom_target(labrun_data_${arg_NAME} DEPENDS ${staged_files})
  add_dependencies(labrun_data labrun_data_${arg_NAME})
  if(arg_PROGRAMS)
    install(PROGRAMS ${arg_FILES} DESTINATION "${LABRUN_DATA_INSTALL_DIR}/${arg_DESTINATION}")
  else()
    install(FILES ${arg_FILES} DESTINATION "${LABRUN_DATA_INSTALL_DIR}/${arg_DESTINATION}")
  endif()
endfunction()
