# Per-instruction-set kernel files get their own -m flags; the dispatcher (src/similarity/dispatch.cpp)
# picks one at run time from the CPU's features, so the rest of the core stays portable.
# On other architectures the files compile to stubs the dispatcher never selects.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i[3-6]86)$")
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/similarity/cosine_f32_avx2.cpp
                              PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/similarity/cosine_f32_avx512.cpp
                              PROPERTIES COMPILE_OPTIONS "-mavx512f;-mavx2;-mfma")
endif()
