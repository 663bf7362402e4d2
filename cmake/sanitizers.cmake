# TESSERA_SANITIZE: build everything (the ICD, its libraries, tests, demos) with GCC's or
# Clang's sanitizers. "address,undefined" (ASan + UBSan) and "thread" (TSan) are the two
# supported sets; they cannot be combined.
#
# The ICD is dlopen'ed by the system's Vulkan loader (not instrumented), so the sanitizer
# runtime must already be in the process: every executable here is linked with the same
# -fsanitize flags (add_link_options below), which puts the runtime first. Programs built
# elsewhere (vkcube, glmark2, mpv, vulkaninfo) cannot load a sanitized ICD; the tests that run
# them are left out of sanitizer runs (tests/sanitizers/excluded_tests.txt).
#
# Runtime options and suppressions are compiled into every executable
# (tests/sanitizers/default_options.cpp), so `ctest` in a sanitizer build needs no environment.
set(TESSERA_SANITIZE "" CACHE STRING "Sanitizers to build with: address,undefined | thread | empty for none")
if(NOT TESSERA_SANITIZE)
  return()
endif()
if(TESSERA_SANITIZE MATCHES "thread" AND TESSERA_SANITIZE MATCHES "address")
  message(FATAL_ERROR "TESSERA_SANITIZE: thread cannot be combined with address")
endif()
# -fno-omit-frame-pointer: usable stacks in reports at little cost. UBSan stops at its first
# error (-fno-sanitize-recover), so that an error fails the test instead of scrolling by.
add_compile_options(-fsanitize=${TESSERA_SANITIZE} -fno-omit-frame-pointer)
if(TESSERA_SANITIZE MATCHES "undefined")
  add_compile_options(-fno-sanitize-recover=all)
endif()
add_link_options(-fsanitize=${TESSERA_SANITIZE})
# Default runtime options and the suppression files' paths, in every executable and the ICD.
add_library(tessera_sanitizer_options OBJECT ${PROJECT_SOURCE_DIR}/tests/sanitizers/default_options.cpp)
target_compile_definitions(tessera_sanitizer_options PRIVATE
  TESSERA_SANITIZER_DIR="${PROJECT_SOURCE_DIR}/tests/sanitizers")
link_libraries(tessera_sanitizer_options)
message(STATUS "Sanitizers: ${TESSERA_SANITIZE}")

# Sanitizer builds optimize with -O1 and keep line tables only (-g1): the instrumented code
# is about as fast to test, GCC compiles it several times faster, and reports still name
# files and lines.
add_compile_options(-O1 -g1)
# The hot loops that ask for -O3 per source file (always-inline kernels in three ISA clones each:
# sampler/batch_sampler*.cpp, raster/draw_blocks.cpp) take GCC more than five minutes each once
# UBSan instruments them: there they get -O1 and ASan alone (their memory accesses are still
# checked; their arithmetic is held to the reference paths by the unit tests). Called at the end
# of the top-level CMakeLists.txt, when those sources' properties are set.
function(tessera_sanitizer_lower_optimization)
  # One ISA clone of the sampling routines instead of three (sampler/routine_clones.h; only
  # tessera_sampler's sources include it, so other objects keep their ccache entries).
  target_compile_definitions(tessera_sampler PRIVATE TESSERA_SANITIZER_BUILD)
  foreach(target tessera_sampler tessera_raster)
    get_target_property(dir ${target} SOURCE_DIR)
    get_target_property(sources ${target} SOURCES)
    foreach(src ${sources})
      cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY ${dir})  # names are relative to their directory
      get_source_file_property(options ${src} DIRECTORY ${dir} COMPILE_OPTIONS)
      if(options AND options MATCHES "-O3")
        list(TRANSFORM options REPLACE "^-O3$" "-O1")
        if(TESSERA_SANITIZE MATCHES "undefined")
          list(APPEND options -fno-sanitize=undefined)
        endif()
      endif()
      # The same files (and resolve.cpp) dispatch through target_clones: GCC's ifunc resolvers
      # run while the dynamic linker relocates the executable, before TSan's runtime is up, and
      # crash once instrumented. They stay uninstrumented for TSan (pure kernels on data their
      # caller owns).
      if(options AND TESSERA_SANITIZE MATCHES "thread")
        list(APPEND options -fno-sanitize=thread)
      endif()
      if(options)
        set_source_files_properties(${src} DIRECTORY ${dir} PROPERTIES COMPILE_OPTIONS "${options}")
      endif()
    endforeach()
  endforeach()
endfunction()
