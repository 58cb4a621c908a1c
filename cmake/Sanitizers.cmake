# GRIDFUZZ_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer on host C++ code
# (scripts/sanitize builds and runs the CPU tests with it, in its own build folder).
#
# Only C++ translation units are instrumented. The host side of .cu files (nvcc's host pass) is
# left uninstrumented: it is kernel launch glue, and instrumenting it means passing the flags
# through -Xcompiler to a host compiler driven by nvcc, for little gain. Uninstrumented objects
# link and run fine beside instrumented ones; they are just not checked.
#
# Every link gets the runtimes (-fsanitize at link time), so plugins and helper executables built
# here load into / run as sanitized processes.
#
# Also defines gridfuzz_cpu_checks (whatever GRIDFUZZ_SANITIZE is): every target defined under
# tests/cpu (the CPU test executables, their helper programs and plugins) plus the gridfuzz
# binary, i.e. what `ctest -L cpu` needs, without the GPU tests or the benchmarks:
#   cmake --build <dir> --target gridfuzz_cpu_checks
option(GRIDFUZZ_SANITIZE "Build host C++ with -fsanitize=address,undefined (scripts/sanitize)" OFF)

if(GRIDFUZZ_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "GRIDFUZZ_SANITIZE needs GCC or Clang (have ${CMAKE_CXX_COMPILER_ID})")
  endif()
  set(GRIDFUZZ_SANITIZE_FLAGS
      -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  foreach(flag ${GRIDFUZZ_SANITIZE_FLAGS})
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:${flag}>)
  endforeach()
  # With optimisation on (scripts/sanitize builds at -O1), GCC 12 under ASan warns
  # -Wmaybe-uninitialized dozens of times inside <regex>'s std::function: false positives.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
  endif()
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "gridfuzz: host C++ built with ${GRIDFUZZ_SANITIZE_FLAGS} (CUDA host code not instrumented)")
endif()

# Every build-system target of `dir` and of the folders below it.
function(_gridfuzz_targets_below dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    _gridfuzz_targets_below(${sub} below)
    list(APPEND targets ${below})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Runs at the end of the top-level CMakeLists.txt, when every test folder has been added.
function(_gridfuzz_define_cpu_checks)
  if(NOT GRIDFUZZ_BUILD_TESTS OR NOT TARGET gridfuzz)
    return()
  endif()
  set(deps gridfuzz)
  get_property(subdirs DIRECTORY ${PROJECT_SOURCE_DIR}/tests PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    cmake_path(GET sub PARENT_PATH parent)
    if(parent STREQUAL "${PROJECT_SOURCE_DIR}/tests/cpu")
      _gridfuzz_targets_below(${sub} targets)
      list(APPEND deps ${targets})
    endif()
  endforeach()
  add_custom_target(gridfuzz_cpu_checks)
  add_dependencies(gridfuzz_cpu_checks ${deps})
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _gridfuzz_define_cpu_checks)
