# Per-instruction-set kernel files get their own -m flags; the dispatcher picks one at run time,
# so the rest of the core stays portable.
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/similarity/cosine_f32_avx2.cpp
                            PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma")
