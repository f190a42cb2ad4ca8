# Profile-guided optimization of Release builds with GCC. The core is compiled twice: once
# instrumented (sc_pgo_objects), linked into a trainer (src/tools/pgo_train.cpp) that checks
# questions and answers made from the repository's documentation, then again, each source with the
# counts its training run wrote (-fprofile-use, -dumpbase below). Branch layout and inlining follow
# what English text does: ~10% fewer instructions on a short check_answer (benchmarks/README.md).
# Included after the core's targets and the SIMD kernels' per-source flags.
set(SC_PGO_CORPUS ${PROJECT_SOURCE_DIR}/docs/api.md ${PROJECT_SOURCE_DIR}/docs/architecture.md
                  ${PROJECT_SOURCE_DIR}/docs/scoring.md ${PROJECT_SOURCE_DIR}/docs/decisions.md
                  ${PROJECT_SOURCE_DIR}/docs/bad-input.md ${PROJECT_SOURCE_DIR}/README.md)
foreach(file ${SC_PGO_CORPUS})
  if(NOT EXISTS ${file})
    message(STATUS "SC_PGO: ${file} is missing; building without profile-guided optimization")
    return()
  endif()
endforeach()

add_library(sc_pgo_objects OBJECT ${SC_CORE_SOURCES})
target_include_directories(sc_pgo_objects PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_include_directories(sc_pgo_objects SYSTEM PRIVATE ${UTF8PROC_INCLUDE_DIR})
target_link_libraries(sc_pgo_objects PUBLIC Eigen3::Eigen xsimd Threads::Threads ${UTF8PROC_LIBRARY}
                                     PRIVATE sc_options)
target_compile_options(sc_pgo_objects PRIVATE -fprofile-generate -fprofile-update=prefer-atomic)
# The English tables' generator links the core too: the instrumented one here, as the trainer needs
# the tables the generator writes (its counts are written aside: SC_GENERATOR_ENV, CMakeLists.txt).
set_property(TARGET sc_make_english_tables PROPERTY LINK_LIBRARIES sc_pgo_objects sc_options)
target_link_options(sc_make_english_tables PRIVATE -fprofile-generate)
add_executable(sc_pgo_train ${PROJECT_SOURCE_DIR}/src/tools/pgo_train.cpp ${SC_ENGLISH_TABLES})
target_link_libraries(sc_pgo_train PRIVATE sc_pgo_objects sc_options)
target_link_options(sc_pgo_train PRIVATE -fprofile-generate)
# The instrumented stage needs no link-time optimization: it only counts.
set_target_properties(sc_pgo_objects sc_pgo_train sc_make_english_tables PROPERTIES
                      INTERPROCEDURAL_OPTIMIZATION OFF INTERPROCEDURAL_OPTIMIZATION_RELEASE OFF)

# Where the instrumented objects and their counts are, relative to the build directory.
set(SC_PGO_OBJECTS CMakeFiles/sc_pgo_objects.dir)
set(SC_PGO_STAMP ${CMAKE_CURRENT_BINARY_DIR}/pgo-trained.stamp)
add_custom_command(
  OUTPUT ${SC_PGO_STAMP}
  COMMAND ${CMAKE_COMMAND} -DDIR=${CMAKE_CURRENT_BINARY_DIR}/${SC_PGO_OBJECTS}
          -DTRAINER=$<TARGET_FILE:sc_pgo_train> "-DCORPUS=${SC_PGO_CORPUS}" -DSTAMP=${SC_PGO_STAMP}
          -P ${PROJECT_SOURCE_DIR}/cmake/pgo_run.cmake
  DEPENDS sc_pgo_train ${SC_PGO_CORPUS} ${PROJECT_SOURCE_DIR}/cmake/pgo_run.cmake
  COMMENT "Training the profile-guided build"
  VERBATIM)
add_custom_target(sc_pgo_profile DEPENDS ${SC_PGO_STAMP})
add_dependencies(sc_core_objects sc_pgo_profile)
# Each optimized object is compiled under its instrumented twin's auxiliary name (-dumpbase), as
# the build tool spells it (relative to the build directory): GCC then reads that twin's counts,
# and names the functions of anonymous namespaces as it did there (under another name, or the same
# one spelled as an absolute path, their counts are not found). Source properties reach every
# target of this directory, so the name is given to sc_core_objects' compilations only.
foreach(source ${SC_CORE_SOURCES})
  file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${source})
  set(for_core "$<STREQUAL:$<TARGET_PROPERTY:NAME>,sc_core_objects>")
  set_property(SOURCE ${source} APPEND PROPERTY COMPILE_OPTIONS
    "$<${for_core}:-dumpbase>" "$<${for_core}:${SC_PGO_OBJECTS}/${relative}>")
endforeach()
# Code the training never ran stays optimized as usual (not for size), and a source without counts
# is no error.
target_compile_options(sc_core_objects PRIVATE -fprofile-use -fprofile-partial-training
                                               -Wno-missing-profile)
